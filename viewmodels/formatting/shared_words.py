"""The words several screens share: the app's name and the actions every pane offers alike.

Kept once so that Retry on a failed page, in the sidebar, the calendar, the
offline banner and the sign-in reads the same, and a test names it once. The
labels are English here, marked for the catalogs; the place that shows one
translates it (``words.gettext(RETRY_LABEL)``). The app's name is never translated.
"""

from __future__ import annotations

from viewmodels.language import N_

APP_NAME = "Schedule Browser"
"""The window's title and the heading of the sidebar and the sign-in form."""
RETRY_LABEL = N_("Retry")
LOAD_MORE_LABEL = N_("Load more")
LOADING_MORE_TEXT = N_("Loading more…")
"""Under the rows of a list or transcript while its next page is read."""
