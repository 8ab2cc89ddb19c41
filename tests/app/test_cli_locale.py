"""``--locale``: the formats to write dates and times in, checked on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main, parse_settings
from tests.app.system_language import english_system  # noqa: F401 - autouse: English

DATA = Path("/nonexistent/schedule-browser-data")


def test_without_locale_the_system_or_the_browser_decides() -> None:
    assert parse_settings([], {}, data_dir=DATA).locale is None


@pytest.mark.parametrize(
    ("given", "kept"), [("en_US", "en_US"), ("de-DE", "de_DE"), ("zh_Hans_CN", "zh_Hans_CN")]
)
def test_locale_is_kept_in_babels_spelling(given: str, kept: str) -> None:
    assert parse_settings(["--locale", given], {}, data_dir=DATA).locale == kept


@pytest.mark.parametrize("given", ["xx_YY", "", "not a locale"])
def test_a_locale_cldr_does_not_know_exits_2_with_the_reason(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--locale", given]) == 2
    err = capsys.readouterr().err
    assert "--locale" in err
    assert "is not a locale" in err
    assert "Traceback" not in err
