"""What went wrong with a schedule's firings: the words, and the notice when it is new."""

from __future__ import annotations

from viewmodels.attention.notices import (
    ANNOUNCED_KEY,
    AttentionNotice,
    AttentionNotices,
    NoticeSnapshot,
    outcome_key,
)
from viewmodels.attention.outcome_words import (
    NEVER_FIRED_TEXT,
    attention_line,
    last_firing_text,
    outcome_sentence,
)
from viewmodels.attention.overdue_words import overdue_explanation, overdue_text

__all__ = [
    "ANNOUNCED_KEY",
    "NEVER_FIRED_TEXT",
    "AttentionNotice",
    "AttentionNotices",
    "NoticeSnapshot",
    "attention_line",
    "last_firing_text",
    "outcome_key",
    "outcome_sentence",
    "overdue_explanation",
    "overdue_text",
]
