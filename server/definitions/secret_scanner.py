"""Recognising credential-shaped text before it can become revision data.

A schedule stores identity, never credentials, so a definition whose text
looks like a token, key or password is refused. The scanner reports only the
kind of credential and where it was found; the matched text is never returned,
logged or stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """Where a credential-shaped value sits and what it resembles (never the value)."""

    field: str
    kind: str


_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("private_key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----")),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})")),
    ("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("stripe_key", re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("api_key", re.compile(r"\bsk-(?:[A-Za-z0-9_\-]{2,}-)?[A-Za-z0-9_\-]{20,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    ("bearer_token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{20,}=*")),
    (
        "password",
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|passcode|api[_ -]?key|secret[_ -]?key|access[_ -]?token)"
            r"\s*(?:is\s*)?[:=]\s*[\"']?[^\s\"']{6,}"
        ),
    ),
    ("url_credentials", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s@]{3,}@")),
)


def scan_text(text: str) -> str | None:
    """The kind of the first credential-shaped value in ``text``, or None."""
    for kind, pattern in _PATTERNS:
        if pattern.search(text):
            return kind
    return None


def scan_definition(definition: Mapping[str, Any]) -> SecretFinding | None:
    """The first finding among every text value of a definition, unknown fields included."""
    for field, text in _texts(definition, ""):
        kind = scan_text(text)
        if kind is not None:
            return SecretFinding(field=field, kind=kind)
    return None


def _texts(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _texts(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts(item, f"{path}[{index}]")
