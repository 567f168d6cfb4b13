"""What one seat may see: the only way state leaves the core for a player.

A seat controls a set of vehicles. It sees every vehicle's position, what is public on
the consoles (jam counters, rockets, elimination) and the cards revealed so far; for its
own vehicles it also sees the damage total and cards and the whole plan. The referee
(``seat=None``) sees everything.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, NotRequired, TypedDict, cast

from dogfight.rules.clocks import THREE_PHASES
from dogfight.rules.decisions import Decision, for_seat
from dogfight.rules.events import Event
from dogfight.rules.missions import target_view
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import phases_before_cards, planned_cards, secret_action_cards


class PoseView(TypedDict):
    """A base's centre and heading, each rounded to 1e-4 (cm, degrees) here, where the
    view is made: the one rounding of a pose a seat is shown."""

    x: float
    y: float
    heading: float


class Flown(TypedDict):
    """The previous maneuver's reminder counter."""

    symbol: str
    steep: bool


class Aim(TypedDict):
    """A "+1 damage" aim marker: its target and the phase it was put down."""

    target: str
    phase: int


class VehicleView(TypedDict):
    """A vehicle as a seat sees it: what every seat sees, then (its own vehicle) what only
    its owner sees."""

    id: str
    type: str
    side: str
    pose: PoseView
    eliminated: str | None
    jams: dict[str, int]
    rockets: int
    energy: NotRequired[int]
    energy_rating: NotRequired[int]
    toppled: NotRequired[int]
    cooling: NotRequired[int]
    reverse: NotRequired[bool]
    pilot: NotRequired[str]
    bombs: NotRequired[int]
    previous: Flown | None
    aim: dict[str, Aim]
    revealed: NotRequired[list[str]]
    revealed_speeds: NotRequired[list[int]]
    clock: NotRequired[str]
    resistance: NotRequired[int]
    damage: NotRequired[int]
    damage_cards: NotRequired[list[str]]
    status: NotRequired[dict[str, Any]]
    cards_to_plan: NotRequired[int]
    plan: NotRequired[dict[str, Any]]


class OwnView(TypedDict):
    """What only the seat playing a vehicle sees of it."""

    resistance: int
    damage: int
    damage_cards: list[str]
    status: dict[str, Any]
    cards_to_plan: NotRequired[int]
    """Tripods: how many cards its next plan holds (:func:`~dogfight.rules.tripods.
    planned_cards`: fewer when toppled, or when its secret damage leaves it fewer)."""
    plan: NotRequired[dict[str, Any]]


class TableSize(TypedDict):
    width: float
    height: float


class TableHead(TypedDict):
    ruleset: str
    table: TableSize
    turn: int
    phase: int
    planning: list[str]
    over: bool
    winner: str | None


class Objective(TypedDict):
    id: str
    x: float
    y: float
    charges: int
    destroyed: bool
    reached: bool


class Cloud(TypedDict):
    id: str
    x: float
    y: float
    radius: float


class Salvo(TypedDict):
    firer: str
    target: str
    count: int


class OpenTable(TypedDict):
    objectives: list[Objective]
    targets: list[dict[str, Any]]
    clouds: list[Cloud]
    salvos: list[Salvo]
    action_cards: bool


class TableView(TableHead, OpenTable):
    """The state as a seat sees it (:func:`observe`): the usual dicts, declared so that
    mypy checks what is made and a server can publish their JSON Schema."""

    vehicles: list[VehicleView]
    decisions: list[dict[str, Any]]


def _pose(v: Vehicle) -> PoseView:
    pose = v.pose
    return {"x": round(pose.x, 4), "y": round(pose.y, 4), "heading": round(pose.heading, 4)}


def vehicle_view(state: GameState, v: Vehicle, own: bool) -> VehicleView:
    """A vehicle as a seat sees it: what every seat sees (:func:`open_vehicle_view`),
    then, for the seat's own vehicle, what only its owner sees (:func:`own_vehicle_view`)
    — its keys all after the open ones, so the text of an own vehicle is the open text
    extended (a server writes the open part once for every seat)."""
    view = open_vehicle_view(state, v)
    if own:
        return {**view, **own_vehicle_view(state, v)}
    return view


def open_vehicle_view(state: GameState, v: Vehicle) -> VehicleView:
    """What every seat sees of a vehicle."""
    view: VehicleView = {
        "id": v.id,
        "type": v.type,
        "side": v.side,
        "pose": _pose(v),
        "eliminated": v.eliminated,
        "jams": dict(sorted(v.jams.items())) if v.jams else {},
        "rockets": v.rockets,
        "previous": None,
        "aim": {},
    }
    if v.tripod is not None:
        # Energy tokens, toppled reminders and recovery tokens sit on the open console.
        view["energy"] = v.tripod.energy
        view["energy_rating"] = v.tripod.rating
        view["toppled"] = v.tripod.toppled
        view["cooling"] = v.tripod.cooling
        view["reverse"] = v.tripod.reverse_pending
        view["pilot"] = "human" if v.tripod.human else "martian"
    if v.bomber:
        # 001: the loads are agreed before the game, in the open.
        view["bombs"] = v.bombs
    # The reminder counters and the "+1 damage" aim markers sit on the open consoles.
    view["previous"] = (
        None
        if v.previous is None
        else {"symbol": v.previous.symbol.value, "steep": v.previous.steep}
    )
    view["aim"] = (
        {w: {"target": t, "phase": n} for w, (t, n) in sorted(v.aim.items())} if v.aim else {}
    )
    revealed = state.phase
    if v.plan is not None and v.tripod is not None and not v.plan.automated:
        # a card is shown in its own phase, never before
        revealed = max(0, state.phase - phases_before_cards(v.plan))
    # a vehicle out of the game reveals no more cards: its log holds those it did
    if v.plan is not None and v.eliminated is None:
        view["revealed"] = list(v.plan.cards[:revealed])
        if v.plan.speeds:
            view["revealed_speeds"] = list(v.plan.speeds[:revealed])
    if v.clock != THREE_PHASES:
        view["clock"] = v.clock
    return view


def own_vehicle_view(state: GameState, v: Vehicle) -> OwnView:
    """What only the seat playing a vehicle sees of it (never empty)."""
    view: OwnView = {
        "resistance": v.resistance,
        "damage": v.damage,
        "damage_cards": [f"{deck}:{card}" for deck, card in v.held],
        # Lasting special damage, secret ones included: the owner knows them.
        "status": dict(sorted(v.status.items())) if v.status else {},
    }
    if v.tripod is not None:
        view["cards_to_plan"] = planned_cards(state, v)
    if v.plan is not None:
        view["plan"] = v.plan.to_json()
    return view


def observe(
    state: GameState, seat: Collection[str] | None, pending: Iterable[Decision] = ()
) -> dict[str, Any]:
    """The state as seen by the seat controlling ``seat`` (vehicle ids); None: referee.
    ``pending`` are the decisions the next phase waits for: the seat sees its own, with
    what they show it (:mod:`dogfight.rules.decisions`). Made of parts a server writes
    once for every seat: :func:`table_view`, each vehicle's :func:`vehicle_view`,
    :func:`open_table_view`, then the seat's decisions: a :class:`TableView`."""
    view: TableView = {
        **table_view(state),
        "vehicles": [
            vehicle_view(state, v, seat is None or v.id in seat) for v in state.vehicles.values()
        ],
        **open_table_view(state),
        "decisions": [d.to_json() for d in for_seat(pending, seat)],
    }
    # checked as made; handed out as the plain dict every reader indexes (bots, the
    # PettingZoo environment, the server), whose declared type it is
    return cast(dict[str, Any], view)


def table_view(state: GameState) -> TableHead:
    """What :func:`observe` shows first, the same for every seat: the rules, the table,
    the turn and whether the game is over."""
    return {
        "ruleset": state.rules.ruleset.name,
        "table": {"width": state.rules.table_width, "height": state.rules.table_height},
        "turn": state.turn,
        "phase": state.phase,
        # who plans in the coming planning phase (001: WW2 airplanes each Earthling turn)
        "planning": state.planning_due() if state.phase > 0 else [],
        "over": state.over,
        "winner": state.winner,
    }


def open_table_view(state: GameState) -> OpenTable:
    """What :func:`observe` shows after the vehicles, the same for every seat: what lies
    open on the table."""
    return {
        "objectives": [
            {
                "id": o.id,
                "x": o.x,
                "y": o.y,
                "charges": o.charges,
                "destroyed": o.destroyed,
                "reached": o.reached,
            }
            for o in state.objectives.values()
        ],
        # 002's target cards lie open on the table, and a mission's success is scored aloud.
        "targets": [target_view(t) for t in state.targets.values()],
        # Black smoke templates and rockets in flight are on the open table.
        "clouds": [{"id": c.id, "x": c.x, "y": c.y, "radius": c.radius} for c in state.clouds],
        "salvos": [{"firer": r.firer, "target": r.target, "count": r.count} for r in state.salvos],
        # 001: tripods' action cards are secret until shown in initiative order.
        "action_cards": secret_action_cards(state),
    }


def visible_events(events: Iterable[Event], seat: Collection[str] | None) -> list[Event]:
    """The events a seat may see: secret events whole for their owner, redacted else
    (:func:`redactions`)."""
    listed = events if isinstance(events, list) else list(events)
    hidden = redactions(listed, seat)
    if not hidden:
        return list(listed)
    shown: list[Event | None] = list(listed)
    for index, public in hidden:
        shown[index] = public
    return [event for event in shown if event is not None]


def redactions(
    events: Sequence[Event], seat: Collection[str] | None
) -> list[tuple[int, Event | None]]:
    """The events the seat does not see whole, by their index in ``events``, each with
    what it sees instead: the event redacted, or None (nothing). Every other event it
    sees whole: its own secrets and the public events (the referee, ``seat=None``, sees
    everything). What :func:`visible_events` puts in place; a server that wrote each
    event's text once for every seat puts in place only the texts of these."""
    out: list[tuple[int, Event | None]] = []
    if seat is None:
        return out
    for index, event in enumerate(events):
        owner = event.secret_for
        if owner is not None and owner not in seat:
            out.append((index, event.redacted()))
    return out


def side_seat(state: GameState, side: str) -> frozenset[str]:
    """The vehicles of one side, as a seat."""
    return frozenset(v.id for v in state.vehicles.values() if v.side == side)
