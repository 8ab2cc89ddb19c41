"""The two clauses every owner-confined list query shares: whose rows, and which page.

Pages are keyset pages: rows are ordered by a sort column and the row id as a
tie-break, so each position is unique and a page continues strictly after the
last row of the previous one, however many rows were written in between.
"""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import UUID

from sqlalchemy import ColumnElement, Select, Table, and_, tuple_

from server.storage.records import Owner

_Query = TypeVar("_Query", bound=Select[*tuple[Any, ...]])


def owned_by(table: Table, owner: Owner) -> ColumnElement[bool]:
    """Rows of ``table`` that belong to ``owner``; another principal's rows are absent."""
    return and_(table.c.tenant_id == owner.tenant_id, table.c.principal_id == owner.principal_id)


def keyset_page(
    query: _Query,
    sort: ColumnElement[Any],
    row_id: ColumnElement[Any],
    after: tuple[Any, UUID] | None,
    limit: int,
    *,
    newest_first: bool,
) -> _Query:
    """``query`` ordered by (``sort``, ``row_id``), from after ``after``, at most ``limit`` rows."""
    position = tuple_(sort, row_id)
    if newest_first:
        query = query.order_by(sort.desc(), row_id.desc())
        if after is not None:
            query = query.where(position < after)
    else:
        query = query.order_by(sort, row_id)
        if after is not None:
            query = query.where(position > after)
    return query.limit(limit)
