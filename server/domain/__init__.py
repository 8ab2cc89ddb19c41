"""Schedule domain values and the pure recurrence calculator.

Everything here is a pure function of its arguments: no clock reads, no I/O
beyond zoneinfo's data, no storage. Callers pass the reference instant from
their injected clock, so every rule can be tested at any instant and zone.
"""
