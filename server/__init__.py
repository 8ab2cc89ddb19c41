"""The schedule server: embedded in the app, or stand-alone as `schedule-server`.

Owns the domain values and the pure recurrence calculator (``server.domain``),
storage and migrations, the HTTP routes of ``docs/API.md``, identity, and demo data.
It imports nothing from the client packages.
"""
