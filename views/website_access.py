"""The website access picker: the browser's only write, shown for every schedule.

A dropdown of the view model's options with the server's current binding as
its value, and one line beneath saying what access means. Choosing a sign-in
shows the view model's question in place with Allow and Cancel (Cancel puts
the server's binding back in the dropdown); a save that went through shows "Saved"
with Undo. While a choice is saved the dropdown is disabled and a progress
ring says "Saving…"; a refusal or a read-only picker shows the view model's
reason beneath it. The picker never decides what is selectable or why.
"""

from __future__ import annotations

import flet as ft

from viewmodels.detail import WebsiteOption
from viewmodels.detail.website_snapshot import ALLOW_LABEL, CANCEL_LABEL, UNDO_LABEL
from viewmodels.formatting.shared_words import RETRY_LABEL
from viewmodels.language import Words
from views.binding import chosen_value, run_command, use_snapshot
from views.screen_models import WebsiteAccessModel
from views.words import use_words

NONE_KEY = "none"


def option_key(option: WebsiteOption) -> str:
    return str(option.profile_id) if option.profile_id else NONE_KEY


@ft.component
def WebsiteAccessPicker(model: WebsiteAccessModel) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    options = snapshot.options
    by_key = {option_key(option): option for option in options}

    def choose(event: ft.Event[ft.Dropdown]) -> None:
        # The view model decides whether the choice is saved (selectable,
        # changed, picker enabled); the view only maps the key back.
        option = by_key.get(chosen_value(event))
        if option is not None:
            run_command(model.choose, option)

    # While the question waits, the dropdown shows what was chosen; Cancel puts
    # the server's binding back (a changed value is what the page re-sends).
    pending = snapshot.question.option if snapshot.question is not None else None
    dropdown = ft.Dropdown(
        value=option_key(pending or snapshot.current),
        options=[
            ft.DropdownOption(
                key=option_key(option),
                text=option.display_text,
                disabled=not option.selectable,
            )
            for option in options
        ],
        disabled=not snapshot.picker_enabled,
        on_select=choose,
        enable_search=False,
        editable=False,
        leading_icon=ft.Icons.LANGUAGE,
        expand=True,
    )
    # No visible label: the group's heading above already says "Website access",
    # and the card (Flutter's Card is a semantic container) merges that heading
    # into this node, so readers hear it first. Probed in Chromium, the name is
    # "Website access None" or "Website access⏎<reason> None": heading, hint,
    # value, once each. A Semantics label here, or the dropdown's own label,
    # would repeat the heading. Disabled (while saving, or for good) and read
    # only (for good) are flags readers announce.
    named = ft.Semantics(
        content=dropdown,
        value=snapshot.current.display_text,
        hint_text=snapshot.not_editable_reason,
        button=True,
        disabled=not snapshot.picker_enabled,
        read_only=not snapshot.editable,
        expand=True,
    )
    lines: list[ft.Control] = [
        ft.Row([named]),
        ft.Text(snapshot.explanation, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if snapshot.question is not None:
        lines.append(_question(model, snapshot.question.text, words))
    if snapshot.saved is not None and not snapshot.saving:
        lines.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.CHECK_CIRCLE_OUTLINE, size=16, color=ft.Colors.PRIMARY),
                    ft.Text(snapshot.saved.text, size=13, expand=True),
                    ft.TextButton(
                        words.gettext(UNDO_LABEL), on_click=lambda: run_command(model.undo)
                    ),
                ],
                spacing=6,
            )
        )
    if snapshot.progress_text:
        ring = ft.ProgressRing(width=16, height=16, stroke_width=2)
        lines.append(_note(ring, snapshot.progress_text))
    if snapshot.error:
        retry: list[ft.Control] = []
        if snapshot.can_retry:
            retry = [
                ft.TextButton(words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry))
            ]
        lines.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.ERROR_OUTLINE, size=16, color=ft.Colors.ERROR),
                    ft.Text(snapshot.error, color=ft.Colors.ERROR, size=13, expand=True),
                    *retry,
                ],
                spacing=6,
            )
        )
    if snapshot.not_editable_reason:
        lines.append(
            _note(
                ft.Icon(ft.Icons.LOCK_OUTLINE, size=16, color=ft.Colors.ON_SURFACE_VARIANT),
                snapshot.not_editable_reason,
            )
        )
    return ft.Column(lines, spacing=8, tight=True)


def _question(model: WebsiteAccessModel, text: str, words: Words) -> ft.Control:
    """The grant question in place, Allow first: nothing is saved until it is pressed."""
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(text, size=14, weight=ft.FontWeight.W_500),
                ft.Row(
                    [
                        ft.TextButton(words.gettext(CANCEL_LABEL), on_click=lambda: model.cancel()),
                        ft.FilledButton(
                            words.gettext(ALLOW_LABEL), on_click=lambda: run_command(model.allow)
                        ),
                    ],
                    alignment=ft.MainAxisAlignment.END,
                    spacing=8,
                ),
            ],
            spacing=8,
            tight=True,
        ),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border_radius=ft.BorderRadius.all(12),
        padding=ft.Padding.all(12),
    )


def _note(leading: ft.Control, text: str) -> ft.Control:
    return ft.Row(
        [leading, ft.Text(text, size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)],
        spacing=6,
    )
