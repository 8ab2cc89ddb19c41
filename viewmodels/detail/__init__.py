"""The detail pane: the point read, and the website access picker it owns."""

from __future__ import annotations

from viewmodels.detail.snapshot import (
    NOT_FOUND_TEXT,
    DetailGroup,
    DetailPhase,
    GroupKind,
    LabelledValue,
    ScheduleDetailFields,
    ScheduleDetailSnapshot,
)
from viewmodels.detail.view_model import ScheduleDetailViewModel
from viewmodels.detail.website_access import WebsiteAccessViewModel
from viewmodels.detail.website_snapshot import (
    ACCESS_EXPLANATION,
    NONE_OPTION,
    GrantQuestion,
    ProfilesPhase,
    SavedNote,
    WebsiteAccessSnapshot,
    WebsiteOption,
)

__all__ = [
    "ACCESS_EXPLANATION",
    "NONE_OPTION",
    "NOT_FOUND_TEXT",
    "DetailGroup",
    "DetailPhase",
    "GrantQuestion",
    "GroupKind",
    "LabelledValue",
    "ProfilesPhase",
    "SavedNote",
    "ScheduleDetailFields",
    "ScheduleDetailSnapshot",
    "ScheduleDetailViewModel",
    "WebsiteAccessSnapshot",
    "WebsiteAccessViewModel",
    "WebsiteOption",
]
