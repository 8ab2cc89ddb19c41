"""The ``calendar_feeds`` rows, on each backend: found only by the secret's digest, listed
per owner newest first without it, bounded per owner, and revoked at once by their owner
alone."""

from __future__ import annotations

import threading
from datetime import timedelta
from uuid import uuid4

import pytest
from sqlalchemy import select

from server.feeds.credential import mint_secret, secret_digest
from server.storage.records import CalendarFeed, Owner
from server.storage.sql.store import SqlStore
from server.storage.tables import calendar_feeds
from tests.clock import NOW

pytestmark = pytest.mark.each_backend

MOST = 10
ALICE = Owner("acme", "alice")
CAROL = Owner("acme", "carol")


def _feed(owner: Owner, minutes: int = 0, schedule: bool = True) -> CalendarFeed:
    return CalendarFeed(
        feed_id=uuid4(),
        owner=owner,
        schedule_id=uuid4() if schedule else None,
        name=f"Feed {minutes}",
        created_at=NOW + timedelta(minutes=minutes),
    )


def test_a_feed_is_found_by_its_secrets_digest_and_the_table_never_holds_the_secret(
    store: SqlStore,
) -> None:
    secret = mint_secret()
    feed = _feed(ALICE)
    store.feeds.add(feed, secret_digest(secret), most=MOST)

    assert store.feeds.by_digest(secret_digest(secret)) == feed
    assert store.feeds.by_digest(secret_digest(mint_secret())) is None
    with store.engine.connect() as connection:
        rows = [tuple(row) for row in connection.execute(select(calendar_feeds))]
    assert len(rows) == 1
    assert not any(secret in str(value) for value in rows[0])
    assert secret_digest(secret) in rows[0]


def test_feeds_are_listed_per_owner_newest_first_and_paged(store: SqlStore) -> None:
    mine = [_feed(ALICE, minutes) for minutes in range(3)]
    for feed in [*mine, _feed(CAROL, 5)]:
        store.feeds.add(feed, secret_digest(mint_secret()), most=MOST)
    everything = store.feeds.page(ALICE, None, 10)
    assert everything == mine[::-1]
    first = store.feeds.page(ALICE, None, 2)
    last = everything[1]
    assert first == everything[:2]
    assert store.feeds.page(ALICE, (last.created_at, last.feed_id), 2) == everything[2:]


def test_an_all_schedules_feed_keeps_its_null_schedule(store: SqlStore) -> None:
    feed = _feed(ALICE, schedule=False)
    store.feeds.add(feed, secret_digest("s"), most=MOST)
    assert store.feeds.page(ALICE, None, 1)[0].schedule_id is None


def test_only_the_owner_revokes_a_feed_and_its_secret_then_finds_nothing(store: SqlStore) -> None:
    secret = mint_secret()
    feed = _feed(ALICE)
    store.feeds.add(feed, secret_digest(secret), most=MOST)

    assert store.feeds.revoke(CAROL, feed.feed_id) is False
    assert store.feeds.by_digest(secret_digest(secret)) == feed
    assert store.feeds.revoke(ALICE, feed.feed_id) is True
    assert store.feeds.by_digest(secret_digest(secret)) is None
    assert store.feeds.revoke(ALICE, feed.feed_id) is False


def test_an_owner_keeps_at_most_the_bound_and_a_revoke_makes_room(store: SqlStore) -> None:
    kept = [_feed(ALICE, minutes) for minutes in range(3)]
    for feed in kept:
        assert store.feeds.add(feed, secret_digest(mint_secret()), most=3) is True
    refused = _feed(ALICE, 9)
    assert store.feeds.add(refused, secret_digest(mint_secret()), most=3) is False
    assert refused not in store.feeds.page(ALICE, None, 10), "nothing kept"
    assert store.feeds.add(_feed(CAROL), secret_digest(mint_secret()), most=3), "per owner"
    store.feeds.revoke(ALICE, kept[0].feed_id)
    assert store.feeds.add(refused, secret_digest(mint_secret()), most=3) is True


def test_creations_racing_each_other_never_pass_the_bound(store: SqlStore) -> None:
    for minutes in range(2):
        store.feeds.add(_feed(ALICE, minutes), secret_digest(mint_secret()), most=3)
    racers = [_feed(ALICE, 10 + n) for n in range(6)]
    start_together = threading.Barrier(len(racers))
    kept: list[bool] = []

    def add(feed: CalendarFeed) -> None:
        start_together.wait()
        kept.append(store.feeds.add(feed, secret_digest(mint_secret()), most=3))

    threads = [threading.Thread(target=add, args=(feed,)) for feed in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(kept) == [False] * 5 + [True]
    assert len(store.feeds.page(ALICE, None, 10)) == 3
