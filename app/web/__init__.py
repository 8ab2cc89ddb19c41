"""The web view's server: Flet's web app under uvicorn, hardened for browsers.

Every web view, local or hosted, is served through ``app.web.server``; the other
modules are the rules and ASGI layers it puts around Flet (the package map in
``app`` lists them).
"""
