"""The demo's TOML entries: shipped with the package, and a bad entry fails loudly by name.

Each malformed case appends one entry to the shipped file, so the message must
name that entry among all the good ones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from server.demo import load_demo
from server.demo.entries import DemoData, DemoDataError, demo_data, packaged_text, read_demo
from server.storage.sql.store import SqlStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DAILY = '{ kind = "DAILY", local_time = "09:00:00", timezone = "UTC" }'


def schedule(key: str = "broken", **fields: str) -> str:
    """A ``[[schedules]]`` entry in TOML; ``fields`` are TOML values that replace or add."""
    values = {
        "key": f'"{key}"',
        "title": '"Broken on purpose"',
        "cadence": DAILY,
        "instruction": '"Say hello."',
        **fields,
    }
    return "\n[[schedules]]\n" + "".join(f"{name} = {value}\n" for name, value in values.items())


def shipped_plus(file_name: str, extra: str) -> DemoData:
    return read_demo(lambda name: packaged_text(name) + (extra if name == file_name else ""))


def test_the_shipped_demo_is_read_from_the_package_and_complete() -> None:
    data = demo_data()
    assert data == read_demo(packaged_text)
    assert len(data.schedules) >= 30 and len(data.chats) >= 5 and len(data.profiles) >= 4
    assert {s.cadence["kind"] for s in data.schedules} == {
        "ONCE",
        "DAILY",
        "WEEKLY",
        "MONTHLY",
        "YEARLY",
    }
    brief = max(data.schedules, key=lambda s: len(s.instruction)).instruction
    assert "\n\n" in brief and " \n" not in brief, "paragraphs, no stray line breaks"


def test_a_well_formed_extra_entry_loads() -> None:
    data = shipped_plus("schedules.toml", schedule("hello"))
    assert data.schedules[-1].key == "hello"
    assert data.schedules[-1].cadence == {
        "kind": "DAILY",
        "local_time": "09:00:00",
        "timezone": "UTC",
    }


@pytest.mark.parametrize(
    ("file_name", "extra", "message"),
    [
        pytest.param(
            "schedules.toml",
            schedule(titel='"Typo"'),
            "schedules.toml, schedule 'broken': titel: Unexpected keyword argument",
            id="unknown-field",
        ),
        pytest.param(
            "schedules.toml",
            schedule(revisions='"3"'),
            "schedules.toml, schedule 'broken': revisions: Input should be a valid integer",
            id="number-as-string",
        ),
        pytest.param(
            "schedules.toml",
            schedule(instruction="[]"),
            "schedules.toml, schedule 'broken': instruction: Input should be a valid string",
            id="wrong-type",
        ),
        pytest.param(
            "schedules.toml",
            '\n[[schedules]]\nkey = "broken"\ntitle = "No text"\ncadence = ' + DAILY + "\n",
            "schedules.toml, schedule 'broken': instruction: Field required",
            id="missing-field",
        ),
        pytest.param(
            "schedules.toml",
            schedule(
                cadence='{ kind = "WEEKLY", local_time = "09:00:00", weekdays = [8], '
                'timezone = "UTC" }'
            ),
            "schedule 'broken': cadence field 'weekdays' is invalid: weekday_out_of_range",
            id="cadence-not-in-wire-shape",
        ),
        pytest.param(
            "schedules.toml",
            schedule(cadence='{ kind = "ONCE" }'),
            "schedule 'broken': a ONCE cadence is",
            id="once-without-days",
        ),
        pytest.param(
            "schedules.toml",
            schedule(agent='"nobody"'),
            "schedule 'broken': agent 'nobody' is not in [agents]",
            id="unknown-agent",
        ),
        pytest.param(
            "schedules.toml",
            schedule(profile='"gmail"'),
            "schedule 'broken': profile 'gmail' is not in profiles.toml",
            id="unknown-profile",
        ),
        pytest.param(
            "schedules.toml",
            schedule(state='"PAUSED"'),
            "schedule 'broken': a PAUSED schedule, and only one, has a pause_reason",
            id="paused-without-reason",
        ),
        pytest.param(
            "schedules.toml",
            schedule(ledger='"MMZ"'),
            "schedule 'broken': ledger letters 'Z' are not among",
            id="unknown-ledger-letter",
        ),
        pytest.param(
            "schedules.toml",
            schedule("morning-news"),
            "schedules.toml, schedule 'morning-news': the key is used twice",
            id="duplicate-key",
        ),
        pytest.param(
            "schedules.toml",
            '\n[[schedule]]\nkey = "broken"\n',
            "schedules.toml: schedule: Unexpected keyword argument",
            id="misspelt-table",
        ),
        pytest.param(
            "schedules.toml",
            '\n[[schedules]]\nkey = "broken\n',
            "schedules.toml is not valid TOML",
            id="not-toml",
        ),
        pytest.param(
            "profiles.toml",
            '\n[[profiles]]\nkey = "broken"\ndisplay_name = "Broken"\nstate = "READY"\n',
            "profiles.toml, profile 'broken': origins: Field required",
            id="profile-missing-origins",
        ),
        pytest.param(
            "chats.toml",
            '\n[[chats]]\nkey = "broken"\ntitle = "Broken"\nhours_ago = 1\nfolder = "attic"\n'
            '[[chats.turns]]\nquestion = "Q?"\nanswer = "A."\n',
            "chats.toml, chat 'broken': folder 'attic' is not in [folders]",
            id="chat-unknown-folder",
        ),
        pytest.param(
            "chats.toml",
            '\n[[chats]]\nkey = "broken"\ntitle = "Broken"\nhours_ago = 1\n',
            "chats.toml, chat 'broken': a chat has at least one [[chats.turns]]",
            id="chat-without-turns",
        ),
    ],
)
def test_a_malformed_entry_fails_loudly_naming_the_entry(
    file_name: str, extra: str, message: str
) -> None:
    with pytest.raises(DemoDataError) as caught:
        shipped_plus(file_name, extra)
    assert message in str(caught.value)


def test_a_definition_the_server_refuses_fails_loudly_naming_the_entry(tmp_path: Path) -> None:
    data = shipped_plus("schedules.toml", schedule(title=f'"{"x" * 300}"'))
    store = SqlStore.open(f"sqlite:///{tmp_path / 'demo.db'}")
    try:
        with pytest.raises(DemoDataError, match=r"schedule 'broken': title: "):
            load_demo(store, "local", "local-tenant", NOW, data)
    finally:
        store.close()
