"""Hands a calendar file to the person: Flet's save dialog on the desktop, a download in a browser.

The view models decide the file's name, its content and the dialog's title, in
the person's words (``CalendarFileSaver``); this is the platform's part. On the
desktop the dialog only picks the place and the file is written here, on the
same machine as the window; in a browser the bytes go to the page, which
downloads them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import flet as ft

from viewmodels.feeds import SaveOutcome


class FletCalendarFile:
    """A ``CalendarFileSaver`` for one session: ``web`` is the page's ``page.web``."""

    def __init__(self, *, web: bool) -> None:
        self._web = web

    async def save(self, file_name: str, content: bytes, *, title: str) -> SaveOutcome:
        picker = ft.FilePicker()
        if self._web:
            await picker.save_file(dialog_title=title, file_name=file_name, src_bytes=content)
            return SaveOutcome.DOWNLOADED
        path = await picker.save_file(
            dialog_title=title,
            file_name=file_name,
            file_type=ft.FilePickerFileType.CUSTOM,
            allowed_extensions=["ics"],
        )
        if not path:
            return SaveOutcome.CANCELLED
        try:
            await asyncio.to_thread(Path(path).write_bytes, content)
        except OSError:
            return SaveOutcome.UNWRITABLE
        return SaveOutcome.SAVED
