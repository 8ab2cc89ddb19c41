"""Shared pieces of every list route: the ``limit`` and ``cursor`` parameters and the page body.

Each route fetches one row more than asked; only when it exists is a cursor
for the last returned row issued, so ``next_cursor: null`` means the end.
A cursor's scope is the listing's name, the caller, and any qualifiers (a
filter, a parent id), so it is refused anywhere else.

A count in a query (``limit`` here, a cancel's ``expected_revision``) is
decimal digits and nothing else (``QueryInteger``): ``100.0``, ``1e2``,
``+5`` and `` 5`` are 400, as a body's text would be, rather than whatever a
lenient parser makes of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Generic, TypeVar

from fastapi import Query, Response
from pydantic import BaseModel, BeforeValidator

from server.api.cursor import CursorCodec
from server.api.responses import answer
from server.identity import Principal

Row = TypeVar("Row")
Key = TypeVar("Key")

DEFAULT_LIMIT = 50
_DIGITS = frozenset("0123456789")


def _digits_only(value: object) -> object:
    """A query value passes on only when it is decimal digits (ASCII, at least one)."""
    if isinstance(value, str) and not (value and set(value) <= _DIGITS):
        raise ValueError("an integer in decimal digits is expected")
    return value


QueryInteger = BeforeValidator(_digits_only)
"""Put in a query integer's ``Annotated``: digits only, never a float's or a sign's text."""
Limit = Annotated[int, Query(ge=1, le=100, description="Page size, 1..100."), QueryInteger]
Cursor = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=2048,
        description="Opaque next_cursor of a previous page; leave it out for page one.",
    ),
]


@dataclass(frozen=True, slots=True)
class Listing(Generic[Row, Key]):
    """One list route's paging: cursor scope name, keyset position both ways, item and page."""

    name: str
    position: Callable[[Row], list[str]]
    key: Callable[[list[str]], Key]
    item: Callable[[Row], BaseModel]
    page: type[BaseModel]

    def respond(
        self,
        cursors: CursorCodec,
        principal: Principal,
        cursor: str | None,
        limit: int,
        fetch: Callable[[Key | None, int], Sequence[Row]],
        *qualifiers: str,
    ) -> Response:
        """The page after ``cursor``; ``fetch(after, count)`` reads the caller's rows."""
        scope = "|".join((self.name, principal.tenant_id, principal.principal_id, *qualifiers))
        after = None if cursor is None else self.key(cursors.decode(scope, cursor))
        rows = fetch(after, limit + 1)
        shown = rows[:limit]
        next_cursor = cursors.encode(scope, self.position(shown[-1])) if len(rows) > limit else None
        return answer(self.page(items=[self.item(row) for row in shown], next_cursor=next_cursor))
