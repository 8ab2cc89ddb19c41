"""A session's start that meets a page whose tab has gone ends as Flet's disconnect, no traceback;
an AttributeError while the tab is still there is a fault and is raised as it is."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import flet as ft
import pytest

from app.tab_gone import ends_quietly_when_gone


def page_with(connection: object) -> ft.Page:
    return cast(ft.Page, SimpleNamespace(session=SimpleNamespace(connection=connection)))


async def calls_the_gone_page(page: ft.Page) -> None:
    """As Flet's ``run_task`` does: ``page.session.connection.loop`` on a connection of None."""
    _ = cast(SimpleNamespace, page).session.connection.loop


async def test_a_start_whose_tab_left_ends_as_a_disconnect() -> None:
    with pytest.raises(ft.FletPageDisconnectedException):
        await ends_quietly_when_gone(calls_the_gone_page)(page_with(None))


async def test_an_attribute_error_with_the_tab_still_there_is_raised_as_it_is() -> None:
    with pytest.raises(AttributeError):
        await ends_quietly_when_gone(calls_the_gone_page)(page_with(object()))


async def test_a_start_that_ends_well_is_left_alone() -> None:
    started: list[ft.Page] = []

    async def start(page: ft.Page) -> None:
        started.append(page)

    page = page_with(None)
    await ends_quietly_when_gone(start)(page)
    assert started == [page]
