"""The reason a view shows for a failed request: the transport's safe sentence, translated.

``error.summary`` of a transport error is written by the client and never
carries a token or an instruction; each one is marked here (``SUMMARIES``) so
the catalogs hold it, and looked up in the person's language. The server's own
human ``message`` is added, untranslated, only when it tells more ("profile is
not ready"), never when our sentence already says it all or the server's words
only repeat ours ("Schedule changed").
"""

from __future__ import annotations

from transport.errors import ApiError, ServerRefused
from viewmodels.language import N_, Words

SUMMARIES = frozenset(
    {
        N_("The schedule server request failed"),
        N_("Could not reach the schedule server"),
        N_("The schedule server did not answer in time"),
        N_("The schedule server sent an answer this app cannot read"),
        N_("The schedule server repeated a page cursor; paging stopped"),
        N_("The schedule server refused the request"),
        N_("The schedule server rejected the request as malformed"),
        N_("This server does not list schedules soonest first"),
        N_("The schedule server did not accept the credentials"),
        N_("This account lacks the permission for that action"),
        N_("The schedule server does not know that item"),
        N_("Schedule browsing isn't available on this server"),
        N_("The schedule changed since it was read"),
        N_("The schedule has ended and can no longer change"),
        N_("The same idempotency key was already used for a different request"),
        N_("Sessions created by a schedule cannot be moved to a folder"),
        N_(
            "You already have as many calendar feeds as this server allows; "
            "revoke one to make another"
        ),
        N_("The schedule server rejected the definition"),
        N_("That website sign-in is missing or not ready"),
        N_("The schedule asks for a permission this account does not hold"),
        N_("The instruction looks like it contains a credential"),
        N_("The schedule server is busy; try again shortly"),
        N_("The schedule server failed"),
    }
)
"""Every ``summary`` of ``transport.errors``, marked for the catalogs (a test keeps them equal)."""


def failure_text(error: ApiError, *, words: Words) -> str:
    """``error``'s sentence in ``words``' language, with the server's news when it adds any."""
    summary = words.gettext(error.summary)
    detail = error.added_detail if isinstance(error, ServerRefused) else None
    if detail is None:
        return summary
    # Translators: {summary} is why a request failed (one of this app's sentences);
    # {detail} is the schedule server's own message, in its own words.
    return words.gettext("{summary}: {detail}").format(summary=summary, detail=detail)
