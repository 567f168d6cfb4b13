"""Situations: a table described in JSON, turned into a game state and adjudicated.

A situation is what a referee, a play-by-mail group or a bug report hands the engine:
the ruleset and its switches, the table, every vehicle with its pose and state and its
planned cards, and optionally stacked damage decks. ``dogfight schema situation`` prints
its JSON Schema; ``docs/situations.md`` documents it with examples.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
)

from dogfight.catalog.loader import Catalog, checked_switches, validation_to_data_error
from dogfight.catalog.models import Airplane, Ruleset, Scenario, Skill, Symbol
from dogfight.errors import DataError, DogfightError, UnusedFieldError
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.rules import ww2
from dogfight.rules.chance import setup_rng
from dogfight.rules.clocks import ONE_PHASE, clock_for
from dogfight.rules.context import Rules
from dogfight.rules.decks import shuffled
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.field_use import (
    PLAN_FIELDS,
    VEHICLE_FIELDS,
    Kind,
    kind_of,
    kind_of_model,
    refuse_unused,
)
from dogfight.rules.plans import Flown, Id, Plan, check_plan_shape
from dogfight.rules.scenario import objectives_problem, placement_problem
from dogfight.rules.state import GameState, Objective, TripodState, Vehicle
from dogfight.rules.tripods import check_tripod_plan
from dogfight.situation.missions import MAX_TARGETS, TargetIn, lay_targets

Weapon = Literal["front", "rear"]

MAX_VEHICLES = 64
"""The most vehicles (and as many reinforcements and objectives) a situation may hold:
far beyond any scenario, small enough that no input makes a step take minutes. The
server has its own, lower cap (``dogfight serve --max-vehicles``)."""

MAX_TABLE = 2000.0
"""The widest table (cm): 20 m of floor."""

MAX_COORDINATE = 10 * MAX_TABLE
"""How far from the corner (cm) a pose or a point may be given, off the table included."""

MAX_HEADING = 3600.0
"""Headings are normalised to [0, 360); within ten turns either way is accepted."""

MAX_TURNS = 500
"""The most planned turns a situation may carry per vehicle."""

MAX_ASKED = 24
"""The most rounds of decisions a phase asks before its bombers' picks (each tailing
check and each group of the reveal is one)."""

Coordinate = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]

DecisionId = Annotated[
    str,
    Field(
        pattern=r"^[a-z_]{1,40}:[A-Za-z0-9_.-]{1,64}@[0-9]{1,3}\.[1-3]$",
        description="an engine decision's id, kind:vehicle@turn.phase (tailing:spad@1.2)",
    ),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class PoseIn(Strict):
    """Centre dot (cm from the lower-left corner) and heading (degrees, counter-clockwise
    from the +x axis)."""

    x: Coordinate
    y: Coordinate
    heading: float = Field(default=0.0, ge=-MAX_HEADING, le=MAX_HEADING)


class PreviousIn(Strict):
    """The last maneuver the airplane flew (what the end-of-turn reminders record)."""

    symbol: Symbol
    steep: bool | None = Field(
        default=None, description="steep symbol on the card; default: true for steep and stall"
    )

    @property
    def is_steep(self) -> bool:
        if self.steep is not None:
            return self.steep
        return self.symbol in (Symbol.STEEP, Symbol.STALL)


StatusKey = Literal[
    "engine",
    "observer",
    "smoke",
    "fire",
    "rudder_left",
    "rudder_right",
    "wounded",
    "gyroscope",
    "reverse_destroyed",
    "smoke_generator",
]


class VehicleIn(Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", max_length=40)
    type: Id | None = Field(
        default=None,
        description="airplane or tripod id from the catalog (dogfight info); with a "
        "scenario, defaults to the scenario's first choice",
    )
    side: str | None = Field(
        default=None, min_length=1, max_length=40, description="team; given by a scenario"
    )
    pose: PoseIn
    damage: int = Field(default=0, ge=0, le=10_000, description="damage points already taken")
    jams: dict[Weapon, int] = Field(default_factory=dict, description="jam counters left")
    previous: PreviousIn | None = None
    aim: dict[Weapon, Id] = Field(
        default_factory=dict, description="target each weapon fired at in the previous phase"
    )
    rockets: int = Field(default=0, ge=0, le=2)
    energy: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="tripods: Energy tokens (default: the Energy rating)",
    )
    toppled: int = Field(default=0, ge=0, le=2, description="tripods: toppled reminder tokens")
    cooling: int = Field(default=0, ge=0, le=1, description="tripods: heat-ray recovery token")
    reverse: bool = Field(default=False, description="tripods: a reverse reminder token")
    pilot: Literal["martian", "human"] = Field(
        default="martian",
        description="tripods: a Martian pilot, or a human one on a captured tripod (001)",
    )
    bombs: int | None = Field(
        default=None,
        ge=0,
        le=20,
        description="airplanes: bomb loads carried (001); default: none, or the scenario's",
    )
    bomber: bool = Field(
        default=False,
        description="airplanes: carries its model's usual bomb loads (001: single-engine 1, "
        "multi-engine 2; catalog bomb_loads)",
    )
    skills: list[Skill] = Field(
        default_factory=list, max_length=len(Skill), description="ace skills (000)"
    )
    status: dict[StatusKey, Annotated[int, Field(ge=0, le=999)]] = Field(
        default_factory=dict,
        description="lasting special damage on the console: engine hits, fire counters "
        "left, wounded (000, every vehicle); airplanes: observer (1: a two-seater's "
        "observer is out, 002), smoke counters left, rudder_left/rudder_right (the turn "
        "they forbid); tripods: gyroscope (the turn it forbids), reverse_destroyed and "
        "smoke_generator (1: hit)",
    )
    plans: list[Plan] = Field(
        default_factory=list, max_length=MAX_TURNS, description="one plan per turn, in order"
    )


class ReinforcementIn(Strict):
    """Where a scenario's reinforcement should appear when its turn comes (moved along the
    table to the nearest legal point if that spot breaks the placement rule then)."""

    id: Id
    type: Id | None = None
    pose: PoseIn
    plans: list[Plan] = Field(
        default_factory=list,
        max_length=MAX_TURNS,
        description="its plans from the turn it enters, in order",
    )


class ObjectiveIn(Strict):
    """An objective token (round, ``objective_radius`` from constants.toml)."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", max_length=40)
    x: Coordinate
    y: Coordinate
    charges: int = Field(default=1, ge=0, le=100, description="recharges it can give")


class BombPickIn(Strict):
    """A bomber's choice of half of the C cards when its bomb card's dot covers a tripod
    (001: "he assigns his choice of half of them to the tripod"): the engine decision
    ``bomb_pick`` of that phase, answered."""

    turn: int = Field(default=1, ge=1, le=MAX_TURNS)
    phase: int = Field(default=1, ge=1, le=3)
    bomber: Id
    target: Id | None = Field(default=None, description="the tripod under the dot")
    cards: list[Id] = Field(max_length=40, description="the C cards assigned, among those drawn")


class TableIn(Strict):
    width: float = Field(gt=0, le=MAX_TABLE)
    height: float = Field(gt=0, le=MAX_TABLE)


class Situation(Strict):
    """A table situation to adjudicate."""

    scenario: Id | None = Field(
        default=None, description="a scenario id (dogfight info): its forces, placement and victory"
    )
    ruleset: Id | None = Field(default=None, description="default: the scenario's, else wog")
    switches: dict[Id, bool | int | str] = Field(
        default_factory=dict, max_length=20, description="rule switches overriding the ruleset's"
    )
    table: TableIn | None = None
    move: StrictBool = Field(
        default=True,
        description="false: referee mode, the vehicles stand where they are and only fire: "
        "no card is flown (give no plans) and adjudicate and render rule on the table as it "
        "stands (who can fire at whom, range, what blocks the ruler, the reachable part of "
        "each target and each blocker's shadow)",
    )
    vehicles: list[VehicleIn] = Field(min_length=1, max_length=MAX_VEHICLES)
    damage_decks: dict[Id, Annotated[list[Id], Field(max_length=500)]] = Field(
        default_factory=dict,
        max_length=20,
        description="stacked damage decks: top cards, first drawn first",
    )
    objectives: list[ObjectiveIn] = Field(default_factory=list, max_length=MAX_VEHICLES)
    reinforcements: list[ReinforcementIn] = Field(default_factory=list, max_length=MAX_VEHICLES)
    targets: list[TargetIn] = Field(
        default_factory=list,
        max_length=MAX_TARGETS,
        description="target cards of bombing and photographic missions (002); default: the "
        "scenario's",
    )
    bomb_picks: list[BombPickIn] = Field(
        default_factory=list,
        max_length=500,
        description="bombers' choices of C cards (001); without one the engine assigns the "
        "cards that hurt most",
    )
    decisions: dict[
        DecisionId,
        Annotated[list[Annotated[str, StringConstraints(max_length=100)]], Field(max_length=40)],
    ] = Field(
        default_factory=dict,
        max_length=500,
        description="answers to the engine's decisions by id (kind:vehicle@turn.phase): "
        "a reorder after tailing (002) gives the tailing plane's remaining cards in their "
        "new order; a tripod's action token (000, 001: action_token) one option string, "
        "e.g. 'heat_ray:front-left@camel' or 'recharge' (docs/situations.md); a decision "
        "without an answer takes its default",
    )


def read_situation(path: str | Path) -> Situation:
    """Read and validate a situation file."""
    source = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(source, "(file)", source, f"cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataError(source, "(file)", source, "is not UTF-8 text") from None
    return loads_situation(raw, source)


def loads_situation(raw: str, source: str = "situation") -> Situation:
    """A situation from its JSON text: :class:`DataError` for text that is not JSON or is
    nested too deeply to parse (never a traceback), else as :func:`parse_situation`."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise DataError(source, "(syntax)", None, f"not valid JSON: {exc}") from None
    except RecursionError:
        raise DataError(source, "(syntax)", None, "nested too deeply to be a situation") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise DataError(source, "(syntax)", None, f"not a situation's JSON: {exc}") from None
    return parse_situation(data, source)


def parse_situation(data: object, source: str = "situation") -> Situation:
    try:
        return Situation.model_validate(data)
    except ValidationError as exc:
        raise validation_to_data_error(source, exc) from None


_RULES: dict[tuple[int, str, str, float, float], tuple[Catalog, Rules]] = {}
"""Rules already made, by catalog, ruleset, switches and table size: games of the same
rules share one (it is immutable; what it works out once, every game then reuses)."""


def _rules(
    catalog: Catalog,
    ruleset: Ruleset,
    merged: dict[str, Any],
    width: float,
    height: float,
    source: str,
) -> Rules:
    """The rules of a ruleset with ``merged`` switches on a ``width`` x ``height`` table,
    the switches checked (a :class:`DataError` names the one refused)."""
    key = (
        id(catalog),
        ruleset.name,
        json.dumps(merged, sort_keys=True, default=str),
        width,
        height,
    )
    hit = _RULES.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    switches = checked_switches(catalog, merged, source)
    rules = Rules(catalog, ruleset, switches, width, height)
    if len(_RULES) >= 64:
        _RULES.clear()
    _RULES[key] = (catalog, rules)
    return rules


def build(
    situation: Situation, catalog: Catalog, seed: int, source: str = "situation"
) -> GameState:
    """The game state a situation describes, with damage decks shuffled from ``seed``."""
    chosen = None
    if situation.scenario is not None:
        chosen = catalog.scenario(situation.scenario, source)
        situation = with_scenario(situation, chosen, catalog, source)
    name = situation.ruleset or "wog"
    ruleset = catalog.rulesets.get(name)
    if ruleset is None:
        raise DataError(
            source,
            "ruleset",
            name,
            "known rulesets: " + ", ".join(sorted(catalog.rulesets)),
        )
    merged = {
        **ruleset.switches.model_dump(mode="json"),
        **(chosen.switches if chosen else {}),
        **situation.switches,
    }
    table = situation.table or catalog.constants.table
    rules = _rules(catalog, ruleset, merged, table.width, table.height, source)
    switches = rules.switches

    # 000 (A Spark of Hope): "The airplane is assumed to be rocket-armed."
    scenario_rockets = {v.id: v.rockets for v in chosen.vehicles} if chosen else {}
    vehicles: dict[str, Vehicle] = {}
    for i, v in enumerate(situation.vehicles):
        where = f"vehicles[{i}]"
        if v.type is None or v.side is None:
            missing = "type" if v.type is None else "side"
            raise DataError(source, f"{where}.{missing}", None, "required (no scenario gives it)")
        if v.id in vehicles:
            raise DataError(source, f"{where}.id", v.id, "vehicle ids must be unique")
        if v.type in catalog.tripods:
            _refuse_unused(v, kind_of_model(None, v.type, 0, 0), source, where)
            vehicles[v.id] = _tripod(rules, v, source, where)
            continue
        if v.type not in catalog.airplanes:
            raise DataError(
                source,
                f"{where}.type",
                v.type,
                "known airplanes: "
                + ", ".join(sorted(catalog.airplanes))
                + "; known tripods: "
                + ", ".join(sorted(catalog.tripods)),
            )
        airplane = catalog.airplanes[v.type]
        if airplane.era != switches.era and not switches.mixed_eras:
            raise DataError(source, f"{where}.type", v.type, era_problem(airplane, ruleset.name))
        if v.damage >= airplane.damage:
            raise DataError(
                source,
                f"{where}.damage",
                v.damage,
                f"must be below the {airplane.name}'s resistance {airplane.damage}",
            )
        loads = v.bombs if v.bombs is not None else (airplane.usual_loads if v.bomber else 0)
        _refuse_unused(v, kind_of_model(airplane, v.type, v.rockets, loads), source, where)
        for weapon, count in v.jams.items():
            if not 0 <= count <= catalog.constants.jam_maneuvers:
                raise DataError(
                    source,
                    f"{where}.jams.{weapon}",
                    count,
                    f"0..{catalog.constants.jam_maneuvers} counters",
                )
        armed_by_scenario = bool(scenario_rockets.get(v.id))
        if v.rockets and not airplane.rockets and not armed_by_scenario:
            raise DataError(
                source, f"{where}.rockets", v.rockets, f"the {airplane.name} does not carry rockets"
            )
        vehicles[v.id] = Vehicle(
            id=v.id,
            type=v.type,
            side=v.side,
            pose=Pose(v.pose.x, v.pose.y, normalize_heading(v.pose.heading)),
            resistance=airplane.damage,
            damage=v.damage,
            previous=None if v.previous is None else Flown(v.previous.symbol, v.previous.is_steep),
            jams={w: n for w, n in v.jams.items() if n > 0},
            rockets=v.rockets,
            skills=tuple(v.skills),
            clock=clock_for(airplane.era),
            bombs=loads,
            bomber=bool(loads),
            status={k: n for k, n in v.status.items() if n > 0},
        )
    for i, v in enumerate(situation.vehicles):
        for weapon, target in v.aim.items():
            if target not in vehicles or vehicles[target].side == v.side:
                raise DataError(
                    source,
                    f"vehicles[{i}].aim.{weapon}",
                    target,
                    "must be the id of an enemy vehicle",
                )
            vehicles[v.id].aim[weapon] = (target, 0)

    for letter in situation.damage_decks:
        if letter not in catalog.damage_decks:
            raise DataError(
                source,
                f"damage_decks.{letter}",
                letter,
                "known damage decks: " + ", ".join(sorted(catalog.damage_decks)),
            )
    piles: dict[str, list[str]] = {}
    rng = setup_rng(seed)
    counters = switches.airplane_counters or switches.tripod_counters
    for letter in sorted(catalog.damage_decks):
        if catalog.damage_decks[letter].counters and not counters:
            continue  # a game without WW2 airplanes draws no counters
        composition = catalog.damage_decks[letter].composition()
        stack = situation.damage_decks.get(letter, [])
        if not stack:  # the usual case: the whole deck, shuffled
            piles[letter] = shuffled(composition, rng)
            continue
        remaining = Counter(composition)
        for j, card in enumerate(stack):
            if remaining[card] <= 0:
                allowed = sorted(set(composition))
                raise DataError(
                    source,
                    f"damage_decks.{letter}[{j}]",
                    card,
                    "not in the deck (or more copies than it has); cards: " + ", ".join(allowed),
                )
            remaining[card] -= 1
        rest: list[str] = []
        for card in composition:
            if remaining[card] > 0:
                rest.append(card)
                remaining[card] -= 1
        piles[letter] = shuffled(rest, rng) + list(reversed(stack))
    objectives: dict[str, Objective] = {}
    for j, o in enumerate(situation.objectives):
        if o.id in objectives:
            raise DataError(source, f"objectives[{j}].id", o.id, "objective ids must be unique")
        objectives[o.id] = Objective(o.id, o.x, o.y, o.charges)
    state = GameState(rules=rules, vehicles=vehicles, piles=piles, objectives=objectives)
    if chosen is not None:
        _setup_scenario(state, situation, chosen, catalog, source)
    lay_targets(state, list(situation.targets), chosen, source)
    symbols = allowed_symbols(state)
    for i, r in enumerate(situation.reinforcements):
        reserve = state.reserves.get(r.id)
        if reserve is not None:
            for t, plan in enumerate(r.plans):
                where = f"reinforcements[{i}].plans[{t}]"
                _refuse_unused_plan(reserve, rules, plan, source, where)
    for i, v in enumerate(situation.vehicles):
        for t, plan in enumerate(v.plans):
            vehicle = state.vehicles[v.id]
            _refuse_unused_plan(vehicle, rules, plan, source, f"vehicles[{i}].plans[{t}]")
            try:
                if vehicle.tripod is not None:
                    if t == 0:
                        check_tripod_plan(state, vehicle, plan)
                    continue
                if vehicle.clock == ONE_PHASE:
                    ww2.check_plan(state, vehicle, plan, symbols)
                    continue
                check_plan_shape(v.id, plan, rules.deck_of(vehicle.type), symbols)
            except DogfightError as exc:
                raise DataError(
                    source, f"vehicles[{i}].plans[{t}]", list(plan.cards), str(exc)
                ) from None
    return state


def _refuse_unused(v: VehicleIn, kind: Kind, source: str, where: str) -> None:
    """A :class:`DataError` for the first field of ``v`` its kind does not read
    (``rules/field_use.py``): refused, not dropped."""
    try:
        refuse_unused(VEHICLE_FIELDS, kind, v.id, v)
    except UnusedFieldError as exc:
        head, _, key = exc.field.partition(".")
        value = getattr(v, head)
        raise DataError(
            source, f"{where}.{exc.field}", value[key] if key else value, str(exc)
        ) from None


def _refuse_unused_plan(
    vehicle: Vehicle, rules: Rules, plan: Plan, source: str, where: str
) -> None:
    """A :class:`DataError` naming ``where`` and the field for a plan field the vehicle
    does not read (the check ``check_plans`` makes of every plan, made here when the file
    is read so that the message names the plan's place in it)."""
    try:
        refuse_unused(PLAN_FIELDS, kind_of(vehicle, rules), vehicle.id, plan)
    except UnusedFieldError as exc:
        raise DataError(
            source, f"{where}.{exc.field}", getattr(plan, exc.field), str(exc)
        ) from None


def era_problem(airplane: Airplane, ruleset: str) -> str:
    """Why an airplane of the other era may not fly in this ruleset."""
    if airplane.era == "ww2":
        return (
            f"the {airplane.name} is a WW2 airplane: it flies in the ww2 ruleset, not "
            f'{ruleset} (or set the switch mixed_eras); 001: "These additional rules allow '
            "you to play Wings of Glory — Tripods & Triplanes using WW2 airplanes rather "
            'than WW1 ones"'
        )
    return (
        f"the {airplane.name} is a WW1 airplane and the {ruleset} ruleset flies WW2 ones "
        '(or set the switch mixed_eras); 001: "normal WW2 Wings of Glory rules and '
        'components to handle the airplanes"'
    )


def _tripod(rules: Rules, v: VehicleIn, source: str, where: str) -> Vehicle:
    assert v.type is not None and v.side is not None
    model = rules.tripod(v.type)
    resistance = rules.tripod_resistance(v.type)
    energy = model.energy if v.energy is None else v.energy
    if energy > model.energy:
        raise DataError(
            source,
            f"{where}.energy",
            energy,
            f"cannot exceed the {model.name}'s rating {model.energy}",
        )
    if v.damage >= resistance:
        raise DataError(
            source,
            f"{where}.damage",
            v.damage,
            f"must be below the {model.name}'s resistance {resistance}",
        )
    if v.pilot == "human" and model.initiative is None:
        raise DataError(
            source,
            f"{where}.pilot",
            v.pilot,
            f"the catalog gives no human-pilot initiative for the {model.name} (001: "
            '"tripod players show them one at a time, according to the initiative values '
            'indicated in the table below"); models with one: '
            + ", ".join(sorted(t.id for t in rules.catalog.tripods.values() if t.initiative)),
        )
    return Vehicle(
        id=v.id,
        type=v.type,
        side=v.side,
        pose=Pose(v.pose.x, v.pose.y, normalize_heading(v.pose.heading)),
        resistance=resistance,
        damage=v.damage,
        kind="tripod",
        tripod=TripodState(
            energy=energy,
            rating=model.energy,
            toppled=v.toppled,
            cooling=v.cooling,
            reverse_pending=v.reverse,
            human=v.pilot == "human",
        ),
        status={k: n for k, n in v.status.items() if n > 0},
    )


def with_scenario(
    situation: Situation, scenario: Scenario, catalog: Catalog, source: str
) -> Situation:
    """The situation completed from its scenario: ruleset, table, each vehicle's model
    (checked against the scenario's choices), side, rockets and skills."""
    specs = {v.id: v for v in scenario.vehicles}
    given = [v.id for v in situation.vehicles]
    if sorted(given) != sorted(specs):
        raise DataError(
            source,
            "vehicles",
            given,
            f"scenario {scenario.id} places exactly: " + ", ".join(sorted(specs)),
        )
    vehicles = []
    for i, v in enumerate(situation.vehicles):
        spec = specs[v.id]
        kind = v.type or (spec.types[0] if spec.types else None)
        if kind is None:
            raise DataError(
                source,
                f"vehicles[{i}].type",
                None,
                f"choose an airplane for {v.id} (scenario {scenario.id}: any airplane)",
            )
        allowed = spec.types or sorted(catalog.airplanes)
        if kind not in allowed:
            raise DataError(
                source,
                f"vehicles[{i}].type",
                kind,
                f"scenario {scenario.id} allows: " + ", ".join(allowed),
            )
        if v.side is not None and v.side != spec.side:
            raise DataError(
                source, f"vehicles[{i}].side", v.side, f"{v.id} is on the {spec.side} side"
            )
        vehicles.append(
            v.model_copy(
                update={
                    "type": kind,
                    "side": spec.side,
                    "rockets": v.rockets or spec.rockets,
                    "skills": v.skills or list(spec.skills),
                    "bombs": v.bombs if v.bombs is not None else spec.bombs,
                    "bomber": v.bomber or spec.bomber,
                    "pilot": v.pilot if "pilot" in v.model_fields_set else spec.pilot,
                }
            )
        )
    table = situation.table or TableIn(width=scenario.table.width, height=scenario.table.height)
    if table.width < scenario.table.width or table.height < scenario.table.height:
        raise DataError(
            source,
            "table",
            f"{table.width:g} x {table.height:g}",
            f"scenario {scenario.id} needs at least {scenario.table.width:g} x "
            f"{scenario.table.height:g} cm",
        )
    objectives = situation.objectives
    if scenario.objectives is not None:
        charges = scenario.objectives.charges
        objectives = [
            o if "charges" in o.model_fields_set else o.model_copy(update={"charges": charges})
            for o in objectives
        ]
    return situation.model_copy(
        update={
            "vehicles": vehicles,
            "ruleset": situation.ruleset or scenario.ruleset,
            "table": table,
            "objectives": objectives,
        }
    )


def _setup_scenario(
    state: GameState, situation: Situation, scenario: Scenario, catalog: Catalog, source: str
) -> None:
    """Check the placement rules and the objectives; hold the reinforcements back; let
    the engine judge the scenario's victory."""
    state.scenario = scenario
    specs = {v.id: v for v in scenario.vehicles}
    for i, v in enumerate(situation.vehicles):
        problem = placement_problem(state, scenario, specs[v.id], state.vehicles[v.id].pose)
        if problem is not None:
            raise DataError(source, f"vehicles[{i}].pose", v.pose.model_dump(), f"{v.id} {problem}")
    problem = objectives_problem(state, scenario)
    if problem is not None:
        raise DataError(source, "objectives", len(state.objectives), problem)
    asked = {r.id: (i, r) for i, r in enumerate(situation.reinforcements)}
    known = {r.id for r in scenario.reinforcements}
    for rid in asked:
        if rid not in known:
            raise DataError(
                source,
                "reinforcements",
                rid,
                "scenario reinforcements: " + (", ".join(sorted(known)) or "none"),
            )
    for spec in scenario.reinforcements:
        side = scenario.side(spec.side)
        assert side is not None
        index, wanted = asked.get(spec.id, (None, None))
        kind = (wanted.type if wanted else None) or (spec.types[0] if spec.types else None)
        allowed = spec.types or sorted(catalog.airplanes)
        if kind is None or kind not in allowed:
            raise DataError(
                source,
                f"reinforcements[{index}].type",
                kind,
                f"scenario {scenario.id} allows: " + ", ".join(allowed),
            )
        if wanted is not None:
            pose = Pose(wanted.pose.x, wanted.pose.y, normalize_heading(wanted.pose.heading))
        else:
            pose = _edge_pose(state, side.edge)
        airplane = catalog.airplanes[kind]
        state.reserves[spec.id] = Vehicle(
            id=spec.id,
            type=kind,
            side=spec.side,
            pose=pose,
            resistance=airplane.damage,
            rockets=spec.rockets,
            skills=tuple(spec.skills),
            clock=clock_for(airplane.era),
        )


def _edge_pose(state: GameState, edge: str) -> Pose:
    """The middle of an edge, 5 cm in, facing across the table."""
    w, h = state.rules.table_width, state.rules.table_height
    return {
        "south": Pose(w / 2, 5.0, 90.0),
        "north": Pose(w / 2, h - 5.0, 270.0),
        "west": Pose(5.0, h / 2, 0.0),
        "east": Pose(w - 5.0, h / 2, 180.0),
    }[edge]
