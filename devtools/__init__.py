"""Tools the tests and the benchmarks share, never shipped (the wheel packages ``server``,
``app``, ``transport``, ``viewmodels`` and ``views`` only).

``postgres_cluster`` starts a throwaway PostgreSQL: the tests start one per
session, ``bench/throwaway_postgres.py`` one per benchmark. Neither side
imports the other's package.
"""
