"""What the views need from each view model: a snapshot, a subscription, commands.

Structural protocols, so the views depend on the shape ``viewmodels`` promises
(its README) and not on construction details; the composition root hands the
real view models in, a preview or a test may hand in anything of this shape.
``ScreenModels`` is the one value the root component receives; it reaches the
route components through ``ScreenModelsContext`` (``use_models``), since the
router calls them without arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol, TypeVar, cast
from uuid import UUID

import flet as ft

from viewmodels.attention import NoticeSnapshot
from viewmodels.calendar import CalendarSnapshot
from viewmodels.detail import ScheduleDetailSnapshot, WebsiteAccessSnapshot, WebsiteOption
from viewmodels.navigation import Location
from viewmodels.offline import OfflineSnapshot
from viewmodels.schedule_list import ListSection, ScheduleListSnapshot
from viewmodels.sidebar import ScheduleSessions, SessionMessagesSnapshot, SidebarSnapshot
from viewmodels.sign_in import SignInSnapshot

SnapshotT = TypeVar("SnapshotT", covariant=True)


class Observed(Protocol[SnapshotT]):
    @property
    def snapshot(self) -> SnapshotT: ...

    def subscribe(self, callback: Callable[[SnapshotT], None]) -> Callable[[], None]: ...


class ScheduleListModel(Observed[ScheduleListSnapshot], Protocol):
    async def select_section(self, section: ListSection) -> None: ...
    async def select_attention(self, on: bool) -> None: ...
    async def type_query(self, text: str) -> None: ...
    async def clear_query(self) -> None: ...
    def focus_search(self) -> None: ...
    async def reload(self) -> None: ...
    async def load_more(self) -> None: ...
    async def retry(self) -> None: ...


class NoticesModel(Observed[NoticeSnapshot], Protocol):
    def dismiss(self) -> None: ...


class WebsiteAccessModel(Observed[WebsiteAccessSnapshot], Protocol):
    async def choose(self, option: WebsiteOption) -> None: ...
    async def allow(self) -> None: ...
    def cancel(self) -> None: ...
    async def undo(self) -> None: ...
    async def retry(self) -> None: ...


class CalendarModel(Observed[CalendarSnapshot], Protocol):
    async def previous_month(self) -> None: ...
    async def next_month(self) -> None: ...
    async def select_day(self, day: date) -> None: ...
    async def retry(self) -> None: ...
    def set_grid_focus(self, focused: bool) -> None: ...


class ScheduleDetailModel(Observed[ScheduleDetailSnapshot], Protocol):
    @property
    def calendar(self) -> CalendarModel:
        """The detail's Calendar section (it loads with the detail)."""
        ...

    async def retry(self) -> None: ...


class SidebarModel(Observed[SidebarSnapshot], Protocol):
    async def refresh(self) -> None: ...
    async def toggle_group(self, schedule_id: UUID) -> None: ...
    def schedule_sessions(self, schedule_id: UUID) -> ScheduleSessions: ...
    async def reveal_schedule(self, schedule_id: UUID) -> None: ...


class SessionMessagesModel(Observed[SessionMessagesSnapshot], Protocol):
    async def load_more(self) -> None: ...
    async def retry(self) -> None: ...


class NavigationModel(Observed[Location], Protocol):
    async def start(self) -> None: ...
    async def follow(self, route: str | None) -> str | None: ...
    def open_schedule(self, schedule_id: UUID) -> str: ...
    def open_session(self, session_id: UUID) -> str: ...
    def show_schedules(self) -> str: ...
    def back(self) -> str | None: ...
    async def press(self, key: str, *, ctrl: bool = False, meta: bool = False) -> str | None: ...


class OfflineModel(Observed[OfflineSnapshot], Protocol):
    """Whether the screens show the device's copy; the banner's Retry."""

    def retry(self) -> None: ...


class AccountModel(Observed[SignInSnapshot[Any]], Protocol):
    """A hosted session's sign-in, as the signed-in screens see it: a name and a way out."""

    async def sign_out(self) -> None: ...


@dataclass(frozen=True, slots=True, eq=False)
class ScreenModels:
    """One Flet session's view models; identity equality (they are live objects)."""

    navigation: NavigationModel
    schedules: ScheduleListModel
    detail: ScheduleDetailModel
    website_access: WebsiteAccessModel
    sidebar: SidebarModel
    messages: SessionMessagesModel
    account: AccountModel | None = None
    """The sign-in of a hosted session (the sidebar offers Sign out); None locally."""
    offline: OfflineModel | None = None
    """The offline banner's model; None shows no banner."""
    notices: NoticesModel | None = None
    """The notice when something newly needs attention; None shows none."""


class SignedInAccount(Protocol):
    """What a hosted session composed for the person who signed in."""

    @property
    def models(self) -> ScreenModels: ...


class SignInModel(Observed[SignInSnapshot[SignedInAccount]], Protocol):
    async def start(self) -> None: ...
    async def sign_in(self, token_text: str) -> None: ...
    def set_remember(self, remember: bool) -> None: ...
    async def retry(self) -> None: ...
    async def sign_out(self) -> None: ...


ScreenModelsContext = ft.create_context(cast(ScreenModels, None))
"""Provided once by ``AppShell`` around the router."""


def use_models() -> ScreenModels:
    """The session's view models, inside the component tree ``AppShell`` renders."""
    return ft.use_context(ScreenModelsContext)
