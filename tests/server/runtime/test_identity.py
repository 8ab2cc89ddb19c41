"""The principals file and token checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.identity import token_digest
from server.principals_file import PrincipalsFileError, load_principals

ENTRY = """
[[principal]]
id = "alice"
tenant = "acme"
display_name = "Alice Example"
token_sha256 = "{digest}"
scopes = {scopes}
enabled = {enabled}
"""


def write(path: Path, scopes: str = '["schedule.read"]', enabled: str = "true") -> Path:
    path.write_text(
        ENTRY.format(digest=token_digest("s3cret-token"), scopes=scopes, enabled=enabled)
    )
    return path


def test_token_authenticates_by_digest(tmp_path: Path) -> None:
    directory = load_principals(write(tmp_path / "p.toml"))
    principal = directory.authenticate("s3cret-token")
    assert principal is not None
    assert principal.principal_id == "alice"
    assert principal.scopes == {"schedule.read"}
    assert directory.authenticate("wrong") is None
    assert directory.authenticate(None) is None


def test_disabled_principal_cannot_authenticate(tmp_path: Path) -> None:
    directory = load_principals(write(tmp_path / "p.toml", enabled="false"))
    assert directory.authenticate("s3cret-token") is None
    current = directory.current("acme", "alice")
    assert current is not None and current.enabled is False
    assert directory.current("acme", "nobody") is None


def test_authority_version_changes_with_the_entry(tmp_path: Path) -> None:
    one = load_principals(write(tmp_path / "a.toml")).principals[0]
    same = load_principals(write(tmp_path / "b.toml")).principals[0]
    wider = load_principals(
        write(tmp_path / "c.toml", scopes='["schedule.read", "schedule.write"]')
    ).principals[0]
    assert one.authority_version == same.authority_version
    assert one.authority_version != wider.authority_version


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not = [valid", "not valid TOML"),
        ("", r"no \[\[principal\]\] entries"),
        ('[[principal]]\nid = "a"\ntenant = "t"\ntoken_sha256 = "abc"', "64 hexadecimal"),
        (
            '[[principal]]\nid = "a"\ntenant = "t"\n'
            f'token_sha256 = "{"0" * 64}"\nscopes = ["root"]',
            "unknown scope",
        ),
    ],
)
def test_invalid_files_are_one_sentence_errors(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(content)
    with pytest.raises(PrincipalsFileError, match=fragment):
        load_principals(path)
