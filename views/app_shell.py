"""The root component: where the route and the window width decide the layout.

Wide windows (>= 900 px) show one view: sidebar | schedules list | detail, or
sidebar | transcript. Narrow windows (phones) show a stack of views: the list
full screen with the sidebar in a drawer, and the detail or a transcript pushed
on top with an AppBar back button; the system back gesture pops it through
``page.on_view_pop``. The route (``views.locations``) is the single source of
what is open, so deep links and reloads land on the same screen, and the view
models are told about each change by one effect.

Why declarative components: Flet 1.0.5's ``@ft.component`` with ``use_state``
and ``use_effect`` fits view models that publish whole snapshots. A component
subscribes for its lifetime (``views.binding.use_snapshot``) and re-renders
from the snapshot it is handed; nothing patches controls by hand, so a late
publish can never leave half of a screen stale.

Keyboard (desktop and web): Up/Down move the list selection, Enter opens it,
Escape closes the detail or transcript, Ctrl/Cmd+R reloads list and sidebar.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import flet as ft

from viewmodels.detail import DetailPhase
from views.actions import icon_action
from views.binding import run_command
from views.locations import (
    SCHEDULES_ROUTE,
    Location,
    Place,
    parse_location,
    schedule_route,
    session_route,
)
from views.look import LIST_WIDTH, SIDEBAR_WIDTH, is_wide
from views.schedule_detail import ScheduleDetail
from views.schedule_list import ScheduleList
from views.screen_models import ScreenModels
from views.session_transcript import SessionTranscript
from views.sidebar import Sidebar

OPEN_SIDEBAR_LABEL = "Open sidebar"
BACK_LABEL = "Back"
WIDE_VIEW_ROUTE = SCHEDULES_ROUTE
"""The one wide view's route, kept while the page's route changes (see ``_wide_view``)."""


@ft.component
def AppShell(models: ScreenModels) -> list[ft.View]:
    page = ft.context.page
    route, set_route = ft.use_state(page.route or SCHEDULES_ROUTE)
    width, set_width = ft.use_state(page.width or 1280)
    location = parse_location(route)
    wide = is_wide(width)

    def navigate(target: str) -> None:
        if target != route:
            page.navigate(target)

    def close_overlay() -> None:
        navigate(SCHEDULES_ROUTE)

    def on_route_change(event: ft.RouteChangeEvent) -> None:
        set_route(event.route)

    def on_view_pop(event: ft.ViewPopEvent) -> None:
        close_overlay()

    def on_resize(event: ft.PageResizeEvent) -> None:
        set_width(event.width)

    def on_key(event: ft.KeyboardEvent) -> None:
        key = event.key
        if key == "Arrow Down":
            models.schedules.select_next()
        elif key == "Arrow Up":
            models.schedules.select_previous()
        elif key == "Enter":
            selected = models.schedules.snapshot.selected_id
            if selected is not None and location.place is not Place.SESSION:
                navigate(schedule_route(selected))
        elif key == "Escape":
            if location.place is not Place.SCHEDULES:
                close_overlay()
        elif key.upper() == "R" and (event.ctrl or event.meta):
            run_command(models.schedules.reload)
            run_command(models.sidebar.refresh)

    page.on_route_change = on_route_change
    page.on_view_pop = on_view_pop
    page.on_resize = on_resize
    page.on_keyboard_event = on_key

    def start() -> None:
        run_command(models.schedules.open)
        run_command(models.sidebar.open)

    ft.on_mounted(start)
    ft.use_effect(lambda: follow_location(models, location), [route])

    def open_schedule(schedule_id: UUID) -> None:
        navigate(schedule_route(schedule_id))

    def open_session(session_id: UUID) -> None:
        navigate(session_route(session_id))
        if not wide:
            page.run_task(page.close_drawer)

    def show_schedules() -> None:
        navigate(SCHEDULES_ROUTE)
        if not wide:
            page.run_task(page.close_drawer)

    sidebar = Sidebar(models.sidebar, show_schedules, open_session)
    schedules = ScheduleList(models.schedules, open_schedule, location.schedule_id)
    if wide:
        return [_wide_view(models, location, sidebar, schedules, close_overlay)]
    return _narrow_views(models, location, sidebar, schedules)


def follow_location(models: ScreenModels, location: Location) -> None:
    """Tells the view models what the route now shows (they ignore repeats cheaply)."""
    if location.place is Place.SCHEDULE and location.item_id is not None:
        detail = models.detail.snapshot
        if detail.schedule_id != location.item_id or detail.phase is DetailPhase.CLOSED:
            run_command(models.detail.open, location.item_id)
        models.schedules.select(location.item_id)
        models.sidebar.select_schedules()
    elif location.place is Place.SESSION and location.item_id is not None:
        if models.messages.snapshot.session_id != location.item_id:
            run_command(models.messages.open, location.item_id)
        models.sidebar.select_session(location.item_id)
    else:
        if models.detail.snapshot.phase is not DetailPhase.CLOSED:
            run_command(models.detail.close)
        models.sidebar.select_schedules()


def _wide_view(
    models: ScreenModels,
    location: Location,
    sidebar: ft.Control,
    schedules: ft.Control,
    close_overlay: Callable[[], None],
) -> ft.View:
    if location.place is Place.SESSION:
        main: ft.Control = ft.Container(
            content=SessionTranscript(models.messages, models.sidebar), expand=True
        )
    else:
        main = ft.Row(
            [
                ft.Container(content=schedules, width=LIST_WIDTH),
                ft.VerticalDivider(width=1),
                ft.Container(
                    content=ScheduleDetail(
                        models.detail,
                        models.website_access,
                        close_overlay if location.place is Place.SCHEDULE else None,
                    ),
                    expand=True,
                ),
            ],
            spacing=0,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    return ft.View(
        # Flet's Flutter client keys each navigator page by its view's route: a
        # new route would be a new page, rebuilding the list (scrolled back to
        # the top) behind a page transition. The wide layout is one page
        # whatever is open; the address bar follows page.route, not this.
        route=WIDE_VIEW_ROUTE,
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
                    main,
                ],
                spacing=0,
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ],
    )


def _narrow_views(
    models: ScreenModels, location: Location, sidebar: ft.Control, schedules: ft.Control
) -> list[ft.View]:
    page = ft.context.page
    base = ft.View(
        route=SCHEDULES_ROUTE,
        padding=0,
        spacing=0,
        appbar=ft.AppBar(
            title=ft.Text("Schedules"),
            leading=icon_action(
                ft.Icons.MENU, OPEN_SIDEBAR_LABEL, lambda: page.run_task(page.show_drawer)
            ),
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
        drawer=ft.NavigationDrawer(controls=[ft.Container(content=sidebar, height=page.height)]),
        controls=[schedules],
    )
    views = [base]
    if location.place is Place.SCHEDULE:
        views.append(
            ft.View(
                route=location.route,
                padding=0,
                appbar=ft.AppBar(title=ft.Text("Schedule"), bgcolor=ft.Colors.SURFACE_CONTAINER),
                controls=[ScheduleDetail(models.detail, models.website_access, None)],
            )
        )
    elif location.place is Place.SESSION:
        views.append(
            ft.View(
                route=location.route,
                padding=0,
                appbar=ft.AppBar(title=ft.Text("Session"), bgcolor=ft.Colors.SURFACE_CONTAINER),
                controls=[SessionTranscript(models.messages, models.sidebar)],
            )
        )
    return views
