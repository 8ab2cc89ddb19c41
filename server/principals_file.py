"""Reading the principals file (TOML), the stand-alone server's identity store.

Every problem becomes ``PrincipalsFileError`` with one sentence for people,
naming the entry but never echoing a digest.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from server.identity import ALL_SCOPES, Principal, TokenDirectory, make_principal

_DIGEST = re.compile(r"[0-9a-f]{64}")


class PrincipalsFileError(ValueError):
    """The principals file cannot be used."""


def load_principals(path: Path) -> TokenDirectory:
    """Parse ``path`` into a token directory; the first entry comes first."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise PrincipalsFileError(f"cannot read the principals file {str(path)!r}.") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise PrincipalsFileError(f"the principals file {str(path)!r} is not valid TOML.") from err
    entries = raw.get("principal")
    if not isinstance(entries, list) or not entries:
        raise PrincipalsFileError(
            f"the principals file {str(path)!r} has no [[principal]] entries."
        )
    parsed = [_entry(index, entry) for index, entry in enumerate(entries, start=1)]
    keys = [(p.tenant_id, p.principal_id) for _, p in parsed]
    if len(set(keys)) != len(keys):
        raise PrincipalsFileError("the principals file lists the same principal twice.")
    digests = [digest for digest, _ in parsed]
    if len(set(digests)) != len(digests):
        raise PrincipalsFileError("two principals in the principals file share one token.")
    return TokenDirectory(parsed)


def _entry(index: int, entry: Any) -> tuple[str, Principal]:
    if not isinstance(entry, dict):
        raise PrincipalsFileError(f"principal entry {index} is not a table.")
    principal_id = _text(entry, "id", index)
    tenant = _text(entry, "tenant", index)
    display_name = entry.get("display_name", principal_id)
    if not isinstance(display_name, str):
        raise PrincipalsFileError(f"principal entry {index} has a display_name that is not text.")
    digest = _text(entry, "token_sha256", index).lower()
    if not _DIGEST.fullmatch(digest):
        raise PrincipalsFileError(
            f"principal entry {index} needs token_sha256 as 64 hexadecimal digits."
        )
    scopes = entry.get("scopes", [])
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise PrincipalsFileError(f"principal entry {index} needs scopes as a list of text.")
    unknown = sorted(set(scopes) - ALL_SCOPES)
    if unknown:
        raise PrincipalsFileError(f"principal entry {index} names an unknown scope {unknown[0]!r}.")
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        raise PrincipalsFileError(f"principal entry {index} needs enabled as true or false.")
    principal = make_principal(
        principal_id=principal_id,
        tenant_id=tenant,
        display_name=display_name,
        scopes=scopes,
        enabled=enabled,
    )
    return digest, principal


def _text(entry: dict[str, Any], key: str, index: int) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PrincipalsFileError(f"principal entry {index} needs {key} as non-empty text.")
    return value
