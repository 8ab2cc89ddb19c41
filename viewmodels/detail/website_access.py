"""The website access picker's commands: the browser's only write.

Loads per detail: the principal's scopes (``GET /v1/principal``, once) and the
owner's sign-ins (``GET /v1/browser-profiles``, all pages). When loads overlap
because the user moves between schedules, only the newest request's result or
failure is applied (a request token).

``choose(option)``: choosing a sign-in asks first ("Let “Inbox triage” use
your github.com sign-in when it runs?"), and only ``allow()`` saves it;
``cancel()`` sends nothing. Choosing None (removing access) saves at once. A
save is a fresh point read, then the full-definition update with that read's
``current_revision``, changing only the binding and the
``browser.profile.read`` scope and sending unknown fields back unchanged. A
revision conflict is read again and retried once; any other refusal leaves the
server's current binding shown with the reason. Choosing the current value
sends nothing. A save that went through shows "Saved" with ``undo()``, which
saves the binding from before by the same guarded protocol. Every text is
said in the language of the ``locale`` the detail hands it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from uuid import UUID

from babel import Locale

from transport.errors import ApiError, RevisionConflict
from transport.models import BrowserProfile, Principal, ScheduleDetail
from transport.paging import iterate_pages
from viewmodels.detail.website_options import (
    PROFILE_SCOPE,
    binding_definition,
    edit_refusal,
    website_options,
)
from viewmodels.detail.website_snapshot import (
    SAVED_TEXT,
    GrantQuestion,
    ProfilesPhase,
    SavedNote,
    WebsiteAccessSnapshot,
    WebsiteOption,
    grant_question_text,
    shown_option,
)
from viewmodels.failure_text import failure_text
from viewmodels.language import N_, words_for
from viewmodels.observable import Observable
from viewmodels.offline import CachedWebsite
from viewmodels.paging import LatestRequest
from viewmodels.ports import ScheduleApi

DetailSink = Callable[[ScheduleDetail], Awaitable[None]]
OFFLINE_REASON = N_(
    "Website access can't change while the schedule server can't be reached: "
    "this is the copy read before."
)


class WebsiteAccessViewModel(Observable[WebsiteAccessSnapshot]):
    """Owned by ``ScheduleDetailViewModel``; it calls ``show``/``clear``, views call ``choose``."""

    def __init__(self, api: ScheduleApi, *, on_detail: DetailSink, locale: Locale) -> None:
        """``locale``: the language the picker speaks (the detail's display zone's)."""
        super().__init__(WebsiteAccessSnapshot(locale=locale))
        self._locale = locale
        self._words = words_for(locale)
        self._api = api
        self._on_detail = on_detail
        self._requests = LatestRequest()
        self._detail: ScheduleDetail | None = None
        self._principal: Principal | None = None
        self._profiles: list[BrowserProfile] | None = None

    async def show(self, detail: ScheduleDetail) -> None:
        """Present ``detail``'s binding and load what the picker needs for it."""
        ticket = self._requests.begin()
        self._detail = detail
        self._profiles = None
        self._render(profiles_phase=ProfilesPhase.LOADING, error=None, saving=False)
        failure: str | None = None
        try:
            if self._principal is None:
                principal = await self._api.get_principal()
                if not self._requests.is_current(ticket):
                    return
                self._principal = principal
            profiles: list[BrowserProfile] | None = None
            if self._principal.holds(PROFILE_SCOPE):
                profiles = await self._load_profiles()
        except ApiError as error:
            failure = failure_text(error, words=self._words)
            profiles = None
        if not self._requests.is_current(ticket):
            return
        self._profiles = profiles
        if failure is not None:
            phase = ProfilesPhase.FAILED
        elif profiles is None:
            phase = ProfilesPhase.NOT_NEEDED
        else:
            phase = ProfilesPhase.LOADED
        self._render(profiles_phase=phase, error=failure, saving=False)

    def show_cached(self, detail: ScheduleDetail, kept: CachedWebsite | None) -> None:
        """The device's copy of ``detail``: its binding as last shown, read-only offline.

        Nothing is listed or saved: a choice would need a fresh point read,
        which the server cannot answer now.
        """
        self._requests.begin()
        self._detail = detail
        self._profiles = None
        if kept is not None:
            current = shown_option(
                kept.profile_id, kept.label, kept.state_text, selectable=False, words=self._words
            )
        else:
            bound = detail.revision.browser_profile_id
            shown, _ = website_options(bound, None, words=self._words)
            current = replace(shown, selectable=False)
        self._publish(
            WebsiteAccessSnapshot(
                schedule_id=detail.schedule_id,
                current=current,
                options=(current,),
                profiles_phase=ProfilesPhase.NOT_NEEDED,
                editable=False,
                not_editable_reason=self._words.gettext(OFFLINE_REASON),
                locale=self._locale,
            )
        )

    def clear(self) -> None:
        """The detail closed: forget the schedule; answers still in flight are dropped."""
        self._requests.drop()
        self._detail = None
        self._profiles = None
        self._publish(WebsiteAccessSnapshot(locale=self._locale))

    async def retry(self) -> None:
        """Load the scopes and sign-ins again for the schedule shown."""
        if self._detail is not None:
            self._principal = None
            await self.show(self._detail)

    async def choose(self, option: WebsiteOption) -> None:
        """Granting a sign-in asks first (``allow``/``cancel``); removing access saves at once."""
        detail = self._detail
        snapshot = self.snapshot
        if detail is None or not snapshot.picker_enabled or not option.selectable:
            return
        if option.profile_id == detail.revision.browser_profile_id:
            if snapshot.question is not None:
                self._publish(replace(snapshot, question=None))
            return
        if option.profile_id is not None:
            text = grant_question_text(detail.title, option, words=self._words)
            question = GrantQuestion(option, text)
            self._publish(replace(snapshot, question=question, saved=None, error=None))
            return
        await self._save(option)

    async def allow(self) -> None:
        """The grant question was answered Allow: save the sign-in it named."""
        question = self.snapshot.question
        if question is not None and self.snapshot.picker_enabled:
            await self._save(question.option)

    def cancel(self) -> None:
        """The grant question was answered Cancel: nothing is sent, the binding stays."""
        if self.snapshot.question is not None:
            self._publish(replace(self.snapshot, question=None))

    async def undo(self) -> None:
        """Put the binding from before the last save back: another guarded update.

        It asks nothing: the person granted that sign-in before. A conflict or
        refusal is handled as for any choice (read again, retried once, else
        the server's binding stays shown with the reason).
        """
        saved = self.snapshot.saved
        if saved is not None and self.snapshot.picker_enabled:
            await self._save(saved.previous, undoing=True)

    async def _save(self, option: WebsiteOption, *, undoing: bool = False) -> None:
        detail = self._detail
        snapshot = self.snapshot
        if detail is None:
            return
        ticket = self._requests.begin()
        self._publish(replace(snapshot, saving=True, error=None, question=None))
        latest = detail
        before: UUID | None = None
        updated = False
        error_text: str | None = None
        try:
            latest = await self._api.get_schedule(detail.schedule_id)
            for attempt in (1, 2):
                if latest.revision.browser_profile_id == option.profile_id:
                    break
                before = latest.revision.browser_profile_id
                try:
                    latest = await self._api.update_schedule(
                        latest.schedule_id,
                        expected_revision=latest.current_revision,
                        definition=binding_definition(
                            latest.revision.definition(), option.profile_id
                        ),
                    )
                    updated = True
                    break
                except RevisionConflict:
                    if attempt == 2:
                        raise
                    latest = await self._api.get_schedule(detail.schedule_id)
        except ApiError as error:
            error_text = failure_text(error, words=self._words)
        if not self._requests.is_current(ticket):
            if latest is not detail:
                await self._on_detail(latest)
            return
        self._detail = latest
        saved = None
        if updated and not undoing:
            previous, _ = website_options(before, self._profiles, words=self._words)
            saved = SavedNote(previous, self._words.gettext(SAVED_TEXT))
        self._render(
            profiles_phase=self.snapshot.profiles_phase,
            error=error_text,
            saving=False,
            saved=saved,
        )
        if latest is not detail:
            await self._on_detail(latest)

    async def _load_profiles(self) -> list[BrowserProfile]:
        profiles: list[BrowserProfile] = []
        seen: set[object] = set()
        pages = iterate_pages(lambda cursor: self._api.list_browser_profiles(cursor=cursor))
        async for page in pages:
            for profile in page.items:
                if profile.profile_id not in seen:
                    seen.add(profile.profile_id)
                    profiles.append(profile)
        return profiles

    def _render(
        self,
        *,
        profiles_phase: ProfilesPhase,
        error: str | None,
        saving: bool,
        saved: SavedNote | None = None,
    ) -> None:
        detail = self._detail
        if detail is None:
            self._publish(WebsiteAccessSnapshot(locale=self._locale))
            return
        bound = detail.revision.browser_profile_id
        current, options = website_options(bound, self._profiles, words=self._words)
        loading = profiles_phase is ProfilesPhase.LOADING
        refusal = (
            None if loading else edit_refusal(detail.state, self._principal, words=self._words)
        )
        self._publish(
            WebsiteAccessSnapshot(
                schedule_id=detail.schedule_id,
                current=current,
                options=options,
                profiles_phase=profiles_phase,
                editable=not loading and refusal is None,
                not_editable_reason=refusal,
                saving=saving,
                error=error,
                saved=saved,
                locale=self._locale,
            )
        )
