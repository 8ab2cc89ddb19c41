"""The remote backend: a schedule server reached over HTTP, with a token or one per person.

``open_remote_backend`` checks with one request that the server answers and
takes the token, so a wrong address or token stops the start with a sentence.
A server away at start still opens offline when this device has read it with
this token before (``app.servers_read``): the screens show the view cache, kept
under ``Backend.views_namespace`` (per server and token).

When the web view serves other devices the process holds no token and no client:
``open_sign_in_backend`` only checks that the server answers (a 401 to the
tokenless probe is the expected answer), and ``SignInBackend.connect`` gives each
person who signs in a client of their own, which carries their browser's address
in ``X-Forwarded-For`` (``app.forwarded_for``) and reports a 401
(``app.credential_watch``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from app.backend.connected import Backend
from app.credential_watch import CredentialWatch
from app.device_storage import server_namespace
from app.forwarded_for import ForwardedFor
from app.servers_read import account_key, has_read, remember_read
from app.settings import RemoteServerSettings
from app.startup_error import StartupError
from transport.client import ScheduleClient
from transport.errors import (
    ApiError,
    ConnectionFailed,
    ScopeMissing,
    ServerRefused,
    Unauthenticated,
)
from viewmodels.language import Words

__all__ = ["ServerUnreachable", "SignInBackend", "open_remote_backend", "open_sign_in_backend"]


class ServerUnreachable(StartupError):
    """The server did not answer at all (as opposed to answering with a refusal)."""


@asynccontextmanager
async def open_remote_backend(
    settings: RemoteServerSettings, *, words: Words
) -> AsyncIterator[Backend]:
    """The remote server with the process's token; ``StartupError`` when it cannot be had
    (said in ``words``, as is its description)."""
    identity = _remote_identity(settings.base_url)
    key = account_key(identity, settings.token)
    async with ScheduleClient(settings.base_url, token=settings.token) as api:
        offline = False
        try:
            await _check_reachable(api, settings.base_url, words=words)
        except ServerUnreachable:
            if not has_read(settings.device_dir, key):
                raise
            offline = True
        else:
            remember_read(settings.device_dir, key)
        yield Backend(
            api=api,
            identity=identity,
            description=_remote_description(settings.base_url, words),
            views_namespace=key,
            offline_at_start=offline,
            device_dir=settings.device_dir,
        )


@dataclass(frozen=True, slots=True)
class SignInBackend:
    """A remote server that each browser session reaches with its own token."""

    base_url: str
    identity: str
    """As ``Backend.identity``: keys this server's device-state namespace."""
    description: str
    browser_address: str | None = None
    """The browser one session serves, sent on each of its requests; None sends none."""

    @property
    def namespace(self) -> str:
        return server_namespace(self.identity)

    def connect(self, token: str, on_refused: Callable[[], None]) -> ScheduleClient:
        """A client for one person's ``token``; ``on_refused()`` runs on any 401 it receives."""
        sent: httpx.AsyncBaseTransport = httpx.AsyncHTTPTransport()
        if self.browser_address:
            sent = ForwardedFor(sent, self.browser_address)
        watched = CredentialWatch(sent, on_refused)
        return ScheduleClient(self.base_url, token=token, transport=watched)


@asynccontextmanager
async def open_sign_in_backend(
    settings: RemoteServerSettings, *, words: Words
) -> AsyncIterator[SignInBackend]:
    """The server every session signs in to; ``StartupError`` when it does not answer
    (said in ``words``, as is its description)."""
    async with ScheduleClient(settings.base_url) as probe:
        await _check_reachable(probe, settings.base_url, own_token=False, words=words)
    yield SignInBackend(
        base_url=settings.base_url,
        identity=_remote_identity(settings.base_url),
        description=_remote_description(settings.base_url, words),
    )


def _remote_identity(url: str) -> str:
    return f"remote:{url}"


def _remote_description(url: str, words: Words) -> str:
    # Translators: the server as a start-up line's object ("showing {server}").
    return words.gettext("the schedule server at {url}").format(url=url)


async def _check_reachable(
    api: ScheduleClient, url: str, *, words: Words, own_token: bool = True
) -> None:
    """One ``GET /v1/principal`` so a wrong address or token fails now, in one sentence.

    Without a token of its own (``own_token=False``) the process expects the
    server to ask for one: a 401 then proves it is a schedule server, up.
    """
    _ = words.gettext
    try:
        await api.get_principal()
    except Unauthenticated:
        if not own_token:
            return
        raise StartupError(
            _(
                "The schedule server at {url} did not accept the token; check --token-file "
                "or SCHEDULE_BROWSER_TOKEN."
            ).format(url=url)
        ) from None
    except ScopeMissing:
        return  # the token works; each screen says which scope it lacks
    except ConnectionFailed:
        raise ServerUnreachable(
            _(
                "Cannot reach the schedule server at {url}; check the address, or run "
                "without --server to use the embedded server."
            ).format(url=url)
        ) from None
    except ServerRefused as err:
        raise StartupError(
            # Translators: {reason} is the server's answer, in English.
            _(
                "The schedule server at {url} refused the first request ({reason}); check "
                "that it speaks this app's API."
            ).format(url=url, reason=err)
        ) from None
    except ApiError as err:
        raise StartupError(
            # Translators: {reason} is the server's answer, in English.
            _("The server at {url} does not answer like a schedule server ({reason}).").format(
                url=url, reason=err
            )
        ) from None
