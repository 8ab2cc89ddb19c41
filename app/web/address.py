"""The rules for serving the web view to other devices, checked before anything starts.

On loopback the web view serves the person at this machine. Listening anywhere
else (``--host``) or behind a reverse proxy (``--behind-proxy``) serves other
people, so three things must hold: the process holds no token (each browser
session signs in with its own); the embedded server, which acts with every scope,
stays private (``--server`` is required); tokens never cross a network in clear
(``--certfile``/``--keyfile``, or TLS ending at the proxy). Behind a proxy,
``--public-url`` names the one origin people open (``https://``, or ``http://`` to
a loopback name; no path), and only the proxy reaches the plain-HTTP listener (a
loopback ``--host``, or ``--forwarded-allow-ips``). The certificate and key are
loaded here, and a key others may read is refused, so a bad file is one sentence
at exit 2 rather than a failure after start-up.
"""

from __future__ import annotations

import ipaddress
import os
import ssl
import stat
from pathlib import Path
from urllib.parse import urlsplit

from app.settings import TlsFiles, UsageError, WebAddress
from app.web.origin import parse_origin
from loopback import LOOPBACK, is_loopback_host

SERVING_OPTIONS = (
    "--host, --certfile, --keyfile, --behind-proxy, --public-url and --forwarded-allow-ips"
)


def checked_web_address(
    *,
    host: str | None,
    certfile: Path | None,
    keyfile: Path | None,
    behind_proxy: bool,
    web: bool,
    public_url: str | None = None,
    forwarded_allow_ips: str | None = None,
) -> WebAddress:
    """Where the web view listens, or ``UsageError`` naming the argument at fault."""
    given = (
        host is not None
        or certfile is not None
        or keyfile is not None
        or behind_proxy
        or public_url is not None
        or forwarded_allow_ips is not None
    )
    if given and not web:
        raise UsageError(f"{SERVING_OPTIONS} apply to the web view; add --web.")
    if (certfile is None) != (keyfile is None):
        raise UsageError(
            "--certfile and --keyfile go together: give the certificate and its private key."
        )
    listen = LOOPBACK if host is None else host.strip()
    if not listen:
        raise UsageError("--host needs an address, such as 0.0.0.0 or 192.168.1.20.")
    tls = None if certfile is None or keyfile is None else checked_tls_files(certfile, keyfile)
    peers = _proxy_peers(forwarded_allow_ips, behind_proxy=behind_proxy)
    public = None if public_url is None else checked_public_url(public_url)
    address = WebAddress(
        host=listen, tls=tls, behind_proxy=behind_proxy, public_url=public, proxy_peers=peers
    )
    if address.serves_others and tls is None and not behind_proxy:
        raise UsageError(
            f"--host {listen} would send each person's token over the network in clear: "
            "add --certfile and --keyfile to serve HTTPS, or --behind-proxy when a "
            "reverse proxy in front of the app terminates TLS."
        )
    if public is not None and not address.serves_others:
        raise UsageError(
            "--public-url names the address other people open; it goes with --behind-proxy "
            "or a --host with --certfile and --keyfile."
        )
    if behind_proxy and public is None:
        raise UsageError(
            "--behind-proxy needs --public-url, the address people open through the proxy "
            "(such as https://schedules.example.com): the app answers no other."
        )
    if behind_proxy and not is_loopback_host(listen) and not peers:
        raise UsageError(
            f"--behind-proxy with --host {listen} would serve sign-in over plain HTTP to "
            "the whole network: listen on 127.0.0.1 with the proxy on this machine, or "
            "name the proxy's addresses with --forwarded-allow-ips."
        )
    return address


def checked_public_url(text: str) -> str:
    """``scheme://host[:port]`` without a trailing slash, or ``UsageError`` with the reason."""
    stripped = text.strip()
    parts = urlsplit(stripped)
    origin = parse_origin(f"{parts.scheme}://{parts.netloc}") if parts.netloc else None
    if origin is None or parts.username is not None or parts.password is not None:
        raise UsageError(
            f"--public-url {text} is not an address such as https://schedules.example.com."
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise UsageError(
            f"--public-url {text} must be the site's origin only, without a path "
            "(the app is served at the root of its address)."
        )
    if origin.scheme != "https" and not is_loopback_host(origin.authority.host):
        raise UsageError(
            f"--public-url {text} must start with https://: people's tokens cross the "
            "network to it (http:// only for this machine's loopback)."
        )
    return str(origin)


def _proxy_peers(
    text: str | None, *, behind_proxy: bool
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    if text is None:
        return ()
    if not behind_proxy:
        raise UsageError("--forwarded-allow-ips names the reverse proxy; add --behind-proxy.")
    networks = []
    for part in text.split(","):
        item = part.strip()
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise UsageError(
                f"--forwarded-allow-ips {text}: {item or 'an empty entry'} is not an IP "
                "address or network (give the proxy's, such as 10.0.0.5 or 10.0.0.0/24)."
            ) from None
        if network.prefixlen == 0:
            raise UsageError(
                f"--forwarded-allow-ips {text} would accept every address; name the proxy's."
            )
        networks.append(network)
    return tuple(networks)


def refuse_own_credentials(
    address: WebAddress,
    *,
    server_url: str | None,
    token_file: Path | None,
    env_token: str | None,
    token_env: str,
) -> None:
    """Serving others: a remote server and no token of the process's own, else ``UsageError``."""
    if not address.serves_others:
        return
    others = "--behind-proxy" if is_loopback_host(address.host) else f"--host {address.host}"
    if server_url is None:
        raise UsageError(
            f"{others} serves other people, so it needs --server URL: the embedded server "
            "acts as you with every permission and is never exposed."
        )
    if token_file is not None:
        raise UsageError(
            f"--token-file cannot be used with {others}: everyone would act as you. "
            "Each person signs in with their own token in the browser."
        )
    if env_token:
        raise UsageError(
            f"{token_env} is set, but {others} serves other people, who would all act as "
            f"you; unset it. Each person signs in with their own token in the browser."
        )


def checked_tls_files(certfile: Path, keyfile: Path) -> TlsFiles:
    """Both files exist and load as one certificate chain and its unencrypted key."""
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not path.is_file():
            raise UsageError(f"{option} {path} does not exist.")
    refuse_shared_key(keyfile)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=_no_password)
    except _EncryptedKey:
        raise UsageError(
            f"--keyfile {keyfile} is encrypted; give the key without a passphrase "
            "(readable only by the account that runs the app)."
        ) from None
    except ssl.SSLError as err:
        raise UsageError(
            f"--certfile {certfile} and --keyfile {keyfile} are not a PEM certificate and "
            f"its matching private key ({err.reason or err})."
        ) from None
    except OSError as err:
        raise UsageError(
            f"--certfile {certfile} or --keyfile {keyfile} cannot be read ({err.strerror or err})."
        ) from None
    return TlsFiles(certfile=certfile, keyfile=keyfile)


def refuse_shared_key(keyfile: Path) -> None:
    """``UsageError`` when the group or others may read the private key (POSIX only)."""
    if os.name != "posix":
        return
    try:
        mode = keyfile.stat().st_mode
    except OSError as err:
        raise UsageError(f"--keyfile {keyfile} cannot be read ({err.strerror or err}).") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UsageError(
            f"--keyfile {keyfile} is accessible by group or others (mode "
            f"{stat.S_IMODE(mode):04o}); make it readable only by the account that runs the "
            f"app: chmod 600 {keyfile}."
        )


class _EncryptedKey(Exception):
    """Raised by the password callback: the key asks for a passphrase we will not prompt for."""


def _no_password() -> str:
    raise _EncryptedKey
