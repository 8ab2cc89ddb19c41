"""Flet's desktop client: whether it is on this machine, and fetching it, bounded, if not.

``flet_desktop`` would download its client with no timeout and no checksum on
the first window. The app fetches the same archive first, over HTTPS only (each
redirect followed here), checks its SHA-256 against the one pinned in
``app.desktop_client_digests`` (no pin, no fetch), and unpacks it where
``flet_desktop`` looks, through a sibling folder and one rename. Connect, stall
and overall times are bounded; every failure is one ``ClientFetchFailed`` with
a short reason in the person's words, and leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import httpx
from babel import Locale

from app.desktop_client_digests import CLIENT_ARCHIVE_SHA256
from app.desktop_client_progress import ProgressLine
from viewmodels.language import Words, words_for

CONNECT_SECONDS = 5.0
STALL_SECONDS = 10.0
CAP_SECONDS = 180.0
"""Time to fetch the whole archive (tens of MB; about a minute at 1 MB/s)."""
MAX_REDIRECTS = 5
"""GitHub's release link redirects once, to its download host."""


class ClientFetchFailed(Exception):
    """The client could not be fetched; ``str()`` is the reason, a short clause."""


class ClientNotPinned(ClientFetchFailed):
    """No digest is pinned for this archive, so it is not fetched; trying again will not help."""


@dataclass(frozen=True, slots=True)
class ClientRelease:
    """This platform's client archive for the installed ``flet_desktop``."""

    url: str
    version: str
    """``flet_desktop``'s version, which names the release."""
    archive_name: str
    """Decides the format: ``.zip`` or ``.tar.gz``, as ``flet_desktop`` decides it."""
    sha256: str | None
    """The archive's digest pinned in the project (lowercase hex); ``None`` when none is."""
    folder: Path
    """Where ``flet_desktop`` looks for the unpacked client."""
    bundled_archive: Path
    """An archive shipped inside the package (a ``flet pack`` bundle) needs no fetch."""


def client_release(
    env: Mapping[str, str],
    digests: Mapping[tuple[str, str], str] = CLIENT_ARCHIVE_SHA256,
) -> ClientRelease:
    """Ask the installed ``flet_desktop`` what it would download and where it would unpack it.

    ``digests`` maps ``(version, archive name)`` to the archive's pinned SHA-256.
    """
    import flet_desktop  # type: ignore[import-untyped]
    from flet_desktop.version import version  # type: ignore[import-untyped]

    archive_name = flet_desktop.get_artifact_filename()
    default_url = f"https://github.com/flet-dev/flet/releases/download/v{version}/{archive_name}"
    return ClientRelease(
        url=env.get("FLET_CLIENT_URL", default_url),
        version=version,
        archive_name=archive_name,
        sha256=digests.get((version, archive_name)),
        # Private but module-level (no name mangling): the one place that knows
        # the flavour rule and the folder name; a test checks ensure_client_cached agrees.
        folder=flet_desktop.__get_client_storage_dir(),
        bundled_archive=Path(flet_desktop.get_package_bin_dir()) / archive_name,
    )


def client_present(release: ClientRelease, env: Mapping[str, str]) -> bool:
    """True when ``flet_desktop`` would open a window without downloading anything.

    It looks, in order, at ``FLET_VIEW_PATH``, an archive bundled in its package
    and the unpacked client in ``release.folder``.
    """
    view_path = env.get("FLET_VIEW_PATH")
    if view_path and Path(view_path).is_dir():
        return True
    return release.bundled_archive.is_file() or release.folder.is_dir()


def default_http() -> httpx.Client:
    """The real network; redirects are followed by ``fetch_client``, which checks each hop."""
    return httpx.Client(
        timeout=httpx.Timeout(STALL_SECONDS, connect=CONNECT_SECONDS),
        follow_redirects=False,
        headers={"Accept-Encoding": "identity"},
    )


def fetch_client(
    release: ClientRelease,
    *,
    http: httpx.Client,
    clock: Callable[[], float],
    out: TextIO,
    locale: Locale,
    cap_seconds: float = CAP_SECONDS,
) -> None:
    """Download and unpack the client into ``release.folder``; ``ClientFetchFailed`` if not.

    ``clock`` is monotonic seconds; ``out`` receives the progress line; the line and
    the reason are in ``locale``'s words and numbers.
    """
    _ = words_for(locale).gettext
    if release.sha256 is None:
        raise ClientNotPinned(
            # Translators: a reason clause, shown inside "Flet's desktop client could not
            # be fetched (…)"; {archive} is a file name, {version} Flet's version.
            _("no checksum is pinned in this app for {archive} of Flet {version}").format(
                archive=release.archive_name, version=release.version
            )
        )
    parent = release.folder.parent
    progress = ProgressLine(out, locale)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=f".{release.folder.name}.", dir=parent) as work:
            archive = Path(work) / release.archive_name
            digest = _download(release.url, archive, http, clock, cap_seconds, progress)
            if digest != release.sha256:
                raise ClientFetchFailed(
                    # Translators: a reason clause ("the client could not be fetched (…)").
                    _("its SHA-256 does not match the one pinned for Flet {version}").format(
                        version=release.version
                    )
                )
            _unpack(archive, Path(work) / "client", release.folder, words=progress.words)
    except OSError as err:
        raise ClientFetchFailed(
            # Translators: a reason clause; {reason} is the system's, such as "No space left
            # on device".
            _("it could not be saved in {folder}: {reason}").format(
                folder=parent, reason=err.strerror or _("write failed")
            )
        ) from err
    finally:
        progress.end()


def _download(
    url: str,
    archive: Path,
    http: httpx.Client,
    clock: Callable[[], float],
    cap_seconds: float,
    progress: ProgressLine,
) -> str:
    """Saves the archive at ``url`` (HTTPS at every hop) to ``archive``; its SHA-256 in hex."""
    words, number = progress.words, progress.number
    _ = words.gettext
    hop = httpx.URL(url)
    host = hop.host or url
    started = clock()
    digest = hashlib.sha256()
    progress.show(0, None)
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            host = hop.host or str(hop)
            if hop.scheme != "https":
                raise ClientFetchFailed(
                    # Translators: a reason clause; {scheme} is "http" or the like.
                    _("it was offered at {host} over {scheme}, not HTTPS").format(
                        host=host, scheme=hop.scheme
                    )
                )
            with http.stream("GET", hop, follow_redirects=False) as response:
                if response.next_request is not None:  # a redirect, not followed by httpx
                    hop = response.next_request.url
                    continue
                if response.status_code != httpx.codes.OK:
                    raise ClientFetchFailed(
                        # Translators: a reason clause; {status} is an HTTP status code.
                        _("{host} answered HTTP {status}").format(
                            host=host, status=response.status_code
                        )
                    )
                total = _content_length(response)
                received = 0
                with archive.open("wb") as sink:
                    for chunk in response.iter_bytes():
                        sink.write(chunk)
                        digest.update(chunk)
                        received += len(chunk)
                        progress.show(received, total)
                        if clock() - started > cap_seconds:
                            seconds = round(cap_seconds)
                            raise ClientFetchFailed(
                                words.ngettext(
                                    "it took longer than {count} second",
                                    "it took longer than {count} seconds",
                                    seconds,
                                ).format(count=number(seconds))
                            )
                if total is not None and received != total:
                    raise ClientFetchFailed(
                        words.ngettext(
                            "the download ended after {received} of {count} byte",
                            "the download ended after {received} of {count} bytes",
                            total,
                        ).format(received=number(received), count=number(total))
                    )
                return digest.hexdigest()
        raise ClientFetchFailed(
            _("{host} redirected it more than {count} times").format(
                host=host, count=number(MAX_REDIRECTS)
            )
        )
    except httpx.ConnectTimeout as err:
        raise ClientFetchFailed(
            _("{host} did not answer within {seconds} s").format(
                host=host, seconds=number(round(CONNECT_SECONDS))
            )
        ) from err
    except httpx.ConnectError as err:
        raise ClientFetchFailed(_("no connection to {host}").format(host=host)) from err
    except httpx.TimeoutException as err:
        raise ClientFetchFailed(
            _("the download stalled for {seconds} s").format(seconds=number(round(STALL_SECONDS)))
        ) from err
    except httpx.HTTPError as err:
        raise ClientFetchFailed(
            # Translators: a reason clause; {error} is the name of httpx's error.
            _("the download from {host} failed ({error})").format(
                host=host, error=type(err).__name__
            )
        ) from err


def _content_length(response: httpx.Response) -> int | None:
    text = response.headers.get("Content-Length", "")
    return int(text) if text.isdigit() and int(text) > 0 else None


def _unpack(archive: Path, scratch: Path, folder: Path, *, words: Words) -> None:
    """As ``flet_desktop`` does: by the artifact's name, with its path-traversal checks."""
    from flet.utils import safe_tar_extractall, safe_zip_extractall

    scratch.mkdir()
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zipped:
                safe_zip_extractall(zipped, str(scratch))  # type: ignore[no-untyped-call]
        else:
            with tarfile.open(archive, "r:gz") as tarred:
                safe_tar_extractall(tarred, str(scratch))  # type: ignore[no-untyped-call]
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, RuntimeError) as err:
        raise ClientFetchFailed(
            # Translators: a reason clause; {error} is the unpacker's own.
            words.gettext("the archive could not be unpacked ({error})").format(error=err)
        ) from err
    try:
        scratch.rename(folder)
    except OSError:
        if not folder.is_dir():  # else another start unpacked the same client first
            raise


def fetch_over_network(
    env: Mapping[str, str], clock: Callable[[], float], out: TextIO, *, locale: Locale
) -> None:
    """``fetch_client`` for this machine's release over the real network."""
    with default_http() as http:
        fetch_client(client_release(env), http=http, clock=clock, out=out, locale=locale)
