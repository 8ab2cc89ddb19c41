"""Flet's desktop client: whether it is on this machine, and fetching it, bounded, if not.

``flet_desktop`` would download its client with no timeout and no checksum on
the first window. The app fetches the same archive first, over HTTPS only (each
redirect followed here), checks its SHA-256 against the one pinned in
``app.desktop_client_digests`` (no pin, no fetch), and unpacks it where
``flet_desktop`` looks, through a sibling folder and one rename. Connect, stall
and overall times are bounded; every failure is one ``ClientFetchFailed`` with
a short reason, and leaves nothing behind.
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

from app.desktop_client_digests import CLIENT_ARCHIVE_SHA256

CONNECT_SECONDS = 5.0
STALL_SECONDS = 10.0
CAP_SECONDS = 180.0
"""Time to fetch the whole archive (tens of MB; about a minute at 1 MB/s)."""
MAX_REDIRECTS = 5
"""GitHub's release link redirects once, to its download host."""

_LABEL = "Fetching Flet's desktop client"


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
    cap_seconds: float = CAP_SECONDS,
) -> None:
    """Download and unpack the client into ``release.folder``; ``ClientFetchFailed`` if not.

    ``clock`` is monotonic seconds; ``out`` receives the progress line.
    """
    if release.sha256 is None:
        raise ClientNotPinned(
            f"no checksum is pinned in this app for {release.archive_name} "
            f"of Flet {release.version}"
        )
    parent = release.folder.parent
    progress = _ProgressLine(out)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=f".{release.folder.name}.", dir=parent) as work:
            archive = Path(work) / release.archive_name
            digest = _download(release.url, archive, http, clock, cap_seconds, progress)
            if digest != release.sha256:
                raise ClientFetchFailed(
                    f"its SHA-256 does not match the one pinned for Flet {release.version}"
                )
            _unpack(archive, Path(work) / "client", release.folder)
    except OSError as err:
        raise ClientFetchFailed(
            f"it could not be saved in {parent}: {err.strerror or 'write failed'}"
        ) from err
    finally:
        progress.end()


def _download(
    url: str,
    archive: Path,
    http: httpx.Client,
    clock: Callable[[], float],
    cap_seconds: float,
    progress: _ProgressLine,
) -> str:
    """Saves the archive at ``url`` (HTTPS at every hop) to ``archive``; its SHA-256 in hex."""
    hop = httpx.URL(url)
    host = hop.host or url
    started = clock()
    digest = hashlib.sha256()
    progress.show(0, None)
    try:
        for _ in range(MAX_REDIRECTS + 1):
            host = hop.host or str(hop)
            if hop.scheme != "https":
                raise ClientFetchFailed(f"it was offered at {host} over {hop.scheme}, not HTTPS")
            with http.stream("GET", hop, follow_redirects=False) as response:
                if response.next_request is not None:  # a redirect, not followed by httpx
                    hop = response.next_request.url
                    continue
                if response.status_code != httpx.codes.OK:
                    raise ClientFetchFailed(f"{host} answered HTTP {response.status_code}")
                total = _content_length(response)
                received = 0
                with archive.open("wb") as sink:
                    for chunk in response.iter_bytes():
                        sink.write(chunk)
                        digest.update(chunk)
                        received += len(chunk)
                        progress.show(received, total)
                        if clock() - started > cap_seconds:
                            raise ClientFetchFailed(
                                f"it took longer than {cap_seconds:.0f} seconds"
                            )
                if total is not None and received != total:
                    raise ClientFetchFailed(f"the download ended after {received} of {total} bytes")
                return digest.hexdigest()
        raise ClientFetchFailed(f"{host} redirected it more than {MAX_REDIRECTS} times")
    except httpx.ConnectTimeout as err:
        raise ClientFetchFailed(f"{host} did not answer within {CONNECT_SECONDS:.0f} s") from err
    except httpx.ConnectError as err:
        raise ClientFetchFailed(f"no connection to {host}") from err
    except httpx.TimeoutException as err:
        raise ClientFetchFailed(f"the download stalled for {STALL_SECONDS:.0f} s") from err
    except httpx.HTTPError as err:
        raise ClientFetchFailed(f"the download from {host} failed ({type(err).__name__})") from err


def _content_length(response: httpx.Response) -> int | None:
    text = response.headers.get("Content-Length", "")
    return int(text) if text.isdigit() and int(text) > 0 else None


def _unpack(archive: Path, scratch: Path, folder: Path) -> None:
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
        raise ClientFetchFailed(f"the archive could not be unpacked ({err})") from err
    try:
        scratch.rename(folder)
    except OSError:
        if not folder.is_dir():  # else another start unpacked the same client first
            raise


class _ProgressLine:
    """``Fetching Flet's desktop client: 12.3 of 45.6 MB (27%)``, redrawn with ``\\r``."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._shown = ""

    def show(self, received: int, total: int | None) -> None:
        megabytes = received / 1_000_000
        if total is None:
            text = f"{_LABEL}: {megabytes:.1f} MB"
        else:
            text = f"{_LABEL}: {megabytes:.1f} of {total / 1_000_000:.1f} MB "
            text += f"({received * 100 // total}%)"
        if text != self._shown:
            # Padding erases the tail of a longer previous line on any terminal.
            self._out.write("\r" + text.ljust(len(self._shown)))
            self._out.flush()
            self._shown = text

    def end(self) -> None:
        if self._shown:
            self._out.write("\n")
            self._out.flush()


def fetch_over_network(env: Mapping[str, str], clock: Callable[[], float], out: TextIO) -> None:
    """``fetch_client`` for this machine's release over the real network."""
    with default_http() as http:
        fetch_client(client_release(env), http=http, clock=clock, out=out)
