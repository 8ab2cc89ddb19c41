"""Serving the page's largest file while another thread keeps the interpreter busy.

The web view serves the page's files (``main.dart.wasm``, 8.5 MB, the largest)
while the app opens the embedded server in a worker thread: seconds of
imports and set-up that hold Python's interpreter lock. This bench serves
that file from the real web app under uvicorn, as ``schedule-browser --web``
does, with and without ``app.web.files.PathSend`` (Starlette's 64 KiB reads,
each a hop to a thread, against 1 MiB reads), each one idle and beside a
thread that spins in pure Python, and prints the median download time.

The downloads are made by a separate process (a child Python with
``urllib``, timing itself), as a browser is: a client in this process would
compete for the same lock. 7 downloads per cell after a warm-up; the cells
take turns, so drifting load meets each alike.

Run from the repository root: ``.venv/bin/python bench/page_files.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any
from unittest.mock import patch

import flet as ft
import flet_web
import uvicorn
from starlette.types import ASGIApp

ROOT = Path(__file__).resolve().parents[1]
FILE = "main.dart.wasm"
DOWNLOADS = 7
LARGE = "1 MiB reads (PathSend)"
PLAIN = "64 KiB reads"
DOWNLOAD = """
import sys, time, urllib.request
started = time.perf_counter()
with urllib.request.urlopen(sys.argv[1]) as answer:
    size = len(answer.read())
print(time.perf_counter() - started, size)
"""


async def shows_nothing(_page: ft.Page) -> None:
    return None


def without_path_send(app: ASGIApp) -> ASGIApp:
    """In ``PathSend``'s place: path-send is not offered, so Starlette reads by itself."""
    return app


@contextmanager
def busy_interpreter(busy: bool) -> Iterator[None]:
    """A thread spinning in pure Python for the block (when ``busy``)."""
    stop = threading.Event()

    def spin() -> None:
        total = 0
        while not stop.is_set():
            total += sum(range(1000))

    spinner = threading.Thread(target=spin, daemon=True)
    if busy:
        spinner.start()
    try:
        yield
    finally:
        stop.set()
        if busy:
            spinner.join()


def download_seconds(url: str, expected_size: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", DOWNLOAD, url], check=True, capture_output=True, text=True
    )
    seconds, size = done.stdout.split()
    assert int(size) == expected_size, f"{size} bytes of {expected_size}"
    return float(seconds)


async def main() -> None:
    sys.path.insert(0, str(ROOT))
    from app.settings import WebAddress
    from app.web import server as web_server
    from devtools.ports import LOOPBACK, free_port

    ports: dict[str, int] = {}
    servers: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []
    for name, withheld in ((LARGE, False), (PLAIN, True)):
        port = free_port()
        with patch.object(web_server, "PathSend", without_path_send) if withheld else nullcontext():
            app: Any = web_server.web_app(
                shows_nothing, assets_dir=None, address=WebAddress(), port=port
            )
        server = uvicorn.Server(uvicorn.Config(app, host=LOOPBACK, port=port, log_level="warning"))
        servers.append((server, asyncio.create_task(server.serve())))
        ports[name] = port
    while not all(server.started for server, _ in servers):  # noqa: ASYNC110 - uvicorn sets a flag
        await asyncio.sleep(0.05)

    size = (Path(flet_web.__file__).parent / "web" / FILE).stat().st_size
    cells = [(name, busy) for name in ports for busy in (False, True)]
    timings: dict[tuple[str, bool], list[float]] = {cell: [] for cell in cells}
    for round_ in range(DOWNLOADS + 1):
        for (name, busy), seconds in timings.items():
            with busy_interpreter(busy):
                took = await asyncio.to_thread(
                    download_seconds, f"http://{LOOPBACK}:{ports[name]}/{FILE}", size
                )
            if round_:  # the first round warms up
                seconds.append(took)

    for server, task in servers:
        server.should_exit = True
        await task
    print(f"Downloading {FILE} from the web view, median of {DOWNLOADS}, ms")
    print(f"{'':28}{'idle':>8}{'busy':>8}")
    for name in ports:
        idle, busy = (statistics.median(timings[name, b]) * 1000 for b in (False, True))
        print(f"{name:28}{idle:8.0f}{busy:8.0f}")
    plain, large = (statistics.median(timings[name, True]) for name in (PLAIN, LARGE))
    print(f"busy: 64 KiB reads take {plain / large:.1f}x as long as 1 MiB reads")


if __name__ == "__main__":
    asyncio.run(main())
