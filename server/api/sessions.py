"""Session routes: the sidebar's history, transcripts, folders and the folder move."""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Response

from server.api.auth import Authenticator, scope_extra
from server.api.cursor import CursorCodec, instant_key, text_key
from server.api.openapi import (
    FOLDER_NOT_FOUND,
    MALFORMED,
    NOT_CHAT,
    SCOPE_MISSING,
    SESSION_NOT_FOUND,
    TOO_LARGE,
    answers,
)
from server.api.paging import DEFAULT_LIMIT, Cursor, Limit, Listing
from server.api.request_schemas import FolderMove
from server.api.responses import (
    Folder,
    FolderPage,
    Message,
    MessagePage,
    Session,
    SessionPage,
    answer,
)
from server.definitions.errors import FolderNotFound, SessionNotChat, SessionNotFound
from server.identity import Principal
from server.storage.ports import Store
from server.storage.records import FolderRecord, MessageRecord, SessionRecord


def session_routes(store: Store, auth: Authenticator, cursors: CursorCodec) -> APIRouter:
    router = APIRouter(tags=["sessions"])
    reader = Annotated[Principal, Depends(auth.require("session.read"))]
    writer = Annotated[Principal, Depends(auth.require("session.write"))]

    def owned_session(principal: Principal, session_id: UUID) -> SessionRecord:
        session = store.sessions.get(principal.owner, session_id)
        if session is None:
            raise SessionNotFound(str(session_id))
        return session

    @router.get(
        "/v1/sessions",
        operation_id="list_sessions",
        openapi_extra=scope_extra("session.read"),
        responses=answers(SessionPage, MALFORMED, SCOPE_MISSING),
    )
    def list_sessions(
        principal: reader, limit: Limit = DEFAULT_LIMIT, cursor: Cursor = None
    ) -> Response:
        """Most recent activity first; ``metadata.schedule_id`` marks scheduled sessions."""
        return _SESSIONS.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.sessions.page(principal.owner, after, count),
        )

    @router.get(
        "/v1/sessions/{session_id}/messages",
        operation_id="list_session_messages",
        openapi_extra=scope_extra("session.read"),
        responses=answers(MessagePage, MALFORMED, SCOPE_MISSING, SESSION_NOT_FOUND),
    )
    def list_messages(
        principal: reader,
        session_id: UUID,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response:
        """The transcript oldest first, without the firing's opening message (its instruction)."""
        owned_session(principal, session_id)
        return _MESSAGES.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.sessions.visible_messages(
                principal.owner, session_id, after, count
            ),
            str(session_id),
        )

    @router.get(
        "/v1/folders",
        operation_id="list_folders",
        openapi_extra=scope_extra("session.read"),
        responses=answers(FolderPage, MALFORMED, SCOPE_MISSING),
    )
    def list_folders(
        principal: reader, limit: Limit = DEFAULT_LIMIT, cursor: Cursor = None
    ) -> Response:
        return _FOLDERS.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.folders.page(principal.owner, after, count),
        )

    @router.post(
        "/v1/sessions/{session_id}/folder",
        operation_id="move_session",
        openapi_extra=scope_extra("session.write"),
        responses=answers(
            Session,
            MALFORMED,
            SCOPE_MISSING,
            SESSION_NOT_FOUND,
            FOLDER_NOT_FOUND,
            NOT_CHAT,
            TOO_LARGE,
        ),
    )
    def move_session(principal: writer, session_id: UUID, body: FolderMove) -> Response:
        """File a chat session; a session a schedule created is refused (session.not_chat)."""
        session = owned_session(principal, session_id)
        if "schedule_id" in session.metadata:
            raise SessionNotChat(str(session_id))
        if (
            body.folder_id is not None
            and store.folders.get(principal.owner, body.folder_id) is None
        ):
            raise FolderNotFound(str(body.folder_id))
        moved = store.sessions.move(principal.owner, session_id, body.folder_id)
        return answer(Session.of(moved))

    return router


def _session_position(record: SessionRecord) -> list[str]:
    return [record.last_activity_at.isoformat(), str(record.session_id)]


def _message_position(record: MessageRecord) -> list[str]:
    return [record.created_at.isoformat(), str(record.message_id)]


def _folder_position(record: FolderRecord) -> list[str]:
    return [record.name, str(record.folder_id)]


_SESSIONS = Listing("sessions", _session_position, instant_key, Session.of, SessionPage)
_MESSAGES = Listing("messages", _message_position, instant_key, Message.of, MessagePage)
_FOLDERS = Listing("folders", _folder_position, text_key, Folder.of, FolderPage)
