"""The web view a team hosts for phones: time to the first row, memory per person.

How it measures: bench/README.md, "hosted_sessions.py".
Run: ``.venv/bin/python bench/hosted_sessions.py``.
"""

from __future__ import annotations

import os
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app_in_browser import ROOT, Memory, memory, mib, runs_text
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

if TYPE_CHECKING:
    from devtools.browser.schedule_server import ScheduleServer
    from devtools.self_signed import CertificatePair

REPETITIONS = 5
MANY = 10
RELEASE_WITHIN_S = 90
SAMPLE_EVERY_S = 5
SESSION_COUNT = re.compile(r"New session created \((\d+) total\)|Delete session \((\d+) left\)")
PHONE: ViewportSize = {"width": 390, "height": 844}
LOAD_TIMEOUT_MS = 120_000


def main() -> None:
    # The browser and server helpers live in devtools/, which is not an installed package.
    sys.path.insert(0, str(ROOT))
    from devtools.browser.chromium import launch_chromium
    from devtools.browser.schedule_server import Member, schedule_server
    from devtools.self_signed import self_signed

    alice = Member("alice", "Alice Example", secrets.token_urlsafe(32), tenant="team")
    with (
        tempfile.TemporaryDirectory(prefix="bench-hosted-") as scratch,
        sync_playwright() as pw,
    ):
        work = Path(scratch)
        certificate = self_signed(work / "tls")
        with schedule_server(work / "server", [alice]) as server:
            browser = launch_chromium(pw)
            try:
                first_row_times(browser, server, alice.token, certificate, work)
                memory_per_session(browser, server, alice.token, certificate, work)
            finally:
                browser.close()


def first_row_times(
    browser: Browser,
    server: ScheduleServer,
    token: str,
    certificate: CertificatePair,
    work: Path,
) -> None:
    from devtools.browser.hosted_app import hosted_app
    from devtools.browser.schedule_server import remote_app

    with (
        remote_app(server, work / "local-logs") as local_url,
        hosted_app(server, work / "hosted-logs", certificate=certificate) as hosted,
    ):

        def local() -> tuple[float, float, float]:
            return open_local(browser, local_url)

        def signed_in() -> tuple[float, float, float]:
            return open_and_sign_in(browser, hosted.url, token)

        local()  # warm-up: fills the OS file cache and both apps' first-session paths
        signed_in()
        local_runs: list[float] = []
        hosted_runs: list[tuple[float, float, float]] = []
        for _ in range(REPETITIONS):
            local_runs.append(local()[0])
            hosted_runs.append(signed_in())
    local_median = statistics.median(local_runs)
    totals = [total for total, _, _ in hosted_runs]
    hosted_median = statistics.median(totals)
    form_median = statistics.median(form for _, form, _ in hosted_runs)
    after_median = statistics.median(after for _, _, after in hosted_runs)
    print("Opening the address -> first schedule row in Chromium's accessibility tree, 390x844")
    print(f"(median of {REPETITIONS} interleaved runs after a warm-up each; apps already running)")
    print(f"  {'':<52} {'median s':>9}  runs")
    print(
        f"  {'local web view (127.0.0.1, own token, no sign-in)':<52} {local_median:>9.2f}  "
        f"{runs_text(local_runs)}"
    )
    print(
        f"  {'hosted web view (HTTPS, sign-in with a pasted token)':<52} {hosted_median:>9.2f}  "
        f"{runs_text(totals)}"
    )
    print(f"  {'  of which: address -> sign-in form':<52} {form_median:>9.2f}")
    print(f"  {'  of which: Sign in pressed -> first row':<52} {after_median:>9.2f}")
    print(f"  ratio hosted / local: {hosted_median / local_median:.2f}x")
    print()


def memory_per_session(
    browser: Browser,
    server: ScheduleServer,
    token: str,
    certificate: CertificatePair,
    work: Path,
) -> None:
    from devtools.browser.hosted_app import hosted_app

    marks: list[tuple[str, Memory]] = []
    os.environ["FLET_LOG_LEVEL"] = "info"  # Flet logs each session created and deleted
    log = work / "memory-logs" / "stderr.txt"
    with hosted_app(server, work / "memory-logs", certificate=certificate) as hosted:
        pid = hosted.process.pid
        marks.append(("started, no session", memory(pid)))
        warm_up = browser.new_context(viewport=PHONE, ignore_https_errors=True)
        sign_in_and_wait(warm_up.new_page(), hosted.url, token)
        warm_up.close()
        release(pid, log)
        marks.append(("baseline: one session came and went", memory(pid)))
        waves = []
        for wave in (1, 2):
            open_marks = signed_in_wave(browser, hosted.url, token, pid)
            if wave == 1:
                marks.extend(open_marks)
            else:
                marks.append((f"second wave: {MANY} open again", open_marks[-1][1]))
            after = release(pid, log)
            waves.append(after)
            marks.append((f"wave {wave}: {MANY} closed, {after[-1][0]:.0f} s later", after[-1][2]))
    one = dict(marks)["1 signed-in session open"]
    many = dict(marks)[f"{MANY} signed-in sessions open"]
    each = (many.rss_kib - one.rss_kib) / (MANY - 1)
    print(f"Memory of the hosting process (VmRSS, VmHWM), {MANY} Chromium contexts signed in")
    print(f"  {'':<52} {'RSS MiB':>8} {'peak MiB':>9}")
    for name, mark in marks:
        print(f"  {name:<52} {mib(mark.rss_kib):>8} {mib(mark.peak_kib):>9}")
    print(
        f"  one more signed-in person: {each / 1024:.1f} MiB of RSS "
        f"((RSS at {MANY} - RSS at 1) / {MANY - 1})"
    )
    for wave, after in enumerate(waves, start=1):
        print(
            f"  wave {wave}, every {SAMPLE_EVERY_S} s after closing: live sessions "
            + " ".join(str(live) for _, live, _ in after)
        )
        back = next((at for at, live, _ in after if live == 0), None)
        if back is None:
            print(f"  wave {wave}: NOT back to baseline (no session) within {RELEASE_WITHIN_S} s")
        else:
            print(
                f"  wave {wave}: back to baseline (no session left) {back:.0f} s after the "
                f"{MANY} closed (bound: {RELEASE_WITHIN_S} s)"
            )
    first_peak = waves[0][-1][2].rss_kib
    second_peak = waves[1][-1][2].rss_kib
    print(
        f"  the second wave's {MANY} sessions grew RSS by {(second_peak - first_peak) / 1024:.1f} "
        "MiB over the first: the released memory is reused"
    )


def signed_in_wave(browser: Browser, url: str, token: str, pid: int) -> list[tuple[str, Memory]]:
    """``MANY`` contexts signed in one after another, then closed; RSS at 1 and at ``MANY``."""
    contexts: list[BrowserContext] = []
    marks: list[tuple[str, Memory]] = []
    try:
        for count in range(1, MANY + 1):
            context = browser.new_context(viewport=PHONE, ignore_https_errors=True)
            contexts.append(context)
            sign_in_and_wait(context.new_page(), url, token)
            if count in (1, MANY):
                marks.append(
                    (f"{count} signed-in session{'s' if count > 1 else ''} open", memory(pid))
                )
    finally:
        for context in contexts:
            context.close()
    return marks


def live_sessions(log: Path) -> int:
    """Flet's own count of the sessions it holds, from the last line of its log that says."""
    counts = SESSION_COUNT.findall(log.read_text(encoding="utf-8", errors="replace"))
    if not counts:
        return 0
    created, left = counts[-1]
    return int(created or left)


def release(pid: int, log: Path) -> list[tuple[float, int, Memory]]:
    """(seconds since the call, live sessions, memory) every ``SAMPLE_EVERY_S`` until no
    session is left or ``RELEASE_WITHIN_S`` has passed."""
    started = time.monotonic()
    samples: list[tuple[float, int, Memory]] = []
    while True:
        at = time.monotonic() - started
        live = live_sessions(log)
        samples.append((at, live, memory(pid)))
        if live == 0 or at >= RELEASE_WITHIN_S:
            return samples
        time.sleep(SAMPLE_EVERY_S)


def open_local(browser: Browser, url: str) -> tuple[float, float, float]:
    from devtools.browser.accessible_names import schedule_rows
    from devtools.browser.flutter_page import open_app

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        started = time.perf_counter_ns()
        open_app(page, url)
        schedule_rows(page).first.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        return (time.perf_counter_ns() - started) / 1e9, 0.0, 0.0
    finally:
        context.close()


def open_and_sign_in(browser: Browser, url: str, token: str) -> tuple[float, float, float]:
    """Seconds to the first row, to the form, and from Sign in to the first row."""
    context = browser.new_context(viewport=PHONE, ignore_https_errors=True)
    try:
        return sign_in_and_wait(context.new_page(), url, token)
    finally:
        context.close()


def sign_in_and_wait(page: Page, url: str, token: str) -> tuple[float, float, float]:
    from devtools.browser.accessible_names import SIGN_IN, button, schedule_rows, token_field
    from devtools.browser.flutter_page import open_app

    started = time.perf_counter_ns()
    open_app(page, url)
    field = token_field(page)
    field.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    form_shown = time.perf_counter_ns()
    field.fill(token)
    button(page, SIGN_IN).click()
    pressed = time.perf_counter_ns()
    schedule_rows(page).first.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    done = time.perf_counter_ns()
    return (done - started) / 1e9, (form_shown - started) / 1e9, (done - pressed) / 1e9


if __name__ == "__main__":
    main()
