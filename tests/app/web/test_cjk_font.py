"""Flutter's requests for CJK glyph fonts, answered from one font installed on the host.

A Noto CJK subset asked for under ``assets/fonts/`` is redirected to the one
font (relatively, so an app under a proxy's prefix stays under it); the font is
sent with its media type and a day's caching; other fallback families, and a
host with no CJK font, are answered 404 as before. The font is found in the
known places, Windows's fonts folder, then through fontconfig. The Chromium
tests of ``tests/ui/test_languages.py`` read the Chinese screens drawn through
this.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from app.web import cjk_font
from app.web.cjk_font import CACHED_FOR, add_cjk_fallback, font_path, installed_cjk_font

SUBSET = "/assets/fonts/notosanssc/v36/k3kCo84MPvpLmixcA63oeAL7Iqp5IZJF9bmaG9_FnYxNbPzS5HE.97.woff2"
FONT_BYTES = b"\x00\x01\x00\x00 a font's bytes"


async def client_for(font: Path | None, root_path: str = "") -> AsyncIterator[httpx.AsyncClient]:
    app = Starlette()
    add_cjk_fallback(app, font)
    transport = httpx.ASGITransport(app=app, root_path=root_path)
    async with httpx.AsyncClient(transport=transport, base_url="http://app.test") as client:
        yield client


@pytest.fixture
def font(tmp_path: Path) -> Path:
    path = tmp_path / "Chinese.ttf"
    path.write_bytes(FONT_BYTES)
    return path


@pytest.fixture(autouse=True)
def fresh_lookup() -> Iterator[None]:
    """Each test looks for the machine's font afresh (the lookup is kept once found)."""
    installed_cjk_font.cache_clear()
    yield
    installed_cjk_font.cache_clear()


@pytest.fixture
async def served(font: Path) -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(font):
        yield client


@pytest.fixture
async def fontless() -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(None):
        yield client


async def test_a_chinese_subset_is_redirected_to_the_one_font(
    served: httpx.AsyncClient,
) -> None:
    answer = await served.get(SUBSET)

    assert answer.status_code == 302
    assert answer.headers["location"] == "../../cjk-fallback.ttf"
    served_at = httpx.URL(f"http://app.test{SUBSET}").join(answer.headers["location"])
    assert served_at.path == "/assets/fonts/cjk-fallback.ttf"


@pytest.mark.parametrize("family", ["notosanstc", "notosanshk", "notosansjp", "notosanskr"])
async def test_every_cjk_family_is_redirected(served: httpx.AsyncClient, family: str) -> None:
    answer = await served.get(f"/assets/fonts/{family}/v1/a.woff2")

    assert answer.status_code == 302


async def test_the_font_is_sent_with_its_type_and_kept_a_day(served: httpx.AsyncClient) -> None:
    answer = await served.get(SUBSET, follow_redirects=True)

    assert answer.status_code == 200
    assert answer.content == FONT_BYTES
    assert answer.headers["content-type"] == "font/ttf"
    assert answer.headers["cache-control"] == CACHED_FOR
    assert "etag" in answer.headers


async def test_other_fallback_families_are_not_found(served: httpx.AsyncClient) -> None:
    answer = await served.get("/assets/fonts/notocoloremoji/v1/a.woff2")

    assert answer.status_code == 404


async def test_without_a_cjk_font_nothing_is_redirected(fontless: httpx.AsyncClient) -> None:
    assert (await fontless.get(SUBSET)).status_code == 404
    assert (await fontless.get(font_path(Path("Chinese.ttf")))).status_code == 404


def test_a_known_font_is_found_before_fontconfig(
    font: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cjk_font, "INSTALLED_FONTS", ("/nowhere/a.ttc", str(font)))
    monkeypatch.setattr(cjk_font.shutil, "which", lambda _name: pytest.fail("fontconfig asked"))
    assert installed_cjk_font() == font


def test_windows_yahei_is_found_in_its_fonts_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Fonts").mkdir()
    (tmp_path / "Fonts" / "msyh.ttc").write_bytes(FONT_BYTES)
    monkeypatch.setattr(cjk_font, "INSTALLED_FONTS", ())
    monkeypatch.setenv("WINDIR", str(tmp_path))
    assert installed_cjk_font() == tmp_path / "Fonts" / "msyh.ttc"


def test_no_font_anywhere_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cjk_font, "INSTALLED_FONTS", ())
    monkeypatch.delenv("WINDIR", raising=False)
    monkeypatch.setattr(cjk_font.shutil, "which", lambda _name: None)
    assert installed_cjk_font() is None


def test_fontconfig_names_a_chinese_font_when_no_known_place_has_one(
    font: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = tmp_path / "fc-list"
    listing.write_text(f'#!/bin/sh\n[ "$3" = ":lang=zh-cn" ] && printf "%s\\n" "{font}"\n')
    listing.chmod(0o755)
    monkeypatch.setattr(cjk_font, "INSTALLED_FONTS", ())
    monkeypatch.delenv("WINDIR", raising=False)
    monkeypatch.setattr(cjk_font.shutil, "which", lambda _name: str(listing))
    assert installed_cjk_font() == font


async def test_under_a_proxys_prefix_the_redirect_stays_under_it(font: Path) -> None:
    async for client in client_for(font, root_path="/schedules"):
        answer = await client.get(f"/schedules{SUBSET}")

    assert answer.status_code == 302
    served_at = httpx.URL(f"http://app.test/schedules{SUBSET}").join(answer.headers["location"])
    assert served_at.path == "/schedules/assets/fonts/cjk-fallback.ttf"
