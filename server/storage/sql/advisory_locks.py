"""PostgreSQL advisory locks: how server replicas sharing one database take turns.

Row locks settle who works on a row; these settle the turns no row stands
for: ``MIGRATION`` and ``DEMO_DATA`` (one replica does it, the others wait),
``RETENTION`` (one sweeps, the others skip), ``admission_of(owner)`` (one
principal's active-run count decided one batch at a time) and
``feeds_of(owner)`` (one principal's feeds counted and added to one at a time). Every lock is
transaction-scoped, so a replica that dies frees it as its work rolls back.
Keys are (kind, object) pairs of 32-bit numbers, the same in every replica.
On SQLite nothing is held and a try always succeeds: ``write_lock`` already
serializes the transactions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, Engine, Integer, bindparam, func, select, text

from server.storage.records import Owner

__all__ = [
    "DEMO_DATA",
    "MIGRATION",
    "RETENTION",
    "AdvisoryLock",
    "admission_of",
    "feeds_of",
    "hold",
    "holding",
    "try_hold",
    "try_hold_each",
]


@dataclass(frozen=True, slots=True)
class AdvisoryLock:
    """One lock's key: what kind of turn, and whose (0 when there is only one)."""

    kind: int
    object: int = 0


MIGRATION: Final = AdvisoryLock(0x5CED_0001)
DEMO_DATA: Final = AdvisoryLock(0x5CED_0002)
RETENTION: Final = AdvisoryLock(0x5CED_0003)
_ADMISSION_KIND: Final = 0x5CED_0004
_FEEDS_KIND: Final = 0x5CED_0005

# Built once (the scheduler takes a lock per materialization). Typed as
# integers, so the driver sends int4: only the (int4, int4) form takes a pair.
_KEY = (bindparam("kind", type_=Integer), bindparam("object", type_=Integer))
_HOLD = select(func.pg_advisory_xact_lock(*_KEY))
_TRY_HOLD = select(func.pg_try_advisory_xact_lock(*_KEY))
_TRY_HOLD_EACH = text(
    "SELECT o, pg_try_advisory_xact_lock(CAST(:kind AS integer), o)"
    " FROM unnest(CAST(:objects AS integer[])) AS o"
)


def admission_of(owner: Owner) -> AdvisoryLock:
    """The lock under which ``owner``'s active runs are counted and added to."""
    return AdvisoryLock(_ADMISSION_KIND, _owner_key(owner))


def feeds_of(owner: Owner) -> AdvisoryLock:
    """The lock under which ``owner``'s calendar feeds are counted and added to."""
    return AdvisoryLock(_FEEDS_KIND, _owner_key(owner))


def _owner_key(owner: Owner) -> int:
    name = f"{owner.tenant_id}\x00{owner.principal_id}".encode()
    digest = hashlib.blake2b(name, digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


def _takes_locks(connection: Connection) -> bool:
    return connection.dialect.name == "postgresql"


def hold(connection: Connection, lock: AdvisoryLock) -> None:
    """Wait for ``lock`` and hold it until the connection's transaction ends."""
    if _takes_locks(connection):
        connection.execute(_HOLD, {"kind": lock.kind, "object": lock.object})


def try_hold(connection: Connection, lock: AdvisoryLock) -> bool:
    """Hold ``lock`` until the transaction ends if it is free now; False, at once, if not."""
    if not _takes_locks(connection):
        return True
    parameters = {"kind": lock.kind, "object": lock.object}
    taken: bool = connection.execute(_TRY_HOLD, parameters).scalar_one()
    return taken


def try_hold_each(connection: Connection, locks: set[AdvisoryLock]) -> set[AdvisoryLock]:
    """Try each of ``locks`` at once, in one statement; the ones now held (all, off PostgreSQL).

    A lock another transaction holds is not waited for, so a batch that
    tries many never waits in a cycle with another batch.
    """
    if not _takes_locks(connection) or not locks:
        return set(locks)
    taken: set[AdvisoryLock] = set()
    for kind in {lock.kind for lock in locks}:
        objects = sorted(lock.object for lock in locks if lock.kind == kind)
        rows = connection.execute(_TRY_HOLD_EACH, {"kind": kind, "objects": objects})
        taken.update(AdvisoryLock(kind, row[0]) for row in rows if row[1])
    return taken


@contextmanager
def holding(engine: Engine, lock: AdvisoryLock) -> Iterator[None]:
    """Hold ``lock`` for the block, on a connection of its own.

    The block's own work goes through other connections and commits as it
    goes; the lock only keeps other processes' blocks from running beside it.
    """
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.begin() as connection:
        hold(connection, lock)
        yield
