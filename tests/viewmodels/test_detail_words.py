"""The detail in the person's language: German for de_DE, Simplified Chinese for zh_Hans_CN.

The detail takes its words from the locale its display zone carries, and
hands that locale to the website picker it owns. Needs the compiled catalogs
(``scripts/setup``).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
import respx
from babel import Locale

from devtools.api_bodies import detail, page, principal, profile, revision_body, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.detail import ScheduleDetailFields, ScheduleDetailViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone

GERMAN = display_zone(ZoneInfo("Europe/Berlin"), HourCycle.LANGUAGE, Locale.parse("de_DE"))
CHINESE = display_zone(ZoneInfo("Asia/Shanghai"), HourCycle.LANGUAGE, Locale.parse("zh_Hans_CN"))
TITLE = "Inbox triage"


def serve(router: respx.MockRouter, *, state: str = "ACTIVE") -> None:
    """One schedule, the principal and one ready sign-in (github.com)."""
    body = detail("s1", state=state, revision=revision_body(3, title=TITLE))
    ScriptedRoute(router, "GET", f"/v1/schedules/{uid('s1')}", key="none").script(None, ok(body))
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    github = profile("github", origins=["https://github.com"])
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([github])))


async def opened(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo
) -> tuple[ScheduleDetailViewModel, ScheduleDetailFields]:
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=zone)
    await vm.open(uid("s1"))
    assert vm.snapshot.fields is not None
    return vm, vm.snapshot.fields


@pytest.mark.parametrize(
    ("zone", "instruction", "next_firing"),
    [
        pytest.param(GERMAN, "Anweisung", "Nächste Auslösung", id="de_DE"),
        pytest.param(CHINESE, "指令", "下次触发", id="zh_Hans_CN"),
    ],
)
async def test_a_detail_field_label_reads_in_the_zones_language(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    zone: ZoneInfo,
    instruction: str,
    next_firing: str,
) -> None:
    serve(router)
    _, fields = await opened(api, clock, zone)
    assert instruction in [group.title for group in fields.groups]
    assert fields.value(next_firing) is not None, "the Next firing line is labelled in it"
    assert fields.value("Next firing") is None


@pytest.mark.parametrize(
    ("zone", "resume"),
    [
        pytest.param(
            GERMAN,
            "Um ihn fortzusetzen, bitten Sie Ihren Agenten, „Inbox triage“ fortzusetzen"
            " (Name und ID können Sie unten kopieren), oder verwenden Sie die Werkzeuge"
            " der Agentenplattform.",
            id="de_DE",
        ),
        pytest.param(
            CHINESE,
            "如需恢复，请让您的智能体恢复“Inbox triage”（可在下方复制其名称和 ID），"  # noqa: RUF001
            "或使用智能体平台自带的工具。",
            id="zh_Hans_CN",
        ),
    ],
)
async def test_the_pause_help_says_how_to_resume_in_the_zones_language(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, zone: ZoneInfo, resume: str
) -> None:
    serve(router, state="PAUSED")
    _, fields = await opened(api, clock, zone)
    assert fields.pause is not None
    assert fields.pause.resume_text == resume


async def test_the_grant_question_asks_in_german_naming_the_schedule_and_the_site(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    serve(router)
    vm, _ = await opened(api, clock, GERMAN)
    picker = vm.website_access
    github = next(option for option in picker.snapshot.options if option.profile_id)
    await picker.choose(github)
    assert picker.snapshot.question is not None
    assert picker.snapshot.question.text == (
        "Darf „Inbox triage“ bei seinen Ausführungen Ihre Anmeldung bei github.com verwenden?"
    )
    assert picker.snapshot.options[0].label == "Keine", "the None entry in German too"


async def test_a_limit_labelled_in_german_keeps_the_line_saying_what_it_means(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    serve(router)
    _, fields = await opened(api, clock, GERMAN)
    advanced = fields.groups[-1]
    assert advanced.title == "Erweitert"
    steps = next(line for line in advanced.lines if line.label == "Max. Schritte")
    assert steps.explanation == "Die höchste Zahl an Schritten, die eine Ausführung machen darf"
