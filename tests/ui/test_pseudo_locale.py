"""The main screens in the pseudo-locale, in Chromium at 1280x800 and 390x844.

A browser whose language is the pseudo-locale (``devtools.pseudo_locale``:
every sentence accented, bracketed and 40% longer) reads the Current and
Recent History lists, a schedule's detail down to its calendar, the Agenda and
Settings. On each, no sentence of the app's catalogs is readable in English
(the schedules' own titles, instructions and chats, and the zones' names, are
the person's data and stay as written), and nothing the accessibility tree
holds reaches past the window's sides. Screenshots of each screen are kept for
the eye: a sentence cut short has lost its closing bracket.
"""

from __future__ import annotations

import re
import time
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from devtools.browser.accessible_names import button
from devtools.browser.flutter_page import (
    UI_TIMEOUT_MS,
    choose,
    click_in_list,
    next_frames,
    wait_for_text,
)
from devtools.browser.served_app import ServedApp
from devtools.pseudo_locale import PSEUDO_LOCALE, english_messages, pseudo
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import ScheduleDatabase
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AGENDA_HEADING
from viewmodels.detail.fields import INSTRUCTION_HEADING
from viewmodels.formatting.shared_words import APP_NAME
from viewmodels.schedule_list.section import ListSection
from viewmodels.settings import SETTINGS_ENTRY_LABEL
from viewmodels.sidebar.snapshot import OPEN_SIDEBAR_LABEL

pytestmark = pytest.mark.ui

DETAIL_POINT = {"desktop": (1000, 500), "phone": (195, 600)}
FLUTTER_WORDS = frozenset({"Back", "Close", "Dismiss", "Open navigation menu"})
"""Flutter's own Material words, English for a language it has none for."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
A_WORD = re.compile(r"[A-Za-z]{4,}")
EDGE_PX = 2
"""How far past a side a node may reach: Flutter rounds a full-width node's box up."""

_NODES_SCRIPT = """() => {
    const found = [];
    for (const node of document.querySelectorAll('flt-semantics-host *')) {
        let text = node.getAttribute('aria-label') || '';
        for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) text += ' ' + child.textContent;
        }
        text = text.trim();
        if (!text) continue;
        const box = node.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        found.push({text: text.replace(/\\s+/g, ' '), left: box.left, right: box.right});
    }
    return found;
}"""


@cache
def english_patterns() -> list[re.Pattern[str]]:
    """A pattern for each English sentence with a word in it, placeholders matching anything."""
    patterns = []
    for forms in english_messages():
        for form in forms:
            literal = PLACEHOLDER.sub("", form)
            if not A_WORD.search(literal) or form in FLUTTER_WORDS:
                continue
            parts = [re.escape(part) for part in PLACEHOLDER.split(form)]
            patterns.append(re.compile(r"\b" + ".+?".join(parts) + r"\b"))
    return patterns


def persons_data(database: ScheduleDatabase) -> list[str]:
    """What the person wrote (titles, instructions, chats) and names, longest first."""
    written = [text for each in database.schedules() for text in (each.title, each.instruction)]
    written += [session.title for session in database.sessions()]
    written.append(APP_NAME)  # said as it is in every language
    return sorted({" ".join(text.split()) for text in written if text}, key=len, reverse=True)


def settled_nodes(page: Page) -> list[dict[str, Any]]:
    """The tree's named nodes and their boxes once two reads agree (a drawer has slid in)."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    before: list[dict[str, Any]] = page.evaluate(_NODES_SCRIPT)
    while True:
        next_frames(page, 6)
        now: list[dict[str, Any]] = page.evaluate(_NODES_SCRIPT)
        if now == before:
            return now
        assert time.monotonic() < deadline, "the screen never settled"
        before = now


def read_screen(page: Page, name: str, database: ScheduleDatabase, width: int) -> None:
    """No English sentence of ours on the screen now, nothing past its sides; a screenshot."""
    nodes = settled_nodes(page)
    data = persons_data(database)  # read now: the demo's chats keep arriving
    english, outside = [], []
    for node in nodes:
        text = node["text"]
        for written in data:
            text = text.replace(written, " ")
        english += [f"{match.group(0)!r} in {node['text'][:80]!r}" for match in _english_in(text)]
        if node["left"] < -EDGE_PX or node["right"] > width + EDGE_PX:
            outside.append(f"{node['text'][:60]!r} at {node['left']:.0f}..{node['right']:.0f}")
    save_screenshot(page, name)
    assert not english, f"{name}: English left: {english}"
    assert not outside, f"{name}: past the window's sides: {outside}"


def _english_in(text: str) -> list[re.Match[str]]:
    return [found for pattern in english_patterns() if (found := pattern.search(text))]


@pytest.mark.parametrize("size", [DESKTOP_SIZE, PHONE_SIZE], ids=["desktop", "phone"])
def test_the_main_screens_in_the_pseudo_locale_keep_no_english_and_stay_in_the_window(
    size: ViewportSize, open_page: PageOpener, served: ServedApp, database: ScheduleDatabase
) -> None:
    phone = size == PHONE_SIZE
    kind = "phone" if phone else "desktop"
    name = f"pseudo-{kind}"
    page = open_page(served.url, size=size, locale=PSEUDO_LOCALE)

    current = button(page, pseudo(ListSection.CURRENT.label))
    expect(current).to_have_attribute("aria-current", "true")
    first_row = page.get_by_role("button", name=re.compile(r"^.+?\. \[")).first
    expect(first_row).to_be_visible()
    read_screen(page, f"{name}-current", database, size["width"])

    choose(button(page, pseudo(ListSection.RECENT_HISTORY.label)))
    expect(first_row).to_be_visible()
    read_screen(page, f"{name}-history", database, size["width"])

    choose(current)
    schedule = next(each for each in database.schedules() if each.state == "ACTIVE")
    row = page.get_by_role("button", name=re.compile(rf"^{re.escape(schedule.title)}\. "))
    click_in_list(page, first_row, row)
    wait_for_text(page, pseudo(INSTRUCTION_HEADING))
    read_screen(page, f"{name}-detail", database, size["width"])
    x, y = DETAIL_POINT[kind]
    page.mouse.move(x, y)
    page.mouse.wheel(0, 900)
    read_screen(page, f"{name}-detail-calendar", database, size["width"])

    if phone:
        button(page, "Back").click()
        button(page, pseudo(OPEN_SIDEBAR_LABEL)).click()
        expect(button(page, pseudo(AGENDA_ENTRY_LABEL))).to_be_visible()
        read_screen(page, f"{name}-drawer", database, size["width"])
    button(page, pseudo(AGENDA_ENTRY_LABEL)).click()
    expect(page.get_by_role("heading", name=pseudo(AGENDA_HEADING), exact=True)).to_be_visible()
    read_screen(page, f"{name}-agenda", database, size["width"])

    if phone:
        button(page, pseudo(OPEN_SIDEBAR_LABEL)).click()
    button(page, pseudo(SETTINGS_ENTRY_LABEL)).click()
    expect(page).to_have_url(re.compile(r"/settings$"))
    read_screen(page, f"{name}-settings", database, size["width"])
