"""The hosted app at ``FLET_LOG_LEVEL=debug`` logs each message, no typed token or instruction.

A real ``schedule-server`` with one person and one schedule; the hosted app
runs with Flet's log at debug level on its stderr. In Chromium a person types
a wrong token, then their own, key by key, signs in and opens the schedule,
whose detail shows its whole instruction. Every line the app wrote is then
read: Flet's message lines are there (so debug logging was on), and neither
token nor the instruction is in any of them.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import SIGN_IN, button, schedule_row, token_field
from devtools.browser.flutter_page import wait_for_text
from devtools.browser.hosted_app import hosted_app
from devtools.browser.schedule_server import Member, ScheduleServer, schedule_server
from devtools.wire import definition_json
from tests.ui.conftest import PHONE_SIZE
from tests.ui.page_opener import PageOpener
from viewmodels.sign_in import TOKEN_REFUSED

pytestmark = pytest.mark.ui

DANA = Member("dana", "Dana Example", secrets.token_urlsafe(32), tenant="team")
WRONG_TOKEN = secrets.token_urlsafe(32)
TITLE = "Board minutes digest"
INSTRUCTION = "Summarize the board minutes for the treasurer and flag every vote on budgets."
TYPING_DELAY_MS = 30
"""Between keystrokes: Flutter on a busy 2-core machine drops keys typed faster."""


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(tmp_path_factory.mktemp("team-server"), [DANA]) as server:
        with httpx.Client(base_url=server.url) as client:
            response = client.post(
                "/v1/schedules",
                json=definition_json(title=TITLE, instruction=INSTRUCTION),
                headers={
                    "Authorization": f"Bearer {DANA.token}",
                    "Idempotency-Key": str(uuid.uuid4()),
                },
            )
            assert response.status_code == 201, response.text
        yield server


def type_token(page: Page, token: str) -> None:
    field = token_field(page)
    field.fill("")
    field.press_sequentially(token, delay=TYPING_DELAY_MS)
    expect(field).to_have_value(token)
    button(page, SIGN_IN).click()


def test_typed_tokens_and_instructions_stay_out_of_the_debug_log(
    team: ScheduleServer, open_page: PageOpener, tmp_path: Path
) -> None:
    logs = tmp_path / "hosted-app-logs"
    with hosted_app(team, logs, log_level="debug") as app:
        page = open_page(app.url, size=PHONE_SIZE)
        type_token(page, WRONG_TOKEN)
        wait_for_text(page, TOKEN_REFUSED)
        type_token(page, DANA.token)
        schedule_row(page, TITLE).click()
        wait_for_text(page, INSTRUCTION)
    logged = (logs / "stderr.txt").read_text(errors="replace")
    assert "_on_message: MessageAction.UPDATE_CONTROL_PROPS" in logged, "debug logging was on"
    for secret in (WRONG_TOKEN, DANA.token, INSTRUCTION):
        assert secret[:10] not in logged
    assert "budgets" not in logged
