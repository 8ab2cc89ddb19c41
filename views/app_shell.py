"""The root component: Flet's router turns the route into views; the width picks the layout.

Wide windows are one view (``views.wide_layout``), narrow ones a stack
(``views.narrow_layout``). Every decision (what a route shows, where Back,
Escape and the keys lead) is ``NavigationViewModel``'s: this module hands it
each key, and each route the router shows through ``use_route_follower``.
Every screen under it reads its labels in ``ScreenModels.locale``'s words
(``views.words``), the desktop window's and a signed-in browser's alike.
"""

from __future__ import annotations

import flet as ft

from viewmodels.navigation import AGENDA_PATTERNS, AGENDA_ROUTE, SETTINGS_ROUTE
from views.binding import go, use_route_follower
from views.look import is_wide
from views.narrow_layout import (
    NarrowAgenda,
    NarrowDetail,
    NarrowSettings,
    NarrowSheet,
    NarrowTranscript,
)
from views.screen_models import ScreenModels, ScreenModelsContext
from views.wide_layout import WideDetail, WideLayout, WideTranscript
from views.words import provide_words


@ft.component
def AppShell(models: ScreenModels) -> ft.Control:
    page = ft.context.page
    width, set_width = ft.use_state(page.width or 1280)

    def on_resize(event: ft.PageResizeEvent) -> None:
        set_width(event.width)

    def on_key(event: ft.KeyboardEvent) -> None:
        async def press() -> None:
            go(await models.navigation.press(event.key, ctrl=event.ctrl, meta=event.meta))

        page.run_task(press)

    page.on_resize = on_resize
    page.on_keyboard_event = on_key
    ft.on_mounted(lambda: page.run_task(models.navigation.start))
    routes = WIDE_ROUTES if is_wide(width) else NARROW_ROUTES
    return provide_words(
        models.locale,
        lambda: ScreenModelsContext(
            models, lambda: ft.Router(routes, not_found=Elsewhere, manage_views=True)
        ),
    )


@ft.component
def Elsewhere() -> ft.Control:
    """An address that names no screen: the navigation rewrites it to the sheet."""
    use_route_follower(ft.context.page.route)
    return ft.Container()


WIDE_ROUTES = [
    ft.Route(
        component=WideLayout,
        outlet=True,
        children=[
            ft.Route(index=True, component=WideDetail),
            ft.Route(path="schedules/:schedule_id", component=WideDetail),
            ft.Route(path="sessions/:session_id", component=WideTranscript),
            *(ft.Route(path=pattern, component=WideDetail) for pattern in AGENDA_PATTERNS),
            # Matched so the router knows it; the layout shows Settings beside the sidebar.
            ft.Route(path=SETTINGS_ROUTE.lstrip("/"), component=WideDetail),
        ],
    )
]
NARROW_ROUTES = [
    ft.Route(
        path="/",
        component=NarrowSheet,
        children=[
            ft.Route(path="schedules/:schedule_id", component=NarrowDetail),
            ft.Route(path="sessions/:session_id", component=NarrowTranscript),
        ],
    ),
    ft.Route(
        path=AGENDA_ROUTE,
        component=NarrowAgenda,
        children=[ft.Route(path="schedules/:schedule_id", component=NarrowDetail)],
    ),
    ft.Route(path=SETTINGS_ROUTE, component=NarrowSettings),
]
