"""OS notifications for the desktop window: something newly needs attention.

``OsNotifications`` is the ``announce`` hook of ``app.session.compose_models``
when the app shows a desktop window and the person has not turned them off
(``--no-os-notifications``). It hands each ``AttentionNotice`` to
``desktop-notifier``, the field's cross-platform library: D-Bus
(``org.freedesktop.Notifications``) on Linux, the notification centres of
macOS and Windows natively.

The notification carries the schedule's title and the outcome in the app's
own words, never the instruction (a notice holds none). Failing to notify
(no notification service on the bus, a refusal) never disturbs the app: the
in-app banner has said it already, and what is logged names the failure's
type only, no title and no text.
"""

from __future__ import annotations

import logging
from typing import Protocol

from viewmodels.attention import AttentionNotice

APP_NAME = "Schedule Browser"
log = logging.getLogger(__name__)


class Notifier(Protocol):
    """The part of ``desktop_notifier.DesktopNotifier`` used here."""

    async def send(self, title: str, message: str) -> str: ...


def notification_title(notice: AttentionNotice) -> str:
    return f"Needs attention: {notice.title}"


def notification_message(notice: AttentionNotice) -> str:
    if notice.others == 1:
        return f"{notice.outcome_text}. 1 other schedule needs attention too."
    if notice.others > 1:
        return f"{notice.outcome_text}. {notice.others} other schedules need attention too."
    return notice.outcome_text


class OsNotifications:
    """Sends each notice as one OS notification; never raises."""

    def __init__(self, notifier: Notifier | None = None) -> None:
        self._notifier = notifier

    async def __call__(self, notice: AttentionNotice) -> None:
        try:
            notifier = self._notifier or self._default()
            await notifier.send(notification_title(notice), notification_message(notice))
        except Exception as err:  # a missing service must not disturb the app
            log.warning("The OS notification could not be sent (%s).", type(err).__name__)

    def _default(self) -> Notifier:
        from desktop_notifier import DesktopNotifier

        notifier: Notifier = DesktopNotifier(app_name=APP_NAME)
        self._notifier = notifier
        return notifier
