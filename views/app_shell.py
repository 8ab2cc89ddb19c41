"""The root component: Flet's router turns the route into views; the width picks the layout.

Wide windows (>= 900 px) are one view: sidebar | schedules list | detail, or
sidebar | transcript. Narrow windows (phones) are a stack of views managed by
``ft.Router``: the list full screen with the sidebar in a drawer, and the
detail or a transcript pushed on top with an AppBar back button; the system
back gesture pops it through the router.

Every decision (what a route shows, where Back, Escape and the keys lead) is
``viewmodels.navigation.NavigationViewModel``'s. This module binds: each
route the router shows is handed to ``navigation.follow`` (which may answer a
canonical address to rewrite to), each key to ``navigation.press``, each tap
to the route the view model names.

Why declarative components: Flet 1.0's ``@ft.component`` with ``use_state``
and ``use_effect`` fits view models that publish whole snapshots. A component
subscribes for its lifetime (``views.binding.use_snapshot``) and re-renders
from the snapshot it is handed; nothing patches controls by hand, so a late
publish can never leave half of a screen stale.
"""

from __future__ import annotations

import flet as ft

from viewmodels.navigation import SCHEDULES_ROUTE, Place, parse_location
from views.actions import icon_action
from views.attention_notice import AttentionBanner
from views.binding import go, use_route_follower
from views.look import LIST_WIDTH, SIDEBAR_WIDTH, is_wide
from views.offline_banner import with_banner
from views.schedule_detail import ScheduleDetail
from views.schedule_list import ScheduleList
from views.screen_models import ScreenModels, ScreenModelsContext, use_models
from views.session_transcript import SessionTranscript
from views.sidebar import Sidebar

OPEN_SIDEBAR_LABEL = "Open sidebar"
SEARCH_ACTION_LABEL = "Search"


def _banner(models: ScreenModels) -> list[ft.Control]:
    """The Needs attention notice above the main content, when the session has notices."""
    if models.notices is None:
        return []
    return [AttentionBanner(models.notices, models.navigation, models.schedules)]


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
    return ScreenModelsContext(
        models, lambda: ft.Router(routes, not_found=Elsewhere, manage_views=True)
    )


@ft.component
def WideLayout() -> ft.View:
    """Sidebar | list | detail (or sidebar | transcript), one view whatever is open."""
    models = use_models()
    route = ft.use_route_location()
    use_route_follower(route)
    location = parse_location(route)
    sidebar = Sidebar(models.sidebar, models.navigation, account=models.account)
    outlet = ft.use_route_outlet()
    if location.place is Place.SESSION:
        content: ft.Control = ft.Container(content=outlet, expand=True)
    else:
        content = ft.Row(
            [
                ft.Container(
                    content=ScheduleList(models.schedules, models.navigation, location.schedule_id),
                    width=LIST_WIDTH,
                ),
                ft.VerticalDivider(width=1),
                ft.Container(content=outlet, expand=True),
            ],
            spacing=0,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    main = ft.Column([*_banner(models), content], spacing=0, expand=True)
    return ft.View(
        # Flet's Flutter client keys each navigator page by its view's route: a
        # new route would be a new page, rebuilding the list (scrolled back to
        # the top) behind a page transition. The wide layout is one page
        # whatever is open; the address bar follows page.route, not this.
        route=SCHEDULES_ROUTE,
        can_pop=False,
        padding=0,
        spacing=0,
        controls=[
            ft.Row(
                [
                    ft.Container(
                        content=sidebar,
                        width=SIDEBAR_WIDTH,
                        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                    ),
                    ft.VerticalDivider(width=1),
                    with_banner(models.offline, main),
                ],
                spacing=0,
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ],
    )


@ft.component
def WideDetail() -> ft.Control:
    models = use_models()
    navigation = models.navigation
    opened = parse_location(ft.use_route_location()).place is Place.SCHEDULE
    close = (lambda: go(navigation.back())) if opened else None
    return ScheduleDetail(models.detail, models.website_access, close, models.schedules)


@ft.component
def WideTranscript() -> ft.Control:
    return SessionTranscript(use_models().messages)


@ft.component
def NarrowSheet() -> ft.View:
    """The schedules list full screen; the sidebar slides in as a drawer."""
    models = use_models()
    page = ft.context.page
    route = ft.use_route_location()
    use_route_follower(route)
    location = parse_location(route)
    searching, set_searching = ft.use_state(False)

    def leave_drawer() -> None:
        page.run_task(page.close_drawer)

    def toggle_search() -> None:
        # The search action shows the field and puts the focus in it; again hides it.
        if searching:
            set_searching(False)
            page.run_task(models.schedules.clear_query)
        else:
            set_searching(True)
            models.schedules.focus_search()

    return ft.View(
        route=SCHEDULES_ROUTE,
        can_pop=False,
        padding=0,
        spacing=0,
        appbar=ft.AppBar(
            title=ft.Text(Place.SCHEDULES.heading),
            leading=icon_action(
                ft.Icons.MENU, OPEN_SIDEBAR_LABEL, lambda: page.run_task(page.show_drawer)
            ),
            actions=[
                icon_action(ft.Icons.SEARCH, SEARCH_ACTION_LABEL, toggle_search, selected=searching)
            ],
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
        drawer=ft.NavigationDrawer(
            controls=[
                ft.Container(
                    content=Sidebar(
                        models.sidebar,
                        models.navigation,
                        on_chosen=leave_drawer,
                        account=models.account,
                    ),
                    height=page.height,
                )
            ]
        ),
        controls=[
            with_banner(
                models.offline,
                ft.Column(
                    [
                        *_banner(models),
                        ScheduleList(
                            models.schedules,
                            models.navigation,
                            location.schedule_id,
                            show_search=searching,
                        ),
                    ],
                    spacing=0,
                    expand=True,
                ),
            )
        ],
    )


@ft.component
def NarrowDetail() -> ft.View:
    models = use_models()
    return _pushed(
        Place.SCHEDULE,
        with_banner(
            models.offline,
            ScheduleDetail(models.detail, models.website_access, None, models.schedules),
        ),
    )


@ft.component
def NarrowTranscript() -> ft.View:
    return _pushed(Place.SESSION, SessionTranscript(use_models().messages))


@ft.component
def Elsewhere() -> ft.Control:
    """An address that names no screen: the navigation rewrites it to the sheet."""
    use_route_follower(ft.context.page.route)
    return ft.Container()


def _pushed(place: Place, content: ft.Control) -> ft.View:
    """A phone screen pushed over the list, with the platform's back navigation."""
    return ft.View(
        route=ft.use_view_path(),
        padding=0,
        appbar=ft.AppBar(title=ft.Text(place.heading), bgcolor=ft.Colors.SURFACE_CONTAINER),
        controls=[content],
    )


WIDE_ROUTES = [
    ft.Route(
        component=WideLayout,
        outlet=True,
        children=[
            ft.Route(index=True, component=WideDetail),
            ft.Route(path="schedules/:schedule_id", component=WideDetail),
            ft.Route(path="sessions/:session_id", component=WideTranscript),
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
    )
]
