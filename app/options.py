"""The ``schedule-browser`` command line: its options, their types and their help.

``build_parser`` only parses; what the options mean together, and every refusal
of a combination, is ``app.cli``'s (``settings_from_arguments``). The help and
the refusals are in the person's words (``app.command_line_words``); option
names, URLs and argparse's own words ("usage:") are not translated here.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from app.settings import DEFAULT_SIGN_IN_SECONDS, DEFAULT_WAITING_SOCKETS_PER_ADDRESS
from connection_limits import add_limit_options, count_from_one, seconds_above_zero
from viewmodels.language import parsed_locale

if TYPE_CHECKING:
    from viewmodels.language import Words

__all__ = [
    "DEFAULT_REMEMBER_DAYS",
    "PROGRAM",
    "TOKEN_ENV",
    "build_parser",
    "default_data_dir",
]

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


def build_parser(words: Words) -> argparse.ArgumentParser:
    """The parser, its help and its refusals in ``words`` (``app.command_line_words``)."""
    _ = words.gettext
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description=_(
            "Browse an agent platform's scheduled work. By default the app "
            "starts its own schedule server over SQLite in your data folder."
        ),
        epilog=_("The token may also come from the {variable} environment variable.").format(
            variable=TOKEN_ENV
        ),
    )
    remote = parser.add_argument_group(_("remote server"))
    remote.add_argument(
        "--server",
        metavar="URL",
        help=_("use the schedule server at URL (https://, or http:// on this machine only)"),
    )
    remote.add_argument(
        "--token-file",
        metavar="PATH",
        type=Path,
        help=_("read the bearer token for --server from PATH"),
    )
    embedded = parser.add_argument_group(_("embedded server (the default)"))
    embedded.add_argument(
        "--data-dir",
        metavar="PATH",
        type=Path,
        help=_("keep the database in PATH instead of {folder}").format(folder=default_data_dir()),
    )
    embedded.add_argument(
        "--no-demo",
        action="store_true",
        help=_("start an empty database instead of loading demo data on the first run"),
    )
    embedded.add_argument(
        "--executor",
        metavar="URL",
        help=_(
            "hand each run to the agent runtime at URL (https://, or http:// on this machine; "
            "docs/API.md, the executor protocol) or to the in-process runtime installed under "
            "that name; without it each run is answered that no agent runtime is attached"
        ),
    )
    embedded.add_argument(
        "--executor-secret-file",
        metavar="PATH",
        type=Path,
        help=_("the secret that signs each request to the --executor URL"),
    )
    shown = parser.add_argument_group(_("where the app appears"))
    view = shown.add_mutually_exclusive_group()
    view.add_argument(
        "--web",
        action="store_true",
        help=_("serve the app to browsers (on 127.0.0.1 unless --host) and print the address"),
    )
    view.add_argument(
        "--desktop",
        action="store_true",
        help=_(
            "open a desktop window or stop with the reason, never the browser "
            "(by default the app falls back to the browser when no window can be shown)"
        ),
    )
    shown.add_argument(
        "--no-os-notifications",
        action="store_true",
        help=_(
            "in the desktop window, say that something newly needs attention only inside "
            "the app, not with an OS notification"
        ),
    )
    shown.add_argument(
        "--locale",
        metavar="LOCALE",
        type=partial(_locale, words=words),
        help=_(
            "write dates and times as LOCALE does (en_GB, en_US, de_DE, zh_Hans_CN...) "
            "instead of as the system or the browser says; Settings can still choose another"
        ),
    )
    shown.add_argument(
        "--port",
        metavar="N",
        type=partial(_port, words=words),
        help=_("the port the web view listens on (default 8550, or a free one)"),
    )
    others = parser.add_argument_group(
        _("serving other devices (with --web and --server; each person signs in)")
    )
    others.add_argument(
        "--host",
        metavar="ADDRESS",
        help=_(
            "listen on ADDRESS instead of 127.0.0.1; any other address serves the app to "
            "other devices, each person signing in with their own token (needs --server, and "
            "--certfile/--keyfile or --behind-proxy)"
        ),
    )
    others.add_argument(
        "--certfile",
        metavar="PATH",
        type=Path,
        help=_("serve the web view over HTTPS with this PEM certificate (chain)"),
    )
    others.add_argument(
        "--keyfile",
        metavar="PATH",
        type=Path,
        help=_("the certificate's private key (PEM, without a passphrase)"),
    )
    others.add_argument(
        "--behind-proxy",
        action="store_true",
        help=_(
            "TLS ends at a reverse proxy in front of the app: serve it plain HTTP, "
            "with per-person sign-in (needs --public-url, and a loopback --host or "
            "--forwarded-allow-ips)"
        ),
    )
    others.add_argument(
        "--public-url",
        metavar="URL",
        help=_(
            "the address people open, such as https://schedules.example.com; the app "
            "answers no other (required with --behind-proxy; with --certfile, by default any "
            "name the certificate is valid for, on --port)"
        ),
    )
    others.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help=_(
            "with --behind-proxy on a --host other than loopback: the reverse proxy's IP "
            "addresses or networks, comma-separated; connections from anywhere else are "
            "refused, and the X-Forwarded-For they set names each browser (whose failed "
            "sign-ins are slowed apart)"
        ),
    )
    others.add_argument(
        "--remember-days",
        metavar="N",
        type=partial(_days, words=words),
        default=DEFAULT_REMEMBER_DAYS,
        help=_(
            'how long a browser keeps a sign-in made with "Remember on this device" '
            "(default {days})"
        ).format(days=DEFAULT_REMEMBER_DAYS),
    )
    limits = parser.add_argument_group(
        _("limits of the web view (with --web)"),
        _("what one browser may hold of the web view (README: Serving phones and other devices)"),
    )
    add_limit_options(limits, frames=True, words=words)
    limits.add_argument(
        "--waiting-sockets",
        metavar="N",
        type=partial(count_from_one, words=words),
        default=DEFAULT_WAITING_SOCKETS_PER_ADDRESS,
        help=_(
            "serving other devices: pages one browser address may hold open before anyone "
            "signs in on them; beyond N another is refused until one signs in or closes "
            "(default {count})"
        ).format(count=DEFAULT_WAITING_SOCKETS_PER_ADDRESS),
    )
    limits.add_argument(
        "--sign-in-timeout",
        metavar="S",
        type=partial(seconds_above_zero, words=words),
        default=DEFAULT_SIGN_IN_SECONDS,
        help=_(
            "serving other devices: a page nobody signs in on within S seconds is "
            "disconnected (default {seconds})"
        ).format(seconds=f"{DEFAULT_SIGN_IN_SECONDS:g}"),
    )
    return parser


def _days(text: str, *, words: Words) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_REMEMBER_DAYS:
        raise argparse.ArgumentTypeError(
            words.gettext("{text} is not a number of days from 1 to {most}").format(
                text=repr(text), most=MAX_REMEMBER_DAYS
            )
        )
    return value


def _locale(text: str, *, words: Words) -> str:
    """A locale CLDR knows, in Babel's spelling ("de-DE" -> "de_DE")."""
    try:
        return str(parsed_locale(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            words.gettext("{text} is not a locale (try en_GB, en_US, de_DE or zh_Hans_CN)").format(
                text=repr(text)
            )
        ) from None


def _port(text: str, *, words: Words) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            words.gettext("{text} is not a port number").format(text=repr(text))
        ) from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            words.gettext("{port} is not a port number (1-65535)").format(port=value)
        )
    return value
