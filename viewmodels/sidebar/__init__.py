"""The sidebar: sessions grouped by schedule, and the open session's transcript."""

from __future__ import annotations

from viewmodels.sidebar.messages import SessionMessagesViewModel
from viewmodels.sidebar.snapshot import (
    FolderEntry,
    MessageRow,
    ScheduleGroup,
    SessionMessagesSnapshot,
    SessionRow,
    SidebarPhase,
    SidebarSnapshot,
)
from viewmodels.sidebar.view_model import SidebarViewModel

__all__ = [
    "FolderEntry",
    "MessageRow",
    "ScheduleGroup",
    "SessionMessagesSnapshot",
    "SessionMessagesViewModel",
    "SessionRow",
    "SidebarPhase",
    "SidebarSnapshot",
    "SidebarViewModel",
]
