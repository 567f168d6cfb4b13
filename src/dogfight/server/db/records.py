"""What a game is made of besides its states: seats, each seat's answers to a phase,
the resolved steps, the target questions, and events as a page shows them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dogfight.bots.base import Explanation
from dogfight.geometry.maneuver import Card, card_curve_numbers
from dogfight.geometry.pose import Pose
from dogfight.output.encoding import text
from dogfight.rules.events import Event, Moved, PlanExplained
from dogfight.rules.plans import AUTO, Action, Plan
from dogfight.rules.standard import acting
from dogfight.rules.state import GameState
from dogfight.rules.ww2 import card_flown
from dogfight.words.narration import describe, why_words

Json = dict[str, Any]


@dataclass
class Seat:
    id: str
    position: int
    label: str
    side: str
    vehicles: list[str]
    """Vehicles given to this seat when the game was made (the first seat of a side also
    plays that side's vehicles no seat names, such as reinforcements)."""
    token_hash: str
    bot: str | None = None
    auto_fire: bool = False


@dataclass
class Answer:
    """A seat's inputs to one phase."""

    fire: dict[str, dict[str, str]] = field(default_factory=dict)
    actions: dict[str, Action | None] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)
    decisions: list[Json] = field(default_factory=list)
    """An automated tripod's decisions (TripodDecision events as JSON), logged with the
    phase so a player can see why it did what it did (001)."""
    plans: dict[str, Plan] = field(default_factory=dict)
    """WW2 airplanes' plans of an Earthling turn (001), stored as the answer of phase
    ``-p`` for the planning phase before action phase ``p``."""
    why: Explanation = field(default_factory=dict)
    """Why a computer seat chose its plans of a turn (:func:`dogfight.bots.base.explanation`),
    stored as its answer of phase 0 and logged once the turn is over."""
    bot: str | None = None
    """The computer player that gave ``why``."""

    def to_json(self) -> Json:
        if self.plans:
            return {"plans": {k: p.to_json() for k, p in self.plans.items()}}
        if self.why:
            return {
                "bot": self.bot,
                "why": {k: [[list(c), v] for c, v in r] for k, r in self.why.items()},
            }
        return {
            "fire": self.fire,
            "actions": {
                k: None if a is None else a.model_dump(mode="json", exclude_none=True)
                for k, a in self.actions.items()
            },
            "cards": self.cards,
            "decisions": self.decisions,
        }

    @classmethod
    def from_json(cls, data: Json) -> Answer:
        return cls(
            fire={k: dict(v) for k, v in data.get("fire", {}).items()},
            actions={
                k: None if a is None else Action.model_validate(a)
                for k, a in data.get("actions", {}).items()
            },
            cards=dict(data.get("cards", {})),
            decisions=list(data.get("decisions", [])),
            plans={k: Plan.model_validate(p) for k, p in data.get("plans", {}).items()},
            why={
                k: [(tuple(str(c) for c in cards), float(v)) for cards, v in ranked]
                for k, ranked in data.get("why", {}).items()
            },
            bot=data.get("bot"),
        )


@dataclass
class Step:
    turn: int
    phase: int
    events: list[Event]
    state: GameState
    """The state after the step."""
    encoded: list[Json] | None = None
    """``events`` as stored (each event's ``to_json``), once they were: the seats'
    views start from these instead of encoding every event again."""

    def encode(self) -> list[Json]:
        if self.encoded is None:
            self.encoded = [e.to_json() for e in self.events]
        return self.encoded

    def stored(self) -> str:
        """The events as the database stores them: a JSON list."""
        return text(self.encode())


@dataclass(frozen=True)
class Question:
    """A weapon with several targets after this phase's movement. Every such weapon of
    a person's seat is asked about, whatever its plan says (``planned``, the answer
    when none is given): so that who is asked reveals nothing of the plans."""

    vehicle: str
    weapon: str
    options: tuple[str, ...]
    planned: str = AUTO

    def to_json(self) -> Json:
        return {
            "vehicle": self.vehicle,
            "weapon": self.weapon,
            "options": list(self.options),
            "planned": self.planned,
        }


SEAT_ID = re.compile(r"[^A-Za-z0-9_-]+")


def slug(text: str, taken: set[str]) -> str:
    base = SEAT_ID.sub("-", text).strip("-")[:30] or "seat"
    out, n = base, 2
    while out in taken:
        out, n = f"{base}-{n}", n + 1
    return out


def event_json(event: Event, state: GameState, encoded: Json | None = None) -> Json:
    """An event for the page: its JSON (``encoded``: its ``to_json()``, already made),
    a sentence, and for airplane moves the ``curve`` of the centre dot's path (to animate
    and to draw the last maneuvers): the six points of :func:`card_curve_numbers` (the
    centre, the nose, the cubic curve's two handles, the arrowhead, the new centre),
    each number rounded to 1/1000 cm, from which the page draws the path; for why a
    computer player chose a plan, its ``summary`` and a line (``why``) per plan it weighed
    (the page shows them as a collapsed detail)."""
    out = event.to_json() if encoded is None else dict(encoded)
    out["text"] = describe(event, state.rules.catalog, acting(state))
    if isinstance(event, PlanExplained):  # the heading and the plans weighed, each a line
        out["summary"], out["why"] = why_words(event)
    curve = _move_curve(event, state)
    if curve is not None:
        pairs = zip(curve[::2], curve[1::2], strict=True)
        out["curve"] = [[round(x, 3), round(y, 3)] for x, y in pairs]
    return out


def _move_curve(event: Event, state: GameState) -> tuple[float, ...] | None:
    """What defines an airplane move's path, as :func:`card_curve_numbers` (None for any
    other event)."""
    if not isinstance(event, Moved):
        return None
    card = _airplane_card(event, state)
    if card is None:
        return None
    return card_curve_numbers(event.start, card, state.rules.base_length)


def _airplane_card(event: Moved, state: GameState) -> Card | None:
    """The maneuver card an airplane's move flew, as the engine flew it (scaled by a WW2
    speed marker: :func:`card_flown`), so that the curve ends where the base was put
    (None for a tripod's move)."""
    vehicle = state.vehicles.get(event.vehicle)
    rules = state.rules
    if vehicle is None or vehicle.tripod is not None or vehicle.type not in rules.catalog.airplanes:
        return None
    return card_flown(rules, vehicle.type, event)


def pose_json(pose: Pose) -> Json:
    return {"x": round(pose.x, 4), "y": round(pose.y, 4), "heading": round(pose.heading, 4)}
