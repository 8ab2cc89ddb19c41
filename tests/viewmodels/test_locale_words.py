"""The formatting sentences in German and Chinese: each rule, once per language.

The words follow the locale the display zone carries (``words_of``), or the
``words``/``locale`` a caller passes; lists, dates and numbers come from CLDR.
These read the compiled catalogs (``scripts/setup`` compiles them).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from babel import Locale

from transport.models import Cadence, Disposition, Limits, RunStatus
from viewmodels.formatting import (
    age_text,
    cadence_summary,
    duration_text,
    humanize,
    limit_lines,
    money_text,
    next_firing_text,
    past_firing_words,
    pause_reason_text,
    state_label,
)
from viewmodels.formatting.clock_text import HourCycle, display_zone, month_name, your_time_text
from viewmodels.language import DEFAULT_LOCALE, words_for

PARIS = ZoneInfo("Europe/Paris")
EN, DE, ZH = DEFAULT_LOCALE, Locale.parse("de_DE"), Locale.parse("zh_Hans_CN")
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WEEKLY = {"kind": "WEEKLY", "local_time": "08:30:00", "weekdays": [5, 1, 3], "timezone": PARIS.key}
MONTHLY = {
    "kind": "MONTHLY",
    "local_time": "18:00:00",
    "days_of_month": [15, 1],
    "last_day": True,
    "timezone": PARIS.key,
}


def _in(locale: Locale, zone: ZoneInfo = PARIS) -> ZoneInfo:
    return display_zone(zone, HourCycle.LANGUAGE, locale)


def _summary(payload: dict[str, Any], zone: ZoneInfo) -> str:
    return cadence_summary(Cadence.model_validate(payload), zone)


def test_an_english_weekly_cadence_keeps_its_plural_weekdays() -> None:
    assert _summary(WEEKLY, _in(EN)) == "Mondays, Wednesdays and Fridays at 08:30"


def test_a_german_weekly_cadence_lists_adverbial_weekdays_joined_by_und() -> None:
    assert _summary(WEEKLY, _in(DE)) == "montags, mittwochs und freitags um 08:30"


def test_a_chinese_weekly_cadence_reads_every_week_with_cldr_list_marks() -> None:
    assert _summary(WEEKLY, _in(ZH)) == "每周一、周三和周五 08:30"


def test_german_monthly_days_are_ordinals_with_a_full_stop() -> None:
    assert _summary(MONTHLY, _in(DE)) == "Monatlich am 1., 15. und letzten Tag um 18:00"


def test_chinese_monthly_days_are_days_of_the_month() -> None:
    assert _summary(MONTHLY, _in(ZH)) == "每月1日、15日和最后一天 18:00"


def test_chinese_names_another_zone_in_full_width_brackets() -> None:
    daily = {"kind": "DAILY", "local_time": "09:00:00", "timezone": PARIS.key}
    assert _summary(daily, _in(ZH, ZoneInfo("Asia/Shanghai"))) == (
        "每天 09:00（Europe/Paris）"  # noqa: RUF001 - Chinese writes full-width brackets
    )


def test_a_language_without_a_catalog_lists_its_english_words_as_english_does() -> None:
    french = _summary(WEEKLY, _in(Locale.parse("fr_FR")))
    assert french == "Mondays, Wednesdays, and Fridays at 08:30"


def test_a_german_state_label_and_pause_reason() -> None:
    words = words_for(DE)
    assert state_label("PAUSED", words=words) == "Pausiert"
    assert pause_reason_text("PAUSED", "user", words=words) == "Von Ihnen pausiert"


def test_a_chinese_state_label_and_pause_reason() -> None:
    words = words_for(ZH)
    assert state_label("PAUSED", words=words) == "已暂停"
    assert pause_reason_text("PAUSED", "failure_limit", words=words) == "多次失败后已暂停"


def test_an_unknown_value_stays_humanized_in_every_language() -> None:
    for locale in (DE, ZH):
        assert state_label("WAITING_FOR_APPROVAL", words=words_for(locale)) == (
            "Waiting for approval"
        )
    assert humanize("__", words=words_for(DE)) == "Unbekannt"


def test_a_german_outcome_is_one_sentence_with_its_instant_and_reason() -> None:
    said = past_firing_words(
        Disposition.MATERIALIZED,
        None,
        RunStatus.FAILED,
        words=words_for(DE),
        failure_reason="deadline_exceeded",
        at="09:00",
    )
    assert said == "Ausführung fehlgeschlagen (09:00): sie hat ihre Frist überschritten"


def test_a_chinese_outcome_is_one_sentence_with_its_instant_and_reason() -> None:
    said = past_firing_words(
        Disposition.MISSED, "active_run_limit", None, words=words_for(ZH), at="09:00"
    )
    assert said == "已错过（09:00）：其所有者已有过多运行在进行中"  # noqa: RUF001


@pytest.mark.parametrize(
    ("ago", "expected"),
    [
        pytest.param(timedelta(seconds=30), "gerade eben", id="just-now"),
        pytest.param(timedelta(minutes=5), "vor 5 Min.", id="minutes"),
        pytest.param(timedelta(days=1), "vor 1 Tag", id="one-day-singular"),
        pytest.param(timedelta(days=3), "vor 3 Tagen", id="three-days-plural"),
    ],
)
def test_german_ages_use_the_plural_form_the_count_needs(ago: timedelta, expected: str) -> None:
    assert age_text(NOW - ago, NOW, _in(DE)) == expected


@pytest.mark.parametrize(
    ("ago", "expected"),
    [
        pytest.param(timedelta(seconds=30), "刚刚", id="just-now"),
        pytest.param(timedelta(hours=2), "2小时前", id="hours"),
        pytest.param(timedelta(days=3), "3天前", id="days"),
    ],
)
def test_chinese_ages_have_one_form(ago: timedelta, expected: str) -> None:
    assert age_text(NOW - ago, NOW, _in(ZH)) == expected


def test_the_next_firing_is_said_in_the_zones_language() -> None:
    soon = NOW + timedelta(hours=1)
    assert next_firing_text(soon, NOW, _in(DE)) == "Nächste: heute um 14:00"
    assert next_firing_text(soon, NOW, _in(ZH)) == "下次：今天 14:00"  # noqa: RUF001


def test_durations_in_german_and_chinese() -> None:
    assert duration_text(5400, words=words_for(DE)) == "1 Std. 30 Min."
    assert duration_text(5400, words=words_for(ZH)) == "1小时30分钟"


@pytest.mark.parametrize(
    ("locale", "amount"), [(EN, "5.00"), (DE, "5,00")], ids=["en-point", "de-comma"]
)
def test_money_is_written_as_the_locale_writes_numbers(locale: Locale, amount: str) -> None:
    assert money_text(Decimal("5"), locale=locale) == amount


def test_german_limits_have_german_labels_and_numbers() -> None:
    limits = Limits.model_validate({"max_steps": 1000, "max_cost": "5"})
    assert limit_lines(limits, locale=DE) == (("Max. Schritte", "1.000"), ("Max. Kosten", "5,00"))


def test_whose_clock_and_an_odd_month_are_said_in_the_locales_language() -> None:
    assert your_time_text(_in(DE)) == "Zeiten in Europe/Paris, der Zeitzone Ihres Geräts"
    assert month_name(13, DE) == "Monat 13"
