"""``schedule-browser``'s limits of the web view: defaulted, parsed, refused where they do
not apply, documented."""

from __future__ import annotations

from gettext import NullTranslations
from pathlib import Path

import pytest

from app.cli import parse_settings
from app.options import build_parser
from app.settings import UsageError, WebLimits
from connection_limits import ConnectionLimits
from tests.app.system_language import english_system  # noqa: F401 - autouse: English

DATA = Path("/nonexistent/schedule-browser-data")
HOSTED = [
    "--web",
    "--server",
    "https://schedules.example.com",
    "--behind-proxy",
    "--public-url",
    "https://app.example.com",
]


def test_defaults_hold_without_options() -> None:
    assert parse_settings([], {}, data_dir=DATA).web_limits == WebLimits()
    assert WebLimits().connections == ConnectionLimits()


def test_options_set_every_limit_of_the_hosted_web_view() -> None:
    settings = parse_settings(
        [
            *HOSTED,
            "--header-timeout",
            "4",
            "--keep-alive-timeout",
            "2",
            "--max-connections",
            "300",
            "--max-header-bytes",
            "8192",
            "--max-frame-bytes",
            "65536",
            "--waiting-sockets",
            "4",
            "--sign-in-timeout",
            "45",
        ],
        {},
        data_dir=DATA,
    )
    assert settings.web_limits == WebLimits(
        connections=ConnectionLimits(
            header_timeout=4,
            keep_alive_timeout=2,
            max_connections=300,
            max_header_bytes=8192,
            max_frame_bytes=65536,
        ),
        waiting_per_address=4,
        sign_in_seconds=45,
    )


def test_connection_limits_apply_to_the_local_web_view_too() -> None:
    settings = parse_settings(["--web", "--max-connections", "50"], {}, data_dir=DATA)
    assert settings.web_limits.connections.max_connections == 50


def test_connection_limits_without_the_web_view_are_refused() -> None:
    with pytest.raises(UsageError, match="add --web"):
        parse_settings(["--header-timeout", "3"], {}, data_dir=DATA)


@pytest.mark.parametrize("option", [["--waiting-sockets", "3"], ["--sign-in-timeout", "30"]])
def test_sign_in_limits_need_other_people_signing_in(option: list[str]) -> None:
    with pytest.raises(UsageError, match="other people sign in"):
        parse_settings(["--web", *option], {}, data_dir=DATA)


@pytest.mark.parametrize(
    "option",
    [["--sign-in-timeout", "0"], ["--waiting-sockets", "0"], ["--max-frame-bytes", "big"]],
)
def test_nonsense_values_are_argument_errors(option: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_settings([*HOSTED, *option], {}, data_dir=DATA)
    assert exited.value.code == 2


def test_help_documents_the_limits() -> None:
    shown = " ".join(build_parser(NullTranslations()).format_help().split())
    assert "limits of the web view (with --web)" in shown
    for option in (
        "--header-timeout S",
        "--keep-alive-timeout S",
        "--max-connections N",
        "--max-header-bytes N",
        "--max-frame-bytes N",
        "--waiting-sockets N",
        "--sign-in-timeout S",
    ):
        assert option in shown
