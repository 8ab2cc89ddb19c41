"""Every sentence of the calendar feed controls, in English, looked up where it is shown.

A remote server's feed is an address a calendar app subscribes to; the
embedded server has no address a calendar app could reach, so there the same
content is saved as a file, which is a snapshot. Each constant is marked with
``N_`` and keeps its English value; the view model puts ``words.gettext(…)``
of a sentence into its snapshot, and the view looks up the fixed labels (Close,
Copy address, Revoke …) in the session's words (``views.words``).
"""

from __future__ import annotations

import re

from viewmodels.language import N_, Words

ADD_TO_CALENDAR_LABEL = N_("Add to calendar")
SUBSCRIBE_ALL_LABEL = N_("Subscribe to all schedules")
SAVE_ALL_LABEL = N_("Save all schedules as a calendar file")
FEEDS_ENTRY_LABEL = N_("Calendar feeds…")
HIDE_FEEDS_LABEL = N_("Hide calendar feeds")
CLOSE_LABEL = N_("Close")
COPY_ADDRESS_LABEL = N_("Copy address")
ADDRESS_COPIED_TEXT = N_("Address copied")
OPEN_CALENDAR_LABEL = N_("Open in calendar app")
# Translators: what a screen reader says of the feed's address, an https:// URL.
ADDRESS_NAME = N_("Calendar feed address: {address}")
"""What a screen reader says of the address shown."""

MAKING_FEED_TEXT = N_("Making the calendar feed…")
MAKING_FILE_TEXT = N_("Preparing the calendar file…")
SUBSCRIBE_TEXT = N_(
    "Subscribe to this private address in your calendar app (Add calendar, From URL):"
    " it fetches the firings by itself and keeps them up to date."
    " Anyone with the address sees the titles and times, never the instructions."
)
SUBSCRIBE_HERE_TEXT = N_(
    "Open it in your calendar app, or subscribe to this private address there"
    " (Add calendar, From URL): it fetches the firings by itself and keeps them up to date."
    " Anyone with the address sees the titles and times, never the instructions."
)
SNAPSHOT_TEXT = "The file is a snapshot of the firings today: it will not update when they change."
"""The English second sentence of ``SAVED_TEXT`` and ``DOWNLOADED_TEXT`` (each one message)."""
SAVED_TEXT = N_(
    "Saved {file_name}."
    " The file is a snapshot of the firings today: it will not update when they change."
)
DOWNLOADED_TEXT = N_(
    "Downloaded {file_name}."
    " The file is a snapshot of the firings today: it will not update when they change."
)
SAVE_DIALOG_TITLE = N_("Save the calendar file")
NOT_SAVED_TEXT = N_("Nothing was saved.")
UNWRITABLE_TEXT = N_("Couldn't write {file_name} there. Choose another folder.")
FEED_FAILED_TITLE = N_("Couldn't make the calendar feed")
FILE_FAILED_TITLE = N_("Couldn't make the calendar file")
FEEDS_UNAVAILABLE_TEXT = N_("This server does not offer calendar feeds.")

FEEDS_HEADING = N_("Calendar feeds")
FEEDS_INTRO_TEXT = N_(
    "Calendar apps subscribed to these private addresses fetch the firings by themselves."
    " Revoke one to stop it at once."
)
FEEDS_LOADING_TEXT = N_("Loading calendar feeds…")
FEEDS_FAILED_TITLE = N_("Couldn't load the calendar feeds")
FEEDS_EMPTY_TEXT = N_(
    "No calendar feeds yet. Use Add to calendar on a schedule,"
    " or Subscribe to all schedules on the Agenda."
)
CREATED_TEXT = N_("Created {date}")
# Translators: what a screen reader says of a feed in the list; {date} is a date.
FEED_ROW_NAME = N_("{name}, created {date}")
REVOKE_LABEL = N_("Revoke")
CANCEL_LABEL = N_("Cancel")
CONFIRM_REVOKE_TEXT = N_(
    "Revoke “{name}”? Calendar apps subscribed to it stop receiving firings at once."
)
# Translators: {reason} is a sentence saying why ("Could not reach the schedule server").
REVOKE_FAILED_TEXT = N_("Couldn't revoke “{name}”: {reason}")

# Translators: a file name, saved as "All schedules.ics".
ALL_SCHEDULES_FILE = N_("All schedules")
"""The stem of the file "Save all schedules" saves."""
# Translators: a file name, saved as "Schedule.ics" when a schedule's title gives none.
UNTITLED_FILE = N_("Schedule")
"""The stem of a schedule's file when its title leaves no usable character."""
_UNSAFE_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
_FILE_STEM_LIMIT = 80


def calendar_file_name(title: str | None, *, words: Words) -> str:
    """A file name every desktop accepts: the title without path or reserved characters
    ("Schedule.ics", in the person's words, when nothing of it is left)."""
    stem = _UNSAFE_IN_FILE_NAMES.sub("-", title or "").strip(" .-")[:_FILE_STEM_LIMIT].strip()
    return f"{stem or words.gettext(UNTITLED_FILE)}.ics"


def webcal_address(address: str) -> str | None:
    """The ``webcal://`` form of an https feed address, which calendar apps open as a
    subscription; None for any other address (plain http is loopback only, where no
    calendar provider could fetch it)."""
    if address.lower().startswith("https://"):
        return "webcal://" + address[len("https://") :]
    return None
