"""The worker: what turns due instants into occurrences and runs, in the background.

``runtime`` drives the loop (woken by ``wake``, publishing to ``change_feed``):
``worker`` scans, ``materializer`` has each batch of due schedules claimed and
planned by ``server.firing`` and written in one transaction, ``run_dispatch``
hands queued runs to an ``executor`` and records each outcome, and
``retention`` purges what has expired.
"""
