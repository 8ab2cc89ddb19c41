"""Each screen's state says its own words from its snapshot, so the views only lay them out.

One table: a snapshot in a given state, the text it offers, and the words a
person sees or hears (``tests/views/test_view_words.py`` holds the views to
writing none of their own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from devtools.api_bodies import uid
from viewmodels.detail import DetailPhase, ProfilesPhase, ScheduleDetailSnapshot
from viewmodels.detail.website_snapshot import WebsiteAccessSnapshot
from viewmodels.formatting import Tone
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list import ScheduleListSnapshot, ScheduleRow
from viewmodels.sidebar import MessageRow, SessionMessagesSnapshot, SidebarPhase, SidebarSnapshot
from viewmodels.sign_in import SignInPhase, SignInSnapshot

ROW = ScheduleRow(
    schedule_id=uid("s1"),
    title="Morning news digest",
    state="ACTIVE",
    state_label="Active",
    state_tone=Tone.LIVE,
    pause_reason_text=None,
    cadence_summary="Every day at 07:30",
    next_fire_at=None,
    next_fire_text=None,
    preview="Summarise the news",
    website_badge=None,
    attention_text=None,
    accessibility_label="Morning news digest. Active. Every day at 07:30",
)
MESSAGE = MessageRow(
    message_id=uid("m1"), role="user", role_label="You", text="Hello", time_text="10:42"
)
TRANSCRIPT = SessionMessagesSnapshot(session_id=uid("c1"), phase=FeedPhase.END_REACHED)
SIGNED_IN: SignInSnapshot[object] = SignInSnapshot(
    phase=SignInPhase.SIGNED_IN, display_name="Alice Example"
)
WEBSITE = WebsiteAccessSnapshot(schedule_id=uid("s1"), profiles_phase=ProfilesPhase.LOADED)

WORDS: list[tuple[str, Callable[[], str | None], str | None]] = [
    (
        "list-loading",
        lambda: ScheduleListSnapshot(phase=FeedPhase.LOADING_FIRST_PAGE).loading_text,
        "Loading schedules…",
    ),
    (
        "list-refreshing",
        lambda: (
            ScheduleListSnapshot(phase=FeedPhase.LOADING_FIRST_PAGE, rows=(ROW,)).refreshing_text
        ),
        "Refreshing schedules",
    ),
    (
        "opened-row-sentence",
        lambda: ROW.opened_accessibility_label,
        "Morning news digest. Active. Every day at 07:30. Shown in the details",
    ),
    (
        "detail-loading",
        lambda: ScheduleDetailSnapshot(uid("s1"), DetailPhase.LOADING).loading_text,
        "Loading schedule…",
    ),
    (
        "transcript-loading",
        lambda: replace(TRANSCRIPT, phase=FeedPhase.LOADING_FIRST_PAGE).loading_text,
        "Loading messages…",
    ),
    (
        "transcript-failed",
        lambda: replace(TRANSCRIPT, phase=FeedPhase.FAILED).failure_title,
        "This session could not be loaded",
    ),
    ("transcript-empty", lambda: TRANSCRIPT.empty_text, "No messages in this session."),
    (
        "transcript-loading-is-not-empty",
        lambda: replace(TRANSCRIPT, phase=FeedPhase.LOADING_FIRST_PAGE).empty_text,
        None,
    ),
    (
        "transcript-failed-is-not-empty",
        lambda: replace(TRANSCRIPT, phase=FeedPhase.FAILED, first_page_error="Down").empty_text,
        None,
    ),
    (
        "transcript-with-messages-is-not-empty",
        lambda: replace(TRANSCRIPT, messages=(MESSAGE,)).empty_text,
        None,
    ),
    ("message-byline", lambda: MESSAGE.byline, "You · 10:42"),
    (
        "sidebar-loading",
        lambda: SidebarSnapshot(phase=SidebarPhase.LOADING).progress_text,
        "Loading history",
    ),
    ("signed-in-as", lambda: SIGNED_IN.signed_in_text, "Signed in as\nAlice Example"),
    (
        "signed-in-as-you",
        lambda: replace(SIGNED_IN, display_name=None).signed_in_text,
        "Signed in as\nyou",
    ),
    (
        "sign-in-form-title",
        lambda: SignInSnapshot(SignInPhase.SIGNED_OUT).form_title,
        "Schedule Browser",
    ),
    (
        "sign-in-form-hint",
        lambda: SignInSnapshot(SignInPhase.SIGNED_OUT).form_hint,
        "Sign in with the token your team gave you.",
    ),
    (
        "sign-in-checking",
        lambda: SignInSnapshot(SignInPhase.STARTING).checking_text,
        "Signing in…",
    ),
    (
        "sign-in-unreachable",
        lambda: SignInSnapshot(SignInPhase.UNREACHABLE).unreachable_title,
        "Not signed in yet",
    ),
    ("website-idle", lambda: WEBSITE.progress_text, None),
    ("website-saving", lambda: replace(WEBSITE, saving=True).progress_text, "Saving…"),
    (
        "website-loading-sign-ins",
        lambda: replace(WEBSITE, profiles_phase=ProfilesPhase.LOADING).progress_text,
        "Loading sign-ins…",
    ),
    (
        "website-saving-says-saving-while-sign-ins-load",
        lambda: replace(WEBSITE, saving=True, profiles_phase=ProfilesPhase.LOADING).progress_text,
        "Saving…",
    ),
]


@pytest.mark.parametrize(
    ("text", "words"),
    [pytest.param(text, words, id=case) for case, text, words in WORDS],
)
def test_each_screen_state_says_its_own_words_from_its_snapshot(
    text: Callable[[], str | None], words: str | None
) -> None:
    assert text() == words
