"""The reason a view shows for a failed request: the transport's safe sentence.

``str(err)`` of a transport error is written by the client and never carries a
token or an instruction. The server's own human ``message`` is added only when
it tells more ("profile is not ready"), never when our sentence already says
it all or the server's words only repeat ours ("Schedule changed").
"""

from __future__ import annotations

from transport.errors import ApiError, ServerRefused


def failure_text(error: ApiError) -> str:
    detail = error.added_detail if isinstance(error, ServerRefused) else None
    return error.summary if detail is None else f"{error.summary}: {detail}"
