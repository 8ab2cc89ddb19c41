"""Window or browser, decided before Flet starts (it hangs offline without its client).

The probe and the fetch are injected; ``tests/app/test_desktop_client.py`` runs
the real fetch over a fake network.
"""

from __future__ import annotations

from typing import NoReturn

import pytest

from app.desktop_client import ClientFetchFailed, ClientNotPinned
from app.presentation import View, decide_presentation
from app.startup_error import StartupError


def _fetched() -> None:
    """A fetch that succeeds (the client is unpacked where Flet looks)."""


def _offline() -> NoReturn:
    raise ClientFetchFailed("no connection to github.com")


def _no_fetch() -> NoReturn:
    raise AssertionError("the desktop client was fetched although nothing needed it")


@pytest.mark.parametrize(
    ("platform", "env"),
    [
        ("linux", {"DISPLAY": ":0"}),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}),
        ("darwin", {}),
        ("win32", {}),
    ],
)
def test_window_when_a_display_exists_and_the_client_is_cached(
    platform: str, env: dict[str, str]
) -> None:
    decided = decide_presentation(
        platform=platform, env=env, client_cached=lambda: True, fetch_client=_no_fetch
    )
    assert decided.view is View.DESKTOP
    assert decided.reason is None


def test_headless_linux_serves_browsers_and_says_why() -> None:
    decided = decide_presentation(
        platform="linux", env={}, client_cached=lambda: True, fetch_client=_no_fetch
    )
    assert decided.view is View.WEB
    assert decided.open_browser is False
    assert decided.reason is not None and "No display" in decided.reason


@pytest.mark.parametrize("platform", ["darwin", "win32", "linux"])
def test_missing_client_is_fetched_then_the_window_opens(platform: str) -> None:
    fetches: list[str] = []
    decided = decide_presentation(
        platform=platform,
        env={"DISPLAY": ":1"},
        client_cached=lambda: False,
        fetch_client=lambda: fetches.append("fetched"),
    )
    assert fetches == ["fetched"]
    assert (decided.view, decided.open_browser, decided.reason) == (View.DESKTOP, False, None)


@pytest.mark.parametrize("platform", ["darwin", "win32", "linux"])
def test_a_failed_fetch_opens_the_browser_instead_and_says_why_in_one_sentence(
    platform: str,
) -> None:
    decided = decide_presentation(
        platform=platform, env={"DISPLAY": ":1"}, client_cached=lambda: False, fetch_client=_offline
    )
    assert decided.view is View.WEB
    assert decided.open_browser is True
    assert decided.reason == (
        "Flet's desktop client could not be fetched (no connection to github.com), so the "
        "app opens in your browser; the next start tries again."
    )


def test_a_client_with_no_pinned_digest_opens_the_browser_without_promising_a_retry() -> None:
    def not_pinned() -> NoReturn:
        raise ClientNotPinned("no checksum is pinned in this app for flet-macos.tar.gz of Flet 9")

    decided = decide_presentation(
        platform="darwin", env={}, client_cached=lambda: False, fetch_client=not_pinned
    )
    assert (decided.view, decided.open_browser) == (View.WEB, True)
    assert decided.reason == (
        "Flet's desktop client could not be fetched (no checksum is pinned in this app for "
        "flet-macos.tar.gz of Flet 9), so the app opens in your browser."
    )


def test_web_flag_serves_without_opening_a_browser_even_with_a_window_possible() -> None:
    decided = decide_presentation(
        platform="darwin",
        env={},
        client_cached=lambda: False,
        fetch_client=_no_fetch,
        web_requested=True,
    )
    assert (decided.view, decided.open_browser, decided.reason) == (View.WEB, False, None)


def test_desktop_flag_fetches_a_missing_client_and_opens_the_window() -> None:
    decided = decide_presentation(
        platform="linux",
        env={"DISPLAY": ":0"},
        client_cached=lambda: False,
        fetch_client=_fetched,
        desktop_requested=True,
    )
    assert decided.view is View.DESKTOP


def test_desktop_flag_stops_with_the_reason_instead_of_falling_back_when_the_fetch_fails() -> None:
    with pytest.raises(
        StartupError, match=r"\(no connection to github.com\); run without --desktop"
    ):
        decide_presentation(
            platform="linux",
            env={"DISPLAY": ":0"},
            client_cached=lambda: False,
            fetch_client=_offline,
            desktop_requested=True,
        )


def test_desktop_flag_without_a_display_stops_with_the_reason() -> None:
    with pytest.raises(StartupError, match=r"No display.*run without --desktop"):
        decide_presentation(
            platform="linux",
            env={},
            client_cached=_no_probe,
            fetch_client=_no_fetch,
            desktop_requested=True,
        )


def test_a_flet_build_app_skips_the_choice_whatever_the_flags() -> None:
    decided = decide_presentation(
        platform="linux",
        env={"FLET_PLATFORM": "android"},
        client_cached=lambda: False,
        fetch_client=_no_fetch,
        web_requested=True,
    )
    assert decided.view is View.PACKAGED
    assert decided.reason is None


def _no_probe() -> NoReturn:
    raise AssertionError("the desktop client was probed for although it could not decide")


@pytest.mark.parametrize(
    ("env", "web", "view"),
    [
        ({"DISPLAY": ":0"}, True, View.WEB),
        ({}, False, View.WEB),
        ({"FLET_PLATFORM": "ios"}, False, View.PACKAGED),
    ],
    ids=["web-flag", "no-display", "packaged"],
)
def test_the_client_probe_and_fetch_run_only_when_their_answer_decides(
    env: dict[str, str], web: bool, view: View
) -> None:
    decided = decide_presentation(
        platform="linux",
        env=env,
        client_cached=_no_probe,
        fetch_client=_no_fetch,
        web_requested=web,
    )
    assert decided.view is view
