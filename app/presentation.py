"""Window or browser: decided before Flet starts, because Flet cannot recover.

Offline, ``ft.run`` with a window downloads Flet's desktop client on first use
and hangs without output when it cannot. So the app opens a window only when one
can be shown (a display on Linux; always on macOS and Windows) and the client is
on this machine, or once the app has fetched it itself within a time bound
(``app.desktop_client``). When the fetch fails it opens the browser on the web
view and says why; the next start tries again (unless no checksum is pinned
for the client's archive). ``--web`` skips all of this; ``--desktop`` stops
with the reason where the default would fall back to the browser. An app
built with ``flet build`` has its own client and skips the choice.

``decide_presentation`` is pure but for the two effects it is handed, the probe
``client_cached`` and ``fetch_client``, and calls each only when its answer
decides: ``--web``, a packaged app or a missing display never scan the disk or
touch the network, and a cached client is never fetched again. The reasons
are said in the command line's language (``app.command_line_words``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from app.command_line_words import words_of_setting
from app.startup_error import StartupError
from viewmodels.language import Words


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
    fetch_client: Callable[[], None],
    web_requested: bool = False,
    desktop_requested: bool = False,
    words: Words | None = None,
) -> Presentation:
    """Where the app appears; ``StartupError`` when ``--desktop`` cannot have its window.

    ``platform`` is ``sys.platform``; ``env`` the environment. ``client_cached`` and
    then ``fetch_client`` (which raises ``ClientFetchFailed``) are each called at
    most once, and only when a window is possible and the client is missing.
    ``words`` say the reasons (None: the operating system's language).
    """
    if env.get("FLET_PLATFORM"):
        return Presentation(View.PACKAGED, open_browser=False)
    if web_requested:
        return Presentation(View.WEB, open_browser=False)
    said = words if words is not None else words_of_setting(None)
    if not has_display(platform, env):
        if desktop_requested:
            raise StartupError(
                said.gettext(
                    "No display is available for a window (DISPLAY and WAYLAND_DISPLAY are "
                    "unset); run without --desktop to serve the app to browsers instead."
                )
            )
        return Presentation(
            View.WEB,
            open_browser=False,
            reason=said.gettext(
                "No display is available for a window, so the app is served to browsers instead."
            ),
        )
    if client_cached():
        return Presentation(View.DESKTOP, open_browser=False)
    # Imported here: a web start never gets this far, and never loads the fetcher.
    from app.desktop_client import ClientFetchFailed, ClientNotPinned

    try:
        fetch_client()
    except ClientFetchFailed as failed:
        if desktop_requested:
            raise StartupError(
                # Translators: {reason} is why the download failed, in English.
                said.gettext(
                    "Flet's desktop client could not be fetched ({reason}); run without "
                    "--desktop to use the browser instead."
                ).format(reason=failed)
            ) from failed
        if isinstance(failed, ClientNotPinned):  # another start cannot pin it
            # Translators: {reason} is why the download failed, in English.
            reason = said.gettext(
                "Flet's desktop client could not be fetched ({reason}), so the app "
                "opens in your browser."
            )
        else:
            # Translators: {reason} is why the download failed, in English.
            reason = said.gettext(
                "Flet's desktop client could not be fetched ({reason}), so the app "
                "opens in your browser; the next start tries again."
            )
        return Presentation(View.WEB, open_browser=True, reason=reason.format(reason=failed))
    return Presentation(View.DESKTOP, open_browser=False)
