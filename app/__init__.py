"""The composition root and the `schedule-browser` command.

Owns settings, the choice between the embedded and a remote server, starting
and stopping the embedded server, device-state storage adapters and the Flet
entry point. It is the only package that may import every other one.

Modules, in the order a run goes through them:

- ``cli``: ``main(argv) -> int``; argparse, validation into ``settings``
  (``UsageError`` -> exit 2), start-up failures (``StartupError``) -> exit 1.
- ``settings``: the validated ``Settings`` value (embedded or remote server,
  ``--web``/``--desktop``, port); ``server_address``: https, or http only to
  loopback hosts.
- ``presentation``: window or browser, decided before Flet starts (pure but
  for the probe and the fetch it is handed); ``desktop_client``: Flet's desktop
  client found where ``flet_desktop`` looks, or fetched there within a time bound.
- ``web_port``: the web view's port, checked before Flet binds it.
- ``backend``: ``open_backend`` -> the ``ScheduleClient`` over the embedded
  server's ASGI app or a remote URL; closes both on the way out. Its docstring
  marks where the schedule worker (a later issue) will start.
- ``launch``: ``run_app(settings)``, the order of the above and Flet's loop.
- ``session``: per Flet session, the view models and the device storage,
  handed to ``views.AppShell``.
- ``device_storage``: ``DeviceStorage`` over Flet ``SharedPreferences`` (per
  browser in web mode, per device otherwise), namespaced per server.
"""
