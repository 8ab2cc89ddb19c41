"""One Flet session (a window, or a browser tab in web mode), composed.

Here the layers meet: the backend's client goes into fresh view models (per
session, so two tabs never share a selection), the look is applied and
``views.AppShell`` rendered. Settings' choices are read first; a new zone,
clock or regional format composes the view models again
(``views.settings_applied``), and Flet's own widgets get the same locale. Device
state and the view cache live in files of the user data folder under the
server's namespace (``app.device_folder``), never in the page's storage,
which in a browser belongs to whatever ``127.0.0.1:<port>`` serves next; what
earlier versions wrote there is erased when a session opens.
``follow_lifecycle`` runs the session's ``LiveUpdates`` rounds while it lives
(woken by ``Backend.changes`` or polling, paused while hidden), and is shared with
``app.sign_in_session``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import flet as ft

from app.backend.connected import Backend
from app.calendar_file import FletCalendarFile
from app.device_folder import FolderStorage
from app.device_storage import erase_app_keys
from app.page_locale import BrowserLocale, flet_locale
from app.tab_gone import ends_quietly_when_gone
from app.view_cache_store import ViewCacheStore
from viewmodels.agenda import AgendaViewModel
from viewmodels.attention import AttentionNotices
from viewmodels.attention.notices import Announce
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.feeds import (
    AddToCalendarViewModel,
    CalendarFeedsViewModel,
    CalendarFileSaver,
    FeedApi,
    FeedOffer,
)
from viewmodels.formatting.clock_text import locale_of
from viewmodels.live_updates import LiveUpdates
from viewmodels.navigation import NavigationViewModel
from viewmodels.offline import NoViewCache, OfflineViewModel, ViewCache
from viewmodels.ports import Clock, DeviceStorage, MemoryStorage, ScheduleApi, ServerActivity
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.scheduler_health import SchedulerHealthViewModel
from viewmodels.server_kind import ServerKind
from viewmodels.settings import SettingsViewModel
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel
from views import ScreenModels, apply_look
from views.screen_models import AccountModel, SettingsModel
from views.settings_applied import SettingsApplied


@dataclass(frozen=True, slots=True, eq=False)
class ComposedSession:
    models: ScreenModels
    live: LiveUpdates


def compose_models(
    api: ScheduleApi,
    storage: DeviceStorage,
    *,
    clock: Clock,
    device_zone: ZoneInfo,
    changes: ServerActivity | None = None,
    account: AccountModel | None = None,
    views: ViewCache | None = None,
    announce: Announce | None = None,
    server: ServerKind = ServerKind.PLATFORM,
    on_server_reached: Callable[[], None] | None = None,
    feeds: FeedApi | None = None,
    calendar_file: CalendarFileSaver | None = None,
    opens_links: bool = False,
    settings: SettingsModel | None = None,
) -> ComposedSession:
    """Every view model of one session, wired to each other where the design says so.

    ``changes`` is the embedded server's change signal (None: poll);
    ``account`` the sign-in of a hosted session (None: nobody signs in);
    ``views`` the view cache (None: nothing is kept, and nothing shown offline);
    ``announce`` is told each notice of something newly needing attention
    (the desktop window's OS notification; None: the in-app banner only);
    ``server`` which kind of server it is (the embedded demo's words differ);
    ``on_server_reached`` is told each time a screen reads the server (a hosted
    sign-in opened offline then checks its token);
    ``feeds`` the calendar feed routes (None: no feed controls), ``calendar_file``
    what saves an ``.ics`` file (the embedded server's Add to calendar), and
    ``opens_links`` whether the platform opens ``webcal://`` in a calendar app;
    ``settings`` the Settings screen's model (None: no Settings).
    Every model speaks the locale ``device_zone`` carries; ``ScreenModels.locale``
    gives the views the same words.
    """
    locale = locale_of(device_zone)
    offline = OfflineViewModel(views or NoViewCache(), clock=clock, device_zone=device_zone)
    if on_server_reached is not None:
        offline.set_on_reached(on_server_reached)
    schedules = ScheduleListViewModel(
        api, clock=clock, device_zone=device_zone, offline=offline, server=server, storage=storage
    )
    # A saved website binding changes the row's badge: the row is updated in place.
    detail = ScheduleDetailViewModel(
        api,
        clock=clock,
        device_zone=device_zone,
        on_schedule_changed=schedules.show_saved,
        offline=offline,
        server=server,
    )
    sidebar = SidebarViewModel(api, storage, clock=clock, device_zone=device_zone)
    messages = SessionMessagesViewModel(
        api, device_zone=device_zone, title_of=sidebar.title_of, origin_of=sidebar.origin_of
    )
    # A transcript opened by a deep link learns its title once the sidebar has it.
    sidebar.subscribe(lambda _snapshot: messages.refresh_title())
    agenda = AgendaViewModel(api, clock=clock, device_zone=device_zone, offline=offline)
    navigation = NavigationViewModel(
        schedules=schedules,
        detail=detail,
        sidebar=sidebar,
        messages=messages,
        agenda=agenda,
        locale=locale,
    )
    notices = AttentionNotices(
        api, storage, clock=clock, device_zone=device_zone, on_announce=announce
    )
    scheduler = SchedulerHealthViewModel(api, clock=clock, device_zone=device_zone, server=server)
    add_to_calendar, subscribe_all, calendar_feeds = _calendar_models(
        feeds, server, calendar_file, opens_links, device_zone
    )
    models = ScreenModels(
        navigation=navigation,
        schedules=schedules,
        detail=detail,
        website_access=detail.website_access,
        sidebar=sidebar,
        messages=messages,
        account=account,
        offline=offline,
        notices=notices,
        agenda=agenda,
        scheduler=scheduler,
        add_to_calendar=add_to_calendar,
        subscribe_all=subscribe_all,
        calendar_feeds=calendar_feeds,
        settings=settings,
        locale=locale,
    )
    live = LiveUpdates(
        schedules=schedules,
        detail=detail,
        sidebar=sidebar,
        clock=clock,
        activity=changes,
        offline=offline,
        notices=notices,
        agenda=agenda,
        scheduler=scheduler,
    )
    return ComposedSession(models, live)


def _calendar_models(
    feeds: FeedApi | None,
    server: ServerKind,
    calendar_file: CalendarFileSaver | None,
    opens_links: bool,
    device_zone: ZoneInfo,
) -> tuple[
    AddToCalendarViewModel | None, AddToCalendarViewModel | None, CalendarFeedsViewModel | None
]:
    """The detail's Add to calendar, Subscribe to all schedules and the feeds list,
    sharing what the server said about offering feeds; none without ``feeds``."""
    if feeds is None:
        return None, None, None
    offer = FeedOffer(feeds)
    listed = CalendarFeedsViewModel(feeds, offer, device_zone=device_zone)

    def adder() -> AddToCalendarViewModel:
        return AddToCalendarViewModel(
            feeds,
            offer,
            server=server,
            saver=calendar_file,
            opens_links=opens_links,
            on_feed_made=listed.refresh,
            locale=locale_of(device_zone),
        )

    return adder(), adder(), listed


def follow_lifecycle(page: ft.Page, live_of: Callable[[], LiveUpdates | None]) -> None:
    """Rounds pause while the window or tab is hidden or disconnected, resume when back."""

    def set_foreground(foreground: bool) -> None:
        live = live_of()
        if live is not None:
            live.set_foreground(foreground)

    page.on_app_lifecycle_state_change = lambda _event: set_foreground(page.app_visible)
    # A browser tab that lost its connection may come back to this session. A tab
    # that reconnects (a reload, a phone waking) shows the page: the hidden state
    # its old page reported as it unloaded is not the new one's, so a round runs now.
    page.on_disconnect = lambda _event: set_foreground(False)
    page.on_connect = lambda _event: set_foreground(True)


def session_entry(
    backend: Backend,
    *,
    clock: Clock,
    device_zone: ZoneInfo,
    announce: Announce | None = None,
    locale: str | None = None,
) -> Callable[[ft.Page], Awaitable[None]]:
    """The ``main`` Flet calls once per session; ``announce`` as in ``compose_models``;
    ``locale`` (``--locale``) instead of the browser's or the system's."""

    async def start(page: ft.Page) -> None:
        folder = backend.device_dir
        storage: DeviceStorage = (
            MemoryStorage() if folder is None else FolderStorage(folder, backend.namespace)
        )
        browser = BrowserLocale(page, locale)
        device_locale = await browser.opening()
        settings = SettingsViewModel(storage, device_zone=device_zone, device_locale=device_locale)
        await settings.load()
        apply_look(page, settings.snapshot.theme)
        kept = backend.views_namespace
        views = (
            None if kept is None or folder is None else ViewCacheStore(FolderStorage(folder, kept))
        )
        page.run_task(erase_app_keys, ft.SharedPreferences())
        live: LiveUpdates | None = None
        rounds: Future[None] | None = None

        def compose(shown_zone: ZoneInfo) -> ScreenModels:
            """The session's view models for times shown in ``shown_zone``; the last
            ones' rounds stop and these ones' start."""
            nonlocal live, rounds
            if rounds is not None:
                rounds.cancel()
            session = compose_models(
                backend.api,
                storage,
                clock=clock,
                device_zone=shown_zone,
                changes=backend.changes,
                views=views,
                announce=announce,
                server=ServerKind.EMBEDDED if backend.embedded else ServerKind.PLATFORM,
                feeds=backend.api,
                calendar_file=FletCalendarFile(web=page.web),
                opens_links=not page.web,
                settings=settings,
            )
            live = session.live
            rounds = page.run_task(session.live.run)
            page.locale_configuration = flet_locale(locale_of(shown_zone))
            return session.models

        def on_closed(_event: ft.Event[ft.Page]) -> None:
            if rounds is not None:
                rounds.cancel()

        follow_lifecycle(page, lambda: live)
        page.on_close = on_closed
        page.render_views(SettingsApplied, settings, compose)
        browser.follow(settings.learn_device_locale)

    return ends_quietly_when_gone(start)
