"""The sidebar: sessions grouped by schedule, and the open session's transcript."""

from __future__ import annotations

from viewmodels.sidebar.snapshot import (
    FolderEntry,
    MessageRow,
    MessagesPhase,
    ScheduleGroup,
    SessionMessagesSnapshot,
    SessionRow,
    SidebarPhase,
    SidebarSnapshot,
)

__all__ = [
    "FolderEntry",
    "MessageRow",
    "MessagesPhase",
    "ScheduleGroup",
    "SessionMessagesSnapshot",
    "SessionRow",
    "SidebarPhase",
    "SidebarSnapshot",
]
