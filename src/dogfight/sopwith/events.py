"""What happens in a Sopwith turn, as typed events (frozen dataclasses).

The turn resolver (:mod:`dogfight.sopwith.game`) returns them in the order things happen;
the reports (:mod:`dogfight.sopwith.report`) and the maps are written from them alone.
``move`` is 1, 2 or 3 (0 for what happens at the end of the turn); hexes are axial
coordinates (:class:`~dogfight.sopwith.hexes.Hex`), facings 0-5 clockwise from north.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from dogfight.sopwith.hexes import Hex
from dogfight.sopwith.model import Line, Manoeuvre, Strip


def _plain(value: object) -> object:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, Event | Hit):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Manoeuvre | Line | Strip):
        return value.value
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of events."""

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    turn: int


@dataclass(frozen=True, slots=True)
class OrdersMissing(Event):
    """004's NMR: no orders received. ``flying`` says whether the NMR rule applied."""

    kind: ClassVar[str] = "orders_missing"
    turn: int
    plane: str
    flying: bool


@dataclass(frozen=True, slots=True)
class ManoeuvreChanged(Event):
    """A written manoeuvre flown as another, and why (the rule that says so)."""

    kind: ClassVar[str] = "manoeuvre_changed"
    turn: int
    move: int
    plane: str
    written: Manoeuvre
    flown: Manoeuvre
    reason: str


@dataclass(frozen=True, slots=True)
class TookOff(Event):
    kind: ClassVar[str] = "took_off"
    turn: int
    plane: str
    airfield: str
    strip: Strip
    declared: bool
    """False when the strip is the default (004: "will take off on the BETA airstrip")."""


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    turn: int
    move: int
    plane: str
    manoeuvre: Manoeuvre
    start: Hex
    end: Hex
    facing: int


@dataclass(frozen=True, slots=True)
class Crashed(Event):
    """Off the board or into a cloud; ``strength`` is what the plane had left."""

    kind: ClassVar[str] = "crashed"
    turn: int
    move: int
    plane: str
    reason: str
    hex: Hex
    strength: int


@dataclass(frozen=True, slots=True)
class CloudDamage(Event):
    """``cloud_entry = "damage"``: a move ended inside a cloud."""

    kind: ClassVar[str] = "cloud_damage"
    turn: int
    move: int
    plane: str
    damage: int
    strength: int


@dataclass(frozen=True, slots=True)
class PointsShared(Event):
    """004: a crashed plane's "damage points he has left will be shared out amongst the
    players still in the game ... rounded down"."""

    kind: ClassVar[str] = "points_shared"
    turn: int
    move: int
    crashed: str
    points: int
    each: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Landed(Event):
    kind: ClassVar[str] = "landed"
    turn: int
    move: int
    plane: str
    airfield: str
    strip: Strip
    reloaded: bool


@dataclass(frozen=True, slots=True)
class LandingRefused(Event):
    """The plane flew Ahead along a strip but may not land there, or declared a landing
    and did not make one."""

    kind: ClassVar[str] = "landing_refused"
    turn: int
    move: int
    plane: str
    reason: str


@dataclass(frozen=True, slots=True)
class Hit(Event):
    kind: ClassVar[str] = "hit"
    target: str
    distance: int
    damage: int


@dataclass(frozen=True, slots=True)
class Fired(Event):
    """One burst along one line; ``blocked`` is the cloud hex that stopped it, if any."""

    kind: ClassVar[str] = "fired"
    turn: int
    move: int
    plane: str
    line: Line
    hits: tuple[Hit, ...]
    blocked: Hex | None


@dataclass(frozen=True, slots=True)
class BurstNotFired(Event):
    """A burst ordered but not fired (``line`` None for a bare "FIRE" with none left)."""

    kind: ClassVar[str] = "burst_not_fired"
    turn: int
    move: int
    plane: str
    line: Line | None
    reason: str


@dataclass(frozen=True, slots=True)
class ShotDown(Event):
    kind: ClassVar[str] = "shot_down"
    turn: int
    move: int
    plane: str
    by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Repaired(Event):
    kind: ClassVar[str] = "repaired"
    turn: int
    plane: str
    points: int
    strength: int


@dataclass(frozen=True, slots=True)
class AceGained(Event):
    kind: ClassVar[str] = "ace_gained"
    turn: int
    plane: str
    score: int


@dataclass(frozen=True, slots=True)
class AceLost(Event):
    kind: ClassVar[str] = "ace_lost"
    turn: int
    plane: str
    score: int


@dataclass(frozen=True, slots=True)
class CloudMoved(Event):
    """``direction`` None: the cloud stayed where it was."""

    kind: ClassVar[str] = "cloud_moved"
    turn: int
    cloud: int
    direction: int | None
    hexes: tuple[Hex, ...]
    entered: bool
    """True when the Games Master entered the move, False when it was drawn at random."""


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    turn: int
    winner: str | None
    bonus: int


def as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]
