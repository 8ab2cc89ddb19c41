"""Window or browser: decided before Flet starts, because Flet cannot recover.

Offline, ``ft.run`` with the default desktop view downloads Flet's desktop
client on first use and hangs without output when it cannot. So the app opens
a desktop window only when one can be shown (a display on Linux; always on
macOS and Windows) and the client is already on this machine, or when the user
insists with ``--desktop``. Otherwise it serves the web view on localhost and
says why, with the address. An app built with ``flet build`` (iOS, Android,
packaged desktop) has its own client and skips the choice.
``decide_presentation`` is pure but for the one probe it is handed,
``desktop_client_cached`` (it mirrors where ``flet_desktop`` looks), which it
asks only when a window is the default choice: ``--web``, ``--desktop``, a
packaged app or a missing display never scan the disk for a client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class View(StrEnum):
    DESKTOP = "desktop"
    WEB = "web"
    PACKAGED = "packaged"
    """Built with ``flet build`` (``FLET_PLATFORM`` set): the host app already shows the UI."""


@dataclass(frozen=True, slots=True)
class Presentation:
    view: View
    open_browser: bool
    """Open the user's browser on the address (fallback from a window, not ``--web``)."""
    reason: str | None = None
    """Why a window was not opened when one was not asked against; printed."""


def has_display(platform: str, env: Mapping[str, str]) -> bool:
    """macOS and Windows always can; Linux and the BSDs need X11 or Wayland."""
    if platform == "darwin" or platform.startswith(("win", "cygwin")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def decide_presentation(
    *,
    platform: str,
    env: Mapping[str, str],
    client_cached: Callable[[], bool],
    web_requested: bool = False,
    desktop_requested: bool = False,
) -> Presentation:
    """Where the app appears. ``platform`` is ``sys.platform``; ``env`` the environment;
    ``client_cached`` is called at most once, and only when its answer decides."""
    if env.get("FLET_PLATFORM"):
        return Presentation(View.PACKAGED, open_browser=False)
    if web_requested:
        return Presentation(View.WEB, open_browser=False)
    display = has_display(platform, env)
    if desktop_requested:
        if not display:
            return Presentation(
                View.WEB,
                open_browser=False,
                reason="No display is available for a window (DISPLAY and WAYLAND_DISPLAY "
                "are unset), so the app is served to browsers instead.",
            )
        return Presentation(View.DESKTOP, open_browser=False)
    if not display:
        return Presentation(
            View.WEB,
            open_browser=False,
            reason="No display is available for a window, so the app is served to "
            "browsers instead.",
        )
    if not client_cached():
        return Presentation(
            View.WEB,
            open_browser=True,
            reason="Flet's desktop client is not installed on this machine, so the app "
            "opens in your browser. Run once with --desktop while online to fetch it.",
        )
    return Presentation(View.DESKTOP, open_browser=False)


def desktop_client_cached(home: Path, env: Mapping[str, str], version: str) -> bool:
    """True when ``flet_desktop`` would find its client without downloading it.

    It looks, in order, at ``FLET_VIEW_PATH``, an archive bundled in the package
    (``flet_desktop/app``) and ``~/.flet/client/flet-desktop-<flavor>-<version>[-<hash>]``.
    """
    view_path = env.get("FLET_VIEW_PATH")
    if view_path and Path(view_path).is_dir():
        return True
    try:
        import flet_desktop  # type: ignore[import-untyped]
    except ImportError:
        return False
    bundled = Path(flet_desktop.__file__).parent / "app"
    if bundled.is_dir() and any(bundled.iterdir()):
        return True
    clients = home / ".flet" / "client"
    if not clients.is_dir():
        return False
    for entry in clients.iterdir():
        name = entry.name
        if not entry.is_dir() or not name.startswith("flet-desktop-"):
            continue
        if name.endswith(f"-{version}") or f"-{version}-" in name:
            return True
    return False
