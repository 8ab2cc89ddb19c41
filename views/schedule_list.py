"""The schedules sheet: Current / Recent History, search, Needs attention, order, rows, paging.

Renders ``ScheduleListSnapshot`` as it is; this module decides only the shape
on screen: a full-page error when page one failed, an inline Retry when a
later page failed (the loaded rows stay), and the footer under the rows.
Scrolling near the end, or Load more (for keyboards and tall windows), asks
for the next page. On a phone the search field shows when the app bar's
Search asks for it (``show_search``) or while a search is on. Subscribe to all
schedules, beside Refresh, opens its panel under the header. The rows are one
Tab stop with the arrows inside (``views.list_focus``).
"""

from __future__ import annotations

from uuid import UUID

import flet as ft

from viewmodels.formatting.shared_words import LOAD_MORE_LABEL, LOADING_MORE_TEXT, RETRY_LABEL
from viewmodels.language import Words
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list import ListSection, ScheduleListSnapshot
from viewmodels.schedule_list.snapshot import REFRESH_LABEL
from views.actions import icon_action
from views.add_to_calendar import ListSubscribeAll, ListSubscribeAllPanel
from views.binding import (
    Held,
    chosen,
    focus_soon,
    go,
    run_command,
    scroll_soon,
    use_each_request,
    use_snapshot,
)
from views.list_focus import RowFocus, use_row_focus
from views.row_blocks import row_blocks
from views.screen_models import NavigationModel, ScheduleListModel
from views.search_field import SearchField
from views.status_panels import error_panel, loading_panel, message_panel
from views.words import use_words

LOAD_MORE_MARGIN = 6_000
"""Pixels from the (estimated) end of the list at which the next page is requested.

More than two blocks of rows (``views.row_blocks``): Flutter's estimate of the
list's length can be a block too long near its end."""


@ft.component
def ScheduleList(
    model: ScheduleListModel,
    navigation: NavigationModel,
    opened_id: UUID | None,
    show_search: bool = True,
) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    list_view: Held[ft.ListView] = ft.use_ref()
    search: Held[ft.TextField] = ft.use_ref()

    def focus_search() -> bool:
        # Ctrl+F or /: only a new request moves the focus (not every render).
        if search.current is not None:
            focus_soon(search.current)
        return True

    searchable = show_search or bool(snapshot.query)
    use_each_request(snapshot.search_focus_requests, focus_search, [searchable])

    def open_schedule(schedule_id: UUID) -> None:
        go(navigation.open_schedule(schedule_id))

    # The rows are memoized on their props, so they get one callback object for
    # the list's lifetime (the navigation model is the session's, for good).
    open_row = ft.use_callback(open_schedule, [navigation])
    row_focus = use_row_focus(model, open_row, snapshot.selected_id, opened_id)
    opened_before: Held[UUID] = ft.use_ref(opened_id)

    def reveal_selection() -> None:
        # Keyboard moves change the selection without opening a row: bring it
        # into view. A click opens the row it is on, which is already visible:
        # the list stays where it is (its selection follows the route a render
        # later, so "the opened row" is checked too, not only the change).
        opened_changed = opened_before.current != opened_id
        opened_before.current = opened_id
        target = snapshot.selected_id
        listing = list_view.current
        if target is None or target == opened_id or opened_changed or listing is None:
            return
        scroll_soon(listing, str(target))

    ft.use_effect(reveal_selection, [snapshot.selected_id, opened_id])

    def choose_section(event: ft.Event[ft.SegmentedButton]) -> None:
        segments = chosen(event)
        if segments:
            run_command(model.select_section, ListSection(segments[0]))
        else:
            run_command(model.keep_section)

    def toggle_attention() -> None:
        run_command(model.select_attention, not snapshot.attention_only)

    def toggle_soonest_first() -> None:
        run_command(model.select_soonest_first, not snapshot.soonest_first)

    header = ft.Container(
        content=ft.Column(
            [
                ft.Row(
                    [
                        ft.SegmentedButton(
                            segments=[
                                ft.Segment(
                                    value=section.value,
                                    label=ft.Text(snapshot.section_label(section)),
                                )
                                for section in ListSection
                            ],
                            selected=[] if snapshot.attention_only else [snapshot.section.value],
                            allow_empty_selection=True,
                            show_selected_icon=False,
                            on_change=choose_section,
                            expand=True,
                        ),
                        icon_action(
                            ft.Icons.REFRESH,
                            words.gettext(REFRESH_LABEL),
                            lambda: run_command(model.reload),
                            disabled=not snapshot.can_refresh,
                        ),
                        ListSubscribeAll(),
                    ],
                    spacing=8,
                ),
                ft.Row(
                    [
                        ft.Chip(
                            label=ft.Text(snapshot.attention_label),
                            leading=ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ERROR),
                            selected=snapshot.attention_only,
                            show_checkmark=False,
                            on_select=toggle_attention,
                        ),
                        ft.Chip(
                            label=ft.Text(snapshot.soonest_first_label),
                            leading=ft.Icon(ft.Icons.SCHEDULE),
                            selected=snapshot.soonest_first,
                            show_checkmark=False,
                            on_select=toggle_soonest_first,
                            visible=snapshot.order_shown,
                        ),
                        # Once, beside the filter: which clock the rows' times are.
                        ft.Text(
                            snapshot.zone_text,
                            size=12,
                            color=ft.Colors.ON_SURFACE_VARIANT,
                        ),
                    ],
                    spacing=8,
                    run_spacing=4,
                    wrap=True,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                *([SearchField(model, snapshot.search_clears, search)] if searchable else []),
            ],
            spacing=8,
            tight=True,
        ),
        padding=ft.Padding.only(left=16, right=8, top=12, bottom=8),
    )
    return ft.Column(
        [
            header,
            ListSubscribeAllPanel(),
            ft.ProgressBar(
                height=2, visible=snapshot.refreshing, semantics_label=snapshot.refreshing_text
            ),
            _body(snapshot, model, row_focus, opened_id, list_view, words),
        ],
        spacing=0,
        expand=True,
    )


def _body(
    snapshot: ScheduleListSnapshot,
    model: ScheduleListModel,
    row_focus: RowFocus,
    opened_id: UUID | None,
    list_view: Held[ft.ListView],
    words: Words,
) -> ft.Control:
    if snapshot.unavailable_text:
        return message_panel(ft.Icons.EVENT_BUSY, snapshot.unavailable_text)
    if snapshot.first_page_error:
        return error_panel(
            snapshot.failure_title,
            snapshot.first_page_error,
            lambda: run_command(model.retry),
            words=words,
        )
    if snapshot.empty_text:
        elsewhere = snapshot.search_elsewhere
        if elsewhere is not None and snapshot.search_elsewhere_label:
            # The offer sits right under the sentence it answers, not at the pane's foot.
            offer = ft.OutlinedButton(
                snapshot.search_elsewhere_label,
                icon=ft.Icons.SEARCH,
                on_click=lambda: run_command(model.select_section, elsewhere),
            )
            return message_panel(ft.Icons.SEARCH_OFF, snapshot.empty_text, action=offer)
        return message_panel(ft.Icons.EVENT_AVAILABLE, snapshot.empty_text, snapshot.empty_guidance)
    if not snapshot.rows:
        return loading_panel(snapshot.loading_text)

    def near_end(event: ft.OnScrollEvent) -> None:
        if model.snapshot.can_load_more and (
            event.max_scroll_extent - event.pixels <= LOAD_MORE_MARGIN
        ):
            run_command(model.load_more)

    # The route is what is open (the snapshot's opened mark follows it a render later).
    tiles = row_blocks(
        snapshot.rows, snapshot.selected_id, opened_id, row_focus.actions, row_focus.held
    )
    tiles.append(_footer(snapshot, model, words))
    rows = ft.ListView(
        tiles,
        expand=True,
        spacing=0,
        padding=ft.Padding.only(bottom=16),
        on_scroll=near_end,
        scroll_interval=100,
    )
    list_view.current = rows
    return rows


def _footer(snapshot: ScheduleListSnapshot, model: ScheduleListModel, words: Words) -> ft.Control:
    if snapshot.later_page_message:
        content: ft.Control = ft.Row(
            [
                ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=20),
                ft.Text(snapshot.later_page_message, color=ft.Colors.ERROR, expand=True),
                ft.TextButton(
                    words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry)
                ),
            ],
            spacing=8,
        )
    elif snapshot.phase is FeedPhase.LOADING_MORE:
        content = ft.Row(
            [
                ft.ProgressRing(width=18, height=18, stroke_width=2),
                ft.Text(words.gettext(LOADING_MORE_TEXT), color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    elif snapshot.phase is FeedPhase.END_REACHED:
        content = ft.Row(
            [
                ft.Container(height=1, width=40, bgcolor=ft.Colors.OUTLINE_VARIANT),
                ft.Text(snapshot.end_of_list_text, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Container(height=1, width=40, bgcolor=ft.Colors.OUTLINE_VARIANT),
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    elif snapshot.can_load_more:
        content = ft.Row(
            [
                ft.TextButton(
                    words.gettext(LOAD_MORE_LABEL), on_click=lambda: run_command(model.load_more)
                )
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    else:
        content = ft.Container(height=0)
    return ft.Container(content=content, padding=ft.Padding.symmetric(horizontal=16, vertical=12))
