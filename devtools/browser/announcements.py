"""What Flutter's web engine announced to screen readers (its live regions), recorded.

A live region's new text is written into ``flt-announcement-polite`` (or
``-assertive``) for a moment and then cleared, too briefly to poll for.
``record_announcements`` installs an observer that keeps every text written
there; ``announced`` reads them back, whitespace collapsed.
"""

from __future__ import annotations

from playwright.sync_api import Page

_RECORD_SCRIPT = """() => {
    if (window.__announced) return;
    window.__announced = [];
    const keep = (node) => {
        const text = (node.textContent || '').split(/\\s+/).filter(Boolean).join(' ');
        if (text) window.__announced.push(text);
    };
    new MutationObserver((changes) => {
        for (const change of changes) {
            const target = change.target.nodeType === Node.TEXT_NODE
                ? change.target.parentElement : change.target;
            if (target && target.closest('flt-announcement-host')) keep(target);
        }
    }).observe(document.documentElement, {subtree: true, childList: true, characterData: true});
}"""


def record_announcements(page: Page) -> None:
    """From now on, keep every announcement the page makes (once per page)."""
    page.evaluate(_RECORD_SCRIPT)


def announced(page: Page) -> list[str]:
    """Every announcement since ``record_announcements``, oldest first."""
    texts: list[str] = page.evaluate("() => window.__announced || []")
    return texts
