"""The views' labels come in the person's language: the roots provide the session's words.

Components are rendered here by Flet's own renderer, without a page session or
a browser: a probe component placed where a screen would be reads
``use_words()`` as every view does. ``AppShell`` is rendered over a stand-in
page (the router it returns is where the screens go), so this proves the words
the screens read follow ``ScreenModels.locale``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, cast
from zoneinfo import ZoneInfo

import flet as ft
import pytest
from babel import Locale
from flet.components.component import Component, Renderer
from flet.controls.context import _context_page

from viewmodels.formatting.clock_text import HourCycle, display_zone, locale_of
from viewmodels.language import words_for
from viewmodels.sign_in import SignInPhase, SignInSnapshot
from viewmodels.sign_in.snapshot import SIGN_IN_LABEL
from views.app_shell import AppShell
from views.screen_models import ScreenModels, SignedInAccount, SignInModel
from views.sign_in import SignInGate
from views.words import provide_words, use_words

GERMAN = Locale.parse("de_DE")
CHINESE = Locale.parse("zh_Hans_CN")


@ft.component
def _Heard(heard: list[str]) -> ft.Control:
    """Where a screen would be: says the Sign in label in the words it is given."""
    heard.append(use_words().gettext(SIGN_IN_LABEL))
    return ft.Container()


def _made(build: Callable[[], Any], parent: Component | None = None) -> Component:
    """The component ``build`` makes, as a child of ``parent`` (None: a root)."""
    renderer = Renderer(parent)  # type: ignore[no-untyped-call]
    return cast(Component, renderer.render(build))


def _render(component: Component) -> Any:
    """Renders ``component`` once, as Flet does before it first sends it, and gives its output."""
    component.before_update()  # type: ignore[no-untyped-call]
    return component._b


def _heard_under(parent: Component | None, build: Callable[[list[str]], Any]) -> list[str]:
    heard: list[str] = []
    _render(_made(lambda: build(heard), parent))
    return heard


@contextmanager
def _page() -> Iterator[None]:
    """A stand-in page for the components that read ``ft.context.page``."""
    page = SimpleNamespace(width=1280, route="/", on_resize=None, on_keyboard_event=None)
    token = _context_page.set(cast(Any, page))
    try:
        yield
    finally:
        _context_page.reset(token)


def _said_in(locale: Locale) -> str:
    return words_for(locale).gettext(SIGN_IN_LABEL)


def test_the_catalogs_say_sign_in_in_german_and_chinese() -> None:
    """Without compiled catalogs every test below would pass on English alone."""
    assert _said_in(GERMAN) != SIGN_IN_LABEL
    assert _said_in(CHINESE) not in (SIGN_IN_LABEL, _said_in(GERMAN))


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        pytest.param("de_DE", _said_in(GERMAN), id="german-for-de_DE"),
        pytest.param("en_US", SIGN_IN_LABEL, id="english-for-en_US"),
    ],
)
def test_the_words_context_speaks_the_language_of_the_display_zone(
    locale: str, expected: str
) -> None:
    zone = display_zone(ZoneInfo("Europe/Berlin"), HourCycle.LANGUAGE, Locale.parse(locale))
    heard = _heard_under(None, lambda heard: provide_words(locale_of(zone), lambda: _Heard(heard)))
    assert heard == [expected]


def test_a_component_no_root_provided_words_for_reads_english() -> None:
    assert _heard_under(None, lambda heard: _Heard(heard)) == [SIGN_IN_LABEL]


@pytest.mark.parametrize(
    "locale", [GERMAN, CHINESE, Locale.parse("en_US")], ids=["de", "zh_Hans", "en"]
)
def test_app_shell_gives_every_screen_the_words_of_its_models_locale(locale: Locale) -> None:
    models = ScreenModels(
        **dict.fromkeys(
            ("navigation", "schedules", "detail", "website_access", "sidebar", "messages"),
            cast(Any, None),
        ),
        locale=locale,
    )
    with _page():
        router = _render(_made(lambda: AppShell(models)))
        heard = _heard_under(router, lambda heard: _Heard(heard))
    assert heard == [_said_in(locale)]


class _SignIn:
    """A sign-in model that only shows one snapshot."""

    def __init__(self, snapshot: SignInSnapshot[SignedInAccount]) -> None:
        self.snapshot = snapshot

    def subscribe(self, _callback: object) -> Callable[[], None]:
        return lambda: None


def _buttons(control: Any) -> Iterator[str]:
    """The texts of the filled buttons under ``control``, its components rendered."""
    if isinstance(control, Component):
        control = _render(control)
    if isinstance(control, ft.FilledButton):
        yield str(control.content)
    for field in dataclasses.fields(control):
        child = getattr(control, field.name, None)
        for each in child if isinstance(child, list) else [child]:
            if isinstance(each, ft.BaseControl):
                yield from _buttons(each)


@pytest.mark.parametrize("locale", [GERMAN, CHINESE], ids=["de", "zh_Hans"])
def test_the_sign_in_screen_speaks_the_language_its_snapshot_is_in(locale: Locale) -> None:
    snapshot: SignInSnapshot[SignedInAccount] = SignInSnapshot(
        SignInPhase.SIGNED_OUT, locale=locale
    )
    with _page():
        gate = _made(lambda: SignInGate(cast(SignInModel, _SignIn(snapshot))))
        assert list(_buttons(gate)) == [_said_in(locale)]
