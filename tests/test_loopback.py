"""The one loopback rule (``loopback``), asked by the client and the server alike."""

from __future__ import annotations

import ipaddress

import pytest

from loopback import is_loopback_host, loopback_address


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        pytest.param("127.0.0.1", True, id="ipv4"),
        pytest.param("127.0.0.2", True, id="ipv4-elsewhere-in-127/8"),
        pytest.param("127.255.255.254", True, id="ipv4-end-of-127/8"),
        pytest.param("::1", True, id="ipv6"),
        pytest.param("[::1]", True, id="ipv6-bracketed"),
        pytest.param("0:0:0:0:0:0:0:1", True, id="ipv6-long-form"),
        pytest.param("::ffff:127.0.0.1", True, id="ipv4-mapped"),
        pytest.param("[::ffff:127.0.0.1]", True, id="ipv4-mapped-bracketed"),
        pytest.param("localhost", True, id="localhost"),
        pytest.param("LOCALHOST", True, id="localhost-uppercase"),
        pytest.param("LocalHost", True, id="localhost-mixed-case"),
        pytest.param("localhost.", False, id="localhost-absolute-may-go-to-dns"),
        pytest.param("LOCALHOST.", False, id="localhost-absolute-uppercase"),
        pytest.param("app.localhost", False, id="subdomain-of-localhost"),
        pytest.param("localhost.localdomain", False, id="localdomain"),
        pytest.param("ip6-localhost", False, id="debian-hosts-name"),
        pytest.param("localhost.example.com", False, id="name-starting-localhost"),
        pytest.param("0.0.0.0", False, id="every-ipv4-interface"),
        pytest.param("::", False, id="every-ipv6-interface"),
        pytest.param("[::]", False, id="every-ipv6-interface-bracketed"),
        pytest.param("[127.0.0.1]", False, id="ipv4-in-brackets"),
        pytest.param("[localhost]", False, id="name-in-brackets"),
        pytest.param("::1]", False, id="half-bracketed"),
        pytest.param("127.0.0.1:8000", False, id="with-a-port"),
        pytest.param("127.1", False, id="short-ipv4"),
        pytest.param(" 127.0.0.1", False, id="leading-space"),
        pytest.param("10.0.0.1", False, id="private-network"),
        pytest.param("203.0.113.7", False, id="public-ipv4"),
        pytest.param("2001:db8::1", False, id="public-ipv6"),
        pytest.param("::ffff:203.0.113.7", False, id="ipv4-mapped-public"),
        pytest.param("example.com", False, id="a-name"),
        pytest.param("", False, id="empty"),
    ],
)
def test_a_host_is_loopback_only_when_no_resolver_could_send_it_elsewhere(
    host: str, loopback: bool
) -> None:
    assert is_loopback_host(host) is loopback


def test_a_loopback_address_is_given_back_as_ipv4_when_mapped_and_never_for_a_name() -> None:
    assert loopback_address("::ffff:127.0.0.1") == ipaddress.IPv4Address("127.0.0.1")
    assert loopback_address("[::1]") == ipaddress.IPv6Address("::1")
    assert loopback_address("localhost") is None
    assert loopback_address("203.0.113.7") is None
