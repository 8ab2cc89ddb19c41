"""The one error a start-up ends with: a sentence with a way out (exit status 1).

In a module of its own so that what decides the window, the port and the web
server can raise it without importing the backend (the client and server
stacks), which a web start loads only once its page is being served.
"""

from __future__ import annotations


class StartupError(RuntimeError):
    """Start-up cannot go on; the message is one sentence with a way out (exit 1)."""
