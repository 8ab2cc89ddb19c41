"""The reason a view shows for a failed request: the transport's safe sentence.

``str(err)`` of a transport error is written by the client and never carries a
token or an instruction; the server's own human ``message`` is added when it
sent one, because it is often the most useful part ("profile is not ready").
"""

from __future__ import annotations

from transport.errors import ApiError, ServerRefused


def failure_text(error: ApiError) -> str:
    if isinstance(error, ServerRefused) and error.message.strip():
        return f"{error.summary}: {error.message.strip()}"
    return error.summary
