"""The bridges between view models and components.

``use_snapshot`` re-renders a component on each snapshot its view model
publishes; ``use_each_request`` serves a view model's request counter (focus
the search field, the opened heading…) once per request; ``chosen`` reads what
a click chose. ``run_command`` and ``focus_soon`` act on the page's loop; ``go``
and ``use_route_follower`` carry routes between the page and the navigation
view model, which decides them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

import flet as ft

from views.screen_models import Observed, use_models

T = TypeVar("T")


class Held(Protocol[T]):
    """What ``ft.use_ref`` returns, by its public shape: Flet exports no name for its type.

    Views annotate their refs with this rather than import from Flet's
    internals, which may move in any release.
    """

    current: T | None


def use_snapshot(model: Observed[T]) -> T:
    """The model's current snapshot; re-renders the calling component on each change."""
    snapshot, set_snapshot = ft.use_state(model.snapshot)

    def subscribe() -> Callable[[], None]:
        set_snapshot(model.snapshot)  # anything published between render and effect
        return model.subscribe(set_snapshot)

    ft.use_effect(subscribe, [model])
    return snapshot


def use_each_request(
    requests: int, serve: Callable[[], bool], watched: Sequence[object] = ()
) -> None:
    """Calls ``serve`` once for each new value of ``requests``, a view model's request counter.

    The counter grows by one per request; the value it has when the component
    mounts is already served, so a component drawn again (a pane reopened)
    does not act on a request it was not there for. ``serve`` returns whether
    it could act (False: the control it needs is not drawn yet); the request
    is then tried again after each render in which ``requests`` or anything
    in ``watched`` changed.
    """
    served = ft.use_ref(requests)

    def serve_new() -> None:
        if served.current != requests and serve():
            served.current = requests

    ft.use_effect(serve_new, [requests, *watched])


def chosen(event: ft.Event[Any]) -> list[str]:
    """What a choice control's event chose, as the click sent it (Flet's ``event.data``).

    The control's own ``selected`` or ``value`` may already hold what a render
    since has put back from a snapshot older than the click.
    """
    data = event.data
    if isinstance(data, list):
        return [str(value) for value in data]
    return [] if data is None else [str(data)]


def chosen_value(event: ft.Event[Any]) -> str:
    """The one value a radio group's or a dropdown's event chose ("" for none)."""
    return next(iter(chosen(event)), "")


def run_command(command: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Runs ``command(*args)`` as a task of the current page; never awaits it here."""
    ft.context.page.run_task(command, *args)


class Focusable(Protocol):
    """A control that can take the keyboard focus, by its public shape."""

    @property
    def parent(self) -> ft.BaseControl | None: ...

    async def focus(self) -> None: ...


def focus_soon(control: Focusable) -> None:
    """Give ``control`` the keyboard focus on the page's loop. A render may have replaced
    it by then (a calendar day redrawn by the click that chose it): a control no longer
    on the page is left alone, where Flet would raise and log a traceback."""

    ft.context.page.run_task(take_focus, control)


async def take_focus(control: Focusable) -> None:
    """Focus ``control`` if it is still on the page."""
    await _while_on_page(control, control.focus)


def scroll_soon(listing: ft.ListView, key: str, duration: int = 150) -> None:
    """Scroll ``listing`` to the control of ``key`` on the page's loop, as ``take_focus``
    focuses: only while it is on the page, and nothing once the tab has closed."""

    async def scroll() -> None:
        await listing.scroll_to(scroll_key=key, duration=duration)

    ft.context.page.run_task(_while_on_page, listing, scroll)


async def _while_on_page(
    control: ft.BaseControl | Focusable, call: Callable[[], Awaitable[Any]]
) -> None:
    """``call`` if ``control`` is still on the page. Flet answers a call on a page whose
    connection has gone (its tab closed) with an AttributeError: nothing is left to do."""
    if on_page(control):
        with contextlib.suppress(AttributeError):
            await call()


def on_page(control: ft.BaseControl | Focusable) -> bool:
    """Whether ``control`` is on the page now (a render may have replaced it)."""
    parent = control.parent
    while parent is not None and not isinstance(parent, ft.Page):
        parent = parent.parent
    return parent is not None


def go(route: str | None) -> None:
    """Show ``route`` (a route a view model named); None, or the route shown, does nothing."""
    page = ft.context.page
    if route is not None and route != page.route:
        page.navigate(route)


def use_route_follower(route: str) -> None:
    """Tells the navigation view model each route this component is rendered for."""
    navigation = use_models().navigation

    def follow() -> None:
        async def told() -> None:
            go(await navigation.follow(route))

        ft.context.page.run_task(told)

    ft.use_effect(follow, [route])
