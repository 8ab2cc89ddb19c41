"""``schedule-server serve`` runs the scheduler unless ``--no-worker`` (a read-only replica)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from devtools.ports import free_port
from server.cli import _parser, main
from server.identity import generated_local_directory
from server.serving import scheduling_for
from server.storage.sql.store import SqlStore
from server.worker.runtime import SchedulingRuntime
from server.worker.wake import WakeSignal


def _parsed(*options: str) -> argparse.Namespace:
    return _parser().parse_args(["serve", *options])


def test_no_worker_runs_no_scheduler_and_the_default_runs_one(tmp_path: Path) -> None:
    store = SqlStore.open(f"sqlite:///{tmp_path / 'x.db'}")
    directory, _ = generated_local_directory()
    try:
        replica = _parsed("--no-worker")
        assert scheduling_for(replica, store, directory, WakeSignal()) is None
        primary = _parsed("--max-active-runs", "3")
        assert isinstance(
            scheduling_for(primary, store, directory, WakeSignal()), SchedulingRuntime
        )
    finally:
        store.close()


def test_the_active_run_cap_must_be_a_positive_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--max-active-runs", "0"])
    assert exited.value.code == 2
    assert "1 or more" in capsys.readouterr().err


def test_run_slots_not_above_the_active_run_cap_stop_the_server_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'x.db'}"
    options = ["--database", database, "--max-active-runs", "8", "--run-slots", "8"]
    assert main(["serve", "--port", str(free_port()), *options]) == 2
    err = capsys.readouterr().err
    assert "--run-slots must be more than --max-active-runs" in err
    assert err.count("\n") == 1
    assert not (tmp_path / "x.db").exists(), "refused before the database was opened"
