"""Request bodies, validated with pydantic: unknown fields are refused so a typo is a
clear 4xx rather than a silent default."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    """An explicit seat: a label, the vehicles it plays, optionally a computer player."""

    label: str = Field(min_length=1, max_length=60)
    vehicles: list[str] = Field(min_length=1)
    bot: str | None = None


class CreateGame(Strict):
    """A new game: a ``preset`` (``duel`` or a scenario id, see ``/api/catalog``) or a
    ``situation`` (docs/situations.md, without plans), and how the seats are made."""

    title: str | None = Field(default=None, max_length=200)
    preset: str | None = None
    situation: dict[str, Any] | None = None
    seed: int | None = Field(default=None, ge=0, le=2**32 - 1)
    seating: Literal["side", "vehicle"] = Field(
        default="side", description="a seat per side or per vehicle (when no 'seats')"
    )
    seats: list[SeatSpec] | None = None
    computer: dict[str, str] = Field(
        default_factory=dict,
        description="seat label (side name or vehicle id) -> computer player name",
    )


class SubmitPlans(Strict):
    turn: int = Field(ge=1)
    plans: dict[str, dict[str, Any]] = Field(description="vehicle id -> plan")


class CheckPlans(Strict):
    plans: dict[str, dict[str, Any]] = Field(description="vehicle id -> draft plan")


class SubmitTargets(Strict):
    turn: int = Field(ge=1)
    phase: int = Field(ge=1, le=3)
    fire: dict[str, dict[str, str]] = Field(description="vehicle -> weapon -> target")


class SubmitDecisions(Strict):
    turn: int = Field(ge=1)
    phase: int = Field(ge=1, le=3)
    answers: dict[str, list[str]] = Field(
        description="decision id -> answer (a reorder: the cards in their new order)"
    )


class Settings(Strict):
    auto_fire: bool


class Computer(Strict):
    bot: str | None = Field(description="a computer player's name; null: back to a person")
