"""Screen state and commands, in pure async Python: QA's acceptance surface.

Each view model owns one screen's state as an immutable snapshot, exposes
``async`` commands and notifies subscribers. Formatting decisions live here.
It depends on ``transport`` only through protocols and its wire models, and
imports neither ``flet`` nor ``httpx``.
"""
