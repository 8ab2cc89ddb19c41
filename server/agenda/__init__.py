"""The agenda: every firing of the caller's schedules across a window, computed, never stored.

``sweep`` pages the agenda (``GET /v1/agenda``): bands of instants, the
schedules on each zone's wall clock in the band, their exact firings from the
scheduler's calculator, merged with the ledger. ``density`` counts the same
items per hour or local day (``GET /v1/agenda/density``). ``wall_clock`` maps
a band to wall-time ranges; ``items`` holds an item and a revision's facts.
"""
