"""``schedule-browser`` serving other devices, in front of a ``schedule-server`` team.

Started as a team would start it: with a certificate, ``--web --host 0.0.0.0
--certfile … --keyfile … --server URL`` (HTTPS served by the app itself, the
address Chromium opens is ``https://127.0.0.1:<port>/``); without one,
``--web --host 127.0.0.1 --behind-proxy --public-url http://127.0.0.1:<port>
--server URL`` (plain HTTP for a reverse proxy on the same machine; with no
proxy in the test, the public address is the app's own loopback one). Either
way the process is given no token: the environment variable is emptied, so a
token in the test runner's own environment cannot leak in (the app would
refuse to start with it). ``session_grace_seconds`` sets Flet's
``FLET_SESSION_TIMEOUT``, the operator's override of how long a session
outlives its tab (``app.web.server``); ``log_level`` sets ``FLET_LOG_LEVEL``,
which turns on Flet's own log on the process's stderr. ``sign_in`` fills its
sign-in form as a person does.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import REMEMBER, SIGN_IN, TOKEN_FIELD, button
from devtools.browser.schedule_server import TOKEN_ENV, Member, ScheduleServer
from devtools.browser.served_app import LOG_LEVEL_ENV, app_command, running_process
from devtools.ports import LOOPBACK, free_port
from devtools.self_signed import CertificatePair
from viewmodels.language import DEFAULT_LOCALE, Words, words_for

EVERY_INTERFACE = "0.0.0.0"
SESSION_TIMEOUT_ENV = "FLET_SESSION_TIMEOUT"


@dataclass(frozen=True, slots=True)
class HostedApp:
    url: str
    """The address Chromium opens."""
    process: subprocess.Popen[bytes]


@contextmanager
def hosted_app(
    server: ScheduleServer,
    log_dir: Path,
    *,
    certificate: CertificatePair | None = None,
    session_grace_seconds: int | None = None,
    log_level: str | None = None,
    extra_arguments: Sequence[str] = (),
) -> Iterator[HostedApp]:
    """The hosted web view, stopped on the way out; ``extra_arguments`` end its command."""
    port = free_port()
    if certificate is not None:
        serving = [
            "--host",
            EVERY_INTERFACE,
            "--certfile",
            str(certificate.certfile),
            "--keyfile",
            str(certificate.keyfile),
        ]
        url = f"https://{LOOPBACK}:{port}/"
    else:
        url = f"http://{LOOPBACK}:{port}/"
        serving = ["--host", LOOPBACK, "--behind-proxy", "--public-url", url]
    argv = [*app_command(), "--web", "--port", str(port), *serving, "--server", server.url]
    argv += extra_arguments
    environment = {TOKEN_ENV: ""}
    if session_grace_seconds is not None:
        environment[SESSION_TIMEOUT_ENV] = str(session_grace_seconds)
    if log_level is not None:
        environment[LOG_LEVEL_ENV] = log_level
    with running_process(argv, log_dir, port=port, environment=environment) as process:
        yield HostedApp(url, process)


def sign_in(
    page: Page, member: Member, *, remember: bool = False, words: Words | None = None
) -> None:
    """Sign ``member`` in: fill in the token, tick Remember when asked, press Sign in.
    ``words`` name the form's controls in the page's language."""
    said = words or words_for(DEFAULT_LOCALE)
    page.get_by_role("textbox", name=said.gettext(TOKEN_FIELD)).fill(member.token)
    if remember:
        choice = page.get_by_role("checkbox", name=said.gettext(REMEMBER))
        choice.click()
        expect(choice).to_be_checked()
    button(page, said.gettext(SIGN_IN)).click()
