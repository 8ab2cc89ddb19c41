"""Search, Needs attention and the counts over 100,000 schedules of one principal.

How it measures: bench/README.md, "search.py". Run: ``.venv/bin/python bench/search.py``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from uuid import UUID, uuid4

from sqlalchemy import insert, select, text, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.in_process import (
    NOW,
    SECRET,
    alternating_medians,
    definition_template,
    sqlite_and_postgres,
)
from server.api.cursor import CursorCodec
from server.identity import LocalIdentity
from server.storage.records import Owner, RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.search_text import search_words
from server.storage.sql.outcome import REFRESH_VALUES
from server.storage.sql.search_index import contains_all
from server.storage.sql.store import SqlStore
from server.storage.tables import schedule_occurrences, schedules

PER_PRINCIPAL = 100_000
LIMIT = 50
RUNS = 30
ROUNDS = 6
CURRENT = ("ACTIVE", "PAUSED")

COMMON, RARE, ABSENT, PREFIX, JAPANESE = "digest", "zeppelin", "quixotic", "di", "会議"
VOCABULARY = tuple(
    " ".join(
        (
            "summarise check inbox unread newsletter bullets weather forecast invoice payment",
            "reminder calendar flight hotel price stock market portfolio backup server status",
            "report weekly monthly review team update sales pipeline customer support ticket",
            "release notes build failures security alerts budget expenses receipts travel",
            "booking renewal subscription domain certificate expiry podcast episodes reading",
            "list recipes groceries delivery tracking shipment warehouse inventory orders",
        )
    ).split()
)
JAPANESE_WORDS = ("週次", "報告", "予定", "確認", "メール", "要約", "送信", "資料", "売上", "顧客")
TOPICS = ("Inbox", "Invoices", "Weather", "Markets", "Travel", "Team", "Support", "Releases")


def _text(rng: random.Random, index: int) -> tuple[str, str]:
    """A title and an instruction; which words appear follows the module docstring."""
    if index % 10 == 9:  # written in Japanese
        words = rng.sample(JAPANESE_WORDS, 6) + ([JAPANESE] if index % 20 == 9 else [])
        rng.shuffle(words)
        return f"{rng.choice(JAPANESE_WORDS)}の{rng.choice(JAPANESE_WORDS)} {index}", "、".join(
            words
        ) + "をまとめてください。"
    words = rng.sample(VOCABULARY, 14) + ([COMMON] if index % 2 == 0 else [])
    if index % (PER_PRINCIPAL // 10) == 1:
        words.append(RARE)
    rng.shuffle(words)
    title = f"{rng.choice(TOPICS)} {rng.choice(VOCABULARY)} {index}"
    return title, "Open the pages and " + " ".join(words) + " in five bullets."


def _populate(store: SqlStore, owner: Owner, seed: int) -> None:
    rng = random.Random(seed)
    template = definition_template("INSTRUCTION")
    views: list[ScheduleView] = []
    ledger: list[dict[str, Any]] = []
    for index in range(PER_PRINCIPAL):
        schedule_id = uuid4()
        state = "CANCELLED" if index % 50 == 0 else ("PAUSED" if index % 7 == 0 else "ACTIVE")
        at = NOW - timedelta(seconds=index * 13)
        record = ScheduleRecord(
            schedule_id,
            owner,
            state,
            "user" if state == "PAUSED" else None,
            1,
            NOW + timedelta(hours=1) if state == "ACTIVE" else None,
            0,
            at,
            at,
        )
        title, instruction = _text(rng, index)
        definition = template.replace("TITLE", title).replace("INSTRUCTION", instruction)
        views.append(ScheduleView(record, RevisionRecord(schedule_id, 1, definition, "local", at)))
        ledger.append(_occurrence(schedule_id, at, missed=index % 100 == 3))
        if len(views) == 5_000:
            _load(store, views, ledger)
            views, ledger = [], []
    _load(store, views, ledger)


def _occurrence(schedule_id: UUID, at: datetime, *, missed: bool) -> dict[str, Any]:
    """One ledger entry: MISSED, or a firing that ran and whose session has since gone."""
    fired = at - timedelta(minutes=30)
    return {
        "id": uuid4(),
        "schedule_id": schedule_id,
        "schedule_revision": 1,
        "nominal_fire_at": fired,
        "disposition": "MISSED" if missed else "MATERIALIZED",
        "session_id": None,
        "run_id": None,
        "reason_code": "grace_exceeded" if missed else None,
        "authority_version": None if missed else "v1",
        "materialized_at": None if missed else fired,
        "links_erased_at": None if missed else at,
        "created_at": fired,
    }


def _load(store: SqlStore, views: list[ScheduleView], ledger: list[dict[str, Any]]) -> None:
    if not views:
        return
    store.schedules.import_many(views)
    with store.engine.begin() as connection:
        connection.execute(insert(schedule_occurrences), ledger)


def _keep_outcomes(store: SqlStore) -> None:
    """The migration's backfill: every row's kept last outcome, from the ledger."""
    with store.engine.begin() as connection:
        connection.execute(update(schedules).values(REFRESH_VALUES))


def _last_page_cursor(store: SqlStore, owner: Owner) -> str:
    """The cursor a client holds before the common word's last page of Current."""
    matching = (
        select(schedules.c.updated_at, schedules.c.id)
        .where(
            schedules.c.tenant_id == owner.tenant_id,
            schedules.c.principal_id == owner.principal_id,
            schedules.c.state.in_(CURRENT),
            contains_all(search_words(COMMON)),
        )
        .order_by(schedules.c.updated_at.desc(), schedules.c.id.desc())
    )
    with store.engine.connect() as connection:
        rows = connection.execute(matching).all()
    updated_at, schedule_id = rows[len(rows) - LIMIT - 1]
    scope = f"schedules|{owner.tenant_id}|{owner.principal_id}|ACTIVE,PAUSED|q={COMMON}"
    return CursorCodec(SECRET).encode(scope, [updated_at.isoformat(), str(schedule_id)])


def _list(**params: str) -> str:
    query = [("state", state) for state in CURRENT] + [("limit", str(LIMIT))]
    return "/v1/schedules?" + urlencode(query + list(params.items()))


PLAIN = "plain list, page 1"
MEASURES = (
    PLAIN,
    f"q={COMMON} (common word, half the rows)",
    f"q={RARE} (rare word, 10 rows)",
    f"q={ABSENT} (no match)",
    f"q={PREFIX} (two-letter prefix)",
    f"q={JAPANESE} (two-character Japanese)",
    "needs_attention=true",
    "GET /v1/schedules/counts",
    f"counts, q={COMMON}",
    f"q={COMMON}, last page",
)


def _urls(store: SqlStore, owner: Owner) -> tuple[str, ...]:
    return (
        _list(),
        _list(q=COMMON),
        _list(q=RARE),
        _list(q=ABSENT),
        _list(q=PREFIX),
        _list(q=JAPANESE),
        _list(needs_attention="true"),
        "/v1/schedules/counts",
        "/v1/schedules/counts?" + urlencode({"q": COMMON}),
        _list(q=COMMON, cursor=_last_page_cursor(store, owner)),
    )


def _rows(body: Any) -> int:
    """How many rows an answer holds (the counts: its needs_attention)."""
    return len(body["items"]) if "items" in body else int(body["current"])


async def _measure(stores: dict[str, SqlStore], owner: Owner) -> None:
    urls = {name: _urls(store, owner) for name, store in stores.items()}
    medians, bodies = await alternating_medians(stores, urls, MEASURES, runs=RUNS, rounds=ROUNDS)
    _report(list(stores), medians, {key: _rows(body) for key, body in bodies.items()})


def _report(
    names: list[str], medians: dict[tuple[str, str], float], rows: dict[tuple[str, str], int]
) -> None:
    header = "".join(f"{name + ' ms':>15}{'x plain':>9}{'rows':>7}" for name in names)
    print(f"{'request (Current, limit 50)':<44}{header}")
    for measure in MEASURES:
        cells = ""
        for name in names:
            figure = medians[name, measure]
            ratio = figure / medians[name, PLAIN]
            cells += f"{figure:>15.2f}{ratio:>9.2f}{rows[name, measure]:>7}"
        print(f"{measure:<44}{cells}")
    last = "".join(
        f"{medians[name, MEASURES[-1]] / medians[name, MEASURES[1]]:>15.2f}{'':>16}"
        for name in names
    )
    print(f"{'ratio last page / page 1, q=' + COMMON:<44}{last}")
    print(
        f"(median of {RUNS} runs in {ROUNDS} alternating rounds after 5 warm-up requests;"
        f" {PER_PRINCIPAL:,} schedules of the caller beside {PER_PRINCIPAL:,} of another;"
        " rows: items on the page, or the counts' current total)"
    )


def main() -> None:
    local = LocalIdentity().principal.owner
    others = Owner(local.tenant_id, "someone-else")
    with sqlite_and_postgres("bench_search") as stores:
        for name, store in stores.items():
            start = time.perf_counter()
            _populate(store, local, seed=1)
            _populate(store, others, seed=2)
            _keep_outcomes(store)
            elapsed = time.perf_counter() - start
            print(f"bulk load of {2 * PER_PRINCIPAL:,} schedules, {name}: {elapsed:.1f} s")
        # As autovacuum would; SQLite's planner reads no statistics the server gathers.
        with stores["PostgreSQL"].engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").execute(
                text("VACUUM ANALYZE")
            )
        asyncio.run(_measure(stores, local))


if __name__ == "__main__":
    main()
