"""Fetching Flet's desktop client: bounded, visible, verified, unpacked where flet_desktop looks.

The network is an ``httpx.MockTransport`` and the clock the tests' fake clock
(read as monotonic seconds), which the fake stream advances, so a stall past
the cap takes no real time. A release pins the SHA-256 of the archive a test
serves, unless the test is about a digest that does not match.
"""

from __future__ import annotations

import hashlib
import io
import re
import stat
import tarfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from app.desktop_client import (
    CAP_SECONDS,
    CONNECT_SECONDS,
    MAX_REDIRECTS,
    STALL_SECONDS,
    ClientFetchFailed,
    ClientNotPinned,
    ClientRelease,
    client_present,
    client_release,
    default_http,
    fetch_client,
)
from app.desktop_client_digests import CLIENT_ARCHIVE_SHA256
from tests.clock import Clock
from viewmodels.language import DEFAULT_LOCALE

ENGLISH = DEFAULT_LOCALE
URL = "https://github.com/flet-dev/flet/releases/download/v1.0.5/flet-linux-light-amd64.tar.gz"


class TimedStream(httpx.SyncByteStream):
    """Yields ``body`` in chunks, advancing ``clock`` by ``seconds_per_chunk`` for each."""

    def __init__(self, body: bytes, clock: Clock, seconds_per_chunk: float) -> None:
        self.body = body
        self.clock = clock
        self.seconds_per_chunk = seconds_per_chunk
        self.chunks_read = 0

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self.body), 1000):
            self.clock.advance(seconds=self.seconds_per_chunk)
            self.chunks_read += 1
            yield self.body[start : start + 1000]


def client_archive() -> bytes:
    """A tar.gz shaped like Flet's Linux client: ``flet/flet`` (executable) and a library."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, mode, data in (
            ("flet/flet", 0o755, b"#!/bin/sh\n" + bytes(range(256)) * 40),
            ("flet/lib/libapp.so", 0o644, bytes(reversed(range(256))) * 40),
        ):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), mode
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def release_in(
    folder_parent: Path,
    name: str = "flet-linux-light-amd64.tar.gz",
    *,
    pinned: bytes | None = None,
    url: str = URL,
) -> ClientRelease:
    """The release of ``name``, pinning the digest of ``pinned`` (the test archive by default)."""
    return ClientRelease(
        url=url,
        version="1.0.5",
        archive_name=name,
        sha256=sha256(client_archive() if pinned is None else pinned),
        folder=folder_parent / "flet-desktop-light-1.0.5",
        bundled_archive=folder_parent / "bundled" / name,
    )


def network(answer: Callable[[httpx.Request], httpx.Response]) -> httpx.Client:
    return httpx.Client(transport=httpx.MockTransport(answer))


def serving(stream: httpx.SyncByteStream, length: int | None) -> httpx.Client:
    headers = {} if length is None else {"Content-Length": str(length)}
    return network(lambda request: httpx.Response(200, headers=headers, stream=stream))


def failing(error: type[httpx.TransportError]) -> httpx.Client:
    def answer(request: httpx.Request) -> httpx.Response:
        raise error("refused", request=request)

    return network(answer)


def fetch_fails(release: ClientRelease, http: httpx.Client, clock: Clock) -> str:
    out = io.StringIO()
    with pytest.raises(ClientFetchFailed) as failed:
        fetch_client(release, http=http, clock=clock.monotonic, out=out, locale=ENGLISH)
    assert out.getvalue().endswith("\n"), "the progress line is ended before the reason"
    assert not release.folder.exists()
    assert list(release.folder.parent.iterdir()) == [], "nothing is left behind"
    return str(failed.value)


def test_the_archive_is_unpacked_where_flet_desktop_looks_with_progress(tmp_path: Path) -> None:
    body = client_archive()
    clock = Clock()
    release = release_in(tmp_path)
    out = io.StringIO()
    stream = TimedStream(body, clock, seconds_per_chunk=0.01)
    fetch_client(
        release, http=serving(stream, len(body)), clock=clock.monotonic, out=out, locale=ENGLISH
    )
    executable = release.folder / "flet" / "flet"
    assert executable.read_bytes().startswith(b"#!/bin/sh\n")
    assert executable.stat().st_mode & stat.S_IXUSR
    assert (release.folder / "flet" / "lib" / "libapp.so").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [release.folder.name]
    assert client_present(release, {})
    drawn = out.getvalue()
    assert drawn.startswith("\rFetching Flet's desktop client: 0.0 MB")
    assert drawn.endswith(f"{len(body) / 1e6:.1f} of {len(body) / 1e6:.1f} MB (100%)\n")
    assert "\n" not in drawn[:-1], "one line, redrawn in place"


def test_an_unknown_size_shows_bytes_without_a_percentage(tmp_path: Path) -> None:
    body = client_archive()
    clock = Clock()
    release = release_in(tmp_path)
    out = io.StringIO()
    fetch_client(
        release,
        http=serving(TimedStream(body, clock, 0.01), None),
        clock=clock.monotonic,
        out=out,
        locale=ENGLISH,
    )
    assert release.folder.is_dir()
    assert "%" not in out.getvalue()


def test_flet_desktop_finds_the_fetched_client_without_downloading_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import flet_desktop  # type: ignore[import-untyped]

    monkeypatch.setenv("HOME", str(tmp_path))
    body = client_archive()
    from flet_desktop.version import version  # type: ignore[import-untyped]

    release = client_release(
        {}, digests={(version, flet_desktop.get_artifact_filename()): sha256(body)}
    )
    assert release.folder.is_relative_to(tmp_path / ".flet" / "client")
    assert not client_present(release, {})
    clock = Clock()
    http = serving(TimedStream(body, clock, 0.01), len(body))
    fetch_client(release, http=http, clock=clock.monotonic, out=io.StringIO(), locale=ENGLISH)
    # Any download flet_desktop attempted now would fail at once instead of going online.
    monkeypatch.setenv("FLET_CLIENT_URL", (tmp_path / "no-such-archive").as_uri())
    assert flet_desktop.ensure_client_cached() == release.folder
    assert client_present(release, {})


def test_no_connection_fails_fast_with_the_host_named(tmp_path: Path) -> None:
    reason = fetch_fails(release_in(tmp_path), failing(httpx.ConnectError), Clock())
    assert reason == "no connection to github.com"


def test_a_host_that_does_not_answer_fails_after_the_connect_timeout(tmp_path: Path) -> None:
    reason = fetch_fails(release_in(tmp_path), failing(httpx.ConnectTimeout), Clock())
    assert reason == f"github.com did not answer within {CONNECT_SECONDS:.0f} s"


def test_a_download_that_stops_sending_fails_after_the_stall_timeout(tmp_path: Path) -> None:
    class Stalls(httpx.SyncByteStream):
        def __iter__(self) -> Iterator[bytes]:
            yield b"\x1f\x8b partial"
            raise httpx.ReadTimeout("no byte for a while")

    reason = fetch_fails(release_in(tmp_path), serving(Stalls(), 10_000), Clock())
    assert reason == f"the download stalled for {STALL_SECONDS:.0f} s"


def test_a_download_slower_than_the_cap_is_abandoned_without_reading_on(tmp_path: Path) -> None:
    clock = Clock()
    body = bytes(1000) * 100
    stream = TimedStream(body, clock, seconds_per_chunk=CAP_SECONDS / 4)
    reason = fetch_fails(release_in(tmp_path), serving(stream, len(body)), clock)
    assert reason == f"it took longer than {CAP_SECONDS:.0f} seconds"
    assert stream.chunks_read == 5, "reading stops at the first chunk past the cap"


def test_a_refusal_names_the_status(tmp_path: Path) -> None:
    http = network(lambda request: httpx.Response(404, text="Not Found"))
    assert fetch_fails(release_in(tmp_path), http, Clock()) == "github.com answered HTTP 404"


def test_a_download_cut_short_is_not_unpacked(tmp_path: Path) -> None:
    clock = Clock()
    body = client_archive()
    half = len(body) // 2
    stream = TimedStream(body[:half], clock, 0.01)
    reason = fetch_fails(release_in(tmp_path), serving(stream, len(body)), clock)
    assert reason == f"the download ended after {half} of {len(body)} bytes"


@pytest.mark.parametrize("name", ["flet-linux-light-amd64.tar.gz", "flet-windows.zip"])
def test_a_damaged_archive_is_refused_and_nothing_is_left(tmp_path: Path, name: str) -> None:
    clock = Clock()
    body = b"this is not an archive" * 10
    stream = TimedStream(body, clock, 0.01)
    release = release_in(tmp_path, name, pinned=body)
    reason = fetch_fails(release, serving(stream, len(body)), clock)
    assert reason.startswith("the archive could not be unpacked")


def test_a_client_is_present_through_flet_view_path_a_bundled_archive_or_the_folder(
    tmp_path: Path,
) -> None:
    release = release_in(tmp_path / "client")
    assert not client_present(release, {})
    assert client_present(release, {"FLET_VIEW_PATH": str(tmp_path)})
    assert not client_present(release, {"FLET_VIEW_PATH": str(tmp_path / "missing")})
    release.bundled_archive.parent.mkdir(parents=True)
    release.bundled_archive.write_bytes(b"archive")
    assert client_present(release, {})
    release.bundled_archive.unlink()
    (release.folder.parent / f"{release.folder.name}.partial").mkdir()
    assert not client_present(release, {}), "a half-unpacked sibling is not the client"
    release.folder.mkdir()
    assert client_present(release, {})


def test_the_real_network_is_bounded_by_a_connect_and_a_stall_timeout() -> None:
    with default_http() as http:
        assert http.timeout.connect == CONNECT_SECONDS <= 10
        assert http.timeout.read == STALL_SECONDS
        assert not http.follow_redirects, "fetch_client follows them, checking each hop"


def redirecting(hops: dict[str, str], body: bytes) -> tuple[httpx.Client, list[str]]:
    """A network where each URL in ``hops`` redirects (302) to its value; others serve ``body``."""
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        if str(request.url) in hops:
            return httpx.Response(302, headers={"Location": hops[str(request.url)]})
        return httpx.Response(200, content=body)

    return network(answer), asked


def test_a_redirect_to_another_https_host_is_followed(tmp_path: Path) -> None:
    body = client_archive()
    download = "https://objects.githubusercontent.com/release-asset/flet.tar.gz"
    http, asked = redirecting({URL: download}, body)
    release = release_in(tmp_path)
    fetch_client(release, http=http, clock=Clock().monotonic, out=io.StringIO(), locale=ENGLISH)
    assert asked == [URL, download]
    assert (release.folder / "flet" / "flet").is_file()


def test_a_redirect_down_to_plain_http_is_refused_before_it_is_requested(tmp_path: Path) -> None:
    download = "http://objects.githubusercontent.com/release-asset/flet.tar.gz"
    http, asked = redirecting({URL: download}, client_archive())
    reason = fetch_fails(release_in(tmp_path), http, Clock())
    assert reason == "it was offered at objects.githubusercontent.com over http, not HTTPS"
    assert asked == [URL]


def test_a_plain_http_address_is_refused_before_it_is_requested(tmp_path: Path) -> None:
    http, asked = redirecting({}, client_archive())
    release = release_in(tmp_path, url="http://mirror.example/flet-linux-light-amd64.tar.gz")
    assert (
        fetch_fails(release, http, Clock())
        == "it was offered at mirror.example over http, not HTTPS"
    )
    assert asked == []


def test_endless_redirects_stop_after_the_limit(tmp_path: Path) -> None:
    hops = {f"https://github.com/{n}": f"https://github.com/{n + 1}" for n in range(50)}
    http, asked = redirecting(hops, client_archive())
    reason = fetch_fails(release_in(tmp_path, url="https://github.com/0"), http, Clock())
    assert reason == f"github.com redirected it more than {MAX_REDIRECTS} times"
    assert len(asked) == MAX_REDIRECTS + 1


def test_an_archive_whose_digest_differs_from_the_pinned_one_is_not_unpacked(
    tmp_path: Path,
) -> None:
    clock = Clock()
    tampered = client_archive() + b"\0"
    stream = TimedStream(tampered, clock, 0.01)
    reason = fetch_fails(release_in(tmp_path), serving(stream, len(tampered)), clock)
    assert reason == "its SHA-256 does not match the one pinned for Flet 1.0.5"


def test_an_archive_with_no_pinned_digest_is_not_fetched(tmp_path: Path) -> None:
    http, asked = redirecting({}, client_archive())
    release = client_release({}, digests={})
    assert release.sha256 is None
    with pytest.raises(ClientNotPinned) as failed:
        fetch_client(release, http=http, clock=Clock().monotonic, out=io.StringIO(), locale=ENGLISH)
    assert str(failed.value) == (
        f"no checksum is pinned in this app for {release.archive_name} of Flet {release.version}"
    )
    assert asked == []


def test_the_pinned_digests_are_sha256_in_lowercase_hex_for_the_installed_flet() -> None:
    from flet_desktop.version import version

    for (pinned_version, archive_name), digest in CLIENT_ARCHIVE_SHA256.items():
        assert pinned_version == version, "re-pin the digests when Flet is upgraded"
        assert archive_name.startswith("flet-")
        assert re.fullmatch("[0-9a-f]{64}", digest)
