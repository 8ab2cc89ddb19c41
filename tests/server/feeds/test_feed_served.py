"""A feed from the real ``schedule-server serve``: its address is absolute under
``--public-url``, a calendar app fetches it with no token, and nothing the process
prints, for a good fetch or a wrong one, holds the secret."""

from __future__ import annotations

from pathlib import Path

import httpx

from devtools.served_process import TOKEN, served, write_principals
from server.identity import ALL_SCOPES

PUBLIC = "https://schedules.example.com"


def test_the_served_feed_is_absolute_fetched_without_a_token_and_never_printed(
    tmp_path: Path,
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    with served(
        f"sqlite:///{tmp_path / 'db.sqlite'}", principals, "--public-url", PUBLIC
    ) as server:
        with httpx.Client(base_url=server.base_url) as http:
            made = http.post(
                "/v1/feeds",
                json={"schedule_id": None},
                headers={"Authorization": f"Bearer {TOKEN}"},
            )
            assert made.status_code == 201, made.text
            url = made.json()["url"]
            assert url.startswith(f"{PUBLIC}/feeds/") and url.endswith(".ics")
            path = url.removeprefix(PUBLIC)
            secret = path.removeprefix("/feeds/").removesuffix(".ics")
            fetched = http.get(path)
            wrong = http.get(f"/feeds/{secret[::-1]}.ics")
        status, printed = server.sigterm()
    assert (fetched.status_code, wrong.status_code) == (200, 404)
    assert fetched.text.startswith("BEGIN:VCALENDAR")
    assert status == 0
    assert secret not in printed and secret not in server.banner
