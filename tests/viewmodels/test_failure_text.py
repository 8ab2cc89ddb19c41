"""Failure reasons are our own sentences; the server's words are added only when they tell more."""

from __future__ import annotations

from gettext import NullTranslations

import pytest
from babel import Locale

from transport import errors
from transport.errors import ApiError, ServerRefused, error_for
from viewmodels.failure_text import SUMMARIES, failure_text
from viewmodels.language import words_for

ENGLISH = NullTranslations()


def _refusal(status: int, code: str, message: str) -> ServerRefused:
    return error_for(status, code, message, {})


@pytest.mark.parametrize(
    ("status", "code", "message", "shown"),
    [
        (
            409,
            "schedule.revision_conflict",
            "Schedule changed",
            "The schedule changed since it was read",
        ),
        (
            409,
            "schedule.revision_conflict",
            "Conflict: now at 9",
            "The schedule changed since it was read",
        ),
        (
            409,
            "schedule.terminal",
            "Schedule is CANCELLED",
            "The schedule has ended and can no longer change",
        ),
        (404, "schedule.not_found", "Not found", "The schedule server does not know that item"),
        (
            429,
            "request.rate_limited",
            "Slow down",
            "The schedule server is busy; try again shortly",
        ),
        (500, "server.error", "The server failed.", "The schedule server failed"),
    ],
)
def test_a_refusal_our_sentence_covers_never_echoes_the_server(
    status: int, code: str, message: str, shown: str
) -> None:
    assert failure_text(_refusal(status, code, message), words=ENGLISH) == shown


@pytest.mark.parametrize(
    ("status", "code", "message", "shown"),
    [
        (
            422,
            "schedule.browser_profile_unavailable",
            "profile is not ready",
            "That website sign-in is missing or not ready: profile is not ready",
        ),
        (
            422,
            "schedule.invalid_definition",
            "The definition's cadence.at is invalid (not_in_future).",
            "The schedule server rejected the definition:"
            " The definition's cadence.at is invalid (not_in_future).",
        ),
        (
            422,
            "schedule.invalid_definition",
            "The definition was rejected",
            "The schedule server rejected the definition",
        ),
        (400, "request.invalid", "  ", "The schedule server rejected the request as malformed"),
    ],
)
def test_the_servers_words_are_added_only_when_they_say_more(
    status: int, code: str, message: str, shown: str
) -> None:
    assert failure_text(_refusal(status, code, message), words=ENGLISH) == shown


def test_every_sentence_the_transport_can_give_is_marked_for_the_catalogs() -> None:
    kinds = [
        kind
        for kind in vars(errors).values()
        if isinstance(kind, type) and issubclass(kind, ApiError)
    ]
    assert {kind.summary for kind in kinds} <= SUMMARIES


def test_a_failure_reads_in_the_persons_language_and_the_servers_words_stay_its_own() -> None:
    refusal = _refusal(422, "schedule.browser_profile_unavailable", "profile is not ready")
    german = words_for(Locale.parse("de_DE"))
    chinese = words_for(Locale.parse("zh_Hans_CN"))
    assert failure_text(refusal, words=german) == (
        "Diese Website-Anmeldung fehlt oder ist noch nicht bereit: profile is not ready"
    )
    assert (
        failure_text(refusal, words=chinese)
        == "该网站登录信息不存在或尚未就绪：profile is not ready"  # noqa: RUF001
    )
