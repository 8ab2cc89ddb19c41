"""The package map in ``app``'s docstring names every module of ``app``, and only those."""

from __future__ import annotations

import re
from pathlib import Path

import app

APP_DIR = Path(app.__file__).parent


def modules_on_disk() -> set[str]:
    found = set()
    for path in APP_DIR.rglob("*.py"):
        parts = path.relative_to(APP_DIR).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            found.add(".".join(parts))
    return found


def modules_on_the_map() -> set[str]:
    return set(re.findall(r"^- ``([\w.]+)``", app.__doc__ or "", re.MULTILINE))


def test_the_package_map_lists_every_module_of_app_and_no_other() -> None:
    assert modules_on_the_map() == modules_on_disk()
