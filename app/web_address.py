"""The rules for serving the web view to other devices, checked before anything starts.

On loopback the web view serves the person at this machine, as it always has.
Listening anywhere else (``--host``), or behind a reverse proxy
(``--behind-proxy``), serves other people, and three things must hold:

- **No shared identity.** The process holds no token (``--token-file`` and
  ``SCHEDULE_BROWSER_TOKEN`` are refused): each browser session signs in with
  its own, so nobody acts as whoever started the process.
- **The embedded server stays private.** It acts as the local user with every
  scope, so serving others needs ``--server URL``.
- **Tokens never cross a network in clear.** A non-loopback ``--host`` needs
  ``--certfile``/``--keyfile`` (HTTPS served here) or ``--behind-proxy``
  (TLS ends at the proxy, which reaches this app on a private path).

The certificate and key are loaded once here, so a wrong path, a key that does
not match, or an encrypted key is one sentence at exit 2, not a failure inside
the web server after start-up.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from app.loopback import LOOPBACK, is_loopback_host
from app.settings import TlsFiles, UsageError, WebAddress

SERVING_OPTIONS = "--host, --certfile, --keyfile and --behind-proxy"


def checked_web_address(
    *,
    host: str | None,
    certfile: Path | None,
    keyfile: Path | None,
    behind_proxy: bool,
    web: bool,
) -> WebAddress:
    """Where the web view listens, or ``UsageError`` naming the argument at fault."""
    given = host is not None or certfile is not None or keyfile is not None or behind_proxy
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
    address = WebAddress(host=listen, tls=tls, behind_proxy=behind_proxy)
    if address.serves_others and tls is None and not behind_proxy:
        raise UsageError(
            f"--host {listen} would send each person's token over the network in clear: "
            "add --certfile and --keyfile to serve HTTPS, or --behind-proxy when a "
            "reverse proxy in front of the app terminates TLS."
        )
    return address


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


class _EncryptedKey(Exception):
    """Raised by the password callback: the key asks for a passphrase we will not prompt for."""


def _no_password() -> str:
    raise _EncryptedKey
