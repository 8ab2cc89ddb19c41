"""The OS notification: sent over a real D-Bus session bus, titled, and without the instruction.

``dbus-run-session`` (Debian's ``dbus``) starts a private session bus for one
process, ``tests.app.notification_listener``, which owns
``org.freedesktop.Notifications`` as a desktop's notification daemon would
and lets the app announce one outcome through ``desktop-notifier``. Nothing
touches the machine's own session bus.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from uuid import UUID

import pytest

from app.notifications import OsNotifications
from tests.app.notification_listener import SECRET, TITLE
from viewmodels.attention import AttentionNotice

ROOT = Path(__file__).resolve().parents[2]


def test_the_os_notification_reaches_the_session_bus_with_the_title_and_no_instruction() -> None:
    runner = shutil.which("dbus-run-session")
    assert runner is not None, "install Debian's dbus (scripts/setup --test does)"
    finished = subprocess.run(
        [runner, "--", sys.executable, "-m", "tests.app.notification_listener"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    (received,) = json.loads(finished.stdout)
    assert received["app_name"] == "Schedule Browser"
    assert received["summary"] == f"Needs attention: {TITLE}"
    assert received["body"] == "Run failed at 02:30: it ran past its deadline"
    assert SECRET not in json.dumps(received)
    assert SECRET[:20] not in finished.stderr


class Refusing:
    async def send(self, title: str, message: str) -> str:
        raise ConnectionError("no notification service on the bus")


async def test_a_notification_that_cannot_be_sent_never_disturbs_the_app_and_logs_no_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    notice = AttentionNotice(UUID(int=0), TITLE, "Run failed: it ran past its deadline")
    await OsNotifications(Refusing())(notice)
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "ConnectionError" in logged
    assert TITLE not in logged and "deadline" not in logged
