"""Two ``schedule-server`` replicas on one PostgreSQL database, as behind a load balancer.

A client's pages may be served by different replicas in turn: with one
``--cursor-secret-file`` a cursor issued by one replica pages on at another; a
replica with a secret of its own refuses it as it refuses a tampered cursor.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest

from devtools.ports import free_port
from devtools.served_process import TOKEN, served, write_principals
from server.cli import main


def page(base_url: str, cursor: str | None = None) -> httpx.Response:
    params = {"limit": "4", **({} if cursor is None else {"cursor": cursor})}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    return httpx.get(f"{base_url}/v1/schedules", params=params, headers=headers, timeout=10)


def ids(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [item["schedule_id"] for item in response.json()["items"]]


def test_replicas_sharing_a_cursor_secret_page_on_with_each_others_cursors(
    postgres_url: str, tmp_path: Path
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ["schedule.read"])
    shared = tmp_path / "cursor-secret"
    shared.write_text(secrets.token_urlsafe(32), encoding="utf-8")
    sharing = ("--cursor-secret-file", str(shared))
    # Entered in order: the first replica has loaded the demo data once its banner shows.
    with (
        served(postgres_url, principals, *sharing, demo=True) as first,
        served(postgres_url, principals, *sharing) as second,
        served(postgres_url, principals) as stranger,
    ):
        page_one = page(first.base_url)
        cursor = page_one.json()["next_cursor"]
        assert cursor is not None
        page_two_here = ids(page(first.base_url, cursor))
        page_two_there = ids(page(second.base_url, cursor))
        refused = page(stranger.base_url, cursor)
    assert page_two_there == page_two_here
    assert not set(page_two_there) & set(ids(page_one))
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["field"] == "cursor"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(None, "cannot read the cursor secret file"), (b"short\n", "fewer than 32 bytes")],
)
def test_an_unusable_cursor_secret_file_is_one_sentence(
    tmp_path: Path, content: bytes | None, fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "cursor-secret"
    if content is not None:
        secret.write_bytes(content)
    database = f"sqlite:///{tmp_path / 'x.db'}"
    options = ["--database", database, "--cursor-secret-file", str(secret)]
    assert main(["serve", "--port", str(free_port()), *options]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert "short" not in err  # the secret itself is never echoed
    assert err.count("\n") == 1
