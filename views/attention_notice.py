"""The banner that says something newly needs attention, with Open and Dismiss.

Renders ``NoticeSnapshot`` as it is: the sentence is the view model's. Open
shows the schedule (one outcome) or the Needs attention list (several) and
dismisses the notice; Dismiss only dismisses it.
"""

from __future__ import annotations

import flet as ft

from viewmodels.attention.notices import DISMISS_LABEL, OPEN_LABEL
from views.binding import go, run_command, use_snapshot
from views.screen_models import NavigationModel, NoticesModel, ScheduleListModel, ScreenModels
from views.words import use_words


@ft.component
def AttentionBanner(
    notices: NoticesModel, navigation: NavigationModel, schedules: ScheduleListModel
) -> ft.Control:
    snapshot = use_snapshot(notices)
    words = use_words()
    notice = snapshot.notice
    if notice is None:
        return ft.Container(height=0)

    def open_notice() -> None:
        notices.dismiss()
        if notice.opens_list:
            go(navigation.show_schedules())
            run_command(schedules.select_attention, True)
        else:
            go(navigation.open_schedule(notice.schedule_id))

    return ft.Container(
        content=ft.Row(
            [
                ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                ft.Text(
                    notice.text,
                    color=ft.Colors.ON_ERROR_CONTAINER,
                    expand=True,
                    max_lines=3,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
                ft.TextButton(words.gettext(OPEN_LABEL), on_click=open_notice),
                ft.TextButton(words.gettext(DISMISS_LABEL), on_click=notices.dismiss),
            ],
            spacing=8,
        ),
        bgcolor=ft.Colors.ERROR_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=12, vertical=6),
    )


def attention_banner(models: ScreenModels) -> list[ft.Control]:
    """The notice above a layout's main content, when the session has notices."""
    if models.notices is None:
        return []
    return [AttentionBanner(models.notices, models.navigation, models.schedules)]
