"""A throwaway certificate and key for serving HTTPS, made by Debian's openssl.

The certificate names ``localhost`` and 127.0.0.1, so a client told to trust
it (``verify=`` the certificate file) checks the connection as it would a
real one; it is valid for two days and lives in the caller's own folder.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class CertificatePair:
    certfile: Path
    keyfile: Path


def self_signed(folder: Path, *, passphrase: str | None = None) -> CertificatePair:
    """A self-signed certificate and its key (encrypted with ``passphrase`` when given)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("openssl is missing: Debian's openssl package makes the certificates")
    folder.mkdir(parents=True, exist_ok=True)
    pair = CertificatePair(folder / "cert.pem", folder / "key.pem")
    key_options = ["-passout", f"pass:{passphrase}"] if passphrase else ["-nodes"]
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            *key_options,
            "-keyout",
            str(pair.keyfile),
            "-out",
            str(pair.certfile),
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return pair
