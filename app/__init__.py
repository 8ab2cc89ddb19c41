"""The composition root and the `schedule-browser` command.

Owns settings, the choice between the embedded and a remote server, starting
and stopping the embedded server, device-state storage adapters and the Flet
entry point. It is the only package that may import every other one.

Modules, in the order a run goes through them:

- ``cli``: ``main(argv) -> int``; argparse, validation into ``settings``
  (``UsageError`` -> exit 2), start-up failures (``StartupError``, in
  ``startup_error`` so the light start-up modules raise it) -> exit 1.
- ``settings``: the validated ``Settings`` value (embedded or remote server,
  ``--web``/``--desktop``, port, ``WebAddress``); ``server_address``: https,
  or http only to loopback hosts (``loopback`` says which hosts those are);
  ``web_address``: the rules for serving other devices (``--host``,
  ``--certfile``/``--keyfile``, ``--behind-proxy``).
- ``presentation``: window or browser, decided before Flet starts (pure but
  for the probe and the fetch it is handed); ``desktop_client``: Flet's desktop
  client found where ``flet_desktop`` looks, or fetched there within a time bound.
- ``web_port``: the web view's port, checked on its address before binding.
- ``backend``: ``open_backend`` -> the ``ScheduleClient`` over the embedded
  server's ASGI app or a remote URL; closes both on the way out; its docstring
  says where the schedule worker runs. ``open_sign_in_backend`` -> a
  ``SignInBackend`` holding no token, whose ``connect`` gives each signed-in
  session its own client (through ``credential_watch``, which reports 401s).
- ``launch``: ``run_app(settings)``, the order of the above and the loop.
- ``web_server``: every web view, local or hosted: Flet's ASGI app under
  uvicorn, HTTPS when asked, our manifest and icons.
- ``session``: per Flet session, the view models and the device storage,
  handed to ``views.AppShell``; ``sign_in_session``: per browser session of a
  hosted web view, the sign-in first, then that person's own view models.
- ``device_folder``: ``DeviceStorage`` of the local modes (a window, the local
  web view) in the user data folder, a private file per key, namespaced per
  server; the view cache (``viewmodels.offline``) lives there too, per server
  and token.
- ``device_storage``: ``DeviceStorage`` over Flet ``SharedPreferences``, for a
  hosted person who ticked "Remember on this device" (per server and
  person); ``remembered_sign_in``: that person's token record, carrying its
  expiry and erased at it, with everything kept for them.
- ``servers_read``: the note of servers this device has read, so one that is
  away at start opens offline while one never read stops with a sentence.
"""
