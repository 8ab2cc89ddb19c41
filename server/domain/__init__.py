"""Schedule domain values and the pure recurrence calculator.

Everything here is a pure function of its arguments: no clock reads, no I/O
beyond zoneinfo's own data, no storage. The worker and the routes pass in the
reference instant they got from their injected clock, so every rule here can be
tested at any instant, in any zone, without waiting.

- ``cadence``: the five closed cadence values, their validation (one stable
  reason code per rule) and their canonical JSON payload.
- ``civil_time``: how one local date and wall time in an IANA zone becomes one
  UTC instant, or none, across daylight-saving transitions, and how a resolved
  instant was placed (moved to the transition, or the earlier of two).
- ``zone_gaps``: the few local wall times a zone skipped together with the rest
  of their date, read once from the zone's TZif data.
- ``recurrence``: next, latest and how-many nominal instants, at bounded cost.
- ``misfire``: what one scheduler scan decides for one due schedule.
- ``projection``: a cadence over a window, for the calendar: its firings with
  how a clock change placed each, and the selected dates that never fire.
- ``states``: the server's state vocabulary (schedule state, pause reason,
  occurrence disposition, run status, audit event kind) as ``StrEnum``s.
"""
