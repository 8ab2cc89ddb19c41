"""Locale formats: times, dates, month titles, lists and the first weekday from CLDR.

The locale rides with the display zone (``display_zone(zone, cycle, locale)``);
a plain zone is the default, en_GB, which keeps the app's English look. The
sentences stay English here: only the formats follow the locale.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
import respx
from babel import Locale

from devtools.api_bodies import uid
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.conftest import FakeClock
from transport.client import ScheduleClient
from transport.models import Cadence
from viewmodels.calendar import CalendarViewModel
from viewmodels.calendar.month_grid import Month, grid_days
from viewmodels.formatting import (
    cadence_summary,
    date_text,
    instant_text,
    locale_of,
    next_firing_text,
    wall_time_text,
)
from viewmodels.formatting.clock_text import (
    HourCycle,
    day_with_weekday_text,
    display_zone,
    month_title,
)
from viewmodels.language import DEFAULT_LOCALE, first_known_locale, os_locale, parsed_locale

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")
EN_GB, EN_US, DE, ZH_CN = (Locale.parse(name) for name in ("en_GB", "en_US", "de", "zh_CN"))
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
AT = datetime(2026, 12, 24, 14, 0, tzinfo=UTC)  # 09:00 in New York
S1 = uid("s1")


def _zone(locale: Locale, cycle: HourCycle = HourCycle.LANGUAGE) -> ZoneInfo:
    return display_zone(NEW_YORK, cycle, locale)


def test_the_default_locale_keeps_todays_english() -> None:
    assert str(DEFAULT_LOCALE) == "en_GB"
    assert locale_of(NEW_YORK) == DEFAULT_LOCALE, "a plain zone carries the default"
    assert instant_text(AT, NEW_YORK) == "24 Dec 2026, 09:00"
    assert date_text(date(2026, 12, 24), DEFAULT_LOCALE) == "24 Dec 2026"
    weekly = Cadence.model_validate(
        {"kind": "WEEKLY", "weekdays": [1, 3, 5], "local_time": "09:00:00", "timezone": "UTC"}
    )
    assert cadence_summary(weekly, ZoneInfo("UTC")) == "Mondays, Wednesdays and Fridays at 09:00"


def test_en_us_writes_the_language_clock_as_9_00_am() -> None:
    zone = _zone(EN_US)
    assert next_firing_text(AT, NOW, zone) == "Next: Dec 24, 2026 at 9:00 AM"
    assert wall_time_text("09:00:00", HourCycle.LANGUAGE, EN_US) == "9:00 AM"


@pytest.mark.parametrize("locale", [EN_GB, DE], ids=["en_GB", "de"])
def test_en_gb_and_de_write_the_language_clock_as_09_00(locale: Locale) -> None:
    assert instant_text(AT, _zone(locale)).endswith("09:00")
    assert wall_time_text("09:00:00", HourCycle.LANGUAGE, locale) == "09:00"


def test_zh_cn_writes_times_as_cldr_gives_them() -> None:
    assert wall_time_text("09:00:00", HourCycle.LANGUAGE, ZH_CN) == "09:00"
    assert wall_time_text("09:00:00", HourCycle.H12, ZH_CN) == "上午9:00"
    assert instant_text(AT, _zone(ZH_CN)) == "2026年12月24日 09:00"


@pytest.mark.parametrize(
    ("locale", "cycle", "expected"),
    [
        pytest.param(EN_US, HourCycle.H24, "09:00", id="24-hour-switch-in-en_US"),
        pytest.param(EN_GB, HourCycle.H12, "9:00 am", id="12-hour-switch-in-en_GB"),
        pytest.param(DE, HourCycle.H12, "9:00\u202fAM", id="12-hour-switch-in-de"),
    ],
)
def test_the_12_or_24_hour_switch_wins_over_the_locale(
    locale: Locale, cycle: HourCycle, expected: str
) -> None:
    assert instant_text(AT, _zone(locale, cycle)).endswith(expected)


@pytest.mark.parametrize(
    ("locale", "title", "day"),
    [
        pytest.param(EN_GB, "March 2027", "14 Mar 2027", id="en_GB"),
        pytest.param(EN_US, "March 2027", "Mar 14, 2027", id="en_US"),
        pytest.param(DE, "März 2027", "14. März 2027", id="de"),
        pytest.param(ZH_CN, "2027年3月", "2027年3月14日", id="zh_CN"),
    ],
)
def test_month_titles_and_dates_follow_the_locale(locale: Locale, title: str, day: str) -> None:
    assert month_title(2027, 3, locale) == title
    assert date_text(date(2027, 3, 14), locale) == day


@pytest.mark.parametrize(
    ("locale", "heading"),
    [
        (EN_GB, "Wednesday 9 December"),
        (EN_US, "Wednesday, December 9"),
        (DE, "Mittwoch, 9. Dezember"),
        (ZH_CN, "12月9日星期三"),
    ],
)
def test_a_days_heading_writes_its_weekday_out_in_every_locale(
    locale: Locale, heading: str
) -> None:
    assert day_with_weekday_text(date(2026, 12, 9), locale) == heading


def test_a_cadences_list_is_joined_as_the_locales_language_joins_lists() -> None:
    weekly = Cadence.model_validate(
        {
            "kind": "WEEKLY",
            "weekdays": [1, 3, 5],
            "local_time": "09:00:00",
            "timezone": NEW_YORK.key,
        }
    )
    summary = cadence_summary(weekly, _zone(EN_US))
    assert summary == "Mondays, Wednesdays, and Fridays at 9:00 AM"
    german = cadence_summary(weekly, _zone(DE))
    assert german == "montags, mittwochs und freitags um 09:00", "German words, listed in German"
    yearly = Cadence.model_validate(
        {
            "kind": "YEARLY",
            "dates": [{"month": 12, "day": 24}],
            "local_time": "09:00:00",
            "timezone": "UTC",
        }
    )
    assert cadence_summary(yearly, _zone(EN_US)).startswith("Every year on December 24 at")


@pytest.mark.parametrize(
    ("locale", "first_heading", "first_weekday"),
    [
        pytest.param(EN_US, "Sun", 7, id="en_US-sunday"),
        pytest.param(EN_GB, "Mon", 1, id="en_GB-monday"),
        pytest.param(DE, "Mo", 1, id="de-monday"),
    ],
)
async def test_the_calendar_starts_its_weeks_on_the_locales_first_day(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    locale: Locale,
    first_heading: str,
    first_weekday: int,
) -> None:
    CalendarServer(router)
    calendar = CalendarViewModel(
        api, clock=clock, device_zone=display_zone(LONDON, HourCycle.LANGUAGE, locale)
    )

    await calendar.show(S1)  # today: 1 December 2026

    shown = calendar.snapshot
    assert shown.weekday_headings[0] == first_heading
    assert len(shown.weekday_headings) == 7
    assert all(week[0].day.isoweekday() == first_weekday for week in shown.weeks)
    assert all(len(week) == 7 for week in shown.weeks)


async def test_arrow_keys_move_by_day_and_week_in_a_sunday_first_grid(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router)
    calendar = CalendarViewModel(
        api, clock=clock, device_zone=display_zone(LONDON, HourCycle.LANGUAGE, EN_US)
    )
    await calendar.show(S1, opening=date(2026, 12, 6))  # a Sunday: the row's first day
    calendar.set_grid_focus(True)

    assert await calendar.press("Arrow Left")
    assert calendar.snapshot.selected_day == date(2026, 12, 5)  # the row above's last day
    assert await calendar.press("Arrow Down")
    assert calendar.snapshot.selected_day == date(2026, 12, 12)
    column = [i for week in calendar.snapshot.weeks for i, c in enumerate(week) if c.selected]
    assert column == [6]


def test_a_grid_from_any_first_weekday_holds_whole_weeks_around_the_month() -> None:
    for first in range(1, 8):
        days = grid_days(Month(2027, 2), first)
        assert days[0].isoweekday() == first
        assert len(days) % 7 == 0
        assert days[0] <= date(2027, 2, 1) and days[-1] >= date(2027, 2, 28)
        assert (days[0] - date(2027, 2, 1)).days > -7


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param({"LANG": "de_DE.UTF-8"}, "de_DE", id="lang"),
        pytest.param({"LANG": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en_US", id="lc_all-first"),
        pytest.param({"LANG": "C.UTF-8"}, None, id="c-names-none"),
        pytest.param({"LANG": "POSIX"}, None, id="posix-names-none"),
        pytest.param({}, None, id="unset-names-none"),
        pytest.param({"LANG": "xx_YY.UTF-8"}, None, id="unknown-names-none"),
    ],
)
def test_the_systems_locale_comes_from_lc_all_lc_time_or_lang(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str | None
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_TIME", "LC_CTYPE", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found = os_locale()
    assert (None if found is None else str(found)) == expected


def test_a_browsers_languages_give_the_first_cldr_knows() -> None:
    assert str(first_known_locale(["xx", "en-US", "de"])) == "en_US"
    assert first_known_locale(["xx"]) is None


def test_a_name_that_is_not_a_locale_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'xx_YY' is not a locale"):
        parsed_locale("xx_YY")
