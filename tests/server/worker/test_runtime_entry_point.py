"""An agent runtime installed in this Python is found by name in ``schedule_browser.executors``.

The test installs one the way a package would: a ``.dist-info`` folder with
an ``entry_points.txt`` on ``sys.path``, read by ``importlib.metadata``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from server.worker.attached_runtime import (
    RuntimeChoiceError,
    RuntimeInProcess,
    attached_runtime,
    executor_for,
)
from server.worker.run_dispatch import RunDispatcher
from tests.server.scene import Scene


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    info = tmp_path / "counting_runtime-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: counting-runtime\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[schedule_browser.executors]\n"
        "counting = tests.server.worker.in_process_runtime:CountingRuntime\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    return "counting"


async def test_a_runtime_installed_under_the_entry_point_group_carries_out_runs(
    installed: str, scene: Scene
) -> None:
    runtime = attached_runtime(installed, None)
    assert runtime == RuntimeInProcess("counting")
    schedule_id = scene.create(
        instruction="Count these five words please", requested_scopes=["session.read"]
    ).schedule.schedule_id
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    scene.clock.now = due_at
    assert scene.scan().written == 1
    dispatcher = RunDispatcher(scene.store, executor_for(runtime, scene.clock), scene.clock)
    assert await dispatcher.dispatch_once() == 1
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.session_id is not None
    owner = scene.schedule(schedule_id).owner
    (answer,) = scene.store.sessions.visible_messages(owner, occurrence.session_id, None, 10)
    assert answer.text == "5 words, scopes: session.read."


def test_a_name_that_no_installed_runtime_has_is_refused_with_the_names_installed(
    installed: str,
) -> None:
    with pytest.raises(RuntimeChoiceError, match=r"no agent runtime named 'other'.*counting"):
        attached_runtime("other", None)


@pytest.mark.parametrize(
    ("target", "secret", "fragment"),
    [
        ("http://runtime.example.com/runs", True, "must use https://"),
        ("https://runtime.example.com/runs", False, "needs --executor-secret-file"),
        ("ftp://127.0.0.1/runs", True, "not an http:// or https:// URL"),
        ("https://user:pw@runtime.example.com/", True, "must not hold credentials"),
    ],
)
def test_executor_flags_that_cannot_work_are_refused_in_one_sentence(
    tmp_path: Path, target: str, secret: bool, fragment: str
) -> None:
    path = tmp_path / "secret"
    path.write_bytes(b"x" * 40 + b"\n")
    with pytest.raises(RuntimeChoiceError, match=fragment):
        attached_runtime(target, path if secret else None)


def test_a_short_secret_is_refused_and_a_trailing_newline_is_not_part_of_the_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "secret"
    path.write_bytes(b"short\n")
    with pytest.raises(RuntimeChoiceError, match="fewer than 32 bytes"):
        attached_runtime("https://runtime.example.com/runs", path)
    path.write_bytes(b"k" * 40 + b"\n")
    runtime = attached_runtime("http://127.0.0.1:9/runs", path)
    assert runtime is not None and getattr(runtime, "secret", None) == b"k" * 40
    assert "kkkk" not in repr(runtime)
