"""``schedule-server serve --rate-limit``: parsed, defaulted, documented, 0 turns it off."""

from __future__ import annotations

import pytest

from server.api.rate_limit import RateLimit
from server.cli import DEFAULT_REQUESTS_PER_MINUTE, _parser
from server.startup import rate_limit_for


def test_default_is_600_a_minute_in_bursts_of_120() -> None:
    args = _parser().parse_args(["serve"])
    assert args.rate_limit == DEFAULT_REQUESTS_PER_MINUTE == 600
    assert rate_limit_for(args.rate_limit) == RateLimit(requests_per_minute=600, burst=120)


def test_option_sets_the_per_principal_rate() -> None:
    args = _parser().parse_args(["serve", "--rate-limit", "30"])
    assert rate_limit_for(args.rate_limit) == RateLimit(requests_per_minute=30, burst=6)


def test_small_rates_still_allow_one_request_at_a_time() -> None:
    assert rate_limit_for(2) == RateLimit(requests_per_minute=2, burst=1)


def test_zero_disables_the_limit() -> None:
    args = _parser().parse_args(["serve", "--rate-limit", "0"])
    assert rate_limit_for(args.rate_limit) is None


@pytest.mark.parametrize("value", ["-1", "many", "1.5"])
def test_nonsense_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        _parser().parse_args(["serve", "--rate-limit", value])
    assert exited.value.code == 2
    assert "--rate-limit" in capsys.readouterr().err


def test_help_documents_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--rate-limit N" in shown
    assert "0 disables the limit" in shown
    assert "Retry-After" in shown
