"""Game state: the one mutable thing, copied cheaply before every change so that the
resolver never alters the state it was given."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from operator import attrgetter

from dogfight.catalog.models import Scenario
from dogfight.geometry.frozen import fast_init
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules.blows import Blow
from dogfight.rules.clocks import ONE_PHASE, THREE_PHASES, Clock, plans_at
from dogfight.rules.context import Rules
from dogfight.rules.events import GameOver
from dogfight.rules.plans import Flown, Plan

_NEW = object.__new__
"""Makes an instance without calling ``__init__`` (the copies store every slot)."""

BY_ID = attrgetter("id")
"""The sort key of vehicles taken in id order (``key=lambda v: v.id`` without a Python
call per vehicle)."""


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
        """A copy made as :meth:`Vehicle.copy` is (one store per slot, no ``__init__``); a
        new field must be added here (``tests/test_rules_state.py`` fails until it is)."""
        new: TripodState = _NEW(TripodState)
        new.energy = self.energy
        new.rating = self.rating
        new.toppled = self.toppled
        new.cooling = self.cooling
        new.smoke_recovery = self.smoke_recovery
        new.reverse_pending = self.reverse_pending
        new.movement_cards = self.movement_cards
        new.steadied = self.steadied
        new.human = self.human
        return new


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
    reached: bool = False
    """A tripod's base has overlapped it (001: "reaches all three objective templates")."""


@fast_init
@dataclass(frozen=True, slots=True)
class Cloud:
    """A Black Smoke cloud template on the table."""

    id: str
    x: float
    y: float
    radius: float


@fast_init
@dataclass(frozen=True, slots=True)
class Salvo:
    """Rockets in flight: launched at ``phase_number`` (the game's count of phases)."""

    firer: str
    target: str
    count: int
    phase_number: int


@fast_init
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
class TargetCard:
    """A mission's target card on the table (002: "Place target cards (for bombing/photo
    missions) as specified in scenarios."), and how the mission stands."""

    id: str
    """The mission's id."""
    mission: str
    """``bombing`` or ``photo``."""
    side: str
    """The side flying the mission."""
    pose: Pose
    """The card's centre and the heading of its long side."""
    length: float
    width: float
    carriers: tuple[str, ...] = ()
    """The airplanes carrying the bombs or the camera (empty: any of ``side``)."""
    points: int = 2
    home: str | None = None
    """The side's own table edge (002: "exiting from own side")."""
    done_by: str | None = None
    """The airplane that accomplished the mission (None: not yet)."""
    done_at: int | None = None
    """The game's count of phases when it did."""

    def carried_by(self, vehicle: Vehicle) -> bool:
        """Whether ``vehicle`` carries this mission's bombs or camera."""
        if vehicle.side != self.side or vehicle.kind != "airplane":
            return False
        return not self.carriers or vehicle.id in self.carriers


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
    blows: tuple[Blow, ...] = ()
    """Every damage card it took, in order, with where it came from (R33: what brought it
    down, :mod:`dogfight.rules.blows`); a tuple, shared by copies."""
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
    clock: Clock = THREE_PHASES
    """Its turn: 000's three phases (tripods, WW1 airplanes) or the WW2 Earthling turn of
    one phase (001), see ``rules/clocks.py``."""

    @property
    def in_play(self) -> bool:
        return self.eliminated is None

    def copy(self) -> Vehicle:
        """An independent copy: its lists and dicts and its tripod console are copied,
        immutable values (pose, plan, tuples) shared. Made with ``object.__new__`` and one
        store per slot, without the dataclass's ``__init__`` (its 22 arguments and default
        factories cost a quarter of a copy, and a phase copies every vehicle); a new field
        must be added here (``tests/test_rules_state.py`` fails until it is)."""
        new: Vehicle = _NEW(Vehicle)
        new.id = self.id
        new.type = self.type
        new.side = self.side
        new.pose = self.pose
        new.resistance = self.resistance
        new.damage = self.damage
        # a new empty container costs less than copying an empty one (most are empty)
        held = self.held
        new.held = held.copy() if held else []
        new.blows = self.blows
        new.eliminated = self.eliminated
        new.previous = self.previous
        jams = self.jams
        new.jams = jams.copy() if jams else {}
        aim = self.aim
        new.aim = aim.copy() if aim else {}
        new.rockets = self.rockets
        new.plan = self.plan
        new.kind = self.kind
        tripod = self.tripod
        new.tripod = None if tripod is None else tripod.copy()
        status = self.status
        new.status = status.copy() if status else {}
        new.skills = self.skills
        skill_used = self.skill_used
        new.skill_used = skill_used.copy() if skill_used else {}
        new.exit_edge = self.exit_edge
        new.bombs = self.bombs
        new.bomber = self.bomber
        new.clock = self.clock
        return new


@dataclass(slots=True)
class GameState:
    """Where a game stands between two steps.

    ``phase`` is 0 while plans are awaited, then 1..3 for the last resolved action phase.
    ``piles`` are the damage decks' draw piles, the next card last. A pile's list is never
    changed in place (a draw or a shuffle puts a new list: ``rules/decks.py``), so copies
    of the state share the lists.
    """

    rules: Rules
    vehicles: dict[str, Vehicle]
    piles: dict[str, list[str]]
    turn: int = 1
    phase: int = 0
    phases_played: int = 0
    winner: str | None = None
    over: bool = False
    result: GameOver | None = None
    """The game's one judgement once it is over (:func:`dogfight.rules.victory.check_victory`):
    what every reader of the ending (page, terminal, log, simulate, campaigns) says."""
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
    targets: dict[str, TargetCard] = field(default_factory=dict)
    """Missions' target cards (002), by mission id."""
    home_after_mission: list[str] = field(default_factory=list)
    """Airplanes that left the table across their own side's edge after their side's
    mission succeeded (002: "After success, exiting from own side no longer gives enemy
    points")."""

    def copy(self) -> GameState:
        """An independent copy for the resolver to change (vehicles copied by
        :meth:`Vehicle.copy`, objectives and lists copied, the piles' lists shared: they
        are never changed in place), made as :meth:`Vehicle.copy` is, the containers that
        are empty in most games copied without a comprehension; a new field must be added
        here (``tests/test_rules_state.py`` fails until it is)."""
        new: GameState = _NEW(GameState)
        new.rules = self.rules
        # plain loops: a comprehension costs a function object and a frame, each phase
        vehicles = {}
        for k, v in self.vehicles.items():
            vehicles[k] = v.copy()
        new.vehicles = vehicles
        new.piles = self.piles.copy()  # the lists shared (copying them cost a third)
        new.turn = self.turn
        new.phase = self.phase
        new.phases_played = self.phases_played
        new.winner = self.winner
        new.over = self.over
        new.result = self.result
        objectives = self.objectives
        new.objectives = {k: replace(o) for k, o in objectives.items()} if objectives else {}
        new.salvos = list(self.salvos)
        new.clouds = list(self.clouds)
        new.clouds_placed = self.clouds_placed
        new.scenario = self.scenario
        reserves = self.reserves
        new.reserves = {k: v.copy() for k, v in reserves.items()} if reserves else {}
        new.phase_cards = dict(self.phase_cards)
        new.bomb_cards = list(self.bomb_cards)
        new.tailing = dict(self.tailing)
        targets = self.targets
        new.targets = {k: replace(t) for k, t in targets.items()} if targets else {}
        new.home_after_mission = list(self.home_after_mission)
        return new

    def bomb_card(self, card: BombCard) -> Polygon:
        """The bomb card's outline (constants ``[tripods.bomb_card]``)."""
        spec = self.rules.catalog.constants.tripods.bomb_card
        return rectangle(card.pose, spec.length, spec.width)

    def target_card(self, card: TargetCard) -> Polygon:
        """A target card's outline."""
        return rectangle(card.pose, card.length, card.width)

    def base(self, vehicle: Vehicle) -> Polygon:
        if vehicle.kind == "tripod":
            return hexagon(vehicle.pose, self.rules.hex_side)
        return rectangle(vehicle.pose, self.rules.base_length, self.rules.base_width)

    def in_play(self) -> list[Vehicle]:
        """The vehicles not eliminated, in table order (a plain loop: a comprehension's
        function object and frame cost more than the loop over a few vehicles, and a
        phase asks this several times)."""
        out = []
        for v in self.vehicles.values():
            if v.eliminated is None:
                out.append(v)
        return out

    def sides(self) -> list[str]:
        return sorted({v.side for v in self.vehicles.values()})

    def planning_due(self) -> list[str]:
        """The vehicles that plan in the coming planning phase: all of them before a
        Martian turn, the WW2 airplanes (one new card and speed) before its second and
        third action phases (001, "PLANNING")."""
        if self.over:
            return []
        if self.phase == 0:
            return [v.id for v in self.in_play()]
        due = []  # a plain loop (asked before every phase): see in_play
        for v in self.vehicles.values():
            if (
                v.clock == ONE_PHASE  # tested first: most vehicles are on THREE_PHASES
                and v.eliminated is None
                and plans_at(v.clock, self.phase)
                and (v.plan is None or len(v.plan.cards) <= self.phase)
            ):
                due.append(v.id)
        return due

    def awaiting_plans(self) -> bool:
        return not self.over and (self.phase == 0 or bool(self.planning_due()))
