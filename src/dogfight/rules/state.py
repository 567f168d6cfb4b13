"""Game state: the one mutable thing, copied cheaply before every change so that the
resolver never alters the state it was given."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules.context import Rules
from dogfight.rules.plans import Flown, Plan


@dataclass(slots=True)
class Vehicle:
    """One airplane on (or off) the table."""

    id: str
    type: str
    side: str
    pose: Pose
    resistance: int
    damage: int = 0
    held: list[tuple[str, str]] = field(default_factory=list)
    """(deck, card id) of damage cards it holds that are not yet back in their deck."""
    eliminated: str | None = None
    """None while in play, else the reason (shot_down, exploded, out_of_control, left_area)."""
    previous: Flown | None = None
    """The last maneuver flown (carries the end-of-turn reminders across turns)."""
    jams: dict[str, int] = field(default_factory=dict)
    aim: dict[str, tuple[str, int]] = field(default_factory=dict)
    """weapon -> (target, global phase number) of its last shot."""
    rockets: int = 0
    plan: Plan | None = None

    @property
    def in_play(self) -> bool:
        return self.eliminated is None

    def copy(self) -> Vehicle:
        return replace(self, held=list(self.held), jams=dict(self.jams), aim=dict(self.aim))


@dataclass(slots=True)
class GameState:
    """Where a game stands between two steps.

    ``phase`` is 0 while plans are awaited, then 1..3 for the last resolved action phase.
    ``piles`` are the damage decks' draw piles, the next card last (so drawing pops).
    """

    rules: Rules
    vehicles: dict[str, Vehicle]
    piles: dict[str, list[str]]
    turn: int = 1
    phase: int = 0
    phases_played: int = 0
    winner: str | None = None
    over: bool = False

    def copy(self) -> GameState:
        return replace(
            self,
            vehicles={k: v.copy() for k, v in self.vehicles.items()},
            piles={k: list(v) for k, v in self.piles.items()},
        )

    def base(self, vehicle: Vehicle) -> Polygon:
        return rectangle(vehicle.pose, self.rules.base_length, self.rules.base_width)

    def in_play(self) -> list[Vehicle]:
        return [v for v in self.vehicles.values() if v.in_play]

    def sides(self) -> list[str]:
        return sorted({v.side for v in self.vehicles.values()})

    def awaiting_plans(self) -> bool:
        return not self.over and self.phase == 0
