"""The ``schedule-browser`` command: arguments in, one clear sentence out on failure.

Exit status: 0 after a normal close, 2 for arguments that cannot work (argparse's
convention, with the reason on stderr), 1 when start-up fails (the database
cannot be opened, the remote server cannot be reached or refuses the token, the
port is taken). No traceback reaches the user for any of these.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import platformdirs

from app.server_address import checked_server_url
from app.settings import (
    DEFAULT_SIGN_IN_SECONDS,
    DEFAULT_WAITING_SOCKETS_PER_ADDRESS,
    EmbeddedServerSettings,
    RemoteServerSettings,
    Settings,
    UsageError,
    WebAddress,
    WebLimits,
)
from app.startup_error import StartupError
from app.web_address import checked_web_address, refuse_own_credentials
from connection_limits import (
    ConnectionLimits,
    add_limit_options,
    count_from_one,
    limits_from,
    seconds_above_zero,
)

PROGRAM = "schedule-browser"
TOKEN_ENV = "SCHEDULE_BROWSER_TOKEN"
DEFAULT_REMEMBER_DAYS = 30
MAX_REMEMBER_DAYS = 3650


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user data folder: the app's own storage in a ``flet build`` app, else the
    platform's (``~/.local/share/schedule-browser`` on Linux)."""
    packaged = (env if env is not None else os.environ).get("FLET_APP_STORAGE_DATA")
    if packaged:
        return Path(packaged)
    return platformdirs.user_data_path(PROGRAM, appauthor=False)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Browse an agent platform's scheduled work. By default the app "
        "starts its own schedule server over SQLite in your data folder.",
        epilog=f"The token may also come from the {TOKEN_ENV} environment variable.",
    )
    remote = parser.add_argument_group("remote server")
    remote.add_argument(
        "--server",
        metavar="URL",
        help="use the schedule server at URL (https://, or http:// on this machine only)",
    )
    remote.add_argument(
        "--token-file",
        metavar="PATH",
        type=Path,
        help="read the bearer token for --server from PATH",
    )
    embedded = parser.add_argument_group("embedded server (the default)")
    embedded.add_argument(
        "--data-dir",
        metavar="PATH",
        type=Path,
        help=f"keep the database in PATH instead of {default_data_dir()}",
    )
    embedded.add_argument(
        "--no-demo",
        action="store_true",
        help="start an empty database instead of loading demo data on the first run",
    )
    embedded.add_argument(
        "--executor",
        metavar="URL",
        help="hand each run to the agent runtime at URL (https://, or http:// on this machine; "
        "docs/API.md, the executor protocol) or to the in-process runtime installed under that "
        "name; without it each run is answered that no agent runtime is attached",
    )
    embedded.add_argument(
        "--executor-secret-file",
        metavar="PATH",
        type=Path,
        help="the secret that signs each request to the --executor URL",
    )
    shown = parser.add_argument_group("where the app appears")
    view = shown.add_mutually_exclusive_group()
    view.add_argument(
        "--web",
        action="store_true",
        help="serve the app to browsers (on 127.0.0.1 unless --host) and print the address",
    )
    view.add_argument(
        "--desktop",
        action="store_true",
        help="open a desktop window or stop with the reason, never the browser "
        "(by default the app falls back to the browser when no window can be shown)",
    )
    shown.add_argument(
        "--no-os-notifications",
        action="store_true",
        help="in the desktop window, say that something newly needs attention only inside "
        "the app, not with an OS notification",
    )
    shown.add_argument(
        "--port",
        metavar="N",
        type=_port,
        help="the port the web view listens on (default 8550, or a free one)",
    )
    others = parser.add_argument_group(
        "serving other devices (with --web and --server; each person signs in)"
    )
    others.add_argument(
        "--host",
        metavar="ADDRESS",
        help="listen on ADDRESS instead of 127.0.0.1; any other address serves the app to "
        "other devices, each person signing in with their own token (needs --server, and "
        "--certfile/--keyfile or --behind-proxy)",
    )
    others.add_argument(
        "--certfile",
        metavar="PATH",
        type=Path,
        help="serve the web view over HTTPS with this PEM certificate (chain)",
    )
    others.add_argument(
        "--keyfile",
        metavar="PATH",
        type=Path,
        help="the certificate's private key (PEM, without a passphrase)",
    )
    others.add_argument(
        "--behind-proxy",
        action="store_true",
        help="TLS ends at a reverse proxy in front of the app: serve it plain HTTP, "
        "with per-person sign-in (needs --public-url, and a loopback --host or "
        "--forwarded-allow-ips)",
    )
    others.add_argument(
        "--public-url",
        metavar="URL",
        help="the address people open, such as https://schedules.example.com; the app "
        "answers no other (required with --behind-proxy; with --certfile, by default any "
        "name the certificate is valid for, on --port)",
    )
    others.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="with --behind-proxy on a --host other than loopback: the reverse proxy's IP "
        "addresses or networks, comma-separated; connections from anywhere else are refused, "
        "and the X-Forwarded-For they set names each browser (whose failed sign-ins are "
        "slowed apart)",
    )
    others.add_argument(
        "--remember-days",
        metavar="N",
        type=_days,
        default=DEFAULT_REMEMBER_DAYS,
        help='how long a browser keeps a sign-in made with "Remember on this device" '
        f"(default {DEFAULT_REMEMBER_DAYS})",
    )
    limits = parser.add_argument_group(
        "limits of the web view (with --web)",
        "what one browser may hold of the web view (README: Serving phones and other devices)",
    )
    add_limit_options(limits, frames=True)
    limits.add_argument(
        "--waiting-sockets",
        metavar="N",
        type=count_from_one,
        default=DEFAULT_WAITING_SOCKETS_PER_ADDRESS,
        help="serving other devices: pages one browser address may hold open before anyone "
        "signs in on them; beyond N another is refused until one signs in or closes "
        f"(default {DEFAULT_WAITING_SOCKETS_PER_ADDRESS})",
    )
    limits.add_argument(
        "--sign-in-timeout",
        metavar="S",
        type=seconds_above_zero,
        default=DEFAULT_SIGN_IN_SECONDS,
        help="serving other devices: a page nobody signs in on within S seconds is "
        f"disconnected (default {DEFAULT_SIGN_IN_SECONDS:g})",
    )
    return parser


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_REMEMBER_DAYS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of days from 1 to {MAX_REMEMBER_DAYS}"
        )
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (1-65535)")
    return value


def settings_from_arguments(
    arguments: argparse.Namespace,
    env: Mapping[str, str],
    *,
    data_dir: Path,
) -> Settings:
    """Validated settings, or ``UsageError`` naming the argument at fault."""
    address = checked_web_address(
        host=arguments.host,
        certfile=arguments.certfile,
        keyfile=arguments.keyfile,
        behind_proxy=bool(arguments.behind_proxy),
        web=bool(arguments.web),
        public_url=arguments.public_url,
        forwarded_allow_ips=arguments.forwarded_allow_ips,
    )
    web_limits = _web_limits(arguments, address)
    if arguments.remember_days != DEFAULT_REMEMBER_DAYS and not address.serves_others:
        raise UsageError(
            "--remember-days applies when other people sign in to the web view "
            "(--behind-proxy, or --host with --certfile and --keyfile)."
        )
    refuse_own_credentials(
        address,
        server_url=arguments.server,
        token_file=arguments.token_file,
        env_token=env.get(TOKEN_ENV, "").strip() or None,
        token_env=TOKEN_ENV,
    )
    server: EmbeddedServerSettings | RemoteServerSettings
    if arguments.server is not None:
        if arguments.data_dir is not None or arguments.no_demo:
            raise UsageError(
                "--data-dir and --no-demo apply to the embedded server; drop them with --server."
            )
        if arguments.executor is not None or arguments.executor_secret_file is not None:
            raise UsageError(
                "--executor applies to the embedded server; a remote server attaches its own."
            )
        url = checked_server_url(arguments.server)
        token = _token(arguments.token_file, env)
        server = RemoteServerSettings(base_url=url, token=token, device_dir=data_dir)
    else:
        if arguments.token_file is not None:
            raise UsageError(
                "--token-file needs --server URL (the embedded server needs no token)."
            )
        chosen = arguments.data_dir if arguments.data_dir is not None else data_dir
        if chosen.exists() and not chosen.is_dir():
            raise UsageError(f"--data-dir {chosen} is a file, not a folder.")
        runtime = None
        if arguments.executor is not None or arguments.executor_secret_file is not None:
            # Imported only when asked for: the server stack loads off the start's
            # critical path otherwise (``app.launch`` opens it while the page loads).
            from app.backend import chosen_runtime

            try:
                runtime = chosen_runtime(arguments.executor, arguments.executor_secret_file)
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
    )


def _web_limits(arguments: argparse.Namespace, address: WebAddress) -> WebLimits:
    limits = WebLimits(
        connections=limits_from(arguments),
        waiting_per_address=arguments.waiting_sockets,
        sign_in_seconds=arguments.sign_in_timeout,
    )
    if limits.connections != ConnectionLimits() and not arguments.web:
        raise UsageError("The limits of the web view apply to the web view; add --web.")
    signing_in = (limits.waiting_per_address, limits.sign_in_seconds)
    if signing_in != (WebLimits().waiting_per_address, WebLimits().sign_in_seconds) and not (
        address.serves_others
    ):
        raise UsageError(
            "--waiting-sockets and --sign-in-timeout apply when other people sign in to the "
            "web view (--behind-proxy, or --host with --certfile and --keyfile)."
        )
    return limits


def _token(token_file: Path | None, env: Mapping[str, str]) -> str | None:
    if token_file is None:
        from_env = env.get(TOKEN_ENV, "").strip()
        return from_env or None
    try:
        text = token_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise UsageError(f"--token-file {token_file} does not exist.") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "unreadable"
        raise UsageError(f"--token-file {token_file} cannot be read ({reason}).") from None
    if not text:
        raise UsageError(f"--token-file {token_file} is empty.")
    if any(character.isspace() for character in text):
        raise UsageError(f"--token-file {token_file} must hold one token on one line.")
    return text


def parse_settings(
    argv: Sequence[str] | None,
    env: Mapping[str, str],
    *,
    data_dir: Path | None = None,
) -> Settings:
    """Parse and validate; argparse's own errors exit 2, ours raise ``UsageError``."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    return settings_from_arguments(
        arguments, env, data_dir=data_dir if data_dir is not None else default_data_dir(env)
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``schedule-browser``; returns the exit status."""
    try:
        settings = parse_settings(argv, os.environ)
    except SystemExit as done:  # argparse: --help (0) or a malformed argument (2)
        return done.code if isinstance(done.code, int) else 2
    except UsageError as err:
        build_parser().print_usage(sys.stderr)
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
