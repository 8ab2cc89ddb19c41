"""The command line speaks the person's language: ``--locale`` if given, else the system's.

Its help, its refusals and the desktop notification are looked up in the catalogs
(``viewmodels/catalogs``, compiled by ``scripts/setup``); option names, URLs and
argparse's own words stay as they are.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import pytest
from babel import Locale
from starlette.types import Message, Scope

from app.backend import open_backend
from app.cli import main
from app.notifications import notification_message, notification_title
from app.options import build_parser
from app.settings import EmbeddedServerSettings
from app.startup_error import StartupError
from app.web.guard import browser_words
from app.web.guard import refusal as refusal_of
from tests.app.system_language import english_system, speak  # noqa: F401 - autouse
from viewmodels.attention import AttentionNotice
from viewmodels.language import words_for

GERMAN_SERVER_HELP = "den Zeitplan-Server unter URL verwenden (https://, oder http:// nur auf"


def said(text: str) -> str:
    """``text`` with argparse's line wrapping undone."""
    return " ".join(text.split())


def test_help_with_locale_de_is_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locale", "de_DE", "--help"]) == 0
    shown = said(capsys.readouterr().out)
    assert GERMAN_SERVER_HELP in shown
    assert "Das Token kann auch aus der Umgebungsvariable SCHEDULE_BROWSER_TOKEN kommen." in shown
    assert "--token-file PATH" in shown, "option names stay as they are"
    assert "use the schedule server" not in shown


def test_help_written_as_the_locale_equals_form_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help", "--locale=de-DE"]) == 0
    assert GERMAN_SERVER_HELP in said(capsys.readouterr().out)


def test_help_without_locale_is_in_the_systems_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    speak(monkeypatch, "de_DE.UTF-8")
    assert main(["--help"]) == 0
    assert GERMAN_SERVER_HELP in said(capsys.readouterr().out)


def test_help_without_any_locale_is_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    shown = said(capsys.readouterr().out)
    assert "use the schedule server at URL (https://, or http:// on this machine only)" in shown


def test_a_refusal_with_locale_de_is_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locale", "de_DE", "--token-file", "/nonexistent/token"]) == 2
    err = capsys.readouterr().err
    assert (
        "schedule-browser: error: --token-file braucht --server URL "
        "(der eingebettete Server braucht kein Token)." in err
    )


def test_a_refusal_with_locale_zh_hans_is_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locale", "zh_Hans_CN", "--web", "--certfile", "/nonexistent/cert.pem"]) == 2
    refusal = "--certfile 和 --keyfile 必须一起使用：请提供证书及其私钥。"  # noqa: RUF001
    assert refusal in capsys.readouterr().err


def test_an_executor_refusal_is_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locale", "de_DE", "--executor", "ftp://runtime.example"]) == 2
    refusal = "--executor 'ftp://runtime.example' ist keine http://- oder https://-URL."
    assert refusal in capsys.readouterr().err


def test_a_bad_value_is_refused_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locale", "zh_Hans_CN", "--port", "0"]) == 2
    assert "0 不是端口号（1-65535）" in capsys.readouterr().err  # noqa: RUF001 - Chinese brackets


def test_an_unknown_locale_is_refused_in_the_systems_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    speak(monkeypatch, "de_DE.UTF-8")
    assert main(["--locale", "xx_YY"]) == 2
    err = capsys.readouterr().err
    assert "--locale" in err
    assert "'xx_YY' ist kein Gebietsschema" in err


GERMAN = words_for(Locale.parse("de_DE"))


@pytest.mark.parametrize(
    ("others", "message"),
    [
        pytest.param(0, "Ausführung fehlgeschlagen", id="alone"),
        pytest.param(
            1,
            "Ausführung fehlgeschlagen. 1 weiterer Zeitplan braucht ebenfalls Aufmerksamkeit.",
            id="one-other",
        ),
        pytest.param(
            3,
            "Ausführung fehlgeschlagen. 3 weitere Zeitpläne brauchen ebenfalls Aufmerksamkeit.",
            id="three-others",
        ),
    ],
)
def test_the_notification_counts_the_others_in_german(others: int, message: str) -> None:
    notice = AttentionNotice(UUID(int=0), "Backup", "Ausführung fehlgeschlagen", others)
    assert notification_title(notice, words=GERMAN) == "Braucht Aufmerksamkeit: Backup"
    assert notification_message(notice, words=GERMAN) == message


def request(accept_language: bytes | None) -> Scope:
    headers = [] if accept_language is None else [(b"accept-language", accept_language)]
    return {"type": "http", "headers": headers}


@pytest.mark.parametrize(
    ("header", "refusal"),
    [
        pytest.param(
            b"de-DE,de;q=0.9,en;q=0.8",
            "Diese Adresse stellt Schedule Browser nur seiner eigenen Seite bereit.",
            id="german-browser",
        ),
        pytest.param(
            b"zh-CN,zh;q=0.9", "此地址仅向 Schedule Browser 自己的页面提供服务。", id="chinese"
        ),
        pytest.param(
            b"*", "This address serves Schedule Browser to its own page only.", id="any-language"
        ),
        pytest.param(
            None, "This address serves Schedule Browser to its own page only.", id="no-header"
        ),
    ],
)
def test_the_refusal_a_browser_shows_is_in_its_language(header: bytes | None, refusal: str) -> None:
    assert refusal_of(browser_words(request(header))) == refusal


async def test_the_guard_answers_a_foreign_host_in_the_browsers_language() -> None:
    from app.web.guard import OriginGuard
    from app.web.origin import TrustedOrigins

    async def never(scope: Scope, receive: object, send: object) -> None:
        raise AssertionError("a foreign host must not reach the app")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    scope: Scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": [(b"host", b"elsewhere.example.com"), (b"accept-language", b"de")],
    }
    await OriginGuard(never, TrustedOrigins.local(8550))(scope, receive, send)
    assert sent[0]["status"] == 403
    body = b"".join(message.get("body", b"") for message in sent[1:]).decode()
    assert body == "Diese Adresse stellt Schedule Browser nur seiner eigenen Seite bereit."


def test_the_web_views_limits_are_explained_and_refused_in_german(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = said(build_parser(GERMAN).format_help())
    assert "Anfrage mit 503 beantwortet" in shown, "the connection limits' help, in German"
    assert main(["--locale", "de_DE", "--web", "--max-connections", "0"]) == 2
    assert "erwartet wird eine ganze Zahl ab 1: '0'" in capsys.readouterr().err


async def test_a_start_up_error_and_the_servers_name_read_in_german(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    blocked = EmbeddedServerSettings(data_dir=blocker / "data", demo=False)
    with pytest.raises(StartupError, match=r"Der Datenordner .* konnte nicht angelegt werden"):
        async with open_backend(blocked, clock=lambda: datetime.now(UTC), words=GERMAN):
            pass
    usable = EmbeddedServerSettings(data_dir=tmp_path / "data", demo=False)
    async with open_backend(usable, clock=lambda: datetime.now(UTC), words=GERMAN) as backend:
        assert backend.description == f"den eingebetteten Zeitplan-Server ({usable.database_path})"
