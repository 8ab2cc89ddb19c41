"""The list's rows in memoized blocks, so a new page costs the same however long the list.

The ``ListView`` holds one memoized ``RowBlock`` per ``BLOCK_SIZE`` rows. A
block's props are its slice of the view model's rows (the same frozen row
objects on every render), the focused and opened ids and the Tab stops when
they fall in it, and the list's one ``RowActions``: an unchanged block is skipped whole,
and inside a block each row is its own memo (``views.schedule_row``). Near
the end, Flutter's estimate of the list's length can be a block too long,
hence ``LOAD_MORE_MARGIN`` in ``views.schedule_list``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.schedule_list import ScheduleRow
from views.schedule_row import RowActions, ScheduleRowTile

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
        tab_stops: tuple[UUID, ...],
        actions: RowActions,
        *,
        key: str,
    ) -> ft.Control: ...


def _row_block(
    rows: tuple[ScheduleRow, ...],
    focused: UUID | None,
    opened: UUID | None,
    tab_stops: tuple[UUID, ...],
    actions: RowActions,
) -> ft.Control:
    """One block: its rows, each its own memo (a selection move re-renders two)."""
    return ft.Column(
        [
            ScheduleRowTile(
                row,
                row.schedule_id == focused,
                row.schedule_id == opened,
                row.schedule_id in tab_stops,
                actions,
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
    actions: RowActions,
    held: UUID | None = None,
) -> list[ft.Control]:
    """``rows`` as blocks of ``BLOCK_SIZE``; a block's marks are None unless inside it.

    The Tab stop is the highlighted row, else the first one; ``held``, the row
    holding the focus, stays one too until the focus leaves it.
    """
    stops = {stop for stop in (tab_stop_of(rows, focused), held) if stop is not None}
    blocks: list[ft.Control] = []
    for start in range(0, len(rows), BLOCK_SIZE):
        block = tuple(rows[start : start + BLOCK_SIZE])
        ids = {row.schedule_id for row in block}
        blocks.append(
            RowBlock(
                block,
                focused if focused in ids else None,
                opened if opened in ids else None,
                tuple(sorted(stop for stop in stops if stop in ids)),
                actions,
                key=f"rows-{start}",
            )
        )
    return blocks


def tab_stop_of(rows: Sequence[ScheduleRow], focused: UUID | None) -> UUID | None:
    """The list's one Tab stop: the highlighted row while it is loaded, else the first row."""
    if focused is not None and any(row.schedule_id == focused for row in rows):
        return focused
    return rows[0].schedule_id if rows else None
