"""The list's rows in memoized blocks, so each new page costs the same however long the list.

Memoized rows (``views.schedule_row``) already skip re-rendering an unchanged
row, but the list still called every row's memo and Flet still compared every
row of its ``ListView`` on each render (a page arriving, a selection moving):
work that grew with the rows loaded, so the 100th page cost half again the
first. Here the ``ListView`` holds one memoized ``RowBlock`` per
``BLOCK_SIZE`` rows instead. A block's props are its slice of the view
model's rows (the same frozen row objects on every render, so the tuple
compares element by element by identity), the focused and opened ids when
they are in it, and the
list's one ``open_row`` callback; an unchanged block is skipped whole. Inside
a block each row is still its own memo, so a selection move re-renders one
block and, in it, two rows.

Flutter estimates a lazy list's length from the children it has laid out, so
near the end of a list of blocks the estimate can be a block too long; the
list therefore asks for the next page ``LOAD_MORE_MARGIN`` pixels (more than
two blocks) before the estimated end (``views.schedule_list``), which also
means the next page is usually there before the reader reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.schedule_list import ScheduleRow
from views.schedule_row import ScheduleRowTile

BLOCK_SIZE = 10
"""Rows per block: about a window's height. Flutter's lazy list lays out each
block it shows whole, so the first paint lays out the rows a window shows,
not the whole first page (20 rows per block cost a cold start about a tenth
of a second more, measured in Chromium)."""


class Block(Protocol):
    """The memoized block's call shape; ``key`` is Flet's reconciliation key."""

    def __call__(
        self,
        rows: tuple[ScheduleRow, ...],
        focused: UUID | None,
        opened: UUID | None,
        open_row: Callable[[UUID], None],
        *,
        key: str,
    ) -> ft.Control: ...


def _row_block(
    rows: tuple[ScheduleRow, ...],
    focused: UUID | None,
    opened: UUID | None,
    open_row: Callable[[UUID], None],
) -> ft.Control:
    """One block: its rows, each its own memo (a selection move re-renders two)."""
    return ft.Column(
        [
            ScheduleRowTile(
                row,
                row.schedule_id == focused,
                row.schedule_id == opened,
                open_row,
                key=str(row.schedule_id),
            )
            for row in rows
        ],
        spacing=0,
        tight=True,
    )


# ft.memo is unannotated in Flet 1.0.5; Block states what it returns.
RowBlock: Block = ft.memo(ft.component(_row_block))  # type: ignore[no-untyped-call]


def row_blocks(
    rows: Sequence[ScheduleRow],
    focused: UUID | None,
    opened: UUID | None,
    open_row: Callable[[UUID], None],
) -> list[ft.Control]:
    """``rows`` as blocks of ``BLOCK_SIZE``; a block's marks are None unless inside it."""
    blocks: list[ft.Control] = []
    for start in range(0, len(rows), BLOCK_SIZE):
        block = tuple(rows[start : start + BLOCK_SIZE])
        ids = {row.schedule_id for row in block}
        blocks.append(
            RowBlock(
                block,
                focused if focused in ids else None,
                opened if opened in ids else None,
                open_row,
                key=f"rows-{start}",
            )
        )
    return blocks
