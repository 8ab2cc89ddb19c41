"""The only code that speaks HTTP: the wire contract of ``docs/API.md``.

Owns the async API client (over ``httpx.AsyncClient``), the pydantic wire
models and the typed error hierarchy. It imports neither Flet nor ``server``:
the embedded mode hands it an ``httpx.ASGITransport`` over the server's app, so
both modes run this same code.

- ``transport.models``: frozen wire models, one resource per module.
- ``transport.errors``: the one error tree and ``error_for``, its only mapping.
- ``transport.paging``: ``CursorTrail``, the one repeated-cursor guard, and ``iterate_pages``.
- ``transport.retry``: the pure retry decision and its backoff constants.
- ``transport.exchange``: ``Exchange``, one request cycle (send, retry, decode, map).
- ``transport.query``: the query parameters every route spells alike (instants, search, paging).
- ``transport.optional_routes``: the routes a compliant server may lack (agenda, scheduler, feeds).
- ``transport.client``: ``ScheduleClient``, one method per route.

Only ``client``, ``optional_routes`` and ``exchange`` import httpx; view models
import ``models``, ``errors`` and ``paging`` and stay free of it.
"""
