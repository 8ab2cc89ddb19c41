"""Flet components that render view-model snapshots and send commands back.

No HTTP, no business rules, no formatting and no words of their own: those
belong to ``viewmodels`` (``tests/views/test_view_words.py`` holds the views to it).
The view models' constant labels are shown in the session's words (``views.words``).
``app_shell`` is the root; ``binding`` joins a view model to a component. The
accessible names the views give are listed in docs/ARCHITECTURE.md.
"""

from views.app_shell import AppShell
from views.look import apply_look
from views.screen_models import ScreenModels

__all__ = ["AppShell", "ScreenModels", "apply_look"]
