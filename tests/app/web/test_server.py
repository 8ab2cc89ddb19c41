"""The web view as browsers get it: our manifest, name and icons for Add to Home Screen;
no generated API pages; the security headers on every answer; HTTPS from a
certificate; SIGTERM ends it cleanly.

The first tests read ``web_app`` in-process (httpx over ASGI); the last start
``schedule-browser --web`` with a certificate as a person would and fetch the
manifest over HTTPS from the running process.
"""

from __future__ import annotations

import json
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import flet as ft
import flet_web.fastapi as flet_fastapi
import httpx
import pytest

from app.launch import ASSETS_DIR
from app.settings import WebAddress
from app.web.cjk_font import font_path, installed_cjk_font
from app.web.headers import inline_script_hashes
from app.web.server import APP_NAME, APP_SHORT_NAME, HIDDEN_PATHS, NO_CJK_FONT, web_app
from devtools.browser.served_app import served_app
from devtools.self_signed import CertificatePair, self_signed
from viewmodels.formatting.shared_words import APP_NAME as SCREENS_APP_NAME

ASSETS_MANIFEST: dict[str, Any] = json.loads((ASSETS_DIR / "manifest.json").read_text())


async def nothing(_page: ft.Page) -> None:
    """A session entry that is never called: these tests open no session."""


@pytest.fixture(scope="module", autouse=True)
def flet_temp_dirs() -> Iterator[None]:
    """Flet writes its patched index and manifest to temp folders it removes at shutdown."""
    yield
    flet_fastapi.app_manager.delete_temp_dirs()


PORT = 8550


@pytest.fixture
async def browser_view() -> AsyncIterator[httpx.AsyncClient]:
    app = web_app(nothing, assets_dir=ASSETS_DIR, address=WebAddress(), port=PORT)
    transport = httpx.ASGITransport(app=app)
    base_url = f"http://127.0.0.1:{PORT}"
    async with httpx.AsyncClient(transport=transport, base_url=base_url) as client:
        yield client


@pytest.mark.parametrize("path", ["/", "/main.dart.js", "/manifest.json", "/missing.png"])
async def test_every_answer_forbids_framing_sniffing_referrers_and_foreign_readers(
    browser_view: httpx.AsyncClient, path: str
) -> None:
    headers = (await browser_view.get(path)).headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert "access-control-allow-origin" not in headers
    assert "strict-transport-security" not in headers  # plain HTTP on loopback


@pytest.mark.parametrize("path", ["/", "/canvaskit/skwasm.js"])
async def test_the_page_is_not_cross_origin_isolated_so_skwasm_draws_on_one_thread(
    browser_view: httpx.AsyncClient, path: str
) -> None:
    # Flet sends both halves of cross-origin isolation; without the embedder
    # policy, Flutter's skwasm does not rasterize on a worker beside the page's
    # text layout, a pairing that can corrupt its heap and spin the page.
    response = await browser_view.get(path)
    assert response.status_code == 200
    assert "cross-origin-embedder-policy" not in response.headers


async def test_the_page_policy_allows_only_its_own_inline_scripts_and_socket(
    browser_view: httpx.AsyncClient,
) -> None:
    response = await browser_view.get("/")
    parts = response.headers["content-security-policy"].split(";")
    policy = dict(part.strip().split(" ", 1) for part in parts)
    hashes = inline_script_hashes(response.content)
    assert len(hashes) >= 2  # Flet's configuration and loader scripts
    assert policy["script-src"].split() == ["'self'", "'wasm-unsafe-eval'", *hashes]
    assert policy["connect-src"] == f"'self' ws://127.0.0.1:{PORT}"
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == "'none'"


async def test_the_page_is_never_answered_not_modified_under_an_older_policy(
    browser_view: httpx.AsyncClient,
) -> None:
    first = await browser_view.get("/")
    again = await browser_view.get(
        "/",
        headers={
            "If-None-Match": first.headers.get("etag", '"x"'),
            "If-Modified-Since": first.headers.get("last-modified", "x"),
        },
    )
    assert again.status_code == 200
    assert again.content == first.content


async def test_https_answers_carry_strict_transport_security() -> None:
    hosted = WebAddress(host="127.0.0.1", behind_proxy=True, public_url="https://app.example.com")
    transport = httpx.ASGITransport(
        app=web_app(nothing, assets_dir=ASSETS_DIR, address=hosted, port=PORT)
    )
    async with httpx.AsyncClient(transport=transport, base_url="https://app.example.com") as client:
        response = await client.get("/")
    assert response.status_code == 200
    assert response.headers["strict-transport-security"].startswith("max-age=")
    policy = response.headers["content-security-policy"]
    assert "connect-src 'self' wss://app.example.com;" in policy


async def test_the_served_manifest_carries_our_name_icons_and_theme_colour(
    browser_view: httpx.AsyncClient,
) -> None:
    response = await browser_view.get("/manifest.json")
    assert response.status_code == 200
    manifest = response.json()
    assert (manifest["name"], manifest["short_name"]) == (APP_NAME, APP_SHORT_NAME)
    assert APP_NAME == SCREENS_APP_NAME, "the page's name is the screens' name"
    assert (manifest["name"], manifest["short_name"]) == (
        ASSETS_MANIFEST["name"],
        ASSETS_MANIFEST["short_name"],
    )
    assert manifest["theme_color"] == ASSETS_MANIFEST["theme_color"] == "#3F51B5"
    assert manifest["background_color"] == ASSETS_MANIFEST["background_color"]
    assert manifest["display"] == "standalone"
    assert manifest["icons"] == ASSETS_MANIFEST["icons"]
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}


async def test_every_icon_the_page_names_is_ours_not_flets(
    browser_view: httpx.AsyncClient,
) -> None:
    manifest = (await browser_view.get("/manifest.json")).json()
    page = (await browser_view.get("/")).text
    named = [icon["src"] for icon in manifest["icons"]]
    named += ["icons/apple-touch-icon-192.png", "favicon.png", "icons/loading-animation.png"]
    for source in named:
        assert source in page or source in [icon["src"] for icon in manifest["icons"]]
        response = await browser_view.get(f"/{source}")
        assert response.status_code == 200, source
        assert response.headers["content-type"] == "image/png"
        assert response.content == (ASSETS_DIR / source).read_bytes(), source


async def test_the_page_is_titled_with_our_name_for_the_home_screen(
    browser_view: httpx.AsyncClient,
) -> None:
    page = (await browser_view.get("/")).text
    assert f"<title>{APP_NAME}</title>" in page
    assert f'<meta name="apple-mobile-web-app-title" content="{APP_NAME}">' in page
    assert '<link rel="manifest" href="manifest.json">' in page
    assert "Flet" not in page.split("<body>")[0].split("<title>")[1].split("</title>")[0]


@pytest.mark.parametrize("path", HIDDEN_PATHS)
async def test_no_generated_api_pages_are_served(
    browser_view: httpx.AsyncClient, path: str
) -> None:
    assert (await browser_view.get(path)).status_code == 404


async def test_a_deep_link_is_answered_with_the_app_page(browser_view: httpx.AsyncClient) -> None:
    response = await browser_view.get("/schedules/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 200
    assert f"<title>{APP_NAME}</title>" in response.text


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> CertificatePair:
    return self_signed(tmp_path_factory.mktemp("tls"))


def test_the_running_app_serves_its_manifest_over_https_and_exits_0_on_sigterm(
    tmp_path: Path, certificate: CertificatePair
) -> None:
    tls = ["--certfile", str(certificate.certfile), "--keyfile", str(certificate.keyfile)]
    trusted = ssl.create_default_context(cafile=str(certificate.certfile))
    with served_app(tmp_path / "data", tmp_path / "logs", extra_arguments=tls) as app:
        port = urlsplit(app.url).port
        with httpx.Client(verify=trusted) as client:
            answer = client.get(f"https://localhost:{port}/manifest.json")
            manifest = answer.json()
            assert answer.headers["strict-transport-security"].startswith("max-age=")
        with pytest.raises(httpx.HTTPError), httpx.Client() as plain:
            plain.get(f"http://127.0.0.1:{port}/manifest.json")
    assert manifest["name"] == APP_NAME
    assert manifest["theme_color"] == ASSETS_MANIFEST["theme_color"]
    assert app.process.returncode == 0
    stdout = (tmp_path / "logs" / "stdout.txt").read_text()
    assert f"Schedule Browser is at https://127.0.0.1:{port}/" in stdout
    stderr = (tmp_path / "logs" / "stderr.txt").read_text()
    assert "Traceback" not in stderr, stderr[-3000:]


def test_a_host_without_a_chinese_font_is_told_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("app.web.server.installed_cjk_font", lambda: None)

    web_app(nothing, assets_dir=ASSETS_DIR, address=WebAddress(), port=PORT)

    assert NO_CJK_FONT in caplog.messages


async def test_the_hosts_cjk_font_is_served_whole_and_answered_not_modified_when_unchanged(
    browser_view: httpx.AsyncClient,
) -> None:
    font = installed_cjk_font()
    assert font is not None, "scripts/setup --test installs Debian's fonts-droid-fallback"

    first = await browser_view.get(font_path(font))
    again = await browser_view.get(
        font_path(font), headers={"If-None-Match": first.headers["etag"]}
    )

    assert first.status_code == 200
    assert len(first.content) == font.stat().st_size
    assert again.status_code == 304
