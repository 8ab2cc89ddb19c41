"""Every sentence of the calendar feed controls, decided here and shown as they are.

A remote server's feed is an address a calendar app subscribes to; the
embedded server has no address a calendar app could reach, so there the same
content is saved as a file, which is a snapshot.
"""

from __future__ import annotations

import re

ADD_TO_CALENDAR_LABEL = "Add to calendar"
SUBSCRIBE_ALL_LABEL = "Subscribe to all schedules"
SAVE_ALL_LABEL = "Save all schedules as a calendar file"
FEEDS_ENTRY_LABEL = "Calendar feeds…"
HIDE_FEEDS_LABEL = "Hide calendar feeds"
CLOSE_LABEL = "Close"
COPY_ADDRESS_LABEL = "Copy address"
ADDRESS_COPIED_TEXT = "Address copied"
OPEN_CALENDAR_LABEL = "Open in calendar app"
ADDRESS_NAME = "Calendar feed address: {address}"
"""What a screen reader says of the address shown."""

MAKING_FEED_TEXT = "Making the calendar feed…"
MAKING_FILE_TEXT = "Preparing the calendar file…"
SUBSCRIBE_TEXT = (
    "Subscribe to this private address in your calendar app (Add calendar, From URL):"
    " it fetches the firings by itself and keeps them up to date."
    " Anyone with the address sees the titles and times, never the instructions."
)
SUBSCRIBE_HERE_TEXT = (
    "Open it in your calendar app, or subscribe to this private address there"
    " (Add calendar, From URL): it fetches the firings by itself and keeps them up to date."
    " Anyone with the address sees the titles and times, never the instructions."
)
SNAPSHOT_TEXT = "The file is a snapshot of the firings today: it will not update when they change."
SAVED_TEXT = "Saved {file_name}. " + SNAPSHOT_TEXT
DOWNLOADED_TEXT = "Downloaded {file_name}. " + SNAPSHOT_TEXT
SAVE_DIALOG_TITLE = "Save the calendar file"
NOT_SAVED_TEXT = "Nothing was saved."
UNWRITABLE_TEXT = "Couldn't write {file_name} there. Choose another folder."
FEED_FAILED_TITLE = "Couldn't make the calendar feed"
FILE_FAILED_TITLE = "Couldn't make the calendar file"
FEEDS_UNAVAILABLE_TEXT = "This server does not offer calendar feeds."

FEEDS_HEADING = "Calendar feeds"
FEEDS_INTRO_TEXT = (
    "Calendar apps subscribed to these private addresses fetch the firings by themselves."
    " Revoke one to stop it at once."
)
FEEDS_LOADING_TEXT = "Loading calendar feeds…"
FEEDS_FAILED_TITLE = "Couldn't load the calendar feeds"
FEEDS_EMPTY_TEXT = (
    "No calendar feeds yet. Use Add to calendar on a schedule,"
    " or Subscribe to all schedules on the Agenda."
)
CREATED_TEXT = "Created {date}"
FEED_ROW_NAME = "{name}, created {date}"
REVOKE_LABEL = "Revoke"
CANCEL_LABEL = "Cancel"
CONFIRM_REVOKE_TEXT = (
    "Revoke “{name}”? Calendar apps subscribed to it stop receiving firings at once."
)
REVOKE_FAILED_TEXT = "Couldn't revoke “{name}”: {reason}"

ALL_SCHEDULES_FILE = "All schedules"
_UNSAFE_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
_FILE_STEM_LIMIT = 80


def calendar_file_name(title: str | None) -> str:
    """A file name every desktop accepts: the title without path or reserved characters."""
    stem = _UNSAFE_IN_FILE_NAMES.sub("-", title or "").strip(" .-")[:_FILE_STEM_LIMIT].strip()
    return f"{stem or 'Schedule'}.ics"


def webcal_address(address: str) -> str | None:
    """The ``webcal://`` form of an https feed address, which calendar apps open as a
    subscription; None for any other address (plain http is loopback only, where no
    calendar provider could fetch it)."""
    if address.lower().startswith("https://"):
        return "webcal://" + address[len("https://") :]
    return None
