"""Private iCalendar feeds: a principal's firings, for the calendar app they already use.

A feed is minted with a secret (``credential``) that is its address's only
credential; its content (``content``) is one schedule's projection and ledger
over the window (``window``: 30 days back, 60 ahead, at most 2,000 events),
or the agenda of all the principal's schedules, turned into events
(``events``, ``words``) and written as RFC 5545 text by the ``icalendar``
library (``calendar``). The routes are ``server.api.feeds``.
"""
