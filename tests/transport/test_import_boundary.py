"""View models import models, errors and paging; those must not pull in httpx."""

from __future__ import annotations

import subprocess
import sys


def test_models_errors_and_paging_do_not_import_httpx() -> None:
    probe = (
        "import sys, transport.models, transport.errors, transport.paging; "
        "print('httpx' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"
