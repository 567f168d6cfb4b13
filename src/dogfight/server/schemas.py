"""Request bodies, validated with pydantic: unknown fields are refused so a typo is a
clear 4xx rather than a silent default."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dogfight.rules.plans import Id
from dogfight.situation.format import MAX_VEHICLES


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class SeatSpec(Strict):
    """An explicit seat: a label, the vehicles it plays, optionally a computer player."""

    label: str = Field(min_length=1, max_length=60)
    vehicles: list[Id] = Field(min_length=1, max_length=MAX_VEHICLES)
    bot: Id | None = None


class CreateGame(Strict):
    """A new game: a ``preset`` (``duel`` or a scenario id, see ``/api/catalog``) or a
    ``situation`` (docs/situations.md, without plans), and how the seats are made."""

    title: str | None = Field(default=None, max_length=200)
    preset: Id | None = None
    situation: dict[str, Any] | None = None
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**32 - 1,
        description="the damage decks' seed: only for an open analysis game ('analysis')",
    )
    analysis: bool = Field(
        default=False,
        description="an open analysis game: the creator may choose the seed, which is then "
        "public (shown on the page): anyone can predict the damage cards",
    )
    seating: Literal["side", "vehicle"] = Field(
        default="side", description="a seat per side or per vehicle (when no 'seats')"
    )
    seats: list[SeatSpec] | None = Field(default=None, max_length=MAX_VEHICLES)
    computer: dict[Annotated[str, Field(max_length=60)], Id] = Field(
        default_factory=dict,
        max_length=MAX_VEHICLES,
        description="seat label (side name or vehicle id) -> computer player name",
    )
    clock: Literal[0, 24, 48] = Field(
        default=0,
        description="the turn clock in hours (0: none): a seat that has not planned when "
        "it runs out is handed to a computer player (it may take its seat back)",
    )
    watch_delay: Literal[0, 1] = Field(
        default=0,
        description="spectators (the watch link) see the game live (0) or one turn behind "
        "(1: the steps of turn N once turn N+1 is resolved, or the game over)",
    )


class SubmitPlans(Strict):
    turn: int = Field(ge=1, le=1_000_000)
    phase: int = Field(
        default=0,
        ge=0,
        le=3,
        description="0: the turn's planning; 2 or 3: a WW2 Earthling turn planned before that "
        "action phase (001)",
    )
    plans: dict[Id, dict[str, Any]] = Field(
        max_length=MAX_VEHICLES, description="vehicle id -> plan"
    )


class CheckPlans(Strict):
    plans: dict[Id, dict[str, Any]] = Field(
        max_length=MAX_VEHICLES, description="vehicle id -> draft plan"
    )


class SubmitTargets(Strict):
    turn: int = Field(ge=1, le=1_000_000)
    phase: int = Field(ge=1, le=3)
    fire: dict[Id, dict[Id, Id]] = Field(
        max_length=MAX_VEHICLES, description="vehicle -> weapon -> target"
    )


class SubmitDecisions(Strict):
    turn: int = Field(ge=1)
    phase: int = Field(ge=1, le=3)
    answers: dict[str, list[str]] = Field(
        description="decision id -> answer (a reorder: the cards in their new order)"
    )


class Settings(Strict):
    auto_fire: bool


class Computer(Strict):
    bot: Id | None = Field(description="a computer player's name; null: back to a person")


class Hello(Strict):
    """A WebSocket's first message: the seat, its token, the steps the page has."""

    seat: str = Field(max_length=40)
    token: str | None = Field(default=None, max_length=200)
    since: int = Field(default=0, ge=0, le=1_000_000)


class ErrorBody(BaseModel):
    """Every refusal: what is wrong and the field at fault (null: the request as a whole)."""

    error: str
    field: str | None


def _refusal(why: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": why}


REFUSALS: dict[int | str, dict[str, Any]] = {
    400: _refusal("the body is not JSON, or the Host header is not this server's"),
    403: _refusal("the seat's token is missing or wrong"),
    404: _refusal("no such game or seat"),
    409: _refusal("not now: wrong turn, already submitted, game over, or the game failed"),
    413: _refusal("the body is larger than the server accepts"),
    422: _refusal("invalid: the field at fault, and the rule for an illegal plan"),
    429: _refusal("too many new games from this address this minute"),
}
"""The statuses every API route may answer besides its success (in the OpenAPI schema)."""
