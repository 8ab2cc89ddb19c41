"""Chinese, Japanese and Korean glyphs in the web view, from a font on the serving machine.

Flutter's web engine draws with its own fonts, never the browser's: for a
character its Roboto lacks it fetches a Noto subset from ``fontFallbackBaseUrl``,
which Flet's offline build (``no_cdn``) points at the app's ``assets/fonts/``,
where Flet ships no subsets. Unanswered, a Chinese screen is painted as empty
boxes. ``add_cjk_fallback`` answers every CJK subset request with a redirect to
one URL serving a CJK font installed here (``installed_cjk_font``), so a browser
downloads one font once (its cache answers the other redirects), and only when
a screen shows such a character. Flutter still registers it under each
subset's name it asked for, so the page holds a copy per subset.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path, PurePosixPath

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response

FONTS = PurePosixPath("/assets/fonts")
FONT_NAME = "cjk-fallback"
"""The one font's name, served beside the subsets' folders (so a redirect is relative),
with its file's suffix (a path with none would be answered as a page: no validators)."""
SUBSET_FAMILY = re.compile(r"notosans(?:sc|tc|hk|jp|kr)")
"""Flutter's CJK fallback families: Simplified, Traditional, Hong Kong, Japanese, Korean."""
CACHED_FOR = "public, max-age=86400"
INSTALLED_FONTS = (
    # Smallest first: a phone downloads the whole font.
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # Debian fonts-droid-fallback
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # Debian fonts-wqy-microhei
    "/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc",  # Fedora, Arch
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Debian fonts-noto-cjk
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",  # Arch noto-fonts-cjk
    "/usr/share/fonts/google-noto-sans-cjk-vf-fonts/NotoSansCJK-VF.ttc",  # Fedora
    "/System/Library/Fonts/Hiragino Sans GB.ttc",  # macOS
)
WINDOWS_FONT = "msyh.ttc"
"""Microsoft YaHei, in every Windows's ``%WINDIR%\\Fonts``."""
MEDIA_TYPES = {".ttf": "font/ttf", ".otf": "font/otf", ".ttc": "font/collection"}


@cache
def installed_cjk_font() -> Path | None:
    """A font on this machine that draws Chinese, or ``None`` when there is none.

    The known places first, then fontconfig's list of fonts covering Chinese.
    """
    known = [Path(each) for each in INSTALLED_FONTS]
    if windows := os.environ.get("WINDIR"):
        known.append(Path(windows, "Fonts", WINDOWS_FONT))
    for path in known:
        if path.is_file():
            return path
    return _fontconfig_font()


def font_path(font: Path) -> str:
    """Where ``font`` is served: "/assets/fonts/cjk-fallback.ttf"."""
    return str(FONTS / f"{FONT_NAME}{font.suffix.lower()}")


def add_cjk_fallback(app: Starlette, font: Path | None) -> None:
    """Answer ``app``'s requests for Flutter's CJK subsets from ``font`` (none without one)."""
    if font is None:
        return
    served = font_path(font)
    media_type = MEDIA_TYPES.get(font.suffix.lower(), "application/octet-stream")

    async def subset(request: Request) -> Response:
        if not SUBSET_FAMILY.fullmatch(request.path_params["family"]):
            return PlainTextResponse("Not Found", status_code=404)
        return RedirectResponse(_relative(request.path_params["rest"], served), status_code=302)

    async def whole_font(request: Request) -> Response:
        whole = FileResponse(
            font,
            media_type=media_type,
            headers={"Cache-Control": CACHED_FOR},
            stat_result=await asyncio.to_thread(os.stat, font),
        )
        if request.headers.get("if-none-match") == whole.headers["etag"]:
            kept = {name: whole.headers[name] for name in ("etag", "cache-control")}
            return Response(status_code=304, headers=kept)
        return whole

    app.add_route(served, whole_font, methods=["GET", "HEAD"])
    app.add_route(str(FONTS / "{family}" / "{rest:path}"), subset, methods=["GET", "HEAD"])


def _relative(rest: str, target: str) -> str:
    """``target`` as seen from a subset at ``rest`` in its family's folder (relative, so
    an app a proxy serves under a prefix stays under it)."""
    return "../" * len(PurePosixPath(rest).parts) + PurePosixPath(target).name


def _fontconfig_font() -> Path | None:
    listing = shutil.which("fc-list")
    if listing is None:
        return None
    try:
        found = subprocess.run(
            [listing, "--format", "%{file}\n", ":lang=zh-cn"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    files = sorted(line for line in found if line.strip())
    return Path(files[0]) if files else None
