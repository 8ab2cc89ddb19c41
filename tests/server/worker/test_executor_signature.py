"""``verify`` answers True or False for any header a runtime may receive, never an exception.

A runtime calls it on whatever arrived in ``X-Schedule-Signature``: an
exception there is a 500 where the protocol promises a 401. Hypothesis
throws arbitrary strings at it, and strings shaped like the header with
non-ASCII, oversized or non-hex parts.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.worker.executor_signature import sign, verify

SECRET = b"0123456789abcdef0123456789abcdef"
BODY = b'{"run_id":"3f0c"}'
NOW = 1764579600
CLOCK = NOW + 0.25
"""The runtime's clock, a float as ``time.time()`` gives it."""
BOUNDED = settings(max_examples=300, deadline=None)

_digits = st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=30)
_shaped = st.builds(
    lambda t, v1, extra: f"t={t},v1={v1}{extra}",
    st.one_of(
        st.integers(min_value=NOW - 400, max_value=NOW + 400).map(str),
        st.integers().map(str),
        _digits,
        st.text(),
    ),
    st.one_of(st.text(), st.text(alphabet="0123456789abcdefABCDEF", min_size=63, max_size=65)),
    st.one_of(st.just(""), st.text().map(lambda text: "," + text)),
)


@BOUNDED
@given(header=st.one_of(st.text(), _shaped))
def test_any_header_is_answered_true_or_false(header: str) -> None:
    assert verify(SECRET, header, BODY, CLOCK) in (True, False)


@pytest.mark.parametrize(
    "header",
    [
        pytest.param(f"t={NOW},v1=" + "é" * 64, id="non-ascii-signature"),
        pytest.param("t=١٧٦٤٥٧٩٦٠٠,v1=" + "0" * 64, id="non-ascii-digits"),
        pytest.param("t=" + "9" * 400 + ",v1=" + "0" * 64, id="time-past-float-range"),
        pytest.param(sign(SECRET, NOW, BODY).upper(), id="upper-case"),
        pytest.param(sign(SECRET, NOW, BODY) + "0", id="65-hex-digits"),
        pytest.param(sign(SECRET, NOW, BODY).replace("t=", "t= "), id="space-in-time"),
        pytest.param("", id="empty"),
    ],
)
def test_a_malformed_header_is_false(header: str) -> None:
    assert verify(SECRET, header, BODY, CLOCK) is False


def test_the_documented_example_still_verifies() -> None:
    header = sign(SECRET, NOW, BODY)
    assert header == (
        "t=1764579600,v1=8b4056a21ac46fc8e3cf943516db373c9b30e3577ecff2cdfe790936c40601f6"
    )
    assert verify(SECRET, header, BODY, NOW + 299)
    assert not verify(SECRET, header, BODY, NOW + 301)
    assert not verify(SECRET, header, BODY + b" ", NOW)
