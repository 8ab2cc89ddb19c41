"""The command line: what each argument means, and every refusal as exit 2 with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main, parse_settings
from app.options import TOKEN_ENV
from app.settings import (
    EmbeddedServerSettings,
    RemoteServerSettings,
    TlsFiles,
    UsageError,
    WebAddress,
)
from devtools.self_signed import CertificatePair, self_signed
from server.embedded import RuntimeAtUrl
from tests.app.system_language import english_system  # noqa: F401 - autouse: English

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


def test_os_notifications_are_on_unless_no_os_notifications_turns_them_off() -> None:
    assert parse_settings([], {}, data_dir=DATA).os_notifications
    assert not parse_settings(["--no-os-notifications"], {}, data_dir=DATA).os_notifications


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


# Serving other devices (--host, --certfile/--keyfile, --behind-proxy)

TEAM_SERVER = "https://schedules.example.com"
APP_URL = "https://app.example.com"
PROXIED = ("--behind-proxy", "--public-url", APP_URL, "--forwarded-allow-ips", "10.0.0.5")
"""A proxy on another machine (10.0.0.5) in front of the app on every interface."""


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> CertificatePair:
    return self_signed(tmp_path_factory.mktemp("tls"))


def hosted(*extra: str) -> list[str]:
    return ["--web", "--host", "0.0.0.0", "--server", TEAM_SERVER, *extra]


def test_without_host_the_web_view_serves_this_machine_as_before() -> None:
    settings = parse_settings(["--web"], {}, data_dir=DATA)
    assert settings.web_address == WebAddress(host="127.0.0.1", tls=None, behind_proxy=False)
    assert not settings.signs_in


def test_a_non_loopback_host_with_a_certificate_serves_https_and_each_person_signs_in(
    certificate: CertificatePair,
) -> None:
    settings = parse_settings(
        hosted("--certfile", str(certificate.certfile), "--keyfile", str(certificate.keyfile)),
        {},
        data_dir=DATA,
    )
    assert settings.signs_in
    assert settings.web_address.tls == TlsFiles(certificate.certfile, certificate.keyfile)
    assert settings.web_address.scheme == "https"
    assert settings.server == RemoteServerSettings(base_url=TEAM_SERVER, token=None)


def test_behind_a_proxy_serves_plain_http_and_each_person_signs_in_even_on_loopback() -> None:
    for host in ("0.0.0.0", "127.0.0.1"):
        settings = parse_settings(
            ["--web", "--host", host, *PROXIED, "--server", TEAM_SERVER], {}, data_dir=DATA
        )
        assert settings.signs_in
        assert settings.web_address.scheme == "http"
        assert settings.web_address.public_url == APP_URL
        assert settings.web_address.reached_over_https


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "[::1]", "127.0.0.2"])
def test_a_loopback_host_keeps_the_local_web_view_with_its_own_token(host: str) -> None:
    settings = parse_settings(
        ["--web", "--host", host, "--server", TEAM_SERVER], {TOKEN_ENV: "mine"}, data_dir=DATA
    )
    assert not settings.signs_in
    assert isinstance(settings.server, RemoteServerSettings)
    assert settings.server.token == "mine"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "team-box.example.com"])
def test_a_non_loopback_host_without_tls_or_proxy_is_refused(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--web", "--host", host, "--server", TEAM_SERVER]) == 2
    err = capsys.readouterr().err
    assert "in clear" in err
    assert "--certfile and --keyfile" in err
    assert "--behind-proxy" in err


def test_serving_others_without_a_remote_server_is_refused_the_embedded_one_stays_private(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--web", "--host", "0.0.0.0", *PROXIED]) == 2
    assert "needs --server URL" in capsys.readouterr().err
    with pytest.raises(UsageError, match="never exposed"):
        parse_settings(["--web", "--behind-proxy", "--public-url", APP_URL], {}, data_dir=DATA)


def test_a_token_file_is_refused_when_serving_others(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("mine\n")
    with pytest.raises(UsageError, match=r"--token-file cannot be used with --host 0\.0\.0\.0"):
        parse_settings(hosted(*PROXIED, "--token-file", str(token_file)), {}, data_dir=DATA)


def test_the_token_environment_variable_is_refused_when_serving_others() -> None:
    with pytest.raises(UsageError, match=f"{TOKEN_ENV} is set.*unset it"):
        parse_settings(hosted(*PROXIED), {TOKEN_ENV: "mine"}, data_dir=DATA)
    settings = parse_settings(hosted(*PROXIED), {TOKEN_ENV: "  "}, data_dir=DATA)
    assert settings.signs_in


@pytest.mark.parametrize(
    "arguments",
    [
        ["--host", "0.0.0.0"],
        ["--behind-proxy"],
        ["--desktop", "--host", "127.0.0.1"],
    ],
)
def test_serving_options_need_the_web_view(arguments: list[str]) -> None:
    with pytest.raises(UsageError, match="apply to the web view; add --web"):
        parse_settings([*arguments, "--server", TEAM_SERVER], {}, data_dir=DATA)


def test_a_certificate_without_its_key_is_refused(certificate: CertificatePair) -> None:
    with pytest.raises(UsageError, match="go together"):
        parse_settings(hosted("--certfile", str(certificate.certfile)), {}, data_dir=DATA)
    with pytest.raises(UsageError, match="go together"):
        parse_settings(hosted("--keyfile", str(certificate.keyfile)), {}, data_dir=DATA)


def test_missing_unmatched_or_encrypted_tls_files_are_refused_before_anything_starts(
    tmp_path: Path, certificate: CertificatePair
) -> None:
    other = self_signed(tmp_path / "other")
    locked = self_signed(tmp_path / "locked", passphrase="secret")
    cases = [
        (certificate.certfile, tmp_path / "absent.pem", "does not exist"),
        (certificate.certfile, other.keyfile, "not a PEM certificate and its matching private key"),
        (certificate.keyfile, certificate.keyfile, "not a PEM certificate"),
        (locked.certfile, locked.keyfile, "is encrypted"),
    ]
    for certfile, keyfile, reason in cases:
        with pytest.raises(UsageError, match=reason):
            parse_settings(
                hosted("--certfile", str(certfile), "--keyfile", str(keyfile)), {}, data_dir=DATA
            )


def test_executor_flags_attach_an_agent_runtime_to_the_embedded_server(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_bytes(b"s" * 40 + b"\n")
    arguments = ["--executor", "http://127.0.0.1:8700/runs", "--executor-secret-file", str(secret)]
    settings = parse_settings(arguments, {}, data_dir=DATA)
    assert settings.server == EmbeddedServerSettings(
        data_dir=DATA, demo=True, runtime=RuntimeAtUrl("http://127.0.0.1:8700/runs", b"s" * 40)
    )
    assert "sss" not in repr(settings)


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (["--executor", "http://runtime.example.com/runs"], "must use https://"),
        (["--executor", "https://runtime.example.com/runs"], "needs --executor-secret-file"),
        (
            ["--server", "https://s.example.com", "--executor", "https://r.example.com/"],
            "applies to the embedded server",
        ),
    ],
)
def test_executor_flags_that_cannot_work_exit_2_with_the_reason(
    arguments: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert reason in err
    assert "Traceback" not in err


# Tying the listener to the address people open (--public-url, the proxy rules, the key)


def test_behind_a_proxy_the_public_url_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--web", "--behind-proxy", "--server", TEAM_SERVER]) == 2
    err = capsys.readouterr().err
    assert "--behind-proxy needs --public-url" in err
    reason = err.split("error: ", 1)[1]
    assert ". " not in reason and reason.endswith(".\n")  # one sentence, one line


def test_behind_a_proxy_on_every_interface_needs_the_proxys_addresses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    proxied = ["--behind-proxy", "--public-url", APP_URL, "--server", TEAM_SERVER]
    assert main(["--web", "--host", "0.0.0.0", *proxied]) == 2
    err = capsys.readouterr().err
    assert "plain HTTP to the whole network" in err
    assert "--forwarded-allow-ips" in err
    settings = parse_settings(
        ["--web", "--host", "0.0.0.0", *proxied, "--forwarded-allow-ips", "10.0.0.5, fd00::/64"],
        {},
        data_dir=DATA,
    )
    assert [str(n) for n in settings.web_address.proxy_peers] == ["10.0.0.5/32", "fd00::/64"]


@pytest.mark.parametrize(
    ("addresses", "reason"),
    [("10.0.0.5,proxy.example", "not an IP address"), ("0.0.0.0/0", "every address"), ("", "")],
)
def test_forwarded_allow_ips_must_name_the_proxy(addresses: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason or "an empty entry"):
        parse_settings(
            hosted("--behind-proxy", "--public-url", APP_URL, "--forwarded-allow-ips", addresses),
            {},
            data_dir=DATA,
        )


def test_forwarded_allow_ips_goes_with_a_proxy() -> None:
    with pytest.raises(UsageError, match="add --behind-proxy"):
        parse_settings(
            ["--web", "--forwarded-allow-ips", "10.0.0.5", "--server", TEAM_SERVER],
            {},
            data_dir=DATA,
        )


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://app.example.com", "must start with https://"),
        ("https://app.example.com/schedules", "without a path"),
        ("https://app.example.com/?x=1", "without a path"),
        ("https://user@app.example.com", "not an address"),
        ("app.example.com", "not an address"),
        ("ftp://app.example.com", "not an address"),
    ],
)
def test_a_public_url_is_an_https_origin(url: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        parse_settings(
            ["--web", "--behind-proxy", "--public-url", url, "--server", TEAM_SERVER],
            {},
            data_dir=DATA,
        )


def test_a_public_url_is_kept_as_its_origin_and_http_only_on_loopback() -> None:
    for given, kept in [
        ("https://App.Example.com/", "https://app.example.com"),
        ("https://app.example.com:8443", "https://app.example.com:8443"),
        ("http://127.0.0.1:8550", "http://127.0.0.1:8550"),
    ]:
        settings = parse_settings(
            ["--web", "--behind-proxy", "--public-url", given, "--server", TEAM_SERVER],
            {},
            data_dir=DATA,
        )
        assert settings.web_address.public_url == kept


def test_a_public_url_needs_the_app_to_serve_others() -> None:
    with pytest.raises(UsageError, match="goes with --behind-proxy"):
        parse_settings(["--web", "--public-url", APP_URL], {}, data_dir=DATA)


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o644, 0o660])
def test_a_key_readable_by_group_or_others_is_refused_as_ssh_refuses_it(
    tmp_path: Path, mode: int, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = self_signed(tmp_path / "tls")
    pair.keyfile.chmod(mode)
    tls = ["--certfile", str(pair.certfile), "--keyfile", str(pair.keyfile)]
    assert main(hosted(*tls)) == 2
    err = capsys.readouterr().err
    assert f"--keyfile {pair.keyfile} is accessible by group or others (mode {mode:04o})" in err
    assert "chmod 600" in err
    pair.keyfile.chmod(0o600)
    assert parse_settings(hosted(*tls), {}, data_dir=DATA).web_address.tls is not None


def test_remember_days_defaults_to_30_and_applies_to_sign_in(
    certificate: CertificatePair,
) -> None:
    tls = ["--certfile", str(certificate.certfile), "--keyfile", str(certificate.keyfile)]
    assert parse_settings(hosted(*tls), {}, data_dir=DATA).remember_days == 30
    week = parse_settings(hosted(*tls, "--remember-days", "7"), {}, data_dir=DATA)
    assert week.remember_days == 7
    with pytest.raises(UsageError, match="--remember-days applies when other people sign in"):
        parse_settings(["--web", "--remember-days", "7"], {}, data_dir=DATA)


@pytest.mark.parametrize("days", ["0", "-3", "x", "3651"])
def test_remember_days_must_be_a_number_of_days(
    days: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--web", "--remember-days", days]) == 2
    assert "--remember-days" in capsys.readouterr().err
