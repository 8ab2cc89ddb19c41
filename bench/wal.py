"""The SQLite WAL under mixed load: does it stay bounded beside the database?

A real ``schedule-server serve`` on a fresh SQLite file, its worker on, takes
60 seconds of mixed load over loopback: 8 reader threads (a list page, then
a point read of a schedule on it, in a loop) and 2 writer threads (creates:
every fourth one a ONCE schedule due 3 seconds later, so the worker fires
throughout, the rest DAILY; then a title update of each, a full-definition update). Every
thread stops at the deadline or after its bounded number of requests. Once a
second the script samples the size of ``schedules.db`` and ``schedules.db-wal``;
it prints the largest and the last WAL beside the database, the ratio, and
the requests served. The target: the WAL under 4 times the database or
16 MB, whichever is larger.

    .venv/bin/python bench/wal.py [seconds]
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import uuid4

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from devtools.api_bodies import definition_json
from devtools.served_process import TOKEN, served, write_principals

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
READERS = 8
WRITERS = 2
MOST_REQUESTS_PER_THREAD = 50_000
TARGET_RATIO = 4
TARGET_BYTES = 16 * 1024 * 1024
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_status: dict[int, int] = {}

    def add(self, status: int) -> None:
        with self.lock:
            self.by_status[status] = self.by_status.get(status, 0) + 1


def reader(base_url: str, deadline: float, tally: Tally) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH, timeout=30) as client:
        for _ in range(MOST_REQUESTS_PER_THREAD):
            if time.monotonic() > deadline:
                return
            page = client.get("/v1/schedules", params={"limit": 50})
            tally.add(page.status_code)
            items = page.json().get("items", []) if page.status_code == 200 else []
            if items:
                point = client.get(f"/v1/schedules/{items[len(items) // 2]['schedule_id']}")
                tally.add(point.status_code)


def writer(base_url: str, deadline: float, tally: Tally) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH, timeout=30) as client:
        for n in range(MOST_REQUESTS_PER_THREAD):
            if time.monotonic() > deadline:
                return
            if n % 4 == 0:
                at = (datetime.now(UTC) + timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
                cadence = {"kind": "ONCE", "at": at}
                body = definition_json(title=f"Load {n}", cadence=cadence)
            else:
                body = definition_json(title=f"Load {n}")
            created = client.post(
                "/v1/schedules", json=body, headers={"Idempotency-Key": uuid4().hex}
            )
            tally.add(created.status_code)
            if created.status_code != 201:
                continue
            detail = created.json()
            body["title"] = f"Load {n}b"
            updated = client.patch(
                f"/v1/schedules/{detail['schedule_id']}",
                json={"expected_revision": detail["current_revision"], "definition": body},
            )
            tally.add(updated.status_code)


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-wal-") as folder:
        root = Path(folder)
        database = root / "schedules.db"
        wal = root / "schedules.db-wal"
        principals = write_principals(root / "principals.toml", ["schedule.read", "schedule.write"])
        with served(f"sqlite:///{database}", principals, "--rate-limit", "0") as server:
            deadline = time.monotonic() + SECONDS
            tally = Tally()
            threads = [
                threading.Thread(target=reader, args=(server.base_url, deadline, tally))
                for _ in range(READERS)
            ] + [
                threading.Thread(target=writer, args=(server.base_url, deadline, tally))
                for _ in range(WRITERS)
            ]
            for thread in threads:
                thread.start()
            largest_wal = largest_ratio = 0.0
            while any(thread.is_alive() for thread in threads):
                time.sleep(1)
                wal_bytes, db_bytes = size(wal), size(database)
                largest_wal = max(largest_wal, wal_bytes)
                largest_ratio = max(largest_ratio, wal_bytes / max(db_bytes, 1))
            for thread in threads:
                thread.join()
            last_wal, last_db = size(wal), size(database)
            with httpx.Client(base_url=server.base_url, headers=AUTH) as client:
                page = client.get("/v1/schedules", params={"limit": 1})
                fired = page.status_code
            status, _printed = server.sigterm()
    mib = 1024 * 1024
    limit = max(TARGET_RATIO * last_db, TARGET_BYTES)
    print(f"SQLite WAL under {SECONDS:.0f} s of mixed load ({READERS} readers, {WRITERS} writers,")
    print("worker on; loopback; sampled once a second)")
    print(f"  requests by status        {dict(sorted(tally.by_status.items()))}")
    print(f"  database at the end       {last_db / mib:8.2f} MiB")
    print(f"  WAL at the end            {last_wal / mib:8.2f} MiB")
    print(f"  WAL largest seen          {largest_wal / mib:8.2f} MiB")
    print(f"  WAL / database at the end {last_wal / max(last_db, 1):8.2f}x")
    print(f"  WAL / database, largest   {largest_ratio:8.2f}x  (the database is smallest early on)")
    print(
        f"  target: WAL under max(4x database, 16 MiB) = {limit / mib:.2f} MiB: "
        f"{'met' if largest_wal < limit else 'NOT met'}"
    )
    print(f"  (server answered {fired} after the load; exit status {status})")


if __name__ == "__main__":
    main()
