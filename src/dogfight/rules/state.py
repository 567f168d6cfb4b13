"""Game state: the one mutable thing, copied cheaply before every change so that the
resolver never alters the state it was given."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dogfight.catalog.models import Scenario
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules.context import Rules
from dogfight.rules.plans import Flown, Plan


@dataclass(slots=True)
class TripodState:
    """What a tripod's console holds besides damage (000)."""

    energy: int
    rating: int
    """The Energy rating (batteries damage lowers it)."""
    toppled: int = 0
    """Reminder tokens in the "toppled" box: 2 when it topples, 0 when standing."""
    cooling: int = 0
    """Heat-ray recovery tokens."""
    smoke_recovery: int = 0
    """Black smoke generator recovery tokens."""
    reverse_pending: bool = False
    """The last card was a reverse: the next movement card is applied backwards."""
    movement_cards: int = 0
    """Movement cards revealed this turn with no stationary or running card before them."""
    steadied: bool = False
    """A stationary or running card was revealed this turn."""
    human: bool = False
    """Piloted by a human (001, Tripods vs. Tripods: the Earth side's captured tripods)."""

    def copy(self) -> TripodState:
        return TripodState(
            self.energy,
            self.rating,
            self.toppled,
            self.cooling,
            self.smoke_recovery,
            self.reverse_pending,
            self.movement_cards,
            self.steadied,
            self.human,
        )


@dataclass(slots=True)
class Objective:
    """An objective token: a round token on the ground (000's scenarios)."""

    id: str
    x: float
    y: float
    charges: int = 1
    """Recharges it can still give (a charge-exhausted marker when 0)."""
    destroyed: bool = False
    drained: bool = False
    """A tripod has recharged from it."""


@dataclass(frozen=True, slots=True)
class Cloud:
    """A Black Smoke cloud template on the table."""

    id: str
    x: float
    y: float
    radius: float


@dataclass(frozen=True, slots=True)
class Salvo:
    """Rockets in flight: launched at ``phase_number`` (the game's count of phases)."""

    firer: str
    target: str
    count: int
    phase_number: int


@dataclass(frozen=True, slots=True)
class BombCard:
    """001's bomb card: the bombs ``bomber`` dropped this phase, ``loads`` of them, laid in
    front of it after movement (``pose``: the card's centre, its dot, and heading)."""

    id: str
    bomber: str
    side: str
    loads: int
    pose: Pose
    destroyed: bool = False


@dataclass(slots=True)
class Vehicle:
    """One airplane or tripod on (or off) the table."""

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
    kind: str = "airplane"
    tripod: TripodState | None = None
    status: dict[str, int] = field(default_factory=dict)
    """Lasting special damage (Standard Rules), see ``rules/standard.py``."""
    skills: tuple[str, ...] = ()
    skill_used: dict[str, int] = field(default_factory=dict)
    """skill -> the game's phase number when it was last used."""
    exit_edge: str | None = None
    """The table edge it left by (north, south, east, west)."""
    bombs: int = 0
    """Bomb loads still carried (001, Bombing Tripods)."""
    bomber: bool = False
    """It carried bombs when the game began (001: "if you include bombers")."""

    @property
    def in_play(self) -> bool:
        return self.eliminated is None

    def copy(self) -> Vehicle:
        """An independent copy: its lists and dicts and its tripod console are copied,
        immutable values (pose, plan, tuples) shared. Every field is passed by position,
        five times faster than ``dataclasses.replace``; a new field must be added here
        (``tests/test_rules_state.py`` fails until it is)."""
        return Vehicle(
            self.id,
            self.type,
            self.side,
            self.pose,
            self.resistance,
            self.damage,
            self.held.copy(),
            self.eliminated,
            self.previous,
            self.jams.copy(),
            self.aim.copy(),
            self.rockets,
            self.plan,
            self.kind,
            None if self.tripod is None else self.tripod.copy(),
            self.status.copy(),
            self.skills,
            self.skill_used.copy(),
            self.exit_edge,
            self.bombs,
            self.bomber,
        )


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
    objectives: dict[str, Objective] = field(default_factory=dict)
    salvos: list[Salvo] = field(default_factory=list)
    clouds: list[Cloud] = field(default_factory=list)
    clouds_placed: int = 0
    scenario: Scenario | None = None
    reserves: dict[str, Vehicle] = field(default_factory=dict)
    """Reinforcements not on the table yet, with the pose their player asked for."""
    phase_cards: dict[str, str] = field(default_factory=dict)
    """The phase being resolved: automated tripods' cards (001)."""
    bomb_cards: list[BombCard] = field(default_factory=list)
    """The phase being resolved: bomb cards falling (001), removed once they land."""
    tailing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """002's tailing this turn: tailing plane -> the planes it tails (the positions that
    existed at the start of the turn, and still hold)."""

    def copy(self) -> GameState:
        """An independent copy for the resolver to change (vehicles copied by
        :meth:`Vehicle.copy`, piles, objectives and lists copied)."""
        return replace(
            self,
            vehicles={k: v.copy() for k, v in self.vehicles.items()},
            piles={k: list(v) for k, v in self.piles.items()},
            objectives={k: replace(o) for k, o in self.objectives.items()},
            salvos=list(self.salvos),
            clouds=list(self.clouds),
            bomb_cards=list(self.bomb_cards),
            reserves={k: v.copy() for k, v in self.reserves.items()},
            tailing=dict(self.tailing),
            phase_cards=dict(self.phase_cards),
        )

    def bomb_card(self, card: BombCard) -> Polygon:
        """The bomb card's outline (constants ``[tripods.bomb_card]``)."""
        spec = self.rules.catalog.constants.tripods.bomb_card
        return rectangle(card.pose, spec.length, spec.width)

    def base(self, vehicle: Vehicle) -> Polygon:
        if vehicle.kind == "tripod":
            return hexagon(vehicle.pose, self.rules.hex_side)
        return rectangle(vehicle.pose, self.rules.base_length, self.rules.base_width)

    def in_play(self) -> list[Vehicle]:
        return [v for v in self.vehicles.values() if v.in_play]

    def sides(self) -> list[str]:
        return sorted({v.side for v in self.vehicles.values()})

    def awaiting_plans(self) -> bool:
        return not self.over and self.phase == 0
