"""``list_schedules(order=…)``: the soonest-first order sent, and an older server's 400 known."""

from __future__ import annotations

import pytest
import respx

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.errors import InvalidRequest, ListOrderNotOffered
from transport.models import ListOrder


def _refusal(**details: str) -> dict[str, object]:
    return {"error": {"code": "request.invalid", "message": "Bad.", "details": details}}


async def test_next_fire_order_is_sent_and_the_default_is_not(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules").respond(200, json=bodies.page_json(bodies.summary_json()))
    await client.list_schedules(order=ListOrder.NEXT_FIRE, cursor="c1")
    assert route.calls.last.request.url.params["order"] == "next_fire"
    await client.list_schedules()
    assert "order" not in route.calls.last.request.url.params


@pytest.mark.parametrize(
    "details", [{"field": "order", "reason": "unknown"}, {}], ids=["order", "unnamed"]
)
async def test_a_400_to_next_fire_order_means_the_server_does_not_offer_it(
    router: respx.Router, client: ScheduleClient, details: dict[str, str]
) -> None:
    router.get("/v1/schedules").respond(400, json=_refusal(**details))
    with pytest.raises(ListOrderNotOffered):
        await client.list_schedules(order=ListOrder.NEXT_FIRE)


async def test_a_400_blaming_another_field_stays_what_it_is(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/schedules").respond(400, json=_refusal(field="cursor"))
    with pytest.raises(InvalidRequest) as refused:
        await client.list_schedules(order=ListOrder.NEXT_FIRE, cursor="stale")
    assert not isinstance(refused.value, ListOrderNotOffered)
    router.get("/v1/schedules").respond(400, json=_refusal())
    with pytest.raises(InvalidRequest) as plain:
        await client.list_schedules()
    assert not isinstance(plain.value, ListOrderNotOffered)
