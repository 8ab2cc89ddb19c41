"""The lock files in requirements/ pin what pyproject.toml asks for, with hashes.

scripts/setup installs only from them (``--require-hashes``), so a dependency
added to or narrowed in pyproject.toml without running scripts/lock would
leave every fresh install on a version the project no longer accepts, or
without the package at all. Each lock must name every requirement of its
extras at a version inside the declared range, each pin with a hash.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {"app": (), "postgres": ("postgres",), "test": ("test", "bench")}
_PIN = re.compile(
    r"^([A-Za-z0-9][\w.-]*)==([^\s;]+)(?: ;[^\\\n]*)? \\\n\s+--hash=sha256:[0-9a-f]{64}", re.M
)
_ANY_PIN = re.compile(r"^[A-Za-z0-9][\w.-]*==", re.M)


def locked(name: str) -> dict[str, str]:
    """``requirements/<name>.txt`` as canonical name -> pinned version, hashes checked."""
    text = (ROOT / "requirements" / f"{name}.txt").read_text()
    pins = {canonicalize_name(m[1]): m[2] for m in _PIN.finditer(text)}
    assert len(pins) == len(_ANY_PIN.findall(text)), f"{name}.txt: a pin without a sha256 hash"
    return pins


def required(extras: tuple[str, ...]) -> list[Requirement]:
    """The requirements of the project with ``extras``, its own extras unfolded."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    own = canonicalize_name(project["name"])
    wanted, seen = list(project["dependencies"]), set()
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    requirements = []
    while wanted:
        requirement = Requirement(wanted.pop())
        if canonicalize_name(requirement.name) == own:
            for extra in requirement.extras - seen:
                seen.add(extra)
                wanted += project["optional-dependencies"][extra]
        else:
            requirements.append(requirement)
    return requirements


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_a_lock_pins_every_requirement_inside_its_range(lock: str) -> None:
    pins = locked(lock)
    here = default_environment()
    for requirement in required(LOCKS[lock]):
        if requirement.marker is not None and not requirement.marker.evaluate(here):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock}.txt lacks {name}: run scripts/lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock}.txt pins {name}=={pins[name]} outside {requirement.specifier}: "
            "run scripts/lock"
        )


def test_setup_installs_only_hashed_locked_packages() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "--require-hashes" in setup
    assert "--no-deps" in setup, "the checkout itself must not resolve its dependencies anew"
