"""Assistant messages as Markdown that shows text only, and links that leave the app.

The renderer (Flutter's markdown) is given a source in which nothing can
become raw HTML or a remote image: outside code, ``<`` becomes ``&lt;`` and
``![`` becomes ``!\\[``,
so a tag shows as the characters the assistant wrote and an image shows as
its link text. Code spans and fenced blocks are left alone (they show
literally already). A link opens only when it is http, https or mailto, and
then outside the app (the browser or the OS), never in the app's own page.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

OUTSIDE_SCHEMES = frozenset({"http", "https", "mailto"})
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def safe_markdown(text: str) -> str:
    """``text`` with ``<`` and ``![`` escaped everywhere but inside code."""
    lines: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            lines.append(line)
            if opened and opened.group(1) == fence:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            lines.append(line)
            continue
        lines.append(_escape_outside_code_spans(line))
    return "\n".join(lines)


def _escape_outside_code_spans(line: str) -> str:
    parts: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(line):
        parts.append(_escape(line[last : span.start()]))
        parts.append(span.group(0))
        last = span.end()
    parts.append(_escape(line[last:]))
    return "".join(parts)


def _escape(prose: str) -> str:
    # An entity, not a backslash: it cannot be undone by a backslash before it.
    return prose.replace("<", "&lt;").replace("![", "!\\[")


def outside_link(url: str) -> str | None:
    """The address to open outside the app, or None for any other scheme."""
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return None
    return url.strip() if scheme in OUTSIDE_SCHEMES else None
