"""A throwaway PostgreSQL for a benchmark's PostgreSQL column, removed at the end.

The same cluster the tests start (``devtools/postgres_cluster.py``): its own
temporary folder, a free loopback port, durability off, run as the
``postgres`` system user on a root machine. ``throwaway_database`` yields the
cluster and the URL of a new database, migrated to head, and removes the
whole cluster when the block ends, also when the benchmark fails.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.cpu_seconds import process_cpu_seconds  # noqa: E402
from devtools.postgres_cluster import PostgresCluster  # noqa: E402
from server.storage.sql.store import SqlStore  # noqa: E402


def _children_of(parent: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == parent:
            children.append(int(stat.parent.name))
    return children


def server_cpu_seconds(cluster: PostgresCluster) -> float:
    """CPU seconds used so far by the cluster's processes (postmaster and its backends).

    Backends that ended are no longer counted, so compare readings taken
    while the same connections stay open.
    """
    postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
    return process_cpu_seconds(postmaster) + sum(
        process_cpu_seconds(p) for p in _children_of(postmaster)
    )


@contextmanager
def throwaway_database(name: str) -> Iterator[tuple[PostgresCluster, str]]:
    """A started cluster and the URL of its new database ``name`` at head; all removed after."""
    cluster = PostgresCluster.start()
    try:
        url = cluster.create_database(name)
        SqlStore.open(url).close()  # migrated to head
        yield cluster, url
    finally:
        cluster.stop()
