"""Black box: ``schedule-server serve --executor URL`` hands a due run to a real runtime.

A due schedule is written to the database, a real ``schedule-server`` starts
with ``--executor`` pointed at ``tests/agent_runtime.py``'s runtime and the
secret in a file, and the runtime's signed delivery and answer are read back
from the database. Neither the instruction nor the secret appears in what the
process printed. Start-up refusals are one sentence and exit status 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.pool import NullPool

from devtools.ports import free_port
from devtools.served_process import served, write_principals
from server.cli import main
from server.identity import ALL_SCOPES
from server.storage.sql.store import SqlStore
from server.storage.tables import runs, session_messages
from tests.agent_runtime import SECRET, agent_runtime, completes
from tests.polling import eventually_found
from tests.server.runtime.due_schedules import import_due

WITHIN_SECONDS = 60.0


def _answers(database_url: str) -> list[tuple[str, str]]:
    """(run status, assistant text) for every answer recorded so far."""
    engine = create_engine(database_url, poolclass=NullPool)
    query = select(runs.c.status, session_messages.c.text).join(
        session_messages, session_messages.c.session_id == runs.c.session_id
    )
    try:
        with engine.connect() as connection:
            rows = connection.execute(query.where(session_messages.c.role == "assistant")).all()
    finally:
        engine.dispose()
    return [(row.status, row.text) for row in rows]


def test_a_served_server_hands_a_due_run_to_the_runtime_and_records_its_answer(
    database_url: str, tmp_path: Path
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    secret_file = tmp_path / "executor-secret"
    secret_file.write_bytes(SECRET + b"\n")
    SqlStore.open(database_url).close()  # migrated, as a first start would
    import_due(database_url, ["alice"])
    with agent_runtime(completes("Standup notes are ready.")) as runtime:
        options = ("--executor", runtime.url, "--executor-secret-file", str(secret_file))
        with served(database_url, principals, *options) as server:
            found = eventually_found(
                lambda: _answers(database_url), "the run's answer", WITHIN_SECONDS, every=0.2
            )
            status, printed = server.sigterm()
    assert found == [("COMPLETED", "Standup notes are ready.")]
    (delivery,) = runtime.deliveries
    assert delivery.signed
    assert status == 0
    assert delivery.document["instruction"] not in printed
    assert SECRET.decode() not in printed


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (["--executor", "http://10.1.2.3/runs"], "must use https://"),
        (["--executor", "https://runtime.example.com/runs"], "needs --executor-secret-file"),
        (["--executor", "not-installed"], "no agent runtime named 'not-installed'"),
        (["--executor-secret-file", "/nonexistent"], "needs --executor URL"),
    ],
)
def test_executor_flags_that_cannot_work_stop_the_server_in_one_sentence(
    options: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["serve", "--database", database, "--port", str(free_port()), *options]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert err.count("\n") == 1
    assert not (tmp_path / "x.db").exists(), "refused before the database was opened"
