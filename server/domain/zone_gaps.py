"""The local dates a zone skipped entirely, read from its TZif data.

A date whose every wall time fell inside one spring-forward gap has no
occurrence (Pacific/Apia went from 2011-12-29 straight to 2011-12-31). Counting
occurrences by calendar arithmetic must subtract exactly those dates, and
zoneinfo does not publish its transitions, so this module reads them from the
same TZif file zoneinfo loads (RFC 8536, the 64-bit block).

Only explicit transitions are read. Past a file's last transition zoneinfo
follows the footer's POSIX daylight-saving rule, whose gaps are at most a few
hours long and so never swallow a whole date.
"""

from __future__ import annotations

import os
import struct
import zoneinfo
from datetime import date, datetime, time, timedelta
from functools import cache
from importlib import resources

__all__ = ["skipped_dates"]

_HEADER = struct.Struct(">4sc15x6l")
_TTINFO = struct.Struct(">lBB")
_EPOCH = datetime(1970, 1, 1)


@cache
def skipped_dates(key: str) -> frozenset[date]:
    """The local dates of zone ``key`` that have no valid wall time at all."""
    skipped: set[date] = set()
    for moment, before, after in _transitions(_tzif(key)):
        if after <= before:
            continue
        start = _EPOCH + timedelta(seconds=moment + before)  # first wall time skipped
        end = _EPOCH + timedelta(seconds=moment + after)  # first wall time after the gap
        day = start.date() if start.time() == time() else start.date() + timedelta(days=1)
        while day < end.date():
            skipped.add(day)
            day += timedelta(days=1)
    return frozenset(skipped)


def _tzif(key: str) -> bytes:
    # The same search order as zoneinfo: TZPATH first, then the tzdata package.
    for root in zoneinfo.TZPATH:
        path = os.path.join(root, key)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                return handle.read()
    package = resources.files("tzdata").joinpath("zoneinfo", *key.split("/"))
    return package.read_bytes()


def _transitions(data: bytes) -> list[tuple[int, int, int]]:
    """``(POSIX second, offset before, offset after)`` for each explicit transition."""
    header = _HEADER.unpack_from(data)
    if header[0] != b"TZif":
        raise ValueError("not a TZif file")
    position, time_format = _HEADER.size, "l"
    if header[1] != b"\x00":
        # Skip the 32-bit block; the 64-bit one after it covers every year.
        isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt = header[2:]
        position += timecnt * 5 + typecnt * 6 + charcnt + leapcnt * 8 + isstdcnt + isutcnt
        header = _HEADER.unpack_from(data, position)
        position += _HEADER.size
        time_format = "q"
    timecnt, typecnt = header[5], header[6]
    moments = struct.unpack_from(f">{timecnt}{time_format}", data, position)
    position += timecnt * struct.calcsize(time_format)
    indices = data[position : position + timecnt]
    position += timecnt
    offsets = [_TTINFO.unpack_from(data, position + i * _TTINFO.size)[0] for i in range(typecnt)]
    result: list[tuple[int, int, int]] = []
    before = offsets[0]  # RFC 8536: type 0 applies before the first transition
    for moment, index in zip(moments, indices, strict=True):
        after = offsets[index]
        result.append((moment, before, after))
        before = after
    return result
