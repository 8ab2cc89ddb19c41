"""Reading a Flet web page through Flutter's accessibility tree.

What holds in Flet 1.0.5's web client in headless Chromium (found by probing):

- Flutter paints to a canvas and builds no DOM for its widgets until
  accessibility is switched on: one click on ``flt-semantics-placeholder`` turns
  it on, and from then on ``flt-semantics`` nodes carry ARIA roles and names,
  so ``page.get_by_role("button", name=...)`` works. A tappable node is a
  ``button`` whose name joins the texts inside it ("Row 1 sub 1"); a
  ``Semantics(label=...)`` wrapper is a ``group`` with that name. A control's
  ``semantics_label`` replaces its visible text as the name.
- Lazy lists keep only the rows near the viewport in the tree; the mouse wheel
  (``page.mouse.wheel``) brings further rows in, and far ones leave.
- Selectable text (``ft.Text(selectable=True)``) is an empty, disabled
  ``textarea`` in the tree, its words missing unless a label is given; plain
  text and text in an ``ft.SelectionArea`` are there. ``accessible_texts``
  collects names and texts: "can a reader get this?".
- Flutter applies a change on its next frame: a screenshot waits two frames.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FloatRect, Locator, Page, expect

UI_TIMEOUT_MS = 45_000
"""How long any one step may take: generous, because a 2-core machine shared with
other work renders Flutter in software many times slower than when idle, yet bounded."""
_FRAME_WAITS = itertools.count()


def open_app(page: Page, url: str, *, semantics: bool = True) -> None:
    """Navigate, wait for Flutter to start, and switch its accessibility tree on (unless not).

    With the tree off the page has no DOM for its controls: a test finds them
    by where they are painted, as a person without a screen reader does.
    """
    page.goto(url)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=UI_TIMEOUT_MS)
    if semantics:
        enable_semantics(page)


def enable_semantics(page: Page) -> None:
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=UI_TIMEOUT_MS)
    # The placeholder is a 1x1 off-screen element: a synthetic click is what works.
    placeholder.dispatch_event("click")
    expect(page.locator("flt-semantics-host flt-semantics").first).to_be_attached(
        timeout=UI_TIMEOUT_MS
    )


def next_frames(page: Page, frames: int = 2) -> None:
    """Let Flutter paint what the last event changed (for screenshots).

    Counted by a predicate polled on each animation frame, so the wait is
    bounded by the driver's timeout even when the page's own thread never
    gets to a frame (a plain ``evaluate`` would wait for ever on a hung page).
    """
    page.wait_for_function(
        """({ frames, key }) => {
            const left = (window[key] ?? frames + 1) - 1;
            if (left > 0) {
                window[key] = left;
                return false;
            }
            delete window[key];
            return true;
        }""",
        arg={"frames": frames, "key": f"__framesLeft{next(_FRAME_WAITS)}"},
        polling="raf",
        timeout=UI_TIMEOUT_MS,
    )


def scroll_until_attached(
    page: Page,
    area: Locator | tuple[float, float],
    target: Locator,
    *,
    step_px: int = 500,
    settle_ms: int = 400,
    timeout_ms: int = UI_TIMEOUT_MS,
) -> int:
    """Wheel over ``area`` until ``target`` is in the tree; returns the wheel steps taken.

    Each step waits (bounded) for the target to show up, which also covers a
    page of rows arriving from the server after the list asked for more.
    ``area`` is measured once, before scrolling, since whatever names it (a
    row inside the list) may itself scroll out of the tree; a caller scrolling
    in several stretches passes the point it measured first.
    """
    x, y = area if isinstance(area, tuple) else box_centre(area)
    deadline = time.monotonic() + timeout_ms / 1000
    steps = 0
    while True:
        try:
            expect(target).to_be_attached(timeout=settle_ms)
            return steps
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        page.mouse.move(x, y)
        page.mouse.wheel(0, step_px)
        # Flutter takes each wheel before the next look: wheels queued on a slow page
        # would carry the target on past the viewport after it came into the tree.
        next_frames(page)
        steps += 1


def scroll_into_view(
    page: Page,
    area: tuple[float, float],
    target: Locator,
    *,
    step_px: int = 250,
    max_steps: int = 40,
    found_going_down: bool = True,
    settle_ms: int = 2_000,
) -> None:
    """Wheel over ``area`` until ``target`` (already in the tree) lies inside the viewport.

    Flutter scrolls its own lists: Playwright's scroll-into-view cannot move
    them, so an attached node below the fold stays unclickable until the
    list under it is wheeled. A node with no box yet lies ahead, the way the
    wheel last went (``found_going_down``: the search that found it went
    down); one that left the tree was carried past by wheels a slow page
    still had queued: the wheel turns back.
    """
    x, y = area
    height = (page.viewport_size or {"height": 800})["height"]
    going_down = found_going_down
    in_tree = True
    for _ in range(max_steps):
        try:
            box = target.bounding_box(timeout=settle_ms)
        except PlaywrightError:  # out of the tree: turn back once, then keep going back
            if in_tree:
                going_down = not going_down
            in_tree = False
        else:
            in_tree = True
            if box is not None:
                if box["y"] >= 0 and box["y"] + box["height"] <= height:
                    return
                going_down = box["y"] + box["height"] > height
        page.mouse.move(x, y)
        page.mouse.wheel(0, step_px if going_down else -step_px)
        next_frames(page, 3)
    raise AssertionError(f"{target} never came into the viewport")


def click_in_list(page: Page, first: Locator, target: Locator) -> None:
    """Wheel the list whose first entry is ``first`` until ``target`` is on screen; click it.

    Attached is not on screen: a click on an entry below the fold lands on another one.
    """
    expect(first).to_be_visible()
    point = box_centre(first)
    scroll_until_attached(page, point, target)
    scroll_into_view(page, point, target)
    target.click()


def until_it_takes(
    act: Callable[[], None], proof: Callable[[], None], *, attempts: int = 3
) -> None:
    """``act`` (a click), again until ``proof`` (an ``expect`` with a short timeout) holds.

    A click that lands while Flutter is laying out or rebuilding what it aims at
    is lost, and nothing on the page says so: only its effect proves it took.
    """
    for attempt in range(attempts):
        act()
        try:
            proof()
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def choose(segment: Locator) -> None:
    """Click a segment (a section tab) until Flutter marks it chosen (``aria-current``)."""
    until_it_takes(
        segment.click,
        lambda: expect(segment).to_have_attribute("aria-current", "true", timeout=3_000),
    )


def pick(radio: Locator) -> None:
    """Click a radio until Flutter marks it checked (a second click leaves it chosen)."""
    until_it_takes(radio.click, lambda: expect(radio).to_be_checked(timeout=3_000))


def focus_field(field: Locator) -> None:
    """Click a text field until it holds the focus (a setting just applied redraws it)."""
    until_it_takes(field.click, lambda: expect(field).to_be_focused(timeout=5_000))


def type_into_field(field: Locator, text: str) -> None:
    """Type ``text`` into ``field`` key by key, until the field holds it.

    Flutter connects a field's text input a frame or more after the field takes
    the focus, and keys typed before that are lost (more frames under load): as
    a person who sees their text come out wrong, the typing is done again over
    the whole field.
    """

    def typing() -> None:
        focus_field(field)
        next_frames(field.page, 3)
        field.page.keyboard.press("ControlOrMeta+A")
        field.page.keyboard.type(text, delay=40)

    until_it_takes(typing, lambda: expect(field).to_have_value(text, timeout=3_000))


def scroll_reading(
    page: Page,
    area: Locator,
    done: Callable[[set[str]], bool],
    *,
    step_px: int = 300,
    max_steps: int = 40,
) -> set[str]:
    """Wheel over ``area``, gathering ``accessible_texts`` until ``done(gathered)`` holds.

    For lazy lists whose top items leave the tree as lower ones arrive: a text
    needs to have been readable at some point, not everything at once. Returns
    what was gathered either way; the caller asserts on it.
    """
    x, y = box_centre(area)
    gathered: set[str] = set()
    for _ in range(max_steps + 1):
        gathered.update(accessible_texts(page))
        if done(gathered):
            break
        page.mouse.move(x, y)
        page.mouse.wheel(0, step_px)
        next_frames(page, 3)
    return gathered


_TEXTS_SCRIPT = """() => {
    const found = [];
    for (const node of document.querySelectorAll('flt-semantics-host *')) {
        const label = node.getAttribute('aria-label');
        if (label) found.push(label);
        for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) {
                found.push(child.textContent);
            }
        }
    }
    return found;
}"""


def accessible_texts(page: Page) -> list[str]:
    """Every name and text in the accessibility tree now, whitespace collapsed."""
    found: list[str] = page.evaluate(_TEXTS_SCRIPT)
    return [" ".join(text.split()) for text in found]


def holds_text(texts: set[str] | list[str], text: str) -> bool:
    """Whether ``text`` is readable whole from one of ``texts`` (whitespace collapsed)."""
    wanted = " ".join(text.split())
    return any(wanted in found for found in texts)


def wait_for_text(page: Page, text: str, timeout_ms: int = UI_TIMEOUT_MS) -> None:
    """Poll the tree until ``text`` is readable whole from one node, or fail saying so."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not holds_text(accessible_texts(page), text):
        if time.monotonic() > deadline:
            raise AssertionError(f"never readable in the accessibility tree: {text[:80]!r}…")
        next_frames(page, 6)


def box_centre(area: Locator, timeout_s: float = UI_TIMEOUT_MS / 1000) -> tuple[float, float]:
    """The centre of ``area`` on screen (the wheel goes to what is under the mouse)."""
    box = box_of(area, timeout_s)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def box_of(area: Locator, timeout_s: float = UI_TIMEOUT_MS / 1000) -> FloatRect:
    """Where ``area`` is on screen.

    Flutter may replace a node while it rebuilds (a page of rows arriving, a
    sidebar refreshed), and a replaced node has no box: ask again until one answers.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            box = area.bounding_box(timeout=int(timeout_s * 1000))
        except PlaywrightError as err:
            raise AssertionError(f"{area} is not on screen: {err}") from err
        if box is not None:
            return box
        if time.monotonic() > deadline:
            raise AssertionError(f"{area} is not on screen")
        area.page.wait_for_timeout(50)
