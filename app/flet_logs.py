"""Flet's log lines keep their shape and lose their payload: no typed token, no instruction.

At debug level Flet logs every message a browser sends and every event it
dispatches, the sign-in field's text included. ``redact_flet_logs`` puts
``FletPayloadFilter`` on each of Flet's loggers: each line is still written,
at its level and in its words, but an argument that is not a number, an enum
member or a control becomes its type's name, and a line Flet formatted itself
keeps its words only up to where the payload starts.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from enum import Enum
from typing import Final

from flet.controls.base_control import BaseControl

__all__ = ["FLET_LOGGERS", "FletPayloadFilter", "redact_flet_logs"]

FLET_LOGGERS: Final = (
    "flet",
    "flet_components",
    "flet_controls",
    "flet_desktop",
    "flet_object_patch",
    "flet_transport",
    "flet_web",
    "flet_web.fastapi",
)
"""Every logger name flet, flet-web and flet-desktop 1.0.5 log under."""

_FORMATTED_BY_FLET: Final = ("_on_message: ", "send_message: ")
"""Lines Flet formats itself as ``<verb>: <action> <payload>``: the action is kept."""
_RECEIVE_ERROR: Final = "Receive loop error: "


class FletPayloadFilter(logging.Filter):
    """Rewrites a Flet record so that it holds no payload (see the module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, Mapping):
            record.args = {key: _shown(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_shown(arg) for arg in record.args)
        elif isinstance(record.msg, str):
            record.msg = _without_payload(record)
        else:
            record.msg = _shown(record.msg)
        return True


def redact_flet_logs() -> None:
    """From now on Flet's log lines carry no payload, at any level."""
    for name in FLET_LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)


def _shown(arg: object) -> object:
    if arg is None or isinstance(arg, bool | int | float | Enum | BaseControl):
        return arg
    return f"<{type(arg).__name__}>"


def _without_payload(record: logging.LogRecord) -> str:
    message = str(record.msg)
    for verb in _FORMATTED_BY_FLET:
        if message.startswith(verb):
            return verb + message[len(verb) :].split(" ", 1)[0]
    if message.startswith(_RECEIVE_ERROR) and record.exc_info:
        error = record.exc_info[1]
        record.exc_info, record.exc_text = None, None
        return _RECEIVE_ERROR + type(error).__name__
    return message


_FILTER: Final = FletPayloadFilter()
