"""Search, the Needs attention filter and the notice, in Chromium against the real embedded server.

At desktop and phone size, over the demo data: search shows the schedules whose
title or instruction holds the word, and clearing brings the section back; the
Needs attention chip's number and rows are what the database says. The notice:
a fresh data folder holds one schedule whose firing, seconds after the start,
fails (its stored definition no longer validates); the banner names it once, and
a new session in the same browser, once the app's log says it has taken its
first look at what needs attention, does not name it again.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from devtools.browser.accessible_names import button, schedule_row, schedule_rows
from devtools.browser.flutter_page import next_frames, open_app, wait_for_text
from devtools.browser.served_app import ServedApp, served_app
from tests.polling import eventually_found
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.due_schedule import LEAD, create_daily_due
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase, StoredSchedule

pytestmark = pytest.mark.ui

SIZES: dict[str, ViewportSize] = {"desktop": DESKTOP_SIZE, "phone": PHONE_SIZE}
SEARCH_FIELD = "Search schedules"
WARNING = re.compile(r"(Missed at|Refused at|Not run at|Skipped at|Run failed|Paused after)")


def press(control: Locator, screen: str) -> None:
    """A click with the mouse on a desktop, a tap of a finger on a phone (a touch page)."""
    if screen == "phone":
        control.tap()
    else:
        control.click()


def type_into(field: Locator, text: str, screen: str) -> None:
    """Put the focus in ``field`` as a person does, then type ``text`` key by key.

    Flutter opens the field's text input in a frame after the field takes
    the focus; keys typed before that frame are lost, so the typing starts
    once the field holds the focus and a few frames have been drawn.
    """
    press(field, screen)
    expect(field).to_be_focused()
    next_frames(field.page, 3)
    field.page.keyboard.type(text, delay=40)


def search_field(page: Page, screen: str) -> Locator:
    if screen == "phone":
        press(button(page, "Search"), screen)
    field = page.get_by_role("textbox", name=SEARCH_FIELD)
    expect(field).to_be_visible()
    return field


def attention_chip(page: Page, count: int) -> Locator:
    """The filter chip (Flutter names a selectable chip as a checkbox) showing ``count``."""
    return page.get_by_role("checkbox", name=f"Needs attention ({count})", exact=True)


def matching(schedules: list[StoredSchedule], word: str) -> list[str]:
    return [s.title for s in schedules if word in f"{s.title} {s.instruction}".casefold()]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_typing_shows_the_matching_schedules_and_clearing_brings_the_section_back(
    screen: str, open_page: PageOpener, served: ServedApp, database: ScheduleDatabase
) -> None:
    page = open_page(served.url, size=SIZES[screen], touch=screen == "phone")
    current = database.schedules_in(CURRENT_STATES)
    expect(schedule_row(page, current[0].title)).to_be_visible()
    word = "digest"
    found = matching(current, word)
    assert 0 < len(found) < len(current), "the demo holds a word some current schedules share"

    field = search_field(page, screen)
    type_into(field, word.upper(), screen)  # case is ignored; keystrokes come one by one
    for title in found:
        expect(schedule_row(page, title)).to_be_attached()
    expect(schedule_rows(page)).to_have_count(len(found))
    next_frames(page)
    save_screenshot(page, f"search-{screen}")

    press(button(page, "Clear search"), screen)
    expect(schedule_row(page, current[0].title)).to_be_visible()
    expect(field).to_have_value("")

    type_into(field, "zqxj", screen)
    wait_for_text(page, "No current schedules match “zqxj”")
    expect(button(page, "Search Recent History")).to_be_visible()
    page.keyboard.press("Escape")
    expect(schedule_row(page, current[0].title)).to_be_visible()
    expect(field).to_have_value("")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_needs_attention_chip_counts_and_filters_and_each_row_says_what_went_wrong(
    screen: str, open_page: PageOpener, served: ServedApp, database: ScheduleDatabase
) -> None:
    page = open_page(served.url, size=SIZES[screen])
    wanted = database.needs_attention()
    assert wanted, "the demo holds schedules that need attention"
    chip = attention_chip(page, len(wanted))
    expect(chip).to_be_visible()
    chip.click()
    for schedule in wanted:
        row = schedule_row(page, schedule.title)
        expect(row).to_be_attached()
        expect(row).to_have_accessible_name(WARNING)
    expect(schedule_rows(page)).to_have_count(len(wanted))
    next_frames(page)
    save_screenshot(page, f"needs-attention-{screen}")
    page.get_by_role("button", name="Current", exact=True).click()
    current = database.schedules_in(CURRENT_STATES)
    healthy = next(s for s in current if s not in wanted)
    expect(schedule_row(page, healthy.title)).to_be_attached()


TITLE = "Quarterly invoice run, about to go wrong"
FIRST_LOOK = re.compile(r"first look at what needs attention: (\d+) announced")
"""The app's log line (``viewmodels.attention.notices``) when a session has taken its first look."""


def create_failing_soon(database: Path, due: datetime) -> None:
    """A DAILY schedule due at ``due`` whose stored definition then stops validating."""
    create_daily_due(
        database,
        due,
        title=TITLE,
        instruction="Send every overdue invoice a reminder with the amount due.",
        idempotency_key="ui-attention-notice",
    )
    with closing(sqlite3.connect(database)) as connection:
        (stored,) = connection.execute("SELECT definition FROM schedule_revisions").fetchone()
        broken = {**json.loads(stored), "run_timeout_seconds": -1}
        connection.execute("UPDATE schedule_revisions SET definition = ?", (json.dumps(broken),))
        connection.commit()


@dataclass(frozen=True)
class FailingSoon:
    app: ServedApp
    due: datetime

    def first_looks(self) -> list[int]:
        """What each session's first look announced, in the order the sessions took them."""
        log = (self.app.log_dir / "stderr.txt").read_text(encoding="utf-8", errors="replace")
        return [int(count) for count in FIRST_LOOK.findall(log)]


@pytest.fixture
def failing_soon(tmp_path: Path) -> Iterator[FailingSoon]:
    due = (datetime.now(UTC) + LEAD).replace(microsecond=0)
    data = tmp_path / "data"
    data.mkdir()
    create_failing_soon(data / "schedules.sqlite3", due)
    logs = tmp_path / "logs"
    with served_app(data, logs, extra_arguments=["--no-demo"], log_level="info") as app:
        yield FailingSoon(app, due)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_notice_says_once_that_something_newly_needs_attention(
    screen: str, failing_soon: FailingSoon, open_page: PageOpener
) -> None:
    page = open_page(failing_soon.app.url, size=SIZES[screen])
    expect(schedule_row(page, TITLE)).to_be_visible()
    expect(attention_chip(page, 0)).to_be_visible()
    assert datetime.now(UTC) < failing_soon.due, "the page opened after the firing; raise LEAD"
    notice_text = re.compile(rf"^“{re.escape(TITLE)}” needs attention: Not run at")
    notice = page.get_by_text(notice_text)
    seconds_left = (failing_soon.due - datetime.now(UTC)).total_seconds()
    expect(notice).to_be_visible(timeout=(seconds_left + 20) * 1000)
    expect(notice).to_have_count(1)
    expect(attention_chip(page, 1)).to_be_visible()
    next_frames(page)
    save_screenshot(page, f"attention-notice-{screen}")

    button(page, "Dismiss").click()
    expect(notice).to_have_count(0)

    # A new session in the same browser (the device's storage): not said again.
    again = page.context.new_page()
    open_app(again, failing_soon.app.url)
    expect(attention_chip(again, 1)).to_be_visible()
    expect(schedule_row(again, TITLE)).to_have_accessible_name(re.compile("Not run at"))
    looks = eventually_found(lambda: failing_soon.first_looks()[1:], "the new session's first look")
    assert looks == [0], "the new session announced again what this browser was told"
    expect(again.get_by_text(notice_text)).to_have_count(0)
    expect(notice).to_have_count(0)
    again.close()
