"""Whatever JSON a server answers with, every route yields a model or a transport error."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import respx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.transport.conftest import BASE_URL, FakeSleep, make_client
from tests.transport.route_cases import NOT_OFFERED, ROUTE_CASES, RouteCase
from transport import errors
from transport.models import WireModel

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


@st.composite
def bodies(draw: st.DrawFn, case: RouteCase) -> Any:
    """Arbitrary JSON, or the route's valid body with one spot (or key) replaced."""
    if draw(st.booleans()):
        return draw(json_values)
    valid = case.valid_body
    path = draw(st.sampled_from(_paths(valid)))
    return _replace(valid, path, draw(json_values))


async def _exercise(case: RouteCase, body: Any, status: int) -> None:
    router = respx.Router(base_url=BASE_URL, assert_all_called=False)
    router.route(method=case.method, path=case.path).mock(
        return_value=httpx.Response(status, content=json.dumps(body).encode())
    )
    async with make_client(router, FakeSleep()) as client:
        try:
            result = await case.call(client)
            if case.optional and status in (404, 405):
                assert result in NOT_OFFERED
                return
        except errors.ProtocolError:
            assert 200 <= status < 300
            return
        except errors.ServerRefused as refused:
            assert refused.status == status
            return
        assert 200 <= status < 300
        assert isinstance(result, WireModel)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), case=st.sampled_from(ROUTE_CASES))
def test_any_json_success_body_is_a_model_or_protocol_error(
    data: st.DataObject, case: RouteCase
) -> None:
    body = data.draw(bodies(case))
    asyncio.run(_exercise(case, body, case.status))


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    case=st.sampled_from(ROUTE_CASES),
    status=st.sampled_from([400, 401, 403, 404, 405, 409, 418, 422, 429, 500, 503]),
)
def test_any_json_error_body_is_a_server_refusal(
    data: st.DataObject, case: RouteCase, status: int
) -> None:
    body = data.draw(
        json_values
        | st.builds(
            lambda code, message, details: {
                "error": {"code": code, "message": message, "details": details}
            },
            json_values,
            json_values,
            json_values,
        )
    )
    asyncio.run(_exercise(case, body, status))


@pytest.mark.parametrize("case", ROUTE_CASES, ids=lambda case: case.name)
def test_a_valid_body_reads_as_its_model_on_every_route(case: RouteCase) -> None:
    """The fuzzers' starting point must itself parse: a protocol error here is a failure."""

    async def read() -> Any:
        router = respx.Router(base_url=BASE_URL, assert_all_called=False)
        router.route(method=case.method, path=case.path).mock(
            return_value=httpx.Response(case.status, json=case.valid_body)
        )
        async with make_client(router, FakeSleep()) as client:
            return await case.call(client)

    result = asyncio.run(read())
    assert isinstance(result, WireModel), case.name
