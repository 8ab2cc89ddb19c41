"""Tools the tests and the benchmarks share, never shipped (the wheel packages ``server``,
``app``, ``transport``, ``viewmodels`` and ``views`` only).

``postgres_cluster`` starts a throwaway PostgreSQL: the tests start one per
session, ``bench/throwaway_postgres.py`` one per benchmark. ``browser`` runs
the app in headless Chromium (the UI tests, ``bench/app_in_browser.py`` and
``bench/hosted_sessions.py``), and ``self_signed`` makes the throwaway
certificate its hosted web view serves. ``served_process`` runs
``schedule-server serve`` as a child process (the runtime tests, ``bench/wal.py``
and ``bench/faults.py``), ``storage_faults`` takes its storage away and gives
it back, and ``fault_drill`` writes through such a fault and counts what
happened. ``wire`` builds the JSON bodies of docs/API.md. Neither side imports
the other's package.
"""
