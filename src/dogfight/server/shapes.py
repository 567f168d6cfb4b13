"""What leaves the server, declared: a seat's view and its update, the summary, the seat,
a stage, a step and an event as stored, as TypedDicts (the table itself:
:class:`dogfight.rules.observation.TableView`). The views build them (mypy checks what
is made) and msgspec puts them in JSON and describes them: :func:`schema`, published at
``GET /api/schema``, is what the page relies on (tests validate every view of every
preset against it).

TypedDicts rather than msgspec Structs: the observation stays the plain dicts every
reader indexes (bots, the PettingZoo environment), nothing is converted on the way out,
and the shapes cost nothing at run time.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, Literal, NotRequired, TypedDict

import msgspec

from dogfight.rules import events
from dogfight.rules.observation import TableView

Json = dict[str, Any]


class SeatTable(TableView):
    """The table as a seat sees it, with the rules' switches."""

    switches: dict[str, Any]


class SeatPart(TypedDict):
    """A seat as its own view shows it (``auto_fire``), or its entry in the summary."""

    id: str
    label: str
    side: str
    vehicles: list[str]
    auto_fire: NotRequired[bool]
    computer: str | None


class SummarySeat(SeatPart):
    waiting: bool


class SummaryHead(TypedDict):
    """What a game's summary shows that never changes."""

    id: str
    title: str
    created: float
    engine: int
    scenario: str | None


class ClockNote(TypedDict):
    """A seat's turn clock ran out in ``turn``: the game's log says so in ``text``."""

    turn: int
    seat: str
    text: str


class ClockShown(TypedDict):
    """A clocked game's clock as its summary shows it (issue 32 item 3): its hours and
    when the current turn's time runs out (UTC, ISO 8601; None once the game is over)."""

    hours: int
    ends: str | None
    ran_out: list[ClockNote]


class Summary(SummaryHead):
    """What anyone may know about a game (no seed but an open analysis game's, no
    plans, no damage)."""

    turn: int
    phase: int
    over: bool
    winner: str | None
    stage: Literal["over", "planning", "targets"]
    steps: int
    analysis: bool
    waiting_for: list[str]
    seats: list[SummarySeat]
    clock: NotRequired[ClockShown]
    seed: NotRequired[int]
    result: NotRequired[dict[str, Any] | None]


class PlanningStage(TypedDict):
    """A turn's planning (or, ``earthling``, a WW2 airplanes' Earthling turn's: 001)."""

    kind: Literal["planning"]
    turn: int
    phase: NotRequired[int]
    earthling: NotRequired[bool]
    to_plan: list[str]
    submitted: bool
    my_plans: dict[str, dict[str, Any]] | None
    waiting_for: list[str]


class Preview(TypedDict):
    """The table and events after the phase's movement, before the firing."""

    state: SeatTable
    events: list[dict[str, Any]]


class TargetsStage(TypedDict):
    kind: Literal["targets"]
    turn: int
    phase: int
    questions: list[dict[str, Any]]
    answered: bool
    decisions: list[dict[str, Any]]
    waiting_for: list[str]
    preview: NotRequired[Preview]


class OverStage(TypedDict):
    kind: Literal["over"]
    waiting_for: list[str]


Stage = PlanningStage | TargetsStage | OverStage
"""A seat's stage (msgspec describes no union of TypedDicts: a view's ``stage`` is
declared an object, and :func:`schema` says it is one of these)."""

_STAGES = (PlanningStage, TargetsStage, OverStage)


class StepView(TypedDict):
    """A resolved step as a seat saw it: its events (each as stored, with its ``text`` in
    words and, for an airplane's move, its ``curve``; for why a computer player chose a
    plan, its ``summary`` and ``why``, a line per plan it weighed)."""

    index: int
    turn: int
    phase: int
    events: list[dict[str, Any]]


class SeatView(TypedDict):
    """Everything a seat's page shows (``GET .../view``, the WebSocket's message)."""

    type: Literal["view"]
    game: Summary
    seat: SeatPart
    state: SeatTable
    briefing: dict[str, Any] | None
    ending: dict[str, Any] | None
    stage: dict[str, Any]
    since: int
    steps: list[StepView]
    steps_total: int


class SeatUpdate(TypedDict):
    """The parts of a seat's view that change while the table and the steps do not."""

    type: Literal["update"]
    game: Summary
    seat: SeatPart
    stage: dict[str, Any]
    steps_total: int


_EVENT = "#/$defs/Event"


def _event_classes() -> list[type[events.Event]]:
    """Every kind of event, the abstract base left out."""
    found = [
        c
        for c in vars(events).values()
        if isinstance(c, type)
        and issubclass(c, events.Event)
        and c is not events.Event
        and dataclasses.is_dataclass(c)
    ]
    return list(dict.fromkeys(found))  # a class named twice, once


@cache
def schema() -> Json:
    """The JSON Schema (2020-12) of what the server sends a seat: ``$defs`` holds every
    shape (``SeatView``, ``SeatUpdate``, ``Summary``, a ``Stage``, ``StepView``, the
    table, and ``Event``: an event as stored, one object per kind with its ``kind``);
    the whole is a view or an update. Made by msgspec from the declared types; a
    step's events are each one of ``Event``'s kinds."""
    kinds = _event_classes()
    (view, update, *stages), defs = msgspec.json.schema_components([SeatView, SeatUpdate, *_STAGES])
    for message in ("SeatView", "SeatUpdate"):
        defs[message]["properties"]["stage"] = {"anyOf": stages}
    _, event_defs = msgspec.json.schema_components(kinds)
    choices = []
    for cls in kinds:
        name = cls.__name__
        event = event_defs[name]
        event["properties"] = {"kind": {"const": cls.kind}, **event.get("properties", {})}
        # every field is stored, its default or not
        event["required"] = ["kind", *(f.name for f in dataclasses.fields(cls))]
        choices.append({"$ref": f"#/$defs/{name}"})
    defs.update(event_defs)
    defs["Event"] = {"title": "Event", "description": "An event as stored.", "anyOf": choices}
    defs["StepView"]["properties"]["events"]["items"] = {"$ref": _EVENT}
    defs["Preview"]["properties"]["events"]["items"] = {"$ref": _EVENT}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dogfight: what a seat is sent",
        "anyOf": [view, update],
        "$defs": defs,
    }
