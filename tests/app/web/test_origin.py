"""Which Host and Origin each kind of web view answers (``app.web.origin``), and the session
grace each keeps (``app.web.server``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import TlsFiles, WebAddress
from app.web.origin import Authority, TrustedOrigins, parse_authority, parse_origin
from app.web.server import (
    HOSTED_SESSION_GRACE_SECONDS,
    LOCAL_SESSION_GRACE_SECONDS,
    session_grace_seconds,
    trusted_origins,
)

TLS = TlsFiles(Path("cert.pem"), Path("key.pem"))


@pytest.mark.parametrize(
    ("text", "scheme", "parsed"),
    [
        ("127.0.0.1:8550", "http", Authority("127.0.0.1", 8550)),
        ("LOCALHOST:8550", "http", Authority("localhost", 8550)),
        ("[::1]:8550", "http", Authority("[::1]", 8550)),
        ("app.example.com", "https", Authority("app.example.com", 443)),
        ("app.example.com.", "http", Authority("app.example.com", 80)),
        ("[::1", "http", None),
        ("[nothost]:1", "http", None),
        ("a:b", "http", None),
        ("a:0", "http", None),
        ("a:65536", "http", None),
        ("evil.example/x", "http", None),
        ("user@evil.example", "http", None),
        ("", "http", None),
        ("bücher.example", "http", None),
    ],
)
def test_a_host_header_is_a_name_and_an_explicit_or_default_port(
    text: str, scheme: str, parsed: Authority | None
) -> None:
    assert parse_authority(text, scheme) == parsed


@pytest.mark.parametrize("text", ["null", "", "file://", "https://", "ws://a", "https://a/b"])
def test_null_and_malformed_origins_are_no_origin(text: str) -> None:
    assert parse_origin(text) is None


def test_the_local_view_answers_loopback_names_on_its_exact_port_from_the_same_origin() -> None:
    origins = trusted_origins(WebAddress(), 8550)
    for name in ("127.0.0.1", "localhost", "[::1]"):
        assert origins.host_allowed(f"{name}:8550")
        assert origins.origin_allowed(f"http://{name}:8550", f"{name}:8550")
    assert not origins.host_allowed("127.0.0.1")  # port 80 is not the app's
    assert not origins.host_allowed("evil.example:8550")
    assert not origins.origin_allowed("http://localhost:8550", "127.0.0.1:8550")
    assert not origins.origin_allowed("https://127.0.0.1:8550", "127.0.0.1:8550")
    assert not origins.origin_allowed(None, "127.0.0.1:8550")


def test_a_loopback_host_given_is_answered_too() -> None:
    origins = trusted_origins(WebAddress(host="127.0.0.2"), 9000)
    assert origins.origin_allowed("http://127.0.0.2:9000", "127.0.0.2:9000")


def test_the_hosted_view_answers_its_public_origin_with_or_without_the_default_port() -> None:
    address = WebAddress(behind_proxy=True, public_url="https://app.example.com")
    origins = trusted_origins(address, 8550)
    assert origins == TrustedOrigins("https", 443, frozenset({"app.example.com"}))
    assert origins.origin_allowed("https://app.example.com", "app.example.com")
    assert origins.origin_allowed("https://app.example.com", "app.example.com:443")
    assert not origins.host_allowed("127.0.0.1:8550")  # the listener's own address
    assert not origins.origin_allowed("https://app.example.com:8443", "app.example.com:8443")


def test_over_tls_without_a_public_url_the_origin_must_be_https_and_its_own_host() -> None:
    origins = trusted_origins(WebAddress(host="0.0.0.0", tls=TLS), 8443)
    assert origins.origin_allowed("https://app.example.com:8443", "app.example.com:8443")
    assert origins.origin_allowed("https://192.168.1.20:8443", "192.168.1.20:8443")
    assert not origins.origin_allowed("https://evil.example:8443", "app.example.com:8443")
    assert not origins.origin_allowed("http://app.example.com:8443", "app.example.com:8443")
    assert not origins.host_allowed("app.example.com")  # 443 is not the app's port


def test_a_hosted_session_outlives_its_connection_by_a_minute_a_local_one_by_an_hour() -> None:
    hosted = WebAddress(behind_proxy=True, public_url="https://app.example.com")
    assert session_grace_seconds(hosted) == HOSTED_SESSION_GRACE_SECONDS == 60
    assert session_grace_seconds(WebAddress()) == LOCAL_SESSION_GRACE_SECONDS
