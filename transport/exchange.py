"""One request cycle with the schedule server: send, retry, decode, map failures.

``Exchange`` owns the ``httpx.AsyncClient`` (redirects never followed: one
could carry the token to another host), the bearer token and the retry loop
of ``transport.retry``. A 2xx body is decoded as strict JSON (no NaN or
Infinity) and read into a wire model, or handed back as its bytes where a
route answers a calendar or no body (``raw``); any other answer becomes the
``transport.errors`` class ``error_for`` picks. Every failure is an
``ApiError`` chained to its cause; no httpx or pydantic exception escapes.
The token and request bodies never reach an error or a log line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random as random_module
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

import httpx
import pydantic
from pydantic_core import PydanticSerializationError, to_jsonable_python

from transport.errors import (
    ApiError,
    ConnectionFailed,
    ProtocolError,
    ServerRefused,
    TimedOut,
    error_for,
)
from transport.models import ErrorEnvelope, WireModel
from transport.retry import Outcome, delay_before_retry, parse_retry_after, should_retry

_log = logging.getLogger(__name__)

M = TypeVar("M", bound=WireModel)

_REDACTED = "[redacted]"


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _decode_json(content: bytes) -> Any:
    # NaN and Infinity are accepted by Python's json module but are not JSON.
    return json.loads(content, parse_constant=_reject_constant)


def _validation_summary(err: pydantic.ValidationError) -> str:
    problems = [
        f"{'.'.join(str(part) for part in item['loc']) or 'body'}: {item['type']}"
        for item in err.errors(include_url=False, include_input=False, include_context=False)
    ]
    shown = "; ".join(problems[:3])
    more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
    return shown + more


class Exchange:
    """Sends requests to one server; ``ScheduleClient`` names the routes."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None,
        transport: httpx.AsyncBaseTransport | None,
        timeout: float,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Callable[[], float] = random_module.random,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive seconds")
        self._token = token or None
        self._sleep = sleep
        self._random = random
        self._http = httpx.AsyncClient(
            base_url=base_url,
            transport=transport,
            timeout=httpx.Timeout(timeout),
            headers={"Accept": "application/json"},
            follow_redirects=False,
        )

    @property
    def base_url(self) -> str:
        return str(self._http.base_url)

    @property
    def authenticated(self) -> bool:
        return self._token is not None

    async def aclose(self) -> None:
        await self._http.aclose()

    def _headers(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        headers = dict(extra or {})
        if self._token is not None:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    async def call(
        self,
        method: str,
        path: str,
        *,
        params: Sequence[tuple[str, str]] = (),
        json_body: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        idempotent_create: bool = False,
        list_route: bool = False,
        raw: bool = False,
    ) -> Any:
        """Send until success or a final failure; answer the decoded JSON of a 2xx body.

        ``raw``: answer the 2xx body's bytes as they came (a calendar, or no body at all).
        """
        content = None if json_body is None else self._encode(json_body)
        request_headers = self._headers(headers)
        if content is not None:
            request_headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            attempt += 1
            failure: ApiError
            cause: BaseException | None = None
            if self._http.is_closed:
                # Closed while its owner's screens still had requests to make (a
                # sign-out): a failure like any other, never httpx's RuntimeError.
                raise ConnectionFailed(f"{ConnectionFailed.summary}: the client was closed")
            try:
                response = await self._http.request(
                    method, path, params=list(params), content=content, headers=request_headers
                )
            except httpx.TimeoutException as err:
                failure, cause, outcome = TimedOut(), err, Outcome(None)
            except httpx.TransportError as err:
                failure, cause, outcome = ConnectionFailed(), err, Outcome(None)
            except httpx.DecodingError as err:
                raise ProtocolError(f"{ProtocolError.summary}: undecodable content") from err
            except (httpx.HTTPError, httpx.InvalidURL) as err:
                raise ConnectionFailed() from err
            else:
                if response.is_success:
                    return response.content if raw else self._decode(response)
                retry_after = parse_retry_after(response.headers.get("Retry-After"))
                failure = self._refusal(response, list_route=list_route, retry_after=retry_after)
                outcome = Outcome(response.status_code, retry_after)
            if not should_retry(method, outcome, attempt, idempotent_create=idempotent_create):
                raise failure from cause
            delay = delay_before_retry(attempt, outcome, self._random())
            _log.info(
                "retrying %s %s in %.2f s after attempt %d (%s)",
                method,
                path,
                delay,
                attempt,
                outcome.status if outcome.status is not None else "no answer",
            )
            await self._sleep(delay)

    @staticmethod
    def _encode(body: Mapping[str, Any]) -> bytes:
        try:
            return json.dumps(to_jsonable_python(body), allow_nan=False).encode()
        except (PydanticSerializationError, ValueError) as err:
            raise TypeError("request body is not JSON-serialisable") from err

    @staticmethod
    def _decode(response: httpx.Response) -> Any:
        try:
            return _decode_json(response.content)
        except (ValueError, RecursionError) as err:
            raise ProtocolError(f"{ProtocolError.summary}: the body is not JSON") from err

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, _REDACTED) if self._token else text

    def _refusal(
        self, response: httpx.Response, *, list_route: bool, retry_after: float | None
    ) -> ServerRefused:
        code: str | None = None
        message: str | None = None
        details: Mapping[str, Any] | None = None
        try:
            envelope = ErrorEnvelope.model_validate(_decode_json(response.content))
        except (ValueError, RecursionError):
            # pydantic.ValidationError is a ValueError: any malformed envelope lands here,
            # and the refusal maps by status alone.
            pass
        else:
            code = envelope.error.code
            message = self._scrub(envelope.error.message)
            details = envelope.error.details
            if self._token and self._token in json.dumps(details, default=str):
                details = {}
        return error_for(
            response.status_code,
            code,
            message,
            details,
            list_route=list_route,
            retry_after=retry_after,
        )

    @staticmethod
    def read(model: type[M], body: Any) -> M:
        try:
            return model.model_validate(body)
        except pydantic.ValidationError as err:
            sentence = f"{ProtocolError.summary}: {_validation_summary(err)}"
            raise ProtocolError(sentence) from err
