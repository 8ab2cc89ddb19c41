"""Fetching Flet's desktop client: bounded, visible, unpacked where flet_desktop looks.

The network is an ``httpx.MockTransport`` and the clock the tests' fake clock
(read as monotonic seconds), which the fake stream advances, so a stall past
the cap takes no real time.
"""

from __future__ import annotations

import io
import stat
import tarfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from app.desktop_client import (
    CAP_SECONDS,
    CONNECT_SECONDS,
    STALL_SECONDS,
    ClientFetchFailed,
    ClientRelease,
    client_present,
    client_release,
    default_http,
    fetch_client,
)
from tests.clock import Clock

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


def release_in(folder_parent: Path, name: str = "flet-linux-light-amd64.tar.gz") -> ClientRelease:
    return ClientRelease(
        url=URL,
        archive_name=name,
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
        fetch_client(release, http=http, clock=clock.monotonic, out=out)
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
    fetch_client(release, http=serving(stream, len(body)), clock=clock.monotonic, out=out)
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
        release, http=serving(TimedStream(body, clock, 0.01), None), clock=clock.monotonic, out=out
    )
    assert release.folder.is_dir()
    assert "%" not in out.getvalue()


def test_flet_desktop_finds_the_fetched_client_without_downloading_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import flet_desktop  # type: ignore[import-untyped]

    monkeypatch.setenv("HOME", str(tmp_path))
    release = client_release({})
    assert release.folder.is_relative_to(tmp_path / ".flet" / "client")
    assert not client_present(release, {})
    body = client_archive()
    clock = Clock()
    http = serving(TimedStream(body, clock, 0.01), len(body))
    fetch_client(release, http=http, clock=clock.monotonic, out=io.StringIO())
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
    reason = fetch_fails(release_in(tmp_path, name), serving(stream, len(body)), clock)
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
        assert http.follow_redirects
