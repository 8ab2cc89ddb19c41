"""Which agent runtime carries out runs: ``--executor`` and ``--executor-secret-file``.

Three answers, chosen at start-up:

- none given: ``EmbeddedExecutor``, the honest "no agent runtime is attached";
- a URL: ``HttpExecutor`` speaking the executor protocol to it, signing with
  the secret file's bytes (surrounding whitespace, such as the newline an
  editor adds, is not part of the key). Plain ``http://`` is accepted for a
  runtime on this machine only: the body carries the instruction;
- a name: the in-process runtime installed under that name in the
  ``schedule_browser.executors`` entry-point group. The entry point is a
  callable (a class, say) that takes no arguments and returns an object with
  ``async def execute(run: ClaimedRun) -> RunResult``.

``attached_runtime`` checks the flags and reads the secret before anything
starts, raising ``RuntimeChoiceError`` with one sentence in the ``words`` it is
given; ``executor_for`` builds the executor on the loop that will run it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from gettext import NullTranslations
from importlib.metadata import entry_points
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from loopback import is_loopback_host
from server.worker.embedded_executor import EmbeddedExecutor
from server.worker.executor import RunExecutor

__all__ = [
    "ENTRY_POINT_GROUP",
    "MIN_SECRET_BYTES",
    "RuntimeAtUrl",
    "RuntimeChoiceError",
    "RuntimeInProcess",
    "attached_runtime",
    "executor_for",
]

ENTRY_POINT_GROUP: Final = "schedule_browser.executors"
MIN_SECRET_BYTES: Final = 32
ENGLISH: Final = NullTranslations()


class RuntimeChoiceError(ValueError):
    """The executor flags cannot work; the message is one sentence for people."""


@dataclass(frozen=True, slots=True)
class RuntimeAtUrl:
    """An agent runtime reached over HTTP(S) at ``url``, sharing ``secret``."""

    url: str
    secret: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class RuntimeInProcess:
    """An agent runtime installed in this Python under ``name`` (the entry-point group)."""

    name: str


AttachedRuntime = RuntimeAtUrl | RuntimeInProcess


def attached_runtime(
    target: str | None, secret_file: Path | None, words: NullTranslations = ENGLISH
) -> AttachedRuntime | None:
    """The runtime ``--executor target`` names, checked; None when no runtime is attached."""
    _ = words.gettext
    if target is None:
        if secret_file is not None:
            raise RuntimeChoiceError(_("--executor-secret-file needs --executor URL."))
        return None
    if "://" not in target:
        if secret_file is not None:
            raise RuntimeChoiceError(
                _(
                    "--executor-secret-file applies to a runtime reached by URL, not to the"
                    " in-process runtime {name}."
                ).format(name=repr(target))
            )
        _entry_point(target, words)
        return RuntimeInProcess(target)
    url = _checked_url(target, words)
    if secret_file is None:
        raise RuntimeChoiceError(
            _(
                "--executor URL needs --executor-secret-file with the secret the runtime"
                " checks signatures with."
            )
        )
    return RuntimeAtUrl(url, _secret(secret_file, words))


def executor_for(runtime: AttachedRuntime | None, clock: Callable[[], datetime]) -> RunExecutor:
    """The executor for ``runtime`` (``EmbeddedExecutor`` when none is attached)."""
    if runtime is None:
        return EmbeddedExecutor()
    if isinstance(runtime, RuntimeAtUrl):
        from server.worker.http_executor import HttpExecutor

        return HttpExecutor(runtime.url, runtime.secret, clock)
    made: RunExecutor = _entry_point(runtime.name)()
    return made


def _entry_point(name: str, words: NullTranslations = ENGLISH) -> Callable[[], RunExecutor]:
    _ = words.gettext
    found = entry_points(group=ENTRY_POINT_GROUP)
    chosen = [point for point in found if point.name == name]
    if not chosen:
        installed = ", ".join(sorted({point.name for point in found})) or _("none")
        raise RuntimeChoiceError(
            _(
                "no agent runtime named {name} is installed in the {group} entry-point group"
                " (installed: {installed}); give a URL or an installed name."
            ).format(name=repr(name), group=ENTRY_POINT_GROUP, installed=installed)
        )
    try:
        factory = chosen[0].load()
    except Exception as err:
        raise RuntimeChoiceError(
            _("the agent runtime {name} could not be loaded ({error}).").format(
                name=repr(name), error=type(err).__name__
            )
        ) from err
    if not callable(factory):
        raise RuntimeChoiceError(
            _("the agent runtime {name} is not a callable that makes one.").format(name=repr(name))
        )
    made: Callable[[], RunExecutor] = factory
    return made


def _checked_url(text: str, words: NullTranslations) -> str:
    _ = words.gettext
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuntimeChoiceError(
            _("--executor {url} is not an http:// or https:// URL.").format(url=repr(text))
        )
    if parts.username or parts.password:
        raise RuntimeChoiceError(
            _("--executor URL must not hold credentials; the secret file signs each request.")
        )
    if parts.scheme == "http" and not is_loopback_host(parts.hostname):
        raise RuntimeChoiceError(
            _(
                "--executor {url} must use https://: plain http:// is accepted only for a"
                " runtime on this machine, since each request carries an instruction."
            ).format(url=repr(text))
        )
    return text


def _secret(path: Path, words: NullTranslations) -> bytes:
    _ = words.gettext
    try:
        secret = path.read_bytes().strip()
    except OSError as err:
        raise RuntimeChoiceError(
            _("cannot read the executor secret file {path} ({reason}).").format(
                path=path, reason=err.strerror or err
            )
        ) from err
    if len(secret) < MIN_SECRET_BYTES:
        raise RuntimeChoiceError(
            _(
                "the executor secret file {path} holds fewer than {count} bytes;"
                " fill it with random ones (head -c 32 /dev/urandom | base64)."
            ).format(path=path, count=MIN_SECRET_BYTES)
        )
    return secret
