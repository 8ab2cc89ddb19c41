"""The ``schedule-browser`` command: arguments in, one clear sentence out on failure.

``settings_from_arguments`` turns the options (``app.options``) into a checked
``Settings``; ``main`` starts the app with it. Exit status: 0 after a normal
close, 2 for arguments that cannot work (argparse's convention, the reason on
stderr), 1 when start-up fails (the database cannot be opened, the server cannot
be reached or refuses the token, the port is taken). No traceback reaches the
user for any of these.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.command_line_words import command_line_words
from app.options import DEFAULT_REMEMBER_DAYS, PROGRAM, TOKEN_ENV, build_parser, default_data_dir
from app.server_address import checked_server_url
from app.settings import (
    EmbeddedServerSettings,
    RemoteServerSettings,
    Settings,
    UsageError,
    WebAddress,
    WebLimits,
)
from app.startup_error import StartupError
from app.web.address import checked_web_address, refuse_own_credentials
from connection_limits import ConnectionLimits, limits_from

if TYPE_CHECKING:
    from viewmodels.language import Words

__all__ = ["main", "parse_settings", "settings_from_arguments"]


def settings_from_arguments(
    arguments: argparse.Namespace,
    env: Mapping[str, str],
    *,
    data_dir: Path,
    words: Words,
) -> Settings:
    """Validated settings, or ``UsageError`` naming the argument at fault, in ``words``."""
    _ = words.gettext
    address = checked_web_address(
        host=arguments.host,
        certfile=arguments.certfile,
        keyfile=arguments.keyfile,
        behind_proxy=bool(arguments.behind_proxy),
        web=bool(arguments.web),
        public_url=arguments.public_url,
        forwarded_allow_ips=arguments.forwarded_allow_ips,
        words=words,
    )
    web_limits = _web_limits(arguments, address, words=words)
    if arguments.remember_days != DEFAULT_REMEMBER_DAYS and not address.serves_others:
        raise UsageError(
            _(
                "--remember-days applies when other people sign in to the web view "
                "(--behind-proxy, or --host with --certfile and --keyfile)."
            )
        )
    refuse_own_credentials(
        address,
        server_url=arguments.server,
        token_file=arguments.token_file,
        env_token=env.get(TOKEN_ENV, "").strip() or None,
        token_env=TOKEN_ENV,
        words=words,
    )
    server: EmbeddedServerSettings | RemoteServerSettings
    if arguments.server is not None:
        if arguments.data_dir is not None or arguments.no_demo:
            raise UsageError(
                _("--data-dir and --no-demo apply to the embedded server; drop them with --server.")
            )
        if arguments.executor is not None or arguments.executor_secret_file is not None:
            raise UsageError(
                _("--executor applies to the embedded server; a remote server attaches its own.")
            )
        url = checked_server_url(arguments.server, words=words)
        token = _token(arguments.token_file, env, words=words)
        server = RemoteServerSettings(base_url=url, token=token, device_dir=data_dir)
    else:
        if arguments.token_file is not None:
            raise UsageError(
                _("--token-file needs --server URL (the embedded server needs no token).")
            )
        chosen = arguments.data_dir if arguments.data_dir is not None else data_dir
        if chosen.exists() and not chosen.is_dir():
            raise UsageError(_("--data-dir {path} is a file, not a folder.").format(path=chosen))
        runtime = None
        if arguments.executor is not None or arguments.executor_secret_file is not None:
            # Imported only when asked for: the server stack loads off the start's
            # critical path otherwise (``app.launch`` opens it while the page loads).
            from app.backend.embedded import chosen_runtime

            try:
                runtime = chosen_runtime(arguments.executor, arguments.executor_secret_file, words)
            except StartupError as err:
                raise UsageError(str(err)) from None
        server = EmbeddedServerSettings(
            data_dir=chosen, demo=not arguments.no_demo, runtime=runtime
        )
    return Settings(
        server=server,
        web=bool(arguments.web),
        desktop=bool(arguments.desktop),
        port=arguments.port,
        web_address=address,
        remember_days=arguments.remember_days,
        os_notifications=not arguments.no_os_notifications,
        web_limits=web_limits,
        locale=arguments.locale,
    )


def _web_limits(arguments: argparse.Namespace, address: WebAddress, *, words: Words) -> WebLimits:
    limits = WebLimits(
        connections=limits_from(arguments),
        waiting_per_address=arguments.waiting_sockets,
        sign_in_seconds=arguments.sign_in_timeout,
    )
    if limits.connections != ConnectionLimits() and not arguments.web:
        raise UsageError(
            words.gettext("The limits of the web view apply to the web view; add --web.")
        )
    signing_in = (limits.waiting_per_address, limits.sign_in_seconds)
    if signing_in != (WebLimits().waiting_per_address, WebLimits().sign_in_seconds) and not (
        address.serves_others
    ):
        raise UsageError(
            words.gettext(
                "--waiting-sockets and --sign-in-timeout apply when other people sign in to the "
                "web view (--behind-proxy, or --host with --certfile and --keyfile)."
            )
        )
    return limits


def _token(token_file: Path | None, env: Mapping[str, str], *, words: Words) -> str | None:
    _ = words.gettext
    if token_file is None:
        from_env = env.get(TOKEN_ENV, "").strip()
        return from_env or None
    try:
        text = token_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise UsageError(_("--token-file {path} does not exist.").format(path=token_file)) from None
    except (OSError, UnicodeDecodeError) as err:
        # Translators: why a token file cannot be read, when the system says no more.
        reason = err.strerror if isinstance(err, OSError) and err.strerror else _("unreadable")
        raise UsageError(
            _("--token-file {path} cannot be read ({reason}).").format(
                path=token_file, reason=reason
            )
        ) from None
    if not text:
        raise UsageError(_("--token-file {path} is empty.").format(path=token_file))
    if any(character.isspace() for character in text):
        raise UsageError(
            _("--token-file {path} must hold one token on one line.").format(path=token_file)
        )
    return text


def parse_settings(
    argv: Sequence[str] | None,
    env: Mapping[str, str],
    *,
    data_dir: Path | None = None,
    words: Words | None = None,
) -> Settings:
    """Parse and validate; argparse's own errors exit 2, ours raise ``UsageError``.

    Help and refusals are in ``words``, by default the language of ``argv``'s
    ``--locale``, else the operating system's (``app.command_line_words``)."""
    given = sys.argv[1:] if argv is None else argv
    chosen = words if words is not None else command_line_words(given)
    arguments = build_parser(chosen).parse_args(given)
    return settings_from_arguments(
        arguments,
        env,
        data_dir=data_dir if data_dir is not None else default_data_dir(env),
        words=chosen,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``schedule-browser``; returns the exit status."""
    given = sys.argv[1:] if argv is None else argv
    words = command_line_words(given)
    try:
        settings = parse_settings(given, os.environ, words=words)
    except SystemExit as done:  # argparse: --help (0) or a malformed argument (2)
        return done.code if isinstance(done.code, int) else 2
    except UsageError as err:
        build_parser(words).print_usage(sys.stderr)
        print(f"{PROGRAM}: error: {err}", file=sys.stderr)
        return 2

    from app.launch import run_app

    try:
        asyncio.run(run_app(settings))
    except StartupError as err:
        print(f"{PROGRAM}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
