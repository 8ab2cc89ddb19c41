"""Reading pixels out of a screenshot's PNG bytes with the standard library only.

Chromium's screenshots are 8-bit RGB or RGBA, non-interlaced, with a filter
per scanline; that is all this decoder handles, and it says so for anything
else rather than guessing. Enough to ask "is this area dark?" without an
image library.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 6: 4}
"""PNG colour type -> bytes per pixel at bit depth 8 (RGB, RGBA)."""


@dataclass(frozen=True, slots=True)
class Screenshot:
    width: int
    height: int
    channels: int
    pixels: bytes
    """Unfiltered scanlines, ``width * channels`` bytes each, top row first."""

    def rgb(self, x: int, y: int) -> tuple[int, int, int]:
        start = (y * self.width + x) * self.channels
        red, green, blue = self.pixels[start : start + 3]
        return red, green, blue

    def mean_luminance(self, left: int, top: int, width: int, height: int) -> float:
        """Average relative luminance (0 black .. 255 white, Rec. 709 weights) of a box."""
        total = 0.0
        for y in range(top, top + height):
            for x in range(left, left + width):
                red, green, blue = self.rgb(x, y)
                total += 0.2126 * red + 0.7152 * green + 0.0722 * blue
        return total / (width * height)


def decode_png(data: bytes) -> Screenshot:
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG")
    offset = len(_SIGNATURE)
    header = b""
    compressed = bytearray()
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        offset += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in _CHANNELS or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, {interlace=}")
    channels = _CHANNELS[colour]
    return Screenshot(
        width, height, channels, _unfilter(zlib.decompress(compressed), width, height, channels)
    )


def _unfilter(raw: bytes, width: int, height: int, channels: int) -> bytes:
    stride = width * channels
    out = bytearray(stride * height)
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, up_left)) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind} on row {y}")
        out[y * stride : (y + 1) * stride] = line
        previous = line
    return bytes(out)


def _paeth(left: int, up: int, up_left: int) -> int:
    estimate = left + up - up_left
    to_left, to_up, to_up_left = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
    if to_left <= to_up and to_left <= to_up_left:
        return left
    return up if to_up <= to_up_left else up_left
