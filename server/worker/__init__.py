"""The worker: what turns due instants into occurrences and runs, in the background.

``runtime`` drives the loop (woken by ``wake`` and the ``change_feed``):
``worker`` claims a batch of due schedules, ``materializer`` decides each due
instant (``revision_check``, ``authority``, overlap, ``admission``) and writes
the occurrence, session and run in one transaction, ``run_dispatch`` hands
queued runs to an ``executor`` and records the outcome with ``accounting``,
and ``retention`` purges what has expired.
"""
