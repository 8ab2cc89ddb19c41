"""What a hosted session's sign-in shows: its phase, the sentences it says, a token's shape.

``SignInSnapshot`` is generic in the account the app composes for the
signed-in person (the view model never looks inside it). Every sentence the
sign-in screen can show is a constant here, in English (marked ``N_``), so tests
and views name them; the snapshot says them in its ``locale``'s language.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from babel import Locale

from transport.errors import RateLimited
from viewmodels.formatting.shared_words import APP_NAME
from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for

TOKEN_KEY = "sign_in.token"
"""Device-storage key of a remembered token (under the server's namespace)."""
TOKEN_EXPIRES_KEY = "sign_in.token_expires_at"
"""When the remembered token is forgotten: an RFC 3339 instant, written before the token."""
PERSON_KEY = "sign_in.person"
"""Whose the remembered token is (ids and name, not a secret) and a digest of that token:
lets a new tab find that person's view cache while the server cannot be reached."""
LONGEST_TOKEN = 4096

EMPTY_TOKEN = N_("Enter your token.")
MALFORMED_TOKEN = N_(
    "A token is one line of letters, digits and punctuation, without spaces; "
    "check that it was pasted whole."
)
TOKEN_REFUSED = N_("The schedule server did not accept this token. Check it, or ask for a new one.")
SIGNED_OUT = N_("You signed out.")
REVOKED = N_(
    "The schedule server no longer accepts your token: it was revoked or has expired. "
    "Sign in again."
)
REMEMBERED_EXPIRED = N_(
    "This device remembered your sign-in for as long as it may; sign in again to continue."
)
SAVED_TOKEN_REFUSED = N_(
    "The token this device remembered is no longer accepted: it was revoked or has "
    "expired. Sign in again."
)


UNKNOWN_WAIT_SECONDS = 60
"""Said when a 429 carries no wait: the longest the server makes an address wait."""
# Translators: stands for the signed-in person's name in "Signed in as\n{name}".
UNNAMED_ACCOUNT = N_("you")
"""Who "Signed in as …" names when the server gave the principal no display name."""

TOKEN_LABEL = N_("Token")
SHOW_TOKEN_LABEL = N_("Show token")
HIDE_TOKEN_LABEL = N_("Hide token")
REMEMBER_LABEL = N_("Remember on this device")
SIGN_IN_LABEL = N_("Sign in")
SIGN_OUT_LABEL = N_("Sign out")
FORM_HINT = N_("Sign in with the token your team gave you.")
CHECKING_TEXT = N_("Signing in…")
NOT_SIGNED_IN_TITLE = N_("Not signed in yet")
"""The heading over a remembered sign-in that could not be checked (UNREACHABLE)."""


def not_checked(reason: str, *, remembered: bool, words: Words) -> str:
    """The token could not be checked (``reason``: the server could not answer): never "wrong"."""
    if remembered:
        # Translators: {reason} is why the schedule server could not answer, e.g.
        # "Could not reach the schedule server".
        text = words.gettext(
            "{reason}, so the sign-in this device remembered could not be checked."
        )
    else:
        # Translators: {reason} is why the schedule server could not answer, e.g.
        # "Could not reach the schedule server".
        text = words.gettext("{reason}, so the token could not be checked. Try again.")
    return text.format(reason=reason)


def too_many_attempts(seconds: int, *, words: Words) -> str:
    """The schedule server is slowing sign-in attempts from here (429): the wait, in words."""
    # Translators: {seconds} is a whole number of seconds; "s" is the unit's symbol.
    return words.gettext("Too many attempts. Try again in {seconds} s.").format(seconds=seconds)


def wait_seconds(err: RateLimited) -> int:
    """How long a 429 says to wait, in whole seconds (at least one)."""
    seconds = err.retry_after
    if seconds is None:
        detail = err.details.get("retry_after_seconds") if err.details else None
        seconds = float(detail) if isinstance(detail, int | float) else None
    return max(1, math.ceil(seconds)) if seconds is not None else UNKNOWN_WAIT_SECONDS


class SignInPhase(StrEnum):
    STARTING = "starting"
    """Reading this browser's remembered token, and checking it when there is one."""
    SIGNED_OUT = "signed_out"
    """The form."""
    VERIFYING = "verifying"
    """A typed token is being checked; the form is shown disabled."""
    UNREACHABLE = "unreachable"
    """A remembered token could not be checked (server down): retry, or sign out."""
    SIGNED_IN = "signed_in"


AccountT_co = TypeVar("AccountT_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Person:
    """Who signed in, as far as the app's device state needs: it keys their namespace."""

    tenant_id: str
    principal_id: str
    display_name: str


def token_digest(token: str) -> str:
    """Ties a stored ``Person`` to the one token it was read with (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class SignInSnapshot(Generic[AccountT_co]):
    phase: SignInPhase
    remember: bool = False
    """The "Remember on this device" choice (on when a remembered token signed in)."""
    notice: str | None = None
    """Why the form is shown: the person signed out, or the server stopped accepting them."""
    error: str | None = None
    """What went wrong with the last attempt, one sentence (or the outage, when UNREACHABLE)."""
    display_name: str | None = None
    """The signed-in principal's name, for "Signed in as …"."""
    account: AccountT_co | None = None
    """What ``open_account`` composed for the signed-in person; None otherwise."""
    verified: bool = True
    """False while a remembered sign-in was opened offline on this browser's view cache:
    the token is checked once the server answers again."""
    locale: Locale = DEFAULT_LOCALE
    """The language ``notice``, ``error`` and every text below are in; the view shows the
    labels of its widgets (``TOKEN_LABEL``, ``SIGN_IN_LABEL`` …) in its words too."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def account_name(self) -> str:
        """The name "Signed in as …" shows: the principal's, or "you" when it has none."""
        return self.display_name or self.words.gettext(UNNAMED_ACCOUNT)

    @property
    def signed_in_text(self) -> str:
        """The sidebar's header line: "Signed in as", then the name on a line of its own."""
        return self.words.gettext("Signed in as\n{name}").format(name=self.account_name)

    @property
    def form_title(self) -> str:
        """The form's heading: the app's name."""
        return APP_NAME

    @property
    def form_hint(self) -> str:
        """The line under the form's heading: where a token comes from."""
        return self.words.gettext(FORM_HINT)

    @property
    def checking_text(self) -> str:
        """What the screen says while a remembered token is checked (no form shown)."""
        return self.words.gettext(CHECKING_TEXT)

    @property
    def unreachable_title(self) -> str:
        """The failure panel's heading when a remembered token could not be checked."""
        return self.words.gettext(NOT_SIGNED_IN_TITLE)

    @property
    def shows_form(self) -> bool:
        return self.phase in (SignInPhase.SIGNED_OUT, SignInPhase.VERIFYING)

    @property
    def form_enabled(self) -> bool:
        return self.phase is SignInPhase.SIGNED_OUT

    @property
    def busy(self) -> bool:
        """A token is being checked: show progress."""
        return self.phase in (SignInPhase.STARTING, SignInPhase.VERIFYING)


def token_problem(token: str) -> str | None:
    """Why ``token`` (already stripped) cannot be a bearer token, or None."""
    if not token:
        return EMPTY_TOKEN
    if len(token) > LONGEST_TOKEN or any(not "!" <= char <= "~" for char in token):
        return MALFORMED_TOKEN
    return None
