"""Run inside ``dbus-run-session``: a stand-in notification service, then the app's notice.

The process owns ``org.freedesktop.Notifications`` on the private session bus
(what a desktop's notification daemon does), then lets the app's own path
announce one outcome that newly needs attention: ``AttentionNotices`` over a
schedule server answering with one failing schedule, whose ``on_announce`` is
``app.notifications.OsNotifications`` with the real ``desktop-notifier``.
It prints, as JSON on stdout, every notification the service received. The
schedule's instruction preview is ``SECRET``: the test checks it never
reaches a notification.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusSignature
from dbus_fast.service import ServiceInterface, dbus_method

from app.notifications import OsNotifications
from devtools.api_bodies import last_outcome_json, summary
from transport.models import Page, ScheduleSummary
from viewmodels.attention import ANNOUNCED_KEY, AttentionNotices
from viewmodels.ports import MemoryStorage

TITLE = "Nightly backup of the team drive"
SECRET = "Copy every file from the finance share to the vault"
NOW = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)

Str = Annotated[str, DBusSignature("s")]
UInt = Annotated[int, DBusSignature("u")]
Int = Annotated[int, DBusSignature("i")]
Strings = Annotated[list[str], DBusSignature("as")]
Hints = Annotated[dict[str, Any], DBusSignature("a{sv}")]
ServerInfo = Annotated[list[str], DBusSignature("(ssss)")]


class Notifications(ServiceInterface):
    """The parts of the freedesktop notification service a sender calls."""

    def __init__(self) -> None:
        super().__init__("org.freedesktop.Notifications")
        self.received: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    @dbus_method()
    def GetCapabilities(self) -> Strings:
        return ["body", "actions"]

    @dbus_method()
    def GetServerInformation(self) -> ServerInfo:
        return ["test-listener", "schedule-browser tests", "1", "1.2"]

    @dbus_method()
    def Notify(
        self,
        app_name: Str,
        replaces_id: UInt,
        app_icon: Str,
        summary: Str,
        body: Str,
        actions: Strings,
        hints: Hints,
        expire_timeout: Int,
    ) -> UInt:
        self.received.append(
            {"app_name": app_name, "summary": summary, "body": body, "actions": actions}
        )
        self.arrived.set()
        return len(self.received)


class OneFailingSchedule:
    """The one call ``AttentionNotices.check`` makes, answered with a failing schedule."""

    async def list_schedules(self, **_: Any) -> Page[ScheduleSummary]:
        body = summary(
            "backup",
            title=TITLE,
            preview=SECRET,
            last_outcome=last_outcome_json(nominal_fire_at=NOW.replace(hour=2, minute=30)),
        )
        return Page[ScheduleSummary].model_validate({"items": [body], "next_cursor": None})


async def main() -> None:
    bus = await MessageBus().connect()
    service = Notifications()
    bus.export("/org/freedesktop/Notifications", service)
    await bus.request_name("org.freedesktop.Notifications")
    # Not the device's first look: something announced before, so this one is new.
    storage = MemoryStorage({ANNOUNCED_KEY: ["earlier"]})
    notices = AttentionNotices(
        OneFailingSchedule(),  # type: ignore[arg-type]
        storage,
        clock=lambda: NOW,
        device_zone=ZoneInfo("UTC"),
        on_announce=OsNotifications(),
    )
    await notices.check()
    await asyncio.wait_for(service.arrived.wait(), timeout=20)
    print(json.dumps(service.received))
    bus.disconnect()


if __name__ == "__main__":
    asyncio.run(main())
