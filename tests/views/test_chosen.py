"""A choice control's event is read as the click sent it, not from the control a render
may since have set back: a segmented button sends a list, a radio group or dropdown one value."""

from __future__ import annotations

import flet as ft
import pytest

from views.binding import chosen, chosen_value


def segmented_click(sent: object, shown: list[str]) -> ft.Event[ft.SegmentedButton]:
    """The button already shows ``shown`` again (a render put its older snapshot back)."""
    button = ft.SegmentedButton(
        segments=[ft.Segment("CURRENT"), ft.Segment("RECENT_HISTORY")],
        selected=shown,
        allow_empty_selection=True,
    )
    return ft.Event("change", button, data=sent)


def test_a_segment_clicked_is_read_from_the_click_not_the_redrawn_control() -> None:
    assert chosen(segmented_click(["RECENT_HISTORY"], shown=["CURRENT"])) == ["RECENT_HISTORY"]


def test_an_emptied_choice_is_empty() -> None:
    assert chosen(segmented_click([], shown=["CURRENT"])) == []


@pytest.mark.parametrize(("sent", "value"), [("Asia/Kolkata", "Asia/Kolkata"), (None, "")])
def test_a_radio_groups_value_is_the_one_sent(sent: str | None, value: str) -> None:
    group = ft.RadioGroup(content=ft.Column([]), value="UTC")
    assert chosen_value(ft.Event("change", group, data=sent)) == value
