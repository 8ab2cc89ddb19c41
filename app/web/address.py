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
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from app.settings import TlsFiles, UsageError, WebAddress
from app.web.origin import parse_origin
from loopback import LOOPBACK, is_loopback_host

if TYPE_CHECKING:
    from viewmodels.language import Words

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
    words: Words,
) -> WebAddress:
    """Where the web view listens, or ``UsageError`` naming the argument at fault, in ``words``."""
    _ = words.gettext
    given = (
        host is not None
        or certfile is not None
        or keyfile is not None
        or behind_proxy
        or public_url is not None
        or forwarded_allow_ips is not None
    )
    if given and not web:
        raise UsageError(
            # Translators: {options} is the list of option names, such as "--host, --certfile".
            _("{options} apply to the web view; add --web.").format(options=SERVING_OPTIONS)
        )
    if (certfile is None) != (keyfile is None):
        raise UsageError(
            _("--certfile and --keyfile go together: give the certificate and its private key.")
        )
    listen = LOOPBACK if host is None else host.strip()
    if not listen:
        raise UsageError(_("--host needs an address, such as 0.0.0.0 or 192.168.1.20."))
    tls = (
        None
        if certfile is None or keyfile is None
        else checked_tls_files(certfile, keyfile, words=words)
    )
    peers = _proxy_peers(forwarded_allow_ips, behind_proxy=behind_proxy, words=words)
    public = None if public_url is None else checked_public_url(public_url, words=words)
    address = WebAddress(
        host=listen, tls=tls, behind_proxy=behind_proxy, public_url=public, proxy_peers=peers
    )
    if address.serves_others and tls is None and not behind_proxy:
        raise UsageError(
            _(
                "--host {address} would send each person's token over the network in clear: "
                "add --certfile and --keyfile to serve HTTPS, or --behind-proxy when a "
                "reverse proxy in front of the app terminates TLS."
            ).format(address=listen)
        )
    if public is not None and not address.serves_others:
        raise UsageError(
            _(
                "--public-url names the address other people open; it goes with --behind-proxy "
                "or a --host with --certfile and --keyfile."
            )
        )
    if behind_proxy and public is None:
        raise UsageError(
            _(
                "--behind-proxy needs --public-url, the address people open through the proxy "
                "(such as https://schedules.example.com): the app answers no other."
            )
        )
    if behind_proxy and not is_loopback_host(listen) and not peers:
        raise UsageError(
            _(
                "--behind-proxy with --host {address} would serve sign-in over plain HTTP to "
                "the whole network: listen on 127.0.0.1 with the proxy on this machine, or "
                "name the proxy's addresses with --forwarded-allow-ips."
            ).format(address=listen)
        )
    return address


def checked_public_url(text: str, *, words: Words) -> str:
    """``scheme://host[:port]`` without a trailing slash, or ``UsageError`` with the reason."""
    _ = words.gettext
    stripped = text.strip()
    parts = urlsplit(stripped)
    origin = parse_origin(f"{parts.scheme}://{parts.netloc}") if parts.netloc else None
    if origin is None or parts.username is not None or parts.password is not None:
        raise UsageError(
            _("--public-url {url} is not an address such as https://schedules.example.com.").format(
                url=text
            )
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise UsageError(
            _(
                "--public-url {url} must be the site's origin only, without a path "
                "(the app is served at the root of its address)."
            ).format(url=text)
        )
    if origin.scheme != "https" and not is_loopback_host(origin.authority.host):
        raise UsageError(
            _(
                "--public-url {url} must start with https://: people's tokens cross the "
                "network to it (http:// only for this machine's loopback)."
            ).format(url=text)
        )
    return str(origin)


def _proxy_peers(
    text: str | None, *, behind_proxy: bool, words: Words
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    _ = words.gettext
    if text is None:
        return ()
    if not behind_proxy:
        raise UsageError(_("--forwarded-allow-ips names the reverse proxy; add --behind-proxy."))
    networks = []
    for part in text.split(","):
        item = part.strip()
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise UsageError(
                _(
                    "--forwarded-allow-ips {given}: {item} is not an IP "
                    "address or network (give the proxy's, such as 10.0.0.5 or 10.0.0.0/24)."
                ).format(given=text, item=item or _("an empty entry"))
            ) from None
        if network.prefixlen == 0:
            raise UsageError(
                _(
                    "--forwarded-allow-ips {given} would accept every address; name the proxy's."
                ).format(given=text)
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
    words: Words,
) -> None:
    """Serving others: a remote server and no token of the process's own, else ``UsageError``."""
    _ = words.gettext
    if not address.serves_others:
        return
    others = "--behind-proxy" if is_loopback_host(address.host) else f"--host {address.host}"
    if server_url is None:
        raise UsageError(
            # Translators: {options} is "--behind-proxy" or "--host" with its address.
            _(
                "{options} serves other people, so it needs --server URL: the embedded server "
                "acts as you with every permission and is never exposed."
            ).format(options=others)
        )
    if token_file is not None:
        raise UsageError(
            # Translators: {options} is "--behind-proxy" or "--host" with its address.
            _(
                "--token-file cannot be used with {options}: everyone would act as you. "
                "Each person signs in with their own token in the browser."
            ).format(options=others)
        )
    if env_token:
        raise UsageError(
            # Translators: {variable} is an environment variable's name; {options} is
            # "--behind-proxy" or "--host" with its address.
            _(
                "{variable} is set, but {options} serves other people, who would all act as "
                "you; unset it. Each person signs in with their own token in the browser."
            ).format(variable=token_env, options=others)
        )


def checked_tls_files(certfile: Path, keyfile: Path, *, words: Words) -> TlsFiles:
    """Both files exist and load as one certificate chain and its unencrypted key."""
    _ = words.gettext
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not path.is_file():
            raise UsageError(
                # Translators: {option} is "--certfile" or "--keyfile"; {path} is the file given.
                _("{option} {path} does not exist.").format(option=option, path=path)
            )
    refuse_shared_key(keyfile, words=words)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=_no_password)
    except _EncryptedKey:
        raise UsageError(
            _(
                "--keyfile {keyfile} is encrypted; give the key without a passphrase "
                "(readable only by the account that runs the app)."
            ).format(keyfile=keyfile)
        ) from None
    except ssl.SSLError as err:
        raise UsageError(
            # Translators: {reason} is OpenSSL's own, such as "KEY_VALUES_MISMATCH".
            _(
                "--certfile {certfile} and --keyfile {keyfile} are not a PEM certificate and "
                "its matching private key ({reason})."
            ).format(certfile=certfile, keyfile=keyfile, reason=err.reason or err)
        ) from None
    except OSError as err:
        raise UsageError(
            # Translators: {reason} is the operating system's, such as "Permission denied".
            _("--certfile {certfile} or --keyfile {keyfile} cannot be read ({reason}).").format(
                certfile=certfile, keyfile=keyfile, reason=err.strerror or err
            )
        ) from None
    return TlsFiles(certfile=certfile, keyfile=keyfile)


def refuse_shared_key(keyfile: Path, *, words: Words) -> None:
    """``UsageError`` when the group or others may read the private key (POSIX only)."""
    _ = words.gettext
    if os.name != "posix":
        return
    try:
        mode = keyfile.stat().st_mode
    except OSError as err:
        raise UsageError(
            # Translators: {reason} is the operating system's, such as "Permission denied".
            _("--keyfile {keyfile} cannot be read ({reason}).").format(
                keyfile=keyfile, reason=err.strerror or err
            )
        ) from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UsageError(
            # Translators: {mode} is the file's permissions in octal, such as 0644.
            _(
                "--keyfile {keyfile} is accessible by group or others (mode "
                "{mode}); make it readable only by the account that runs the "
                "app: chmod 600 {keyfile}."
            ).format(keyfile=keyfile, mode=f"{stat.S_IMODE(mode):04o}")
        )


class _EncryptedKey(Exception):
    """Raised by the password callback: the key asks for a passphrase we will not prompt for."""


def _no_password() -> str:
    raise _EncryptedKey
