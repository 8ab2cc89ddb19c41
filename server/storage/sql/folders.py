"""Folders over SQL."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import Engine, RowMapping, insert, select

from server.storage.records import FolderRecord, Owner
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.tables import folders


def _folder(row: RowMapping) -> FolderRecord:
    return FolderRecord(
        folder_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        name=row["name"],
        created_at=row["created_at"],
    )


class SqlFolderRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(self, folder: FolderRecord) -> None:
        with self._engine.begin() as connection:
            connection.execute(
                insert(folders),
                {
                    "id": folder.folder_id,
                    "tenant_id": folder.owner.tenant_id,
                    "principal_id": folder.owner.principal_id,
                    "name": folder.name,
                    "created_at": folder.created_at,
                },
            )

    def get(self, owner: Owner, folder_id: UUID) -> FolderRecord | None:
        query = select(folders).where(folders.c.id == folder_id, owned_by(folders, owner))
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else _folder(row)

    def page(self, owner: Owner, after: tuple[str, UUID] | None, limit: int) -> list[FolderRecord]:
        query = keyset_page(
            select(folders).where(owned_by(folders, owner)),
            folders.c.name,
            folders.c.id,
            after,
            limit,
            newest_first=False,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_folder(row) for row in rows]
