"""The request bodies of docs/API.md as JSON Schema, for the published OpenAPI document.

Routes read definitions with ``server.definitions.checks`` (whose refusals
name a field and a reason); ``Definition`` describes the same rules so a
generated client gets them right, with the validator's own constants as
bounds. The small bodies (``ExpectedRevision``, ``FolderMove``) and the
``RevisionNumber`` field are also what routes validate with. The cadence
schemas serve the answers too (``server.api.responses``).
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from typing import Annotated, Literal
from uuid import UUID

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
)
from pydantic.config import JsonDict

from server.definitions.checks import (
    COUNT_CEILING,
    FAILURE_LIMIT_CEILING,
    MAX_INSTRUCTION,
    MAX_TITLE,
    MISFIRE_GRACE_CEILING,
    MONEY_PATTERN,
    POSITIVE_MONEY_PATTERN,
    RUN_TIMEOUT_CEILING,
)
from server.domain.json_values import whole_number
from server.identity import ALL_SCOPES

Scope = Annotated[str, Field(json_schema_extra={"enum": sorted(ALL_SCOPES)})]
NonBlank = r"\S"
LocalTime = Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$")]
ZoneName = Annotated[str, Field(min_length=1, description="An IANA time zone name.")]
Money = Annotated[str, Field(pattern=MONEY_PATTERN, description="A decimal amount, as text.")]
PositiveMoney = Annotated[
    str,
    Field(pattern=POSITIVE_MONEY_PATTERN, description="A decimal amount above zero, as text."),
]
Count = Annotated[int, Field(ge=1, le=COUNT_CEILING)]
Reserve = Annotated[int, Field(ge=0, le=COUNT_CEILING)]


class Open(BaseModel):
    """An object that may carry properties beyond the listed ones."""

    model_config = ConfigDict(extra="allow")


class Closed(BaseModel):
    """An object with exactly the listed properties (a cadence: unknown fields are refused)."""

    model_config = ConfigDict(extra="forbid")


class Once(Closed):
    kind: Literal["ONCE"]
    at: AwareDatetime


class Daily(Closed):
    kind: Literal["DAILY"]
    local_time: LocalTime
    timezone: ZoneName


class Weekly(Closed):
    kind: Literal["WEEKLY"]
    local_time: LocalTime
    weekdays: list[Annotated[int, Field(ge=1, le=7)]] = Field(
        min_length=1, max_length=7, json_schema_extra={"uniqueItems": True}
    )
    timezone: ZoneName


class Monthly(Closed):
    kind: Literal["MONTHLY"]
    local_time: LocalTime
    days_of_month: list[Annotated[int, Field(ge=1, le=31)]] = Field(
        default=[], max_length=31, json_schema_extra={"uniqueItems": True}
    )
    last_day: bool = False
    timezone: ZoneName


class MonthDay(Closed):
    month: int = Field(ge=1, le=12)
    day: int = Field(ge=1, le=31)


class Yearly(Closed):
    kind: Literal["YEARLY"]
    local_time: LocalTime
    dates: list[MonthDay] = Field(
        min_length=1, max_length=366, json_schema_extra={"uniqueItems": True}
    )
    timezone: ZoneName


# A Discriminator, not Field(discriminator=): it stays with the type where a field wraps it
# (server.api.responses sends stored cadences as stored).
Cadence = Annotated[Once | Daily | Weekly | Monthly | Yearly, Discriminator("kind")]


class Limits(Open):
    # The positive-money pattern looks ahead, which pydantic's default regex engine cannot.
    model_config = ConfigDict(extra="allow", regex_engine="python-re")

    max_steps: Count
    max_model_calls: Count
    max_tool_calls: Count
    max_cost: PositiveMoney
    reserve_steps: Reserve | None = None
    reserve_model_calls: Reserve | None = None
    reserve_cost: Money | None = None


DEFINITION_EXAMPLE: JsonDict = {
    "title": "Morning news digest",
    "instruction": "Summarize the overnight news in ten bullets.",
    "agent_id": "8a7f1c4e-1b2d-4c3e-9f00-0123456789ab",
    "agent_version": "2026.11.2",
    "policy_profile": "default",
    "requested_scopes": [],
    "browser_profile_id": None,
    "limits": {
        "max_steps": 20,
        "max_model_calls": 20,
        "max_tool_calls": 40,
        "max_cost": "5.00",
        "reserve_steps": 2,
        "reserve_model_calls": 2,
        "reserve_cost": "1.00",
    },
    "run_timeout_seconds": 300,
    "cadence": {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
    "misfire_grace_seconds": 3600,
    "max_consecutive_failures": 2,
}
"""A valid definition: the OpenAPI example, and the tests' starting point
(``devtools/api_bodies.py``)."""


class Definition(Open):
    """A schedule definition: a revision less the fields the server derives."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [DEFINITION_EXAMPLE]})

    title: str = Field(min_length=1, max_length=MAX_TITLE, pattern=NonBlank)
    instruction: str = Field(min_length=1, max_length=MAX_INSTRUCTION, pattern=NonBlank)
    agent_id: UUID
    agent_version: str = Field(min_length=1, max_length=100, pattern=NonBlank)
    policy_profile: str = Field(min_length=1, max_length=100, pattern=NonBlank)
    requested_scopes: list[Scope] = []
    browser_profile_id: UUID | None = None
    limits: Limits
    run_timeout_seconds: int = Field(ge=1, le=RUN_TIMEOUT_CEILING)
    cadence: Cadence
    misfire_grace_seconds: int = Field(ge=1, le=MISFIRE_GRACE_CEILING)
    max_consecutive_failures: int = Field(ge=1, le=FAILURE_LIMIT_CEILING)


MAX_REVISION = 2_147_483_647


def _whole(value: object) -> int:
    number = whole_number(value)
    if number is None:
        raise ValueError("an integer is expected")
    return number


RevisionNumber = Annotated[int, Field(ge=1, le=MAX_REVISION), BeforeValidator(_whole)]
"""A revision a request names: an integral JSON number (2480.0 is 2480), never text or a boolean."""


class ExpectedRevision(BaseModel):
    """Body of pause and resume."""

    model_config = ConfigDict(extra="allow")
    expected_revision: RevisionNumber


class FullUpdate(BaseModel):
    """Body of the full-definition update."""

    model_config = ConfigDict(extra="allow")
    expected_revision: RevisionNumber
    definition: Definition


class FolderMove(BaseModel):
    """Body of the folder move; null takes the session out of its folder."""

    model_config = ConfigDict(extra="allow")
    folder_id: UUID | None
