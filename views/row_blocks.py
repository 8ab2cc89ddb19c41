"""The list's rows in memoized blocks, so each new page costs the same however long the list.

Memoized rows (``views.schedule_row``) already skip re-rendering an unchanged
row, but the list still called every row's memo and Flet still compared every
row of its ``ListView`` on each render (a page arriving, a selection moving):
work that grew with the rows loaded, so the 100th page cost half again the
first. Here the ``ListView`` holds one memoized ``RowBlock`` per
``BLOCK_SIZE`` rows instead. A block's props are its slice of the view
model's rows (the same frozen row objects on every render, so the tuple
compares element by element by identity), the ids marked in it, and the
list's one ``open_row`` callback; an unchanged block is skipped whole. Inside
a block each row is still its own memo, so a selection move re-renders one
block and, in it, two rows.

The last ``TAIL`` or more rows stay single children of the list. Flutter
estimates a lazy list's length from the children it has laid out, and the
list asks for the next page from that estimate: with tall blocks near the
end the estimate overshot by up to a block, the end was reached without the
scroll position ever looking near it, and paging stopped (seen in Chromium).
Near the end the children are single rows, as before, so the estimate is
right where it matters; each page moves one block's worth of rows into a block.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.schedule_list import ScheduleRow
from views.schedule_row import ScheduleRowTile

BLOCK_SIZE = 20
TAIL = 2 * BLOCK_SIZE
"""At least this many of the last rows are single children, never in a block."""


class Block(Protocol):
    """The memoized block's call shape; ``key`` is Flet's reconciliation key."""

    def __call__(
        self,
        rows: tuple[ScheduleRow, ...],
        marked: frozenset[UUID],
        open_row: Callable[[UUID], None],
        *,
        key: str,
    ) -> ft.Control: ...


def _row_block(
    rows: tuple[ScheduleRow, ...], marked: frozenset[UUID], open_row: Callable[[UUID], None]
) -> ft.Control:
    """One block: its rows, each its own memo (a selection move re-renders two)."""
    return ft.Column(
        [
            ScheduleRowTile(row, row.schedule_id in marked, open_row, key=str(row.schedule_id))
            for row in rows
        ],
        spacing=0,
        tight=True,
    )


# ft.memo is unannotated in Flet 1.0.5; Block states what it returns.
RowBlock: Block = ft.memo(ft.component(_row_block))  # type: ignore[no-untyped-call]


def row_blocks(
    rows: Sequence[ScheduleRow], marked: set[UUID], open_row: Callable[[UUID], None]
) -> list[ft.Control]:
    """``rows`` as blocks of ``BLOCK_SIZE`` then the tail's single rows.

    ``marked`` holds the selected and the opened schedule's ids.
    """
    in_blocks = max(0, (len(rows) - TAIL) // BLOCK_SIZE * BLOCK_SIZE)
    children: list[ft.Control] = []
    for start in range(0, in_blocks, BLOCK_SIZE):
        block = tuple(rows[start : start + BLOCK_SIZE])
        inside = frozenset(row.schedule_id for row in block if row.schedule_id in marked)
        children.append(RowBlock(block, inside, open_row, key=f"rows-{start}"))
    children.extend(
        ScheduleRowTile(row, row.schedule_id in marked, open_row, key=str(row.schedule_id))
        for row in rows[in_blocks:]
    )
    return children
