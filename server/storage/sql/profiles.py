"""Browser profiles (website sign-ins) over SQL; origins only, never credentials."""

from __future__ import annotations

import json
from uuid import UUID

from sqlalchemy import Engine, RowMapping, insert, select

from server.storage.records import Owner, ProfileRecord
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.tables import browser_profiles


def _profile(row: RowMapping) -> ProfileRecord:
    origins = json.loads(row["allowed_origins"])
    return ProfileRecord(
        profile_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        display_name=row["display_name"],
        state=row["state"],
        allowed_origins=tuple(str(origin) for origin in origins),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class SqlProfileRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(self, profile: ProfileRecord) -> None:
        with self._engine.begin() as connection:
            connection.execute(
                insert(browser_profiles),
                {
                    "id": profile.profile_id,
                    "tenant_id": profile.owner.tenant_id,
                    "principal_id": profile.owner.principal_id,
                    "display_name": profile.display_name,
                    "state": profile.state,
                    "allowed_origins": json.dumps(list(profile.allowed_origins)),
                    "created_at": profile.created_at,
                    "updated_at": profile.updated_at,
                },
            )

    def get(self, owner: Owner, profile_id: UUID) -> ProfileRecord | None:
        query = select(browser_profiles).where(
            browser_profiles.c.id == profile_id, owned_by(browser_profiles, owner)
        )
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else _profile(row)

    def page(self, owner: Owner, after: tuple[str, UUID] | None, limit: int) -> list[ProfileRecord]:
        query = keyset_page(
            select(browser_profiles).where(owned_by(browser_profiles, owner)),
            browser_profiles.c.display_name,
            browser_profiles.c.id,
            after,
            limit,
            newest_first=False,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_profile(row) for row in rows]
