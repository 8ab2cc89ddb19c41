"""The bridge from a view model to a component: render its latest snapshot.

``use_snapshot`` keeps the snapshot in component state and subscribes for the
component's lifetime (the effect's cleanup unsubscribes), so a view model's
publish from any task on the session's loop re-renders exactly the components
that read it. ``run_command`` starts an async command on the page's loop
without blocking the event handler that asked for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import flet as ft

from views.screen_models import Observed

T = TypeVar("T")


def use_snapshot(model: Observed[T]) -> T:
    """The model's current snapshot; re-renders the calling component on each change."""
    snapshot, set_snapshot = ft.use_state(model.snapshot)

    def subscribe() -> Callable[[], None]:
        set_snapshot(model.snapshot)  # anything published between render and effect
        return model.subscribe(set_snapshot)

    ft.use_effect(subscribe, [model])
    return snapshot


def run_command(command: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Runs ``command(*args)`` as a task of the current page; never awaits it here."""
    ft.context.page.run_task(command, *args)
