"""Folders over SQL."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import Engine, RowMapping, insert, select, tuple_

from server.storage.records import FolderRecord, Owner
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
        query = select(folders).where(
            folders.c.id == folder_id,
            folders.c.tenant_id == owner.tenant_id,
            folders.c.principal_id == owner.principal_id,
        )
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else _folder(row)

    def page(self, owner: Owner, after: tuple[str, UUID] | None, limit: int) -> list[FolderRecord]:
        c = folders.c
        query = (
            select(folders)
            .where(c.tenant_id == owner.tenant_id, c.principal_id == owner.principal_id)
            .order_by(c.name, c.id)
            .limit(limit)
        )
        if after is not None:
            query = query.where(tuple_(c.name, c.id) > after)
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_folder(row) for row in rows]
