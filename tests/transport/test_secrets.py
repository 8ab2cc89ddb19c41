"""The bearer token and instructions never show in reprs, error text or logs."""

from __future__ import annotations

import logging

import httpx
import pytest
import respx

from devtools import api_bodies as bodies
from tests.transport.conftest import TOKEN
from transport import errors
from transport.client import ScheduleClient
from transport.models import ScheduleDetail, ScheduleSummary

S = bodies.SCHEDULE_ID


def _texts(err: BaseException) -> str:
    return " ".join([str(err), repr(err), *(str(arg) for arg in err.args)])


def test_client_repr_and_str_hide_the_token(client: ScheduleClient) -> None:
    assert TOKEN not in repr(client)
    assert TOKEN not in str(client)
    assert "schedules.example.test" in repr(client)


async def test_refusal_that_echoes_the_token_is_scrubbed(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/schedules/{S}").respond(
        401,
        json=bodies.envelope_json("auth.unauthenticated", f"unknown token {TOKEN}", token=TOKEN),
    )
    with pytest.raises(errors.Unauthenticated) as caught:
        await client.get_schedule(S)
    err = caught.value
    assert TOKEN not in _texts(err)
    assert TOKEN not in err.message
    assert err.message == "unknown token [redacted]"
    assert dict(err.details) == {}


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (422, bodies.envelope_json("schedule.secret_detected", "credential-shaped text")),
        (500, None),
    ],
)
async def test_errors_carry_no_request_body_or_token(
    status: int, body: object, router: respx.Router, client: ScheduleClient
) -> None:
    router.post("/v1/schedules").respond(status, json=body)
    definition = {"title": "t", "instruction": bodies.INSTRUCTION}
    with pytest.raises(errors.ServerRefused) as caught:
        await client.create_schedule(definition, idempotency_key="k")
    text = _texts(caught.value)
    assert bodies.INSTRUCTION not in text
    assert TOKEN not in text
    assert caught.value.code != "k"


async def test_protocol_error_does_not_echo_the_instruction(
    router: respx.Router, client: ScheduleClient
) -> None:
    broken = bodies.detail_json(revision=bodies.revision_json(browser_profile_id="not-a-uuid"))
    router.get(f"/v1/schedules/{S}").respond(200, json=broken)
    with pytest.raises(errors.ProtocolError) as caught:
        await client.get_schedule(S)
    assert bodies.INSTRUCTION not in _texts(caught.value)
    assert bodies.INSTRUCTION not in str(caught.value.__cause__)


async def test_connection_errors_do_not_mention_the_token(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/principal").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(errors.ConnectionFailed) as caught:
        await client.get_principal()
    assert TOKEN not in _texts(caught.value)
    assert TOKEN not in repr(caught.value.__cause__)


async def test_retry_logs_carry_neither_token_nor_body(
    router: respx.Router, client: ScheduleClient, caplog: pytest.LogCaptureFixture
) -> None:
    router.post("/v1/schedules").mock(
        side_effect=[httpx.Response(503), httpx.Response(201, json=bodies.detail_json())]
    )
    with caplog.at_level(logging.DEBUG):
        await client.create_schedule({"instruction": bodies.INSTRUCTION}, idempotency_key="k")
    assert caplog.records, "the retry should be logged"
    for record in caplog.records:
        assert TOKEN not in record.getMessage()
        assert bodies.INSTRUCTION not in record.getMessage()


def test_model_reprs_hide_the_instruction() -> None:
    detail = ScheduleDetail.model_validate(bodies.detail_json())
    summary = ScheduleSummary.model_validate(bodies.summary_json())
    assert bodies.INSTRUCTION not in repr(detail)
    assert bodies.INSTRUCTION[:40] not in repr(summary)
    assert "Morning news digest" in repr(detail)
