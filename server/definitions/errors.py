"""Refusals of the schedule control plane, independent of HTTP.

    ControlPlaneRefusal
    ├── ScheduleNotFound        unknown, foreign or purged
    ├── SessionNotFound
    ├── FolderNotFound
    ├── RevisionConflict        stale expected_revision (carries current_revision)
    ├── ScheduleTerminal        mutation of COMPLETED or CANCELLED
    ├── IdempotencyConflict     same key, different request
    ├── SessionNotChat          folder move of a scheduled session
    ├── InvalidDefinition       field + stable reason code
    ├── BrowserProfileUnavailable
    ├── ScopeNotGranted         a requested scope the caller does not hold
    └── SecretDetected          credential-shaped text; the match is never kept

``server.api.errors`` maps each to the envelope of docs/API.md. Messages never
contain instruction text or a detected value.
"""

from __future__ import annotations


class ControlPlaneRefusal(Exception):
    """Base of every expected refusal."""


class ScheduleNotFound(ControlPlaneRefusal):
    pass


class SessionNotFound(ControlPlaneRefusal):
    pass


class FolderNotFound(ControlPlaneRefusal):
    pass


class RevisionConflict(ControlPlaneRefusal):
    def __init__(self, current_revision: int) -> None:
        super().__init__(f"the schedule is at revision {current_revision}")
        self.current_revision = current_revision


class ScheduleTerminal(ControlPlaneRefusal):
    def __init__(self, state: str) -> None:
        super().__init__(f"the schedule is {state}")
        self.state = state


class IdempotencyConflict(ControlPlaneRefusal):
    pass


class SessionNotChat(ControlPlaneRefusal):
    pass


class InvalidDefinition(ControlPlaneRefusal):
    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class BrowserProfileUnavailable(ControlPlaneRefusal):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ScopeNotGranted(ControlPlaneRefusal):
    def __init__(self, scope: str) -> None:
        super().__init__(scope)
        self.scope = scope


class SecretDetected(ControlPlaneRefusal):
    def __init__(self, field: str, kind: str) -> None:
        super().__init__(f"{field}: {kind}")
        self.field = field
        self.kind = kind
