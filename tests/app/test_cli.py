"""The command line: what each argument means, and every refusal as exit 2 with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import TOKEN_ENV, main, parse_settings
from app.settings import EmbeddedServerSettings, RemoteServerSettings, UsageError

DATA = Path("/nonexistent/schedule-browser-data")


def test_no_arguments_means_embedded_server_with_demo_data_in_the_user_data_folder() -> None:
    settings = parse_settings([], {}, data_dir=DATA)
    assert settings.server == EmbeddedServerSettings(data_dir=DATA, demo=True)
    assert settings.server.database_path == DATA / "schedules.sqlite3"
    assert (settings.web, settings.desktop, settings.port) == (False, False, None)


def test_data_dir_and_no_demo_choose_another_empty_database(tmp_path: Path) -> None:
    settings = parse_settings(["--data-dir", str(tmp_path), "--no-demo"], {}, data_dir=DATA)
    assert settings.server == EmbeddedServerSettings(data_dir=tmp_path, demo=False)


def test_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(UsageError, match="is a file"):
        parse_settings(["--data-dir", str(afile)], {}, data_dir=DATA)


def test_web_with_port_serves_browsers_on_that_port() -> None:
    settings = parse_settings(["--web", "--port", "8123"], {}, data_dir=DATA)
    assert (settings.web, settings.port) == (True, 8123)


@pytest.mark.parametrize("port", ["0", "65536", "-1", "http"])
def test_bad_port_exits_2_with_the_reason(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--web", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "--port" in err
    assert "port number" in err


def test_web_and_desktop_together_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--web", "--desktop"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "--server URL" in capsys.readouterr().out


def test_remote_https_server_with_token_from_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("s3cret-token\n")
    settings = parse_settings(
        ["--server", "https://schedules.example.com/", "--token-file", str(token_file)],
        {TOKEN_ENV: "from-env"},
        data_dir=DATA,
    )
    assert settings.server == RemoteServerSettings(
        base_url="https://schedules.example.com", token="s3cret-token"
    )


def test_token_comes_from_the_environment_without_a_token_file() -> None:
    settings = parse_settings(
        ["--server", "https://schedules.example.com"], {TOKEN_ENV: " env-token \n"}, data_dir=DATA
    )
    assert isinstance(settings.server, RemoteServerSettings)
    assert settings.server.token == "env-token"


def test_remote_server_without_any_token_is_allowed() -> None:
    settings = parse_settings(["--server", "https://schedules.example.com"], {}, data_dir=DATA)
    assert isinstance(settings.server, RemoteServerSettings)
    assert settings.server.token is None


def test_token_never_appears_in_the_settings_repr(tmp_path: Path) -> None:
    settings = parse_settings(
        ["--server", "https://schedules.example.com"], {TOKEN_ENV: "s3cret"}, data_dir=DATA
    )
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize(
    "url",
    ["http://schedules.example.com", "http://10.0.0.5:8080", "http://[2001:db8::1]/"],
)
def test_plain_http_to_another_host_is_refused(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--server", url]) == 2
    err = capsys.readouterr().err
    assert "Refusing plain http" in err
    assert "https://" in err


@pytest.mark.parametrize(
    "url",
    ["http://localhost:8000", "http://127.0.0.1:9000/", "http://[::1]:8000", "http://127.8.9.1"],
)
def test_plain_http_to_this_machine_is_allowed(url: str) -> None:
    settings = parse_settings(["--server", url], {}, data_dir=DATA)
    assert isinstance(settings.server, RemoteServerSettings)
    assert settings.server.base_url == url.rstrip("/")


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://schedules.example.com", "not a web address"),
        ("schedules.example.com", "not a web address"),
        ("https://", "not a web address"),
        ("https://example.com:99999", "not a valid address"),
        ("https://example.com/?a=1", "query"),
    ],
)
def test_malformed_server_address_is_refused(url: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        parse_settings(["--server", url], {}, data_dir=DATA)


def test_missing_token_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "absent"
    code = main(["--server", "https://schedules.example.com", "--token-file", str(missing)])
    assert code == 2
    assert "does not exist" in capsys.readouterr().err


def test_empty_token_file_is_refused(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("  \n")
    with pytest.raises(UsageError, match="is empty"):
        parse_settings(
            ["--server", "https://schedules.example.com", "--token-file", str(token_file)],
            {},
            data_dir=DATA,
        )


def test_token_file_with_two_lines_is_refused(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("one\ntwo\n")
    with pytest.raises(UsageError, match="one token on one line"):
        parse_settings(
            ["--server", "https://schedules.example.com", "--token-file", str(token_file)],
            {},
            data_dir=DATA,
        )


def test_token_file_without_server_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="needs --server"):
        parse_settings(["--token-file", str(tmp_path / "t")], {}, data_dir=DATA)


def test_embedded_options_with_a_remote_server_are_refused() -> None:
    with pytest.raises(UsageError, match="embedded server"):
        parse_settings(
            ["--server", "https://schedules.example.com", "--no-demo"], {}, data_dir=DATA
        )


def test_a_flet_build_app_keeps_its_database_in_the_app_storage_folder(tmp_path: Path) -> None:
    settings = parse_settings([], {"FLET_APP_STORAGE_DATA": str(tmp_path)})
    assert settings.server == EmbeddedServerSettings(data_dir=tmp_path, demo=True)
