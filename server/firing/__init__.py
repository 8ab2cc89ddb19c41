"""The firing rules: how one due instant of a schedule is decided and what it writes.

``plan`` turns a claimed due schedule into an ``OccurrencePlan``: the stored
revision checked once (``revision_check``), the misfire rule, the decision
(``decision``: definition, grace, authority, overlap, ``admission``), the rows
a firing creates, the failure count (``accounting``) and the audit events
(``events``); ``observer`` is who hears of each decided occurrence. The worker
applies them to the schedules it claims, the control plane to the one an edit
finds due.
"""
