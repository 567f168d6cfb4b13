"""A batch of tables: every airplane's pose, damage, reminders, jams and aim, the plans
of the turn and the damage piles, as arrays with a leading table axis.

Airplane slots of a table are kept in the order of their ids (the referee breaks ties
by id, so slot order is id order). A table with fewer airplanes leaves slots empty
(``present`` False).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from dogfight.batch.spec import Bools, Floats, Ints, Spec
from dogfight.rules.state import GameState

REASONS = (
    "",
    "shot_down",
    "exploded",
    "out_of_control",
    "left_area",
    "engine_destroyed",
    "burned",
    "pilot_incapacitated",
)
"""Why an airplane left the game, by code (0: still in play), the referee's words."""
SHOT_DOWN, EXPLODED, OUT_OF_CONTROL, LEFT_AREA, ENGINE_DESTROYED, BURNED = 1, 2, 3, 4, 5, 6
PILOT_INCAPACITATED = 7
"""000's second wound (WW2 airplanes, batch/special.py)."""
WEAPONS = ("front", "rear")
SKILLS = ("itchy_trigger_finger", "sniper")
"""000's pilots' skills the batch plays, by index (``skills`` bits ``1 << k``, ``skill_used``
column ``k``)."""
ITCHY, SNIPER = 0, 1
NEVER = -1000
"""``skill_used`` of a skill never used (ready: at least 5 phases before any phase)."""
SKILL_REST = 5
"""000: "once every 5 phases"."""


@dataclass(frozen=True)
class Victories:
    """The scenario's conditions, in order, on the batch's slots (every table of a
    scenario has the same vehicle ids, so the same slots)."""

    scenario: str
    kind: tuple[int, ...]
    side: tuple[int, ...]
    """The winning side's index in ``BatchState.side_names`` (-1: a side with no vehicle)."""
    vehicles: Bools
    """(C, N) the vehicles a ``destroy`` condition lists."""
    left_counts: tuple[bool, ...]
    objectives: tuple[int, ...]
    exit_edge: tuple[int, ...]


@dataclass
class BatchState:
    """B tables of up to N airplanes each. Arrays are indexed [table, slot, ...]."""

    spec: Spec
    present: Bools
    alive: Bools
    side: Ints
    """Index into ``side_names``."""
    type: Ints
    x: Floats
    y: Floats
    heading: Floats
    damage: Ints
    resistance: Ints
    prev_symbol: Ints
    """Symbol index of the last maneuver flown, -1 before the first."""
    prev_steep: Bools
    jams: Ints
    """(B, N, 2) jam counters left on the front and rear weapons."""
    aim: Ints
    """(B, N, 2) the slot each weapon fired at in the previous phase, -1 for none."""
    reason: Ints
    observer: Bools
    """002: the two-seater's observer is out (no rear gun)."""
    engine: Ints
    """Engine hits (002, 003)."""
    smoke: Ints
    """Smoke counters left (002: no tailing)."""
    fire: Ints
    """Flame counters left (002: an A card as each turn begins; no tailing)."""
    rudder: Ints
    """(B, N, 2) the turn a jammed rudder forbids left / right arrows (0: none); a WW2
    airplane's turn is an Earthling turn (:func:`dogfight.batch.special.clock`)."""
    wounded: Ints
    """000: wounds taken (a second one eliminates the vehicle)."""
    exit_edge: Ints
    """(B, N) the edge a vehicle's centre left the table across (``scenario.EDGES``), -1
    for none."""
    skills: Ints
    """(B, N) the pilot's skills, bits ``1 << k`` of :data:`SKILLS`."""
    skill_used: Ints
    """(B, N, 2) the phase number (``phases_played``) each skill was last used in
    (:data:`NEVER`: not yet); ready again 5 phases later."""
    gyroscope: Ints
    """000, a tripod: the turn its gyroscope out of order forbids a change of facing (0:
    none)."""
    reverse_out: Bools
    """000, a tripod: its reverse mechanism destroyed (no reverse card)."""
    smoke_out: Bools
    """000, a tripod: its black smoke generator disabled (the batch lays no black smoke:
    kept for the referee's status)."""
    tailing: Bools
    """(B, N, N) 002's tailing this turn: [tailer, tailed]."""
    plan: Ints
    """(B, N, 3) global card indexes of the turn's plan, -1 when not planned."""
    order: Ints
    """(B, D, S) each damage pile's slots, bottom first; ``order[b, d, top - 1]`` is next."""
    top: Ints
    holder: Ints
    """(B, D, S) the airplane slot holding each physical card, -1 when it is not held."""
    drawn_at: Ints
    """(B, D, S) when each held card was drawn (a running count): the order the referee
    keeps a vehicle's cards in, which is the order they go back into the pile."""
    clock: Ints
    """(B,) cards drawn so far on each table (stamps ``drawn_at``)."""
    turn: Ints
    phase: Ints
    phases_played: Ints
    over: Bools
    winner: Ints
    """Side index of the winner, -1 for none (a draw, or not over)."""
    dealt: Ints
    """(B, N, 2) damage points each weapon has dealt this game."""
    illegal_points: Ints
    """(B,) damage points of illegal-maneuver cards this game."""
    tripod: Bools
    """(B, N) the slot holds a Martian tripod (``type`` is then 0; its model is ``ttype``)."""
    ttype: Ints
    """(B, N) tripod model index (``Spec.tripods``), 0 for airplanes."""
    energy: Ints
    """(B, N) a tripod's Energy tokens."""
    rating: Ints
    """(B, N) its Energy rating (the most it can hold)."""
    toppled: Ints
    """(B, N) reminder tokens in the "toppled" box (2 when it topples, 0 standing)."""
    cooling: Ints
    """(B, N) heat-ray recovery tokens."""
    reverse: Bools
    """(B, N) the last card was a reverse: the next movement card is applied backwards."""
    moving: Ints
    """(B, N) movement cards revealed this turn."""
    steadied: Bools
    """(B, N) a stationary or running card was revealed this turn."""
    tplan: Ints
    """(B, N, 3) a tripod's cards of the turn (global tripod card indexes), -1 for none:
    a toppled tripod plans only the last phases."""
    pencil: Ints
    """(B, N, 3) the green token pencilled in the plan for each phase (``tripod_spec``'s
    codes: none, a recharge or destroying an objective), the default a computer player's
    token choice may keep (``bots.tokens.choose_token``)."""
    pencil_target: Ints
    """(B, N, 3) the objective the pencilled token names (-1: none named)."""
    token: Ints
    """(B, N) the action token chosen for the phase about to be resolved
    (``tripod_spec.TOKENS``), set by the policy before each phase."""
    token_arg: Ints
    """(B, N) the token's projector side (heat-ray) or sides turned (change of facing)."""
    token_target: Ints
    """(B, N) the heat-ray's chosen target slot, -1 for the nearest it reaches; for a
    recharge or destroying an objective, the objective named (-1: none named)."""
    obj_x: Floats
    """(B, O) objective tokens on the table (``objective_ids``): centres."""
    obj_y: Floats
    obj_charges: Ints
    """(B, O) recharges each can still give."""
    obj_destroyed: Bools
    """(B, O) destroyed (or not on this table)."""
    side_names: tuple[str, ...]
    names: list[tuple[str, ...]] = field(default_factory=list)
    objective_ids: tuple[str, ...] = ()
    """The objectives' ids, the same on every table (one missing from a table is
    destroyed there)."""
    """Per table, the vehicle id of each slot (empty strings for empty slots)."""
    victories: Victories | None = None
    """A scenario's victory conditions (None: the last side in play wins)."""
    referee: GameState | None = field(default=None, repr=False, compare=False)
    """A referee state of these tables' rules and scenario (the first table the batch was
    made from), for policies that plan through the referee's bots
    (:func:`dogfight.batch.bridge.to_state`)."""
    trig: tuple[Floats, Floats, Floats] | None = field(default=None, repr=False, compare=False)
    """A memo of :func:`heading_trig`: headings and their cosines and sines."""

    @property
    def tables(self) -> int:
        return int(self.present.shape[0])

    @property
    def slots(self) -> int:
        return int(self.present.shape[1])

    def weapon_deck(self) -> Ints:
        """(B, N, 2) damage deck of each weapon, -1 for none."""
        out: Ints = self.spec.type_weapon_deck[self.type]
        return out

    def copy(self) -> BatchState:
        out = copy.copy(self)
        for k, v in self.__dict__.items():
            if isinstance(v, np.ndarray):
                setattr(out, k, v.copy())
        out.names = list(self.names)
        return out


def heading_trig(state: BatchState) -> tuple[Floats, Floats]:
    """cos and sin of every airplane's heading (B, N), for reading only.

    Kept from call to call with the headings they are of, and computed again only for
    the headings that changed since (a phase turns some airplanes, a new game others):
    ``cos`` costs as much as twenty additions, and the move, the firing and the plans
    all need them."""
    h = state.heading
    memo = state.trig
    if memo is None or memo[0].shape != h.shape:
        rad = np.radians(h)
        c, s = np.cos(rad), np.sin(rad)
        state.trig = (h.copy(), c, s)
        return c, s
    old, c, s = memo
    changed = np.flatnonzero(old != h)
    if len(changed):
        value = h.ravel()[changed]
        rad = np.radians(value)
        old.ravel()[changed] = value
        c.ravel()[changed] = np.cos(rad)
        s.ravel()[changed] = np.sin(rad)
    return c, s


def empty_state(
    spec: Spec,
    tables: int,
    slots: int,
    side_names: tuple[str, ...],
    objective_ids: tuple[str, ...] = (),
) -> BatchState:
    """A batch with no airplanes placed and full, unshuffled piles (callers fill it)."""
    b, n, d, s = tables, slots, len(spec.damage_ids), spec.slots
    o = len(objective_ids)
    order = np.broadcast_to(np.arange(s, dtype=np.int64), (b, d, s)).copy()
    return BatchState(
        spec=spec,
        present=np.zeros((b, n), dtype=np.bool_),
        alive=np.zeros((b, n), dtype=np.bool_),
        side=np.zeros((b, n), dtype=np.int64),
        type=np.zeros((b, n), dtype=np.int64),
        x=np.zeros((b, n)),
        y=np.zeros((b, n)),
        heading=np.zeros((b, n)),
        damage=np.zeros((b, n), dtype=np.int64),
        resistance=np.ones((b, n), dtype=np.int64),
        prev_symbol=np.full((b, n), -1, dtype=np.int64),
        prev_steep=np.zeros((b, n), dtype=np.bool_),
        jams=np.zeros((b, n, 2), dtype=np.int64),
        aim=np.full((b, n, 2), -1, dtype=np.int64),
        reason=np.zeros((b, n), dtype=np.int64),
        observer=np.zeros((b, n), dtype=np.bool_),
        engine=np.zeros((b, n), dtype=np.int64),
        smoke=np.zeros((b, n), dtype=np.int64),
        fire=np.zeros((b, n), dtype=np.int64),
        rudder=np.zeros((b, n, 2), dtype=np.int64),
        wounded=np.zeros((b, n), dtype=np.int64),
        exit_edge=np.full((b, n), -1, dtype=np.int64),
        skills=np.zeros((b, n), dtype=np.int64),
        skill_used=np.full((b, n, 2), NEVER, dtype=np.int64),
        gyroscope=np.zeros((b, n), dtype=np.int64),
        reverse_out=np.zeros((b, n), dtype=np.bool_),
        smoke_out=np.zeros((b, n), dtype=np.bool_),
        tailing=np.zeros((b, n, n), dtype=np.bool_),
        plan=np.full((b, n, 3), -1, dtype=np.int64),
        order=order,
        top=np.broadcast_to(spec.damage_size, (b, d)).copy(),
        holder=np.full((b, d, s), -1, dtype=np.int64),
        drawn_at=np.zeros((b, d, s), dtype=np.int64),
        clock=np.zeros(b, dtype=np.int64),
        turn=np.ones(b, dtype=np.int64),
        phase=np.zeros(b, dtype=np.int64),
        phases_played=np.zeros(b, dtype=np.int64),
        over=np.zeros(b, dtype=np.bool_),
        winner=np.full(b, -1, dtype=np.int64),
        dealt=np.zeros((b, n, 2), dtype=np.int64),
        illegal_points=np.zeros(b, dtype=np.int64),
        tripod=np.zeros((b, n), dtype=np.bool_),
        ttype=np.zeros((b, n), dtype=np.int64),
        energy=np.zeros((b, n), dtype=np.int64),
        rating=np.zeros((b, n), dtype=np.int64),
        toppled=np.zeros((b, n), dtype=np.int64),
        cooling=np.zeros((b, n), dtype=np.int64),
        reverse=np.zeros((b, n), dtype=np.bool_),
        moving=np.zeros((b, n), dtype=np.int64),
        steadied=np.zeros((b, n), dtype=np.bool_),
        tplan=np.full((b, n, 3), -1, dtype=np.int64),
        pencil=np.zeros((b, n, 3), dtype=np.int64),
        pencil_target=np.full((b, n, 3), -1, dtype=np.int64),
        token=np.zeros((b, n), dtype=np.int64),
        token_arg=np.zeros((b, n), dtype=np.int64),
        token_target=np.full((b, n), -1, dtype=np.int64),
        obj_x=np.zeros((b, o)),
        obj_y=np.zeros((b, o)),
        obj_charges=np.zeros((b, o), dtype=np.int64),
        obj_destroyed=np.ones((b, o), dtype=np.bool_),
        side_names=side_names,
        objective_ids=objective_ids,
        names=[("",) * n for _ in range(b)],
    )


def shuffle_piles(state: BatchState, rows: Ints, rng: np.random.Generator) -> None:
    """Give tables ``rows`` full, freshly shuffled damage piles (a new game's decks).

    Only the piles their vehicles can draw from are shuffled (their weapons' and heat-rays'
    decks, the illegal maneuvers' and the flames' deck): no card of another pile is ever drawn, so
    its order does not matter."""
    spec = state.spec
    s = state.order.shape[2]
    weapons = spec.type_weapon_deck[state.type[rows][state.present[rows]]].ravel()
    rays = spec.tripods.type_ray_deck[state.ttype[rows][state.tripod[rows]]]
    drawable = np.union1d(
        np.union1d(weapons[weapons >= 0], rays), [spec.illegal_deck, spec.fire_deck]
    )
    order = np.empty((len(rows), len(drawable), s), dtype=state.order.dtype)
    for k, d in enumerate(drawable.tolist()):
        size = int(spec.damage_size[d])
        order[:, k, :size] = rng.permuted(
            np.broadcast_to(np.arange(size), (len(rows), size)), axis=1
        )
        order[:, k, size:] = np.arange(size, s)
    state.order[rows[:, None], drawable] = order
    state.top[rows] = spec.damage_size[None, :]
    state.holder[rows] = -1


def _arrays(state: BatchState) -> list[str]:
    return [k for k, v in state.__dict__.items() if isinstance(v, np.ndarray)]


def tile(template: BatchState, tables: int) -> BatchState:
    """A batch of ``tables`` copies of the template's first table."""
    out = copy.copy(template)
    for k in _arrays(template):
        value = getattr(template, k)
        setattr(out, k, np.repeat(value[:1], tables, axis=0))
    out.names = [template.names[0]] * tables
    return out


def take(state: BatchState, rows: Ints) -> BatchState:
    """A batch of the tables ``rows`` only (copies)."""
    out = copy.copy(state)
    for k in _arrays(state):
        setattr(out, k, getattr(state, k)[rows])
    out.names = [state.names[int(b)] for b in rows]
    return out


def reset(state: BatchState, rows: Ints, template: BatchState, rng: np.random.Generator) -> None:
    """Start new games on tables ``rows``: the template's first table (a template of
    several tables, e.g. a scenario's setups: one of them at random for each), new
    piles."""
    if template.tables == 1:
        for k in _arrays(state):
            if k not in _PILES:
                getattr(state, k)[rows] = getattr(template, k)[0]
    else:
        pick = rng.integers(template.tables, size=len(rows))
        for k in _arrays(state):
            if k not in _PILES:
                getattr(state, k)[rows] = getattr(template, k)[pick]
        for r, p in zip(rows.tolist(), pick.tolist(), strict=True):
            state.names[r] = template.names[p]
    shuffle_piles(state, rows, rng)


_PILES = frozenset({"order", "top", "holder", "drawn_at"})
"""What :func:`shuffle_piles` sets anew (``drawn_at`` matters only for held cards: it
stays)."""
