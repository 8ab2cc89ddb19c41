"""The words several screens share: the app's name and the actions every pane offers alike.

Kept once so that Retry on a failed page, in the sidebar, the calendar, the
offline banner and the sign-in reads the same, and a test names it once.
"""

from __future__ import annotations

APP_NAME = "Schedule Browser"
"""The window's title and the heading of the sidebar and the sign-in form."""
RETRY_LABEL = "Retry"
LOAD_MORE_LABEL = "Load more"
LOADING_MORE_TEXT = "Loading more…"
"""Under the rows of a list or transcript while its next page is read."""
