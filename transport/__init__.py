"""The only code that speaks HTTP: the wire contract of ``API.md``.

Owns the async API client (over ``httpx.AsyncClient``), the pydantic wire
models and the typed error hierarchy. It imports neither Flet nor ``server``:
the embedded mode hands it an ``httpx.ASGITransport`` over the server's app, so
both modes run this same code.
"""
