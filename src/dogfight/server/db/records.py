"""What a game is made of besides its states: seats, each seat's answers to a phase,
the resolved steps, the target questions, and events as a page shows them."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from dogfight.geometry.maneuver import Card, card_curve_numbers
from dogfight.geometry.pose import Pose
from dogfight.rules.events import Event, Moved
from dogfight.rules.plans import AUTO, Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.ww2 import card_flown
from dogfight.server.play.viewcache import four_decimals, str_json, to_json
from dogfight.words.narration import describe

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

    def to_json(self) -> Json:
        if self.plans:
            return {"plans": {k: p.model_dump(mode="json") for k, p in self.plans.items()}}
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
    texts: list[str] | None = None
    """Each of ``encoded`` as compact JSON text: stored, and the start of each event's
    text for the pages (so an event is put in JSON once, not once more per page)."""

    def encode(self) -> list[Json]:
        if self.encoded is None:
            self.encoded = [e.to_json() for e in self.events]
        return self.encoded

    def encode_texts(self) -> list[str]:
        if self.texts is None:
            self.texts = [stored_text(e) for e in self.events]
        return self.texts

    def stored(self) -> str:
        """The events as the database stores them: a JSON list."""
        return "[" + ",".join(self.encode_texts()) + "]"


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
    each number rounded to 1/1000 cm, from which the page draws the path."""
    out = event.to_json() if encoded is None else dict(encoded)
    out["text"] = describe(event, state.rules.catalog)
    curve = _move_curve(event, state)
    if curve is not None:
        pairs = zip(curve[::2], curve[1::2], strict=True)
        out["curve"] = [[round(x, 3), round(y, 3)] for x, y in pairs]
    return out


def event_text(
    event: Event, state: GameState, encoded: Json | None = None, stored: str | None = None
) -> str:
    """:func:`event_json` as compact JSON text (the same values), made faster: a move's
    curve is written straight into the text, and ``stored`` (``encoded`` as compact JSON
    text, as the step was stored) is extended rather than encoded again."""
    curve = _curve_text(event, state) if isinstance(event, Moved) else None
    if stored is not None and not _writer(type(event))[1]:
        said = str_json(describe(event, state.rules.catalog))
        if curve is None:
            return "".join((stored[:-1], ',"text":', said, "}"))
        return "".join((stored[:-1], ',"text":', said, ',"curve":', curve, "}"))
    out = event.to_json() if encoded is None else dict(encoded)
    out["text"] = describe(event, state.rules.catalog)
    text = to_json(out)
    if curve is None:
        return text
    return "".join((text[:-1], ',"curve":', curve, "}"))


class _Unwritten(Exception):
    """A value :func:`stored_text` leaves to the encoder (the whole event is encoded)."""


_WRITERS: dict[type, tuple[Callable[[Any], str] | None, bool]] = {}
"""By event class: the function writing an event's stored text (None for a class whose
JSON is its own: ``to_json`` overridden, or a field named ``kind``), and whether the
event's JSON may have a ``text`` key (a field so named, or a JSON of its own)."""


def _writer(cls: type) -> tuple[Callable[[Any], str] | None, bool]:
    """:data:`_WRITERS`' entry for an event class, made on first use: for the default
    JSON, a function made for the class (as ``dogfight.geometry.frozen`` makes an
    ``__init__``) joining the kind's text, each field's key text, made once, and the
    text of its value (:func:`_value_text`)."""
    got = _WRITERS.get(cls)
    if got is None:
        names = tuple(f.name for f in fields(cls))
        if cls.to_json is not Event.to_json or "kind" in names:  # type: ignore[attr-defined]
            got = _WRITERS[cls] = (None, True)
            return got
        env: dict[str, Any] = {"V": _value_text, "H": '{"kind":' + str_json(cls.kind)}  # type: ignore[attr-defined]
        pieces = ["H"]
        for i, name in enumerate(names):
            env[f"K{i}"] = f",{str_json(name)}:"
            pieces += (f"K{i}", f"V(e.{name})")
        source = f"def write(e):\n    return ''.join(({', '.join(pieces)}, '}}'))"
        made: dict[str, Any] = {}
        exec(source, env, made)
        got = _WRITERS[cls] = (made["write"], "text" in names)
    return got


def stored_text(event: Event) -> str:
    """``to_json(event.to_json())``, the event as a step stores it, written field by field
    (a test holds it to the encoder's text for every kind of event of many games): the
    keys' texts are made once per class and each value is written as ``Event.to_json``
    makes it (floats rounded to 1e-4, no negative zero, poses as objects) and the encoder
    writes it, without making the dict and encoding it key by key (for every event of
    every step: as much as the rest of the server's work on a turn's events). A value
    of another kind (an enum...) has the whole event encoded."""
    write = _writer(type(event))[0]
    if write is not None:
        try:
            return write(event)
        except _Unwritten:
            pass
    return to_json(event.to_json())


def _float_text(value: float) -> str:
    """``float.__repr__`` of ``round(value, 4)`` (no negative zero), as ``Event.to_json``
    and the encoder write a float: below 1e10 in size, :func:`four_decimals` (a test
    holds the two to the same text)."""
    if -1e10 < value < 1e10:
        text = four_decimals(value)
        return "0.0" if text == "-0.0" else text
    rounded = round(value, 4)
    if rounded == 0:
        return "0.0"
    if rounded != rounded or rounded in (math.inf, -math.inf):
        raise _Unwritten  # the encoder refuses it
    return float.__repr__(rounded)


def _value_text(value: Any) -> str:
    """A field's value as ``to_json(_plain(value))`` writes it (see :func:`stored_text`)."""
    kind = type(value)
    if kind is str:
        return str_json(value)
    if kind is float:
        return _float_text(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is Pose:
        x, y, heading = value.x, value.y, value.heading
        if type(x) is float and type(y) is float and type(heading) is float:
            x, y, heading = _float_text(x), _float_text(y), _float_text(heading)
        else:
            x, y, heading = _value_text(x), _value_text(y), _value_text(heading)
        return "".join(('{"x":', x, ',"y":', y, ',"heading":', heading, "}"))
    if kind is list or kind is tuple:
        return "[" + ",".join([_value_text(v) for v in value]) + "]"
    if kind is dict and all(type(k) is str for k in value):
        items = value.items()
        return "{" + ",".join([str_json(k) + ":" + _value_text(v) for k, v in items]) + "}"
    raise _Unwritten


_CURVE_TEMPLATE = "[" + ",".join(["[%.3f,%.3f]"] * 6) + "]"
"""The JSON template of a move's curve: a ``%.3f`` per number, correctly rounded to
1/1000 cm like ``round(x, 3)``, so the same numbers as ``event_json``'s, in one
formatting rather than a ``round`` and a ``repr`` per number through ``json``."""


def _curve_text(event: Moved, state: GameState) -> str | None:
    """An airplane move's curve (:func:`_move_curve`) as JSON text (None for a tripod's)."""
    card = _airplane_card(event, state)
    if card is None:
        return None
    numbers = card_curve_numbers(event.start, card, state.rules.base_length)
    text = _CURVE_TEMPLATE % numbers
    if "n" in text:  # "nan" or "inf" was written (no digit or bracket has an n)
        to_json(list(numbers))  # raises: strict JSON has neither
    return text


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
