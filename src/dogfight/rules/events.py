"""Typed events: everything that changes in a game is one of these.

Each event knows who may see it. Public events are seen whole by every seat. Secret
events (damage drawn) are seen whole only by the seat controlling ``secret_for``; other
seats get :meth:`Event.redacted` (what a player across the table would see), or nothing.
Events serialise to JSON objects with a ``kind`` field; floats are rounded to 1e-4 cm so
transcripts are stable and readable.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from dogfight.geometry.pose import Pose


def _plain(value: object) -> object:
    if isinstance(value, float):
        rounded = round(value, 4)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, Pose):
        return {"x": _plain(value.x), "y": _plain(value.y), "heading": _plain(value.heading)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of events."""

    kind: ClassVar[str] = "event"

    @property
    def secret_for(self) -> str | None:
        """The vehicle whose seat alone sees this event whole (None: public)."""
        return None

    def redacted(self) -> Event | None:
        """What other seats see of a secret event (None: nothing)."""
        return self

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
class PhaseStarted(Event):
    kind: ClassVar[str] = "phase_started"
    turn: int
    phase: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "revealed"
    vehicle: str
    phase: int
    card: str
    symbol: str
    steep: bool


@dataclass(frozen=True, slots=True)
class IllegalManeuver(Event):
    """A revealed card broke a restriction; ``outcome`` says what the ruleset did."""

    kind: ClassVar[str] = "illegal_maneuver"
    vehicle: str
    card: str
    rule: str
    outcome: str
    replaced_by: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    vehicle: str
    card: str
    start: Pose
    end: Pose


@dataclass(frozen=True, slots=True)
class LeftArea(Event):
    kind: ClassVar[str] = "left_area"
    vehicle: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class JamCounterDiscarded(Event):
    """The weapon cannot fire this phase; ``left`` counters remain."""

    kind: ClassVar[str] = "jam_counter_discarded"
    vehicle: str
    weapon: str
    left: int


@dataclass(frozen=True, slots=True)
class Fired(Event):
    kind: ClassVar[str] = "fired"
    firer: str
    weapon: str
    target: str
    range: str
    distance: float
    origin: tuple[float, float]
    """The firing dot, where the ruler starts."""
    point: tuple[float, float]
    """The nearest point of the target's base the ruler reaches."""
    cards: int
    aimed: bool


@dataclass(frozen=True, slots=True)
class HeldFire(Event):
    """A weapon that could fire did not, or the chosen target was not possible."""

    kind: ClassVar[str] = "held_fire"
    firer: str
    weapon: str
    reason: str


@dataclass(frozen=True, slots=True)
class DamageDrawn(Event):
    """Damage cards a vehicle drew; secret to its owner (others see how many)."""

    kind: ClassVar[str] = "damage_drawn"
    vehicle: str
    deck: str
    cards: tuple[str, ...]
    points: int
    total: int
    source: str

    @property
    def secret_for(self) -> str | None:
        return self.vehicle

    def redacted(self) -> Event | None:
        return DamageCardsTaken(self.vehicle, self.deck, len(self.cards), self.source)


@dataclass(frozen=True, slots=True)
class DamageCardsTaken(Event):
    """The public face of :class:`DamageDrawn`."""

    kind: ClassVar[str] = "damage_cards_taken"
    vehicle: str
    deck: str
    count: int
    source: str


@dataclass(frozen=True, slots=True)
class Jammed(Event):
    """A jam card shown to the firer (and so public): the weapon is jammed."""

    kind: ClassVar[str] = "jammed"
    firer: str
    weapon: str
    card: str
    counters: int


@dataclass(frozen=True, slots=True)
class Explosion(Event):
    """An explosion card was drawn (revealed, per 002/003)."""

    kind: ClassVar[str] = "explosion"
    vehicle: str
    card: str


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    kind: ClassVar[str] = "deck_reshuffled"
    deck: str
    reason: str


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """``reason``: shot_down, exploded, out_of_control or left_area."""

    kind: ClassVar[str] = "eliminated"
    vehicle: str
    reason: str


@dataclass(frozen=True, slots=True)
class Reminder(Event):
    """End-of-turn reminder counter: steep, immelmann or straight."""

    kind: ClassVar[str] = "reminder"
    vehicle: str
    counter: str


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``winner`` is a side, or None for a draw; ``scores`` per 002's match scoring."""

    kind: ClassVar[str] = "game_over"
    winner: str | None
    scores: dict[str, int]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        TurnStarted,
        PhaseStarted,
        Revealed,
        IllegalManeuver,
        Moved,
        LeftArea,
        JamCounterDiscarded,
        Fired,
        HeldFire,
        DamageDrawn,
        DamageCardsTaken,
        Jammed,
        Explosion,
        DeckReshuffled,
        Eliminated,
        Reminder,
        GameOver,
    )
}


def as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]
