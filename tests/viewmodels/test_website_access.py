"""The website access picker: options, editability, the save protocol, overlapping loads."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import detail, page, principal, profile, revision_body, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from transport.models import ScheduleDetail
from viewmodels.detail import (
    NONE_OPTION,
    ProfilesPhase,
    ScheduleDetailViewModel,
    WebsiteOption,
)

WORK = profile("work")
OLD = profile("old", state="EXPIRED", origins=["https://intranet.example.com"])
PENDING = profile("pending", state="PENDING")
SHOP = profile("shop", origins=["https://shop.example.com:8443", "https://shop.example.com/cart"])


class Server:
    """The routes the picker touches, scripted per test."""

    def __init__(self, router: respx.MockRouter, name: str = "s1") -> None:
        path = f"/v1/schedules/{uid(name)}"
        self.read = ScriptedRoute(router, "GET", path, key="none")
        self.update = ScriptedRoute(router, "PATCH", path, key="none")
        self.principal = ScriptedRoute(router, "GET", "/v1/principal", key="none")
        self.profiles = ScriptedRoute(router, "GET", "/v1/browser-profiles")
        self.principal.script(None, ok(principal()))
        self.profiles.script(None, ok(page([WORK, OLD, PENDING, SHOP])))

    def patch_bodies(self) -> list[dict[str, Any]]:
        return [json.loads(request.content) for request in self.update.requests]


def make_detail(
    api: ScheduleClient,
    clock: FakeClock,
    zone: ZoneInfo,
    changed: list[ScheduleDetail] | None = None,
) -> ScheduleDetailViewModel:
    async def on_changed(detail: ScheduleDetail) -> None:
        if changed is not None:
            changed.append(detail)

    return ScheduleDetailViewModel(
        api, clock=clock, device_zone=zone, on_schedule_changed=on_changed
    )


def option_for(vm: ScheduleDetailViewModel, name: str) -> WebsiteOption:
    return next(o for o in vm.website_access.snapshot.options if o.profile_id == uid(name))


async def grant(vm: ScheduleDetailViewModel, name: str) -> None:
    """Choose a sign-in and answer the question Allow."""
    await vm.website_access.choose(option_for(vm, name))
    await vm.website_access.allow()


async def test_options_are_none_and_each_ready_profile_labelled_by_its_origins_host_names(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1")))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    snap = vm.website_access.snapshot
    assert snap.profiles_phase is ProfilesPhase.LOADED
    assert [o.label for o in snap.options] == [
        "None",
        "mail.google.com, calendar.google.com",
        "shop.example.com",
    ], "only READY profiles; hosts without scheme, port or duplicates"
    assert snap.current == NONE_OPTION
    assert snap.editable and snap.picker_enabled


async def test_a_bound_profile_that_is_not_ready_stays_visible_with_its_state(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None, ok(detail("s1", revision=revision_body(2, browser_profile_id=uid("old"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    snap = vm.website_access.snapshot
    assert snap.current.profile_id == uid("old")
    assert snap.current.display_text == "intranet.example.com (expired)"
    assert not snap.current.selectable
    assert snap.current in snap.options


async def test_a_bound_profile_no_longer_listed_stays_visible_as_no_longer_available(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None, ok(detail("s1", revision=revision_body(2, browser_profile_id=uid("deleted"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    snap = vm.website_access.snapshot
    assert snap.current.profile_id == uid("deleted")
    assert snap.current.state_text == "no longer available"
    assert snap.current in snap.options


async def test_terminal_and_unknown_states_show_the_binding_read_only(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    for state, reason in (
        ("COMPLETED", "Website access can't change on a schedule that is completed."),
        ("CANCELLED", "Website access can't change on a schedule that is cancelled."),
        (
            "ARCHIVED_BY_ADMIN",
            "Website access can't change on a schedule that is archived by admin.",
        ),
    ):
        server = Server(router, state)
        server.read.script(
            None,
            ok(
                detail(
                    state, state=state, revision=revision_body(2, browser_profile_id=uid("work"))
                )
            ),
        )
        vm = make_detail(api, clock, device_zone)
        await vm.open(uid(state))
        snap = vm.website_access.snapshot
        assert not snap.editable, state
        assert snap.not_editable_reason == reason
        assert snap.current.label == "mail.google.com, calendar.google.com", "binding still shown"
        await vm.website_access.choose(NONE_OPTION)
        assert server.update.requests == [], "a read-only picker sends nothing"


async def test_a_missing_schedule_write_scope_disables_the_control_and_says_why(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.principal.rescript(None, ok(principal(["schedule.read", "browser.profile.read"])))
    server.read.script(None, ok(detail("s1")))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    snap = vm.website_access.snapshot
    assert not snap.editable
    assert (
        snap.not_editable_reason == "Your account can't change schedules (it lacks schedule.write)."
    )


async def test_a_missing_browser_profile_read_scope_disables_the_control_and_lists_nothing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.principal.rescript(None, ok(principal(["schedule.read", "schedule.write"])))
    server.read.script(
        None, ok(detail("s1", revision=revision_body(2, browser_profile_id=uid("work"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    snap = vm.website_access.snapshot
    assert not snap.editable
    assert snap.not_editable_reason == (
        "Your account can't list website sign-ins (it lacks browser.profile.read)."
    )
    assert server.profiles.requests == [], "sign-ins are not listed without the scope"
    assert snap.current.profile_id == uid("work"), "the binding stays visible"
    assert snap.profiles_phase is ProfilesPhase.NOT_NEEDED


async def test_choosing_reads_afresh_then_updates_the_full_definition_changing_only_the_binding(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    shown = revision_body(3, requested_scopes=["schedule.read"], future_field={"kept": [1, 2]})
    fresh = revision_body(4, requested_scopes=["schedule.read"], future_field={"kept": [1, 2]})
    saved = revision_body(
        5,
        requested_scopes=["browser.profile.read", "schedule.read"],
        browser_profile_id=uid("work"),
    )
    server.read.script(None, ok(detail("s1", revision=shown)), ok(detail("s1", revision=fresh)))
    server.update.script(None, ok(detail("s1", revision=saved)))
    changed: list[ScheduleDetail] = []
    vm = make_detail(api, clock, device_zone, changed)
    await vm.open(uid("s1"))
    await grant(vm, "work")
    assert len(server.read.requests) == 2, "a fresh point read before the update"
    (body,) = server.patch_bodies()
    assert body["expected_revision"] == 4, "the fresh read's current_revision"
    expected = {
        k: v
        for k, v in fresh.items()
        if k not in ("revision", "timezone", "created_by_principal_id", "created_at")
    }
    expected["browser_profile_id"] = str(uid("work"))
    expected["requested_scopes"] = ["browser.profile.read", "schedule.read"]
    assert body["definition"] == expected, (
        "only the binding and its scope change; unknown fields go back"
    )
    assert vm.snapshot.fields is not None and vm.snapshot.fields.revision == 5
    assert vm.website_access.snapshot.current.profile_id == uid("work")
    assert [d.current_revision for d in changed] == [5], "the list is told to refresh the row"


async def test_unbinding_removes_the_browser_profile_read_scope_keeping_scopes_sorted_and_unique(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    bound = revision_body(
        2,
        requested_scopes=["browser.profile.read", "schedule.read"],
        browser_profile_id=uid("work"),
    )
    server.read.script(None, ok(detail("s1", revision=bound)))
    server.update.script(
        None, ok(detail("s1", revision=revision_body(3, requested_scopes=["schedule.read"])))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await vm.website_access.choose(NONE_OPTION)
    (body,) = server.patch_bodies()
    assert body["definition"]["browser_profile_id"] is None
    assert body["definition"]["requested_scopes"] == ["schedule.read"]
    assert vm.website_access.snapshot.current == NONE_OPTION


async def test_choosing_the_current_value_sends_nothing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None, ok(detail("s1", revision=revision_body(2, browser_profile_id=uid("work"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await vm.website_access.choose(option_for(vm, "work"))
    assert len(server.read.requests) == 1
    assert server.update.requests == []


async def test_choosing_an_option_that_is_not_selectable_sends_nothing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None, ok(detail("s1", revision=revision_body(2, browser_profile_id=uid("old"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    kept = vm.website_access.snapshot.current
    assert not kept.selectable
    await vm.website_access.choose(WebsiteOption(uid("pending"), "pending", selectable=False))
    assert len(server.read.requests) == 1
    assert server.update.requests == []
    assert vm.website_access.snapshot.current == kept


async def test_a_revision_conflict_is_read_again_and_retried_once(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None,
        ok(detail("s1", revision=revision_body(3))),
        ok(detail("s1", revision=revision_body(3))),
        ok(detail("s1", revision=revision_body(4, title="Renamed meanwhile"))),
    )
    server.update.script(
        None,
        refused(409, "schedule.revision_conflict", "stale", current_revision=4),
        ok(
            detail(
                "s1",
                revision=revision_body(
                    5, browser_profile_id=uid("work"), requested_scopes=["browser.profile.read"]
                ),
            )
        ),
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await grant(vm, "work")
    first, second = server.patch_bodies()
    assert first["expected_revision"] == 3
    assert second["expected_revision"] == 4
    assert second["definition"]["title"] == "Renamed meanwhile", "built from the new read"
    assert vm.website_access.snapshot.error is None
    assert vm.snapshot.fields is not None and vm.snapshot.fields.revision == 5


async def test_a_second_revision_conflict_is_not_retried_and_keeps_the_servers_binding(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1", revision=revision_body(3))))
    server.update.script(None, refused(409, "schedule.revision_conflict", "", current_revision=9))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await grant(vm, "work")
    assert len(server.update.requests) == 2, "one retry, no more"
    snap = vm.website_access.snapshot
    assert snap.current == NONE_OPTION
    assert snap.error == "The schedule changed since it was read"
    assert not snap.saving


async def test_any_other_refusal_leaves_the_servers_binding_displayed_with_the_reason(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(
        None,
        ok(detail("s1", revision=revision_body(3))),
        ok(detail("s1", revision=revision_body(4, browser_profile_id=uid("shop")))),
    )
    server.update.script(
        None,
        refused(
            422,
            "schedule.browser_profile_unavailable",
            "profile is not ready",
            field="browser_profile_id",
        ),
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await grant(vm, "work")
    snap = vm.website_access.snapshot
    assert snap.current.profile_id == uid("shop"), "the server's binding as freshly read"
    assert snap.error == "That website sign-in is missing or not ready: profile is not ready"
    assert snap.picker_enabled
    assert not snap.can_retry, "a refused choice is chosen anew, not retried"


async def test_while_saving_the_picker_is_disabled_and_shows_progress(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1")))
    held = server.update.hold(
        None, ok(detail("s1", revision=revision_body(4, browser_profile_id=uid("work"))))
    )
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    saving = asyncio.create_task(grant(vm, "work"))
    await held.arrived.wait()
    assert vm.website_access.snapshot.saving
    assert not vm.website_access.snapshot.picker_enabled
    await vm.website_access.choose(option_for(vm, "shop"))
    assert len(server.update.requests) == 1, "a disabled picker takes no second choice"
    held.release()
    await saving
    assert not vm.website_access.snapshot.saving
    assert vm.website_access.snapshot.current.profile_id == uid("work")


async def test_overlapping_profile_loads_apply_only_the_newest_requests_result(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    first = Server(router, "a")
    second = Server(router, "b")
    first.read.script(None, ok(detail("a")))
    second.read.script(None, ok(detail("b")))
    # respx keeps one route per pattern: the second server's profile route is the live one.
    second.profiles.rescript(None)
    slow = second.profiles.hold(None, ok(page([profile("stale")])))
    second.profiles.script(None, ok(page([profile("fresh")])))
    vm = make_detail(api, clock, device_zone)
    opening_a = asyncio.create_task(vm.open(uid("a")))
    await slow.arrived.wait()
    await vm.open(uid("b"))
    slow.release()
    await opening_a
    snap = vm.website_access.snapshot
    assert snap.schedule_id == uid("b")
    assert [o.profile_id for o in snap.options] == [None, uid("fresh")]


async def test_overlapping_profile_loads_apply_only_the_newest_requests_failure(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    first = Server(router, "a")
    second = Server(router, "b")
    first.read.script(None, ok(detail("a")))
    second.read.script(None, ok(detail("b")))
    second.profiles.rescript(None)
    slow_failure = second.profiles.hold(
        None, refused(403, "auth.scope_missing", "", scope="browser.profile.read")
    )
    second.profiles.script(None, ok(page([profile("fresh")])))
    vm = make_detail(api, clock, device_zone)
    opening_a = asyncio.create_task(vm.open(uid("a")))
    await slow_failure.arrived.wait()
    await vm.open(uid("b"))
    slow_failure.release()
    await opening_a
    snap = vm.website_access.snapshot
    assert snap.error is None, "the older request's failure is not applied"
    assert snap.profiles_phase is ProfilesPhase.LOADED


async def test_a_failed_profile_load_says_why_and_retry_loads_again(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1")))
    server.profiles.rescript(None, *server_down(), ok(page([WORK])))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    assert vm.website_access.snapshot.profiles_phase is ProfilesPhase.FAILED
    assert vm.website_access.snapshot.error == "The schedule server failed"
    assert vm.website_access.snapshot.can_retry
    await vm.website_access.retry()
    assert vm.website_access.snapshot.profiles_phase is ProfilesPhase.LOADED
    assert not vm.website_access.snapshot.can_retry
    assert len(vm.website_access.snapshot.options) == 2


async def test_choosing_a_sign_in_asks_first_naming_the_schedule_and_the_host_and_sends_nothing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1", revision=revision_body(3, title="Inbox triage"))))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await vm.website_access.choose(option_for(vm, "shop"))
    snap = vm.website_access.snapshot
    assert snap.question is not None
    assert snap.question.text == (
        "Let \u201cInbox triage\u201d use your shop.example.com sign-in when it runs?"
    )
    assert snap.current == NONE_OPTION, "the server's binding is unchanged while it asks"
    assert len(server.read.requests) == 1 and server.update.requests == [], "nothing sent yet"


async def test_cancelling_the_grant_question_sends_nothing_and_keeps_the_binding(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1")))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await vm.website_access.choose(option_for(vm, "work"))
    vm.website_access.cancel()
    await vm.website_access.allow()
    snap = vm.website_access.snapshot
    assert snap.question is None and snap.saved is None
    assert snap.current == NONE_OPTION
    assert server.update.requests == [], "Allow after Cancel has nothing to allow"


async def test_removing_access_asks_nothing_and_shows_saved(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    bound = revision_body(2, browser_profile_id=uid("work"))
    server.read.script(None, ok(detail("s1", revision=bound)))
    server.update.script(None, ok(detail("s1", revision=revision_body(3))))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    await vm.website_access.choose(NONE_OPTION)
    snap = vm.website_access.snapshot
    assert snap.question is None
    assert len(server.update.requests) == 1, "saved without a question"
    assert snap.saved is not None and snap.saved.text == "Saved"
    assert snap.saved.previous.profile_id == uid("work")


async def test_undo_after_a_save_is_another_guarded_update_back_to_the_previous_binding(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    granted = revision_body(
        5, browser_profile_id=uid("work"), requested_scopes=["browser.profile.read"]
    )
    server.read.script(
        None,
        ok(detail("s1", revision=revision_body(3))),
        ok(detail("s1", revision=revision_body(4))),
        ok(detail("s1", revision=granted)),
        ok(
            detail(
                "s1",
                revision=revision_body(
                    6,
                    title="Renamed meanwhile",
                    **{
                        "browser_profile_id": str(uid("work")),
                        "requested_scopes": ["browser.profile.read"],
                    },
                ),
            )
        ),
    )
    server.update.script(
        None,
        ok(detail("s1", revision=granted)),
        refused(409, "schedule.revision_conflict", "stale", current_revision=6),
        ok(detail("s1", revision=revision_body(7, requested_scopes=[]))),
    )
    changed: list[ScheduleDetail] = []
    vm = make_detail(api, clock, device_zone, changed)
    await vm.open(uid("s1"))
    await grant(vm, "work")
    snap = vm.website_access.snapshot
    assert snap.saved is not None and snap.saved.previous == NONE_OPTION
    await vm.website_access.undo()
    _, conflicted, retried = server.patch_bodies()
    assert conflicted["expected_revision"] == 5, "Undo reads afresh and sends that revision"
    assert conflicted["definition"]["browser_profile_id"] is None
    assert retried["expected_revision"] == 6, "a conflict is read again and retried once"
    assert retried["definition"]["title"] == "Renamed meanwhile"
    snap = vm.website_access.snapshot
    assert snap.current == NONE_OPTION and snap.error is None
    assert snap.saved is None, "an undo offers no undo of its own"
    assert [d.current_revision for d in changed] == [5, 7]


async def test_the_picker_explains_in_one_line_what_access_means(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    server = Server(router)
    server.read.script(None, ok(detail("s1")))
    vm = make_detail(api, clock, device_zone)
    await vm.open(uid("s1"))
    explanation = vm.website_access.snapshot.explanation
    assert "sign-in" in explanation and "\n" not in explanation
    assert explanation.startswith("A website sign-in lets this schedule's runs")
