"""The control plane: what the routes use to read and change schedules.

``service`` is the one entry point (create, edit, pause, resume, cancel, read),
``lifecycle`` says which state change is allowed and ``projection`` which
instants are due next. The definition rules come from ``server.definitions``,
the due instant an edit decides first from ``server.firing``.
"""
