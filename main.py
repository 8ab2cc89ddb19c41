"""Entry point for ``flet build``: the app on its embedded server.

Installed runs use the ``schedule-browser`` console script instead; a packaged
app (``FLET_PLATFORM`` set by the Flet runtime) keeps its database in the app's
own storage folder, chosen by ``app.options.default_data_dir``.
"""

from __future__ import annotations

import sys

from app.cli import main

# Flet's packaged runtime runs this file as its entry module, as its own
# templates do: unguarded.
sys.exit(main([]))
