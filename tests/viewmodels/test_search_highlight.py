"""Search says why a row matched: the words marked by the server's own matching rule.

``highlighted`` mirrors the server's ``q`` (docs/API.md, Search): every
whitespace-separated word, anywhere in the text, ignoring case and accents
after NFKD, each character literal. One test per rule, then the rows: the
words of the search the rows answer are marked in the title and preview, and
a row that shows none of them says its instruction matched.
"""

from __future__ import annotations

import asyncio
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import page, summary
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ok
from tests.viewmodels.test_search import CURRENT, opened_list, search_for, search_route
from transport.client import ScheduleClient
from viewmodels.schedule_list.rows import INSTRUCTION_MATCH_TEXT
from viewmodels.schedule_list.search_match import TextSpan, highlighted


def marked(text: str, query: str) -> list[str]:
    return [span.text for span in highlighted(text, query) if span.matched]


def test_a_word_matches_whatever_its_case() -> None:
    assert marked("Morning NEWS digest", "news") == ["NEWS"]


def test_a_word_matches_whatever_its_accents_both_ways() -> None:
    assert marked("Café orders", "CAFE") == ["Café"]
    assert marked("Cafe orders", "café") == ["Cafe"]


def test_a_combining_mark_is_marked_with_the_letter_it_sits_on() -> None:
    assert marked("Cafe\u0301 orders", "cafe") == ["Cafe\u0301"]


def test_cyrillic_yo_and_ie_find_each_other() -> None:
    assert marked("Ёлка", "ел") == ["Ёл"]


def test_compatibility_forms_fold_like_the_server_full_width_and_ligatures() -> None:
    full_width = "\uff21\uff22\uff23"  # full-width A, B and C
    assert marked(f"{full_width} report", "abc") == [full_width]
    assert marked("ﬁle the taxes", "fi") == ["ﬁ"], "a ligature is marked whole"


def test_every_word_of_the_query_is_marked_each_time_it_occurs() -> None:
    assert marked("the moving van moves", "van mov") == ["mov", "van", "mov"]


def test_a_word_matches_anywhere_inside_a_word_a_prefix_being_typed_or_unspaced_script() -> None:
    assert marked("Weekly digest", "dig") == ["dig"]
    assert marked("毎朝のニュース", "ニュース") == ["ニュース"]


def test_every_character_is_literal() -> None:
    assert marked("50% off_now, a*b", "% _ *") == ["%", "_", "*"]
    assert marked("50 percent", "%") == []


def test_overlapping_or_touching_matches_make_one_run() -> None:
    assert highlighted("banana", "an na") == (TextSpan("b"), TextSpan("anana", matched=True))


def test_an_empty_or_blank_query_marks_nothing() -> None:
    assert highlighted("Morning news", "") == (TextSpan("Morning news"),)
    assert highlighted("Morning news", "   ") == (TextSpan("Morning news"),)


def test_the_runs_put_together_are_the_text_as_written() -> None:
    text = "Cafe\u0301 ﬁles: the MOVING van"
    assert "".join(span.text for span in highlighted(text, "moving ﬁ café")) == text


def test_a_word_only_in_the_instruction_marks_nothing_in_the_title() -> None:
    assert marked("Weekly report", "moving") == []


async def test_search_rows_mark_the_matched_words_of_their_title_and_preview(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    found = summary("m", title="Book the moving van", preview="Call the Moving company")
    route.script((CURRENT, "moving", False, None), ok(page([found])))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "moving")
    (row,) = vm.snapshot.rows
    assert [s.text for s in row.title_spans if s.matched] == ["moving"]
    assert [s.text for s in row.preview_spans if s.matched] == ["Moving"]
    assert row.match_text is None


async def test_a_searched_row_showing_none_of_the_words_says_its_instruction_matched(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "van", False, None), ok(page([summary("m", title="Moving day")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "van")
    (row,) = vm.snapshot.rows
    assert not any(span.matched for span in (*row.title_spans, *row.preview_spans))
    assert row.match_text == INSTRUCTION_MATCH_TEXT


async def test_unsearched_rows_mark_nothing_and_say_nothing_of_a_match(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    search_route(router)
    vm, _sleep = await opened_list(api, clock, device_zone)
    (row,) = vm.snapshot.rows
    assert row.title_spans == (TextSpan(row.title),) and row.match_text is None


async def test_rows_keep_the_marks_of_the_search_they_answer_while_the_next_is_typed(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "mov", False, None), ok(page([summary("m", title="Moving day")])))
    route.script((CURRENT, "movi", False, None), ok(page([summary("m", title="Moving day")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "mov")
    typing = asyncio.create_task(vm.type_query("movi"))
    await sleep.sleepers(2)
    (row,) = vm.snapshot.rows
    assert [s.text for s in row.title_spans if s.matched] == ["Mov"], "marks of the shown search"
    sleep.pass_time()
    await typing
    (row,) = vm.snapshot.rows
    assert [s.text for s in row.title_spans if s.matched] == ["Movi"]
