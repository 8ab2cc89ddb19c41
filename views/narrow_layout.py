"""The narrow layout (phones): a stack of views, the list first, a detail or transcript pushed.

The list (or the agenda) is full screen with the sidebar in a drawer and
Search in the app bar; a pushed view has the platform's back navigation, which
the router pops.
"""

from __future__ import annotations

from uuid import UUID

import flet as ft

from viewmodels.language import Words
from viewmodels.navigation import (
    AGENDA_ROUTE,
    SCHEDULES_ROUTE,
    SETTINGS_ROUTE,
    Place,
    parse_location,
)
from viewmodels.schedule_list.snapshot import REFRESH_LABEL, SEARCH_ACTION_LABEL
from viewmodels.sidebar.snapshot import OPEN_SIDEBAR_LABEL
from views.actions import icon_action
from views.agenda import Agenda
from views.attention_notice import attention_banner
from views.banners import with_banners
from views.binding import go, run_command, use_each_request, use_route_follower, use_snapshot
from views.calendar_feeds import calendar_feeds_sections
from views.schedule_detail import ScheduleDetail
from views.schedule_list import ScheduleList
from views.screen_models import ScreenModels, use_models
from views.session_transcript import SessionTranscript
from views.settings import SettingsPage
from views.sidebar import Sidebar
from views.words import use_words


@ft.component
def NarrowSheet() -> ft.View:
    """The schedules list full screen; the sidebar slides in as a drawer."""
    models = use_models()
    words = use_words()
    page = ft.context.page
    route = ft.use_route_location()
    use_route_follower(route)
    location = parse_location(route)
    searching, set_searching = ft.use_state(False)
    view: ft.Ref[ft.View] = ft.Ref()

    def open_drawer_to_reveal() -> bool:
        # Show in the sidebar, asked from the detail: the drawer opens once the
        # sheet is shown again.
        if location.place is not Place.SCHEDULES:
            return False
        _show_drawer(page, view)
        return True

    reveals = use_snapshot(models.sidebar).reveals
    use_each_request(reveals, open_drawer_to_reveal, [location.place])

    def toggle_search() -> None:
        # The search action shows the field and puts the focus in it; again hides it.
        if searching:
            set_searching(False)
            page.run_task(models.schedules.clear_query)
        else:
            set_searching(True)
            models.schedules.focus_search()

    return _root_view(
        models,
        words,
        view,
        SCHEDULES_ROUTE,
        Place.SCHEDULES,
        ft.Column(
            [
                *attention_banner(models),
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
        drawer=_drawer(models, in_agenda=False),
        actions=[
            icon_action(
                ft.Icons.SEARCH,
                words.gettext(SEARCH_ACTION_LABEL),
                toggle_search,
                selected=searching,
            )
        ],
    )


@ft.component
def NarrowAgenda() -> ft.View:
    """The agenda full screen, the sidebar in the same drawer as the schedules sheet's."""
    models = use_models()
    words = use_words()
    use_route_follower(ft.use_route_location())

    model = models.agenda
    agenda = Agenda(model, models.navigation, phone=True) if model is not None else ft.Container()
    refresh: list[ft.Control] = (
        [
            icon_action(
                ft.Icons.REFRESH, words.gettext(REFRESH_LABEL), lambda: run_command(model.reload)
            )
        ]
        if model is not None
        else []
    )
    return _root_view(
        models,
        words,
        ft.Ref(),
        AGENDA_ROUTE,
        Place.AGENDA,
        agenda,
        drawer=_drawer(models, in_agenda=True),
        actions=refresh,
    )


@ft.component
def NarrowSettings() -> ft.View:
    """Settings full screen, the sidebar in the same drawer as the sheet's."""
    models = use_models()
    words = use_words()
    use_route_follower(ft.use_route_location())
    model = models.settings
    content = (
        SettingsPage(model, phone=True, extra_sections=calendar_feeds_sections(models))
        if model is not None
        else ft.Container()
    )
    return _root_view(
        models,
        words,
        ft.Ref(),
        SETTINGS_ROUTE,
        Place.SETTINGS,
        content,
        drawer=_drawer(models, in_settings=True),
    )


def _root_view(
    models: ScreenModels,
    words: Words,
    view: ft.Ref[ft.View],
    route: str,
    place: Place,
    content: ft.Control,
    *,
    drawer: ft.NavigationDrawer,
    actions: list[ft.Control] | None = None,
) -> ft.View:
    """A root view at ``route``: ``content`` full screen under an app bar named for
    ``place``, whose menu button slides in ``drawer`` (this view's own, held by ``view``)."""
    page = ft.context.page
    return ft.View(
        ref=view,
        route=route,
        can_pop=False,
        padding=0,
        spacing=0,
        appbar=ft.AppBar(
            title=ft.Text(models.navigation.heading(place)),
            leading=icon_action(
                ft.Icons.MENU, words.gettext(OPEN_SIDEBAR_LABEL), lambda: _show_drawer(page, view)
            ),
            actions=actions or [],
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
        drawer=drawer,
        controls=[with_banners(models, content)],
    )


def _show_drawer(page: ft.Page, view: ft.Ref[ft.View]) -> None:
    """Slide in ``view``'s own drawer. The page's would be its top view's, and just after
    Back that is still the detail leaving, which has none."""
    if view.current is not None:
        page.run_task(view.current.show_drawer)


def _drawer(
    models: ScreenModels, *, in_agenda: bool = False, in_settings: bool = False
) -> ft.NavigationDrawer:
    """The sidebar as a phone's drawer (of the sheet, the agenda or Settings).

    Choosing an entry closes it while its view stays; an entry that shows the
    other root view replaces this one, drawer and all, and closing a drawer no
    longer on the page would fail Flet's session.
    """
    page = ft.context.page

    def leave_drawer(route: str) -> None:
        place = parse_location(route).place
        if place.in_agenda == in_agenda and (place is Place.SETTINGS) == in_settings:
            page.run_task(page.close_drawer)

    return ft.NavigationDrawer(
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
    )


@ft.component
def NarrowDetail() -> ft.View:
    models = use_models()
    page = ft.context.page

    def reveal(schedule_id: UUID) -> None:
        # The sidebar is the sheet's drawer on a phone: back to the sheet, whose
        # drawer opens once the sheet is on top again (NarrowSheet).
        async def show() -> None:
            await models.sidebar.reveal_schedule(schedule_id)
            go(models.navigation.show_schedules())

        page.run_task(show)

    detail = ScheduleDetail(
        models.detail,
        models.website_access,
        None,
        models.schedules,
        sidebar=models.sidebar,
        reveal=reveal,
        open_session=lambda session_id: go(models.navigation.open_session(session_id)),
    )
    return _pushed(models.navigation.heading(Place.SCHEDULE), with_banners(models, detail))


@ft.component
def NarrowTranscript() -> ft.View:
    models = use_models()
    return _pushed(
        models.navigation.heading(Place.SESSION),
        with_banners(models, SessionTranscript(models.messages, models.navigation)),
    )


def _pushed(heading: str, content: ft.Control) -> ft.View:
    """A phone screen pushed over the list, with the platform's back navigation."""
    return ft.View(
        route=ft.use_view_path(),
        padding=0,
        appbar=ft.AppBar(title=ft.Text(heading), bgcolor=ft.Colors.SURFACE_CONTAINER),
        controls=[content],
    )
