"""Failure reasons are our own sentences; the server's words are added only when they tell more."""

from __future__ import annotations

import pytest

from transport.errors import ServerRefused, error_for
from viewmodels.failure_text import failure_text


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
    assert failure_text(_refusal(status, code, message)) == shown


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
    assert failure_text(_refusal(status, code, message)) == shown
