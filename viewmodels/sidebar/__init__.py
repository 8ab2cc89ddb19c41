"""The sidebar: sessions grouped by schedule, and the open session's transcript."""

from __future__ import annotations

from viewmodels.sidebar.groups import ScheduleGroup
from viewmodels.sidebar.messages import SessionMessagesViewModel
from viewmodels.sidebar.rows import SessionRow
from viewmodels.sidebar.snapshot import (
    FolderEntry,
    MessageRow,
    ScheduleSessions,
    SessionMessagesSnapshot,
    SessionOrigin,
    SidebarPhase,
    SidebarSnapshot,
    TranscriptOrigin,
)
from viewmodels.sidebar.transcript_markdown import outside_link
from viewmodels.sidebar.view_model import SidebarViewModel

__all__ = [
    "FolderEntry",
    "MessageRow",
    "ScheduleGroup",
    "ScheduleSessions",
    "SessionMessagesSnapshot",
    "SessionMessagesViewModel",
    "SessionOrigin",
    "SessionRow",
    "SidebarPhase",
    "SidebarSnapshot",
    "SidebarViewModel",
    "TranscriptOrigin",
    "outside_link",
]
