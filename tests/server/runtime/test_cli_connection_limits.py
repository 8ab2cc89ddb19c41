"""``schedule-server serve``'s connection limits: parsed, defaulted, documented, applied.

The last test starts a real server process with a short ``--header-timeout``,
holds 50 connections that never finish their headers, and reads the API as a
person would while they hang on; then sees each of them closed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from connection_limits import ConnectionLimits, limits_from
from devtools.ports import LOOPBACK
from devtools.served_process import TOKEN, served, write_principals
from server.cli import _parser

HALF_OPEN = 50
CLOSE_WITHIN = 20.0


def test_defaults_are_the_listeners_own() -> None:
    args = _parser().parse_args(["serve"])
    assert limits_from(args) == ConnectionLimits()


def test_options_set_each_limit() -> None:
    args = _parser().parse_args(
        [
            "serve",
            "--header-timeout",
            "2.5",
            "--keep-alive-timeout",
            "3",
            "--max-connections",
            "40",
            "--max-header-bytes",
            "8192",
        ]
    )
    assert limits_from(args) == ConnectionLimits(
        header_timeout=2.5, keep_alive_timeout=3, max_connections=40, max_header_bytes=8192
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--header-timeout", "0"),
        ("--header-timeout", "soon"),
        ("--header-timeout", "inf"),
        ("--keep-alive-timeout", "0"),
        ("--max-connections", "-1"),
        ("--max-header-bytes", "lots"),
    ],
)
def test_nonsense_is_a_usage_error(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        _parser().parse_args(["serve", option, value])
    assert exited.value.code == 2
    assert option in capsys.readouterr().err


def test_help_documents_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "connection limits" in shown
    for option in (
        "--header-timeout S",
        "--keep-alive-timeout S",
        "--max-connections N",
        "--max-header-bytes N",
    ):
        assert option in shown
    assert "answered 503" in shown
    assert "answered 431" in shown


async def test_the_api_answers_while_half_open_connections_hang_on_until_their_timeout(
    tmp_path: Path,
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ["schedule.read"])
    url = f"sqlite:///{tmp_path / 's.db'}"
    options = ("--header-timeout", "1", "--keep-alive-timeout", "60", "--drain-seconds", "0")
    with served(url, principals, *options) as server:
        hanging = []
        for _ in range(HALF_OPEN):
            reader, writer = await asyncio.open_connection(LOOPBACK, server.port)
            writer.write(b"GET /v1/schedules HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            hanging.append((reader, writer))
        async with httpx.AsyncClient(
            base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}
        ) as person:
            answer = await person.get("/v1/schedules")
        assert answer.status_code == 200
        ends = await asyncio.wait_for(
            asyncio.gather(*(reader.read() for reader, _ in hanging)), CLOSE_WITHIN
        )
        for _, writer in hanging:
            writer.close()
            await writer.wait_closed()
    assert ends == [b""] * HALF_OPEN
