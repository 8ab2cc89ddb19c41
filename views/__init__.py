"""Flet controls that render view-model snapshots and forward user events.

No HTTP, no business rules, no formatting decisions: those belong to
``viewmodels``. Imports ``flet`` and ``viewmodels`` only.
"""
