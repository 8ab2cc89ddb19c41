"""The wide layout (>= 900 px): one view, sidebar | list | detail, sidebar | agenda | detail,
sidebar | transcript, or sidebar | settings."""

from __future__ import annotations

import flet as ft

from viewmodels.navigation import SCHEDULES_ROUTE, Place, parse_location
from views.agenda import Agenda
from views.attention_notice import attention_banner
from views.banners import with_banners
from views.binding import go, run_command, use_route_follower
from views.calendar_feeds import calendar_feeds_sections
from views.look import LIST_WIDTH, SIDEBAR_WIDTH
from views.schedule_detail import ScheduleDetail
from views.schedule_list import ScheduleList
from views.screen_models import use_models
from views.session_transcript import SessionTranscript
from views.settings import SettingsPage
from views.sidebar import Sidebar


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
    elif location.place is Place.SETTINGS and models.settings is not None:
        content = SettingsPage(models.settings, extra_sections=calendar_feeds_sections(models))
    else:
        beside: ft.Control = (
            Agenda(models.agenda, models.navigation)
            if location.place.in_agenda and models.agenda is not None
            else ScheduleList(models.schedules, models.navigation, location.schedule_id)
        )
        content = ft.Row(
            [
                ft.Container(content=beside, width=LIST_WIDTH),
                ft.VerticalDivider(width=1),
                ft.Container(content=outlet, expand=True),
            ],
            spacing=0,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    main = ft.Column([*attention_banner(models), content], spacing=0, expand=True)
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
                    with_banners(models, main),
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
    opened = parse_location(ft.use_route_location()).schedule_id is not None
    close = (lambda: go(navigation.back())) if opened else None
    return ScheduleDetail(
        models.detail,
        models.website_access,
        close,
        models.schedules,
        sidebar=models.sidebar,
        reveal=lambda schedule_id: run_command(models.sidebar.reveal_schedule, schedule_id),
        open_session=lambda session_id: go(navigation.open_session(session_id)),
    )


@ft.component
def WideTranscript() -> ft.Control:
    models = use_models()
    return SessionTranscript(models.messages, models.navigation)
