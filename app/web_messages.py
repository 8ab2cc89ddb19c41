"""A Flet message's ``repr`` names its action only: flet-web builds one per message sent.

flet-web 1.0.5's ``FletApp.send_message`` writes every outgoing message into
a debug line with an f-string, so the text is built whether or not anyone
logs at debug level, and a message's ``repr`` (a dataclass's) walks every
control of a patch. In a cold start that is a patch of the first rows and
the sidebar: py-spy put a fifth of the loop's samples there, and removing it
brought the first row about 0.06 to 0.11 s sooner in Chromium. That text would
also carry what the rows show, schedules' instructions among them, which the
app never logs.

``quiet_message_repr`` gives ``Message`` a ``repr`` of its action's name
(``Message(PATCH_CONTROL)``). Nothing but log lines reads it: the wire is
msgpack of the message's fields. It is a class attribute, so this holds for
the process; ``web_app`` calls it, and calling it again changes nothing.
"""

from __future__ import annotations

from flet.messaging.protocol import Message

__all__ = ["quiet_message_repr"]


def quiet_message_repr() -> None:
    """Every ``Message`` from now on reprs as its action's name, not its whole body."""
    Message.__repr__ = _action_only  # type: ignore[method-assign,assignment]


def _action_only(message: Message) -> str:
    return f"Message({message.action.name})"
