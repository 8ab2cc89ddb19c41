"""Tools the tests and the benchmarks share, never shipped (the wheel packages ``server``,
``app``, ``transport``, ``viewmodels`` and ``views`` only).

``postgres_cluster`` starts a throwaway PostgreSQL: the tests start one per
session, ``bench/throwaway_postgres.py`` one per benchmark. ``browser`` runs
the app in headless Chromium (the UI tests, ``bench/app_in_browser.py`` and
``bench/hosted_sessions.py``), and ``self_signed`` makes the throwaway
certificate its hosted web view serves. Neither side imports the other's
package.
"""
