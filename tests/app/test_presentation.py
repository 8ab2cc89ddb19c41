"""Window or browser, decided before Flet starts (it hangs offline without its client)."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import pytest

from app.presentation import View, decide_presentation, desktop_client_cached


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
    decided = decide_presentation(platform=platform, env=env, client_cached=lambda: True)
    assert decided.view is View.DESKTOP
    assert decided.reason is None


def test_headless_linux_serves_browsers_and_says_why() -> None:
    decided = decide_presentation(platform="linux", env={}, client_cached=lambda: True)
    assert decided.view is View.WEB
    assert decided.open_browser is False
    assert decided.reason is not None and "No display" in decided.reason


@pytest.mark.parametrize("platform", ["darwin", "win32", "linux"])
def test_missing_client_opens_the_browser_instead_and_names_the_way_out(platform: str) -> None:
    decided = decide_presentation(
        platform=platform, env={"DISPLAY": ":1"}, client_cached=lambda: False
    )
    assert decided.view is View.WEB
    assert decided.open_browser is True
    assert decided.reason is not None and "--desktop" in decided.reason


def test_web_flag_serves_without_opening_a_browser_even_with_a_window_possible() -> None:
    decided = decide_presentation(
        platform="darwin", env={}, client_cached=lambda: True, web_requested=True
    )
    assert (decided.view, decided.open_browser, decided.reason) == (View.WEB, False, None)


def test_desktop_flag_opens_a_window_even_without_a_cached_client() -> None:
    decided = decide_presentation(
        platform="linux", env={"DISPLAY": ":0"}, client_cached=lambda: False, desktop_requested=True
    )
    assert decided.view is View.DESKTOP


def test_desktop_flag_without_a_display_falls_back_to_the_web_view() -> None:
    decided = decide_presentation(
        platform="linux", env={}, client_cached=lambda: False, desktop_requested=True
    )
    assert decided.view is View.WEB
    assert decided.reason is not None and "No display" in decided.reason


def test_client_cache_is_found_under_home_for_this_version(tmp_path: Path) -> None:
    assert not desktop_client_cached(tmp_path, {}, "1.0.5")
    clients = tmp_path / ".flet" / "client"
    (clients / "flet-desktop-light-1.0.4").mkdir(parents=True)
    (clients / "flet-desktop-light-1.0.5.tmpabcd").mkdir()
    assert not desktop_client_cached(tmp_path, {}, "1.0.5")
    (clients / "flet-desktop-full-1.0.5-0123456789ab").mkdir()
    assert desktop_client_cached(tmp_path, {}, "1.0.5")


def test_flet_view_path_counts_as_a_client(tmp_path: Path) -> None:
    assert desktop_client_cached(tmp_path, {"FLET_VIEW_PATH": str(tmp_path)}, "1.0.5")
    assert not desktop_client_cached(tmp_path, {"FLET_VIEW_PATH": str(tmp_path / "x")}, "1.0.5")


def test_a_flet_build_app_skips_the_choice_whatever_the_flags() -> None:
    decided = decide_presentation(
        platform="linux",
        env={"FLET_PLATFORM": "android"},
        client_cached=lambda: False,
        web_requested=True,
    )
    assert decided.view is View.PACKAGED
    assert decided.reason is None


def _no_probe() -> NoReturn:
    raise AssertionError("the desktop client was probed for although it could not decide")


@pytest.mark.parametrize(
    ("env", "web", "desktop", "view"),
    [
        ({"DISPLAY": ":0"}, True, False, View.WEB),
        ({"DISPLAY": ":0"}, False, True, View.DESKTOP),
        ({}, False, False, View.WEB),
        ({"FLET_PLATFORM": "ios"}, False, False, View.PACKAGED),
    ],
)
def test_the_client_probe_runs_only_when_its_answer_decides(
    env: dict[str, str], web: bool, desktop: bool, view: View
) -> None:
    decided = decide_presentation(
        platform="linux",
        env=env,
        client_cached=_no_probe,
        web_requested=web,
        desktop_requested=desktop,
    )
    assert decided.view is view
