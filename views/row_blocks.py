"""The list's rows in memoized blocks, so a new page costs the same however long the list.

The ``ListView`` holds one memoized ``RowBlock`` per ``BLOCK_SIZE`` rows. A
block's props are its slice of the view model's rows (the same frozen row
objects on every render), the focused and opened ids when they fall in it,
and the list's one ``open_row`` callback: an unchanged block is skipped whole,
and inside a block each row is its own memo (``views.schedule_row``). Near
the end, Flutter's estimate of the list's length can be a block too long,
hence ``LOAD_MORE_MARGIN`` in ``views.schedule_list``.
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
