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
from gettext import NullTranslations
from typing import Protocol

from viewmodels.attention import AttentionNotice
from viewmodels.formatting.shared_words import APP_NAME
from viewmodels.language import Words

log = logging.getLogger(__name__)


class Notifier(Protocol):
    """The part of ``desktop_notifier.DesktopNotifier`` used here."""

    async def send(self, title: str, message: str) -> str: ...


def notification_title(notice: AttentionNotice, *, words: Words) -> str:
    # Translators: an OS notification's title; {title} is the schedule's own title.
    return words.gettext("Needs attention: {title}").format(title=notice.title)


def notification_message(notice: AttentionNotice, *, words: Words) -> str:
    if notice.others > 0:
        # Translators: {outcome} says what happened to the schedule in the title, such as
        # "Failed at 09:00: timeout"; {count} is how many others need attention as well.
        return words.ngettext(
            "{outcome}. {count} other schedule needs attention too.",
            "{outcome}. {count} other schedules need attention too.",
            notice.others,
        ).format(outcome=notice.outcome_text, count=notice.others)
    return notice.outcome_text


class OsNotifications:
    """Sends each notice as one OS notification, in ``words``; never raises.

    ``words`` are the app's language at start (``--locale``, else the system's);
    English when not given (a test's notifier)."""

    def __init__(self, notifier: Notifier | None = None, *, words: Words | None = None) -> None:
        self._notifier = notifier
        self._words = words if words is not None else NullTranslations()

    async def __call__(self, notice: AttentionNotice) -> None:
        try:
            notifier = self._notifier or self._default()
            title = notification_title(notice, words=self._words)
            await notifier.send(title, notification_message(notice, words=self._words))
        except Exception as err:  # a missing service must not disturb the app
            log.warning("The OS notification could not be sent (%s).", type(err).__name__)

    def _default(self) -> Notifier:
        from desktop_notifier import DesktopNotifier

        notifier: Notifier = DesktopNotifier(app_name=APP_NAME)
        self._notifier = notifier
        return notifier
