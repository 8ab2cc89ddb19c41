"""What holds the keyboard focus, read from Flutter's accessibility tree as a screen reader does.

With the tree on, Flutter moves the page's focus to the ``flt-semantics`` node
of the control its own focus is on, when that control has a node of its own.
A focus held by a control whose node was merged away (or that has none)
leaves the page's focus on ``flutter-view``: nothing a screen reader can
name, so ``focused_name`` answers None there, an invisible stop.
"""

from __future__ import annotations

from playwright.sync_api import Page

from devtools.browser.flutter_page import next_frames

_FOCUSED_NAME_SCRIPT = """() => {
    const node = document.activeElement;
    if (!node || !node.closest('flt-semantics-host')) return null;
    const name = node.getAttribute('aria-label') || node.textContent || '';
    return name.split(/\\s+/).filter(Boolean).join(' ') || null;
}"""

TAB_STOPS = 40
"""Tab presses a walk may take before it gives up: more than a screen's controls."""


_FOCUS_VIEW_SCRIPT = """() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    document.querySelector('flutter-view')?.focus();
}"""


def focus_the_view(page: Page) -> None:
    """Put the page's focus on Flutter's view when nothing holds it.

    On some loads the page's body still holds the focus when the first rows
    show, and from the body Flutter's engine sends the first Tab past the top
    band's first controls (to Refresh, past Current and Recent History). A walk
    "from the page's start" starts from the view, where most loads leave it.
    """
    page.evaluate(_FOCUS_VIEW_SCRIPT)


def focused_name(page: Page) -> str | None:
    """The accessible name of the node holding the focus; None when no named node holds it."""
    name: str | None = page.evaluate(_FOCUSED_NAME_SCRIPT)
    return name


def press_and_read(page: Page, key: str) -> str | None:
    """Press ``key``, let Flutter move its focus (a few frames), and name what holds it."""
    page.keyboard.press(key)
    next_frames(page, 4)
    return focused_name(page)


def tab_to(
    page: Page, name: str, *, presses: int = TAB_STOPS, key: str = "Tab"
) -> list[str | None]:
    """Tab (or ``key``: "Shift+Tab") until the node named ``name`` holds the focus; returns
    every name passed on the way. Fails, listing them, when ``presses`` never reach it.
    """
    passed: list[str | None] = []
    for _ in range(presses):
        reached = press_and_read(page, key)
        passed.append(reached)
        if reached == name:
            return passed
    raise AssertionError(f"{presses} Tabs never reached {name!r}; they went {passed}")
