"""The shape of the ``open_page`` fixture, importable by test modules (conftest is not).

``open_page(url, size=..., color_scheme=..., suffix=..., trust_any_certificate=..., touch=...,
semantics=..., locale=...)`` opens a fresh browser context on ``url`` with the accessibility
tree on (off with ``semantics=False``, as without a screen reader; a
test's self-signed certificate is accepted when asked; with ``touch``, the
page has a touch screen, so ``Locator.tap`` works as a finger does; the browser's
language is ``locale``, "en-GB" unless asked, whose formats the app follows); the fixture
screenshots (``<test>-<suffix>.png``) and closes every page when the test ends.
"""

from __future__ import annotations

from typing import Literal, Protocol

from playwright.sync_api import Page, ViewportSize

ColorScheme = Literal["light", "dark", "no-preference"]


class PageOpener(Protocol):
    def __call__(
        self,
        url: str,
        *,
        size: ViewportSize = ...,
        color_scheme: ColorScheme | None = ...,
        suffix: str = ...,
        trust_any_certificate: bool = ...,
        touch: bool = ...,
        semantics: bool = ...,
        locale: str = ...,
    ) -> Page: ...
