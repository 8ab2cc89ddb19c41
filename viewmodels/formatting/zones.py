"""Whether a schedule's stored zone is the device's zone, aliases included.

The zone suffix appears only when the two differ, and the IANA database has
many names for one rule set (``Etc/UTC`` and ``UTC``, ``Asia/Calcutta`` and
``Asia/Kolkata``). A Debian machine reports ``Etc/UTC`` while a server stores
``UTC``; naming that "difference" would be noise. Two names are the same zone
when their compiled TZif data are identical, read from the same place
``zoneinfo`` reads them (``zoneinfo.TZPATH``, then the ``tzdata`` package).
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache
from importlib import resources
from pathlib import Path
from zoneinfo import ZoneInfo


def is_device_zone(zone_name: str, device_zone: ZoneInfo) -> bool:
    if zone_name == device_zone.key:
        return True
    stored = _tzif(zone_name)
    return stored is not None and stored == _tzif(device_zone.key)


@lru_cache(maxsize=64)
def _tzif(zone_name: str | None) -> bytes | None:
    if not zone_name or zone_name.startswith("/") or ".." in zone_name:
        return None
    for root in zoneinfo.TZPATH:
        path = Path(root, zone_name)
        if path.is_file():
            return path.read_bytes()
    try:
        return resources.files("tzdata.zoneinfo").joinpath(zone_name).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def place_name(zone_name: str) -> str:
    """A zone as a person names its place: "America/New_York" -> "New York"; "UTC" as is."""
    return zone_name.rsplit("/", 1)[-1].replace("_", " ") or zone_name
