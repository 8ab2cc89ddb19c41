"""The composition root and the ``schedule-browser`` command.

Owns settings, the choice between the embedded and a remote server, the web
server, device-state storage and the Flet entry point. It is the only package
that may import every other one. Its modules, in the order a run meets them:

- ``cli``: ``main(argv)``, the options checked into ``Settings``, exit statuses.
- ``options``: the command line's options, their types and help.
- ``command_line_words``: the language of the help and refusals (``--locale``, else the OS's).
- ``settings``: the validated ``Settings`` value (server, view, ``WebAddress``).
- ``server_address``: a remote server's URL, https or http to loopback only.
- ``startup_error``: ``StartupError``, the one sentence a failed start ends with.
- ``presentation``: window or browser, decided before Flet starts.
- ``desktop_client``: Flet's desktop client, found or fetched within a time bound.
- ``desktop_client_digests``: the pinned SHA-256 of each desktop client archive.
- ``desktop_client_progress``: the fetch's progress line, in the person's words.
- ``launch``: ``run_app(settings)``, the order of a start and the loop.
- ``backend``: ``open_backend``, the ``Backend`` of the embedded or remote server.
- ``backend.connected``: the ``Backend`` value and the server's change signal.
- ``backend.embedded``: the schedule server and its scheduler in this process.
- ``backend.remote``: a server over HTTP, and ``SignInBackend`` for hosted sessions.
- ``servers_read``: the servers this device has read, so one away opens offline.
- ``credential_watch``: a session's client reporting that its token was refused.
- ``forwarded_for``: each hosted request names its browser (``X-Forwarded-For``).
- ``browser_address``: a browser's address, by which wrong tokens are slowed.
- ``session``: one Flet session's view models and device storage, composed.
- ``page_locale``: a page's starting locale (the browser's or the system's), and Flet's.
- ``sign_in_session``: one hosted browser session, sign-in first.
- ``tab_gone``: a session whose tab leaves while it starts ends as a disconnect.
- ``device_folder``: ``DeviceStorage`` in the user data folder (a window, local web).
- ``device_storage``: ``DeviceStorage`` over Flet ``SharedPreferences`` (hosted).
- ``view_cache_store``: the view cache a device keeps (``viewmodels.offline.ViewCache``).
- ``view_cache_entries``: its entries in one ``DeviceStorage``, least recently used out.
- ``view_cache_keys``: the closed set of keys the cache writes, and its budget.
- ``remembered_sign_in``: a remembered person's sign-in, erased at its expiry.
- ``remembered_tokens``: the host's half of a remembered sign-in, tokens by handle.
- ``notifications``: OS notifications of the desktop window.
- ``calendar_file``: a calendar file saved by the desktop's dialog, or a browser download.
- ``flet_logs``: Flet's log lines without their payload.
- ``web``: the web view's server, and the layers it puts around Flet:
- ``web.server``: every web view, Flet's ASGI app under uvicorn, HTTPS when asked.
- ``web.address``: the rules for serving other devices (``--host``, TLS, proxy).
- ``web.port``: the web view's port, checked on its address before binding.
- ``web.origin``: the ``Host`` and ``Origin`` values the web view answers.
- ``web.guard``: the ASGI layer refusing every other origin (403).
- ``web.headers``: the content security policy and the other security headers.
- ``web.sign_in_door``: sockets before sign-in, few per browser and short-lived.
- ``web.departures``: a tab gone mid-send is a departure, not a fault.
- ``web.files``: the page's files sent in large reads.
- ``web.messages``: Flet's messages ``repr`` their action only.
- ``web.cjk_font``: Chinese, Japanese and Korean glyphs from a font installed on the host.
"""
