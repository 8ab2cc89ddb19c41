"""Signing in to a hosted web view: one person's token, checked, remembered only if asked."""

from __future__ import annotations

from viewmodels.sign_in.ports import Connector, OfflineCopies, SignedInApi, SignInAttempts
from viewmodels.sign_in.snapshot import (
    EMPTY_TOKEN,
    LONGEST_TOKEN,
    MALFORMED_TOKEN,
    PERSON_KEY,
    REMEMBERED_EXPIRED,
    REVOKED,
    SAVED_TOKEN_REFUSED,
    SIGNED_OUT,
    TOKEN_EXPIRES_KEY,
    TOKEN_KEY,
    TOKEN_REFUSED,
    UNNAMED_ACCOUNT,
    Person,
    SignInPhase,
    SignInSnapshot,
    token_digest,
    token_problem,
    too_many_attempts,
)
from viewmodels.sign_in.view_model import SignInViewModel

__all__ = [
    "EMPTY_TOKEN",
    "LONGEST_TOKEN",
    "MALFORMED_TOKEN",
    "PERSON_KEY",
    "REMEMBERED_EXPIRED",
    "REVOKED",
    "SAVED_TOKEN_REFUSED",
    "SIGNED_OUT",
    "TOKEN_EXPIRES_KEY",
    "TOKEN_KEY",
    "TOKEN_REFUSED",
    "UNNAMED_ACCOUNT",
    "Connector",
    "OfflineCopies",
    "Person",
    "SignInAttempts",
    "SignInPhase",
    "SignInSnapshot",
    "SignInViewModel",
    "SignedInApi",
    "token_digest",
    "token_problem",
    "too_many_attempts",
]
