"""The web view in German and in Simplified Chinese, in Chromium at 1280x800 and 390x844.

A browser whose preferred language is de-DE or zh-CN reads the app in it:
the Current list (its section, chosen, and each row's state), a
schedule's detail (its Instruction field), its calendar moved to New York's
next spring-forward (14 March 2027 when this was written; read from the zone
database, as ``tests/ui/test_calendar.py`` does), whose day cell says the
firing was moved and whose sentence says the clocks go forward, and the Agenda
(its heading and its Today span). On a phone the detail is pushed on top and
left by Flutter's own Back, named in the language too. Every expected text is
the catalog's translation of the app's English words; one literal word of each
language is checked as well, so a run whose catalogs were not compiled (every
word English) fails rather than comparing English with English.

The offline banner is not here: the embedded server cannot go away, and the
remote app of ``tests/ui/test_offline.py`` costs a server of its own; the
hosted languages test (``tests/ui/test_hosted_languages.py``) reads it in
both languages on the server it starts anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
import tzlocal
from babel import Locale
from playwright.sync_api import Locator, Page, ViewportSize, expect

from devtools.browser.accessible_names import button, calendar_note
from devtools.browser.cjk_fonts import wait_for_cjk_fonts
from devtools.browser.flutter_page import (
    click_in_list,
    scroll_into_view,
    scroll_until_attached,
    wait_for_text,
)
from devtools.browser.served_app import ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import ScheduleDatabase
from tests.ui.test_calendar import NEW_YORK, gap_schedule, next_spring_forward
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AGENDA_HEADING, AgendaSpan
from viewmodels.calendar.snapshot import NEXT_MONTH_LABEL
from viewmodels.detail.fields import INSTRUCTION_HEADING
from viewmodels.formatting.clock_text import day_month_text, long_date_text, month_title
from viewmodels.formatting.labels import state_label
from viewmodels.formatting.zones import place_name
from viewmodels.language import Words, parsed_locale, words_for
from viewmodels.schedule_list.section import ListSection
from viewmodels.sidebar.snapshot import OPEN_SIDEBAR_LABEL

pytestmark = pytest.mark.ui

DESKTOP_DETAIL = (1000, 500)
PHONE_DETAIL = (195, 600)
"""Points over the detail (the wide layout's right pane, the phone's pushed screen)."""
MOVED = "moved by the clock change"
CLOCKS_GO_FORWARD = "{place}'s clocks go forward on {date}: this firing is at {time} there"
"""The calendar's sentence for a firing the spring-forward moved (``viewmodels.calendar``)."""


@dataclass(frozen=True, slots=True)
class Language:
    browser: str
    """The browser's preferred language, as Chromium sends it."""
    current: str
    """Literal words, checked against the catalog: the Current section's name, ..."""
    instruction: str
    clocks_forward: str
    """... a word of the clock change's sentence, ..."""
    agenda: str
    """(German says "Agenda" as English does: its Today span is the proof.)"""
    today: str
    back: str
    """... and Flutter's own Back button (its Material words, not the app's catalog)."""

    @property
    def locale(self) -> Locale:
        return parsed_locale(self.browser)

    @property
    def words(self) -> Words:
        return words_for(self.locale)


GERMAN = Language("de-DE", "Aktuell", "Anweisung", "vorgestellt", "Agenda", "Heute", "Zurück")
CHINESE = Language("zh-CN", "当前", "指令", "拨快", "日程", "今天", "返回")


def translated(language: Language, english: str, literal: str) -> str:
    """The catalog's words for ``english``, which must contain ``literal``."""
    said = language.words.gettext(english)
    assert literal in said, f"the {language.browser} catalog gives {said!r} for {english!r}"
    return said


def current_rows(page: Page, words: Words) -> Locator:
    """The list's rows, named "<title>. <state>…" with the state in the language."""
    states = "|".join(re.escape(state_label(state, words=words)) for state in ("ACTIVE", "PAUSED"))
    return page.get_by_role("button", name=re.compile(rf"^.+?\. (?:{states})"))


def row_titled(page: Page, title: str) -> Locator:
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(title)}\. "))


def shot(page: Page, name: str) -> None:
    wait_for_cjk_fonts(page)
    save_screenshot(page, name)


@pytest.mark.parametrize("language", [GERMAN, CHINESE], ids=["de", "zh"])
@pytest.mark.parametrize("size", [DESKTOP_SIZE, PHONE_SIZE], ids=["desktop", "phone"])
def test_a_browser_in_german_or_chinese_reads_the_list_detail_calendar_and_agenda_in_it(
    language: Language,
    size: ViewportSize,
    open_page: PageOpener,
    served: ServedApp,
    database: ScheduleDatabase,
) -> None:
    phone = size == PHONE_SIZE
    detail_point = PHONE_DETAIL if phone else DESKTOP_DETAIL
    words, locale = language.words, language.locale
    name = f"languages-{language.browser[:2]}-{'phone' if phone else 'desktop'}"
    page = open_page(served.url, size=size, locale=language.browser)

    # The Current list: its section chosen, named in the language, and rows in it.
    current = button(page, translated(language, ListSection.CURRENT.label, language.current))
    expect(current).to_have_attribute("aria-current", "true")
    expect(current_rows(page, words).first).to_be_visible()
    shot(page, f"{name}-list")

    # A schedule's detail: its fields are labelled in the language.
    schedule, _ = gap_schedule(database)
    click_in_list(page, current_rows(page, words).first, row_titled(page, schedule.title))
    wait_for_text(page, translated(language, INSTRUCTION_HEADING, language.instruction))
    shot(page, f"{name}-detail")

    # Its calendar across New York's spring-forward: the day and its sentence.
    next_month = button(page, words.gettext(NEXT_MONTH_LABEL))
    scroll_until_attached(page, detail_point, next_month)
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    change = next_spring_forward(datetime.now(UTC))
    for _ in range((change.year - today.year) * 12 + change.month - today.month):
        next_month.click()
    heading = month_title(change.year, change.month, locale)
    expect(page.get_by_role("heading", name=heading)).to_be_attached()
    moved = re.escape(words.gettext(MOVED))
    cell = page.get_by_role(
        "button", name=re.compile(rf"^{re.escape(long_date_text(change, locale))}.*{moved}")
    )
    scroll_until_attached(page, detail_point, cell)  # a phone builds the weeks in view
    scroll_into_view(page, detail_point, cell)
    cell.click()
    expect(cell).to_have_attribute("aria-current", "true")
    sentence = translated(language, CLOCKS_GO_FORWARD, language.clocks_forward)
    said = sentence.split("{time}")[0].format(
        place=place_name(NEW_YORK.key), date=day_month_text(change, locale)
    )
    note = calendar_note(page, re.compile(f"^{re.escape(said)}"))
    expect(note).to_be_visible()
    scroll_into_view(page, detail_point, note)
    shot(page, f"{name}-calendar")

    # The Agenda, from the sidebar (the drawer, on a phone, once Back has left the detail).
    if phone:
        button(page, language.back).click()
        expect(current_rows(page, words).first).to_be_visible()
        button(page, words.gettext(OPEN_SIDEBAR_LABEL)).click()
        expect(button(page, words.gettext(AGENDA_ENTRY_LABEL))).to_be_visible()
        shot(page, f"{name}-drawer")
    button(page, words.gettext(AGENDA_ENTRY_LABEL)).click()
    agenda = translated(language, AGENDA_HEADING, language.agenda)
    expect(page.get_by_role("heading", name=agenda, exact=True)).to_be_visible()
    today_span = translated(language, AgendaSpan.TODAY.label, language.today)
    expect(button(page, today_span)).to_be_visible()
    shot(page, f"{name}-agenda")
