"""A Flet message's ``repr`` names its action only: flet-web builds one per message sent.

flet-web formats every outgoing message into a debug line whether or not anyone
logs it, and a message's dataclass ``repr`` walks every control of a patch, the
rows' text (schedules' instructions among them) included. ``quiet_message_repr``
gives ``Message`` a ``repr`` of its action's name (``Message(PATCH_CONTROL)``);
the wire, msgpack of the fields, never reads it. It is set on the class, for the
whole process; calling it again changes nothing.
"""

from __future__ import annotations

from flet.messaging.protocol import Message

__all__ = ["quiet_message_repr"]


def quiet_message_repr() -> None:
    """Every ``Message`` from now on reprs as its action's name, not its whole body."""
    Message.__repr__ = _action_only  # type: ignore[method-assign,assignment]


def _action_only(message: Message) -> str:
    return f"Message({message.action.name})"
