"""The demo data: what a new user sees first, loaded the same for a given instant.

The entries are data (``schedules.toml``, ``profiles.toml``, ``chats.toml``,
read and checked by ``entries``); ``loading`` turns them into store records,
a past firing through the worker's own ``materialized``.
"""

from __future__ import annotations

from server.demo.entries import DemoDataError
from server.demo.loading import demo_id, load_demo, load_demo_if_empty

__all__ = ["DemoDataError", "demo_id", "load_demo", "load_demo_if_empty"]
