"""A bot's picture of the game, rebuilt from one seat's observation.

A bot never sees the game state. :func:`rebuild` turns what a seat's observation shows
(poses, sides, types, the last maneuver flown, jam counters, rockets, aim markers, tripod
consoles, objectives, and for the seat's own vehicles their damage, damage cards and
plan) into a :class:`~dogfight.rules.state.GameState` the bot may simulate moves and
shots on with the ordinary rules code. What the seat cannot see is filled with neutral
guesses: an enemy's damage is 0, the damage decks are in catalog order, special damage
that only shows on an enemy's console is unknown.

Special damage on the seat's own airplanes forbids some plans under the Standard Rules
(a jammed rudder, a damaged engine, a fire). The observation lists the seat's own damage
cards; :class:`StatusTracker` remembers when each card first appeared and works out
which restrictions still hold, erring on the restrictive side (a restriction wrongly
assumed only narrows the plans, never makes one illegal).

The second half of the module is the numeric planning model: maneuver cards as arrays,
every legal three-card plan of a deck as an index array, and poses moved by whole
arrays of cards at once (the same arithmetic as
:func:`dogfight.geometry.maneuver.apply_card`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import (
    Direction,
    ManeuverCard,
    ManeuverDeck,
    Special,
    Symbol,
    TripodCard,
    TripodDeck,
)
from dogfight.geometry.pose import Pose
from dogfight.rules.arrays import Bools as Bools
from dogfight.rules.arrays import Floats as Floats
from dogfight.rules.arrays import Ints as Ints
from dogfight.rules.clocks import clock_for
from dogfight.rules.context import Rules
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.missions import targets_of
from dogfight.rules.plans import BASIC, Flown, Plan, Restrictions, card_problem, plan_problems
from dogfight.rules.standard import AIRPLANE_ONLY, TRIPOD_ONLY
from dogfight.rules.state import GameState, Objective, TripodState, Vehicle

Observation = Mapping[str, Any]


# --- the seat's own special damage -----------------------------------------------------


@dataclass
class StatusTracker:
    """Remembers, per own vehicle, the damage cards seen so far and the turn each was
    drawn in, to work out the Standard Rules' lasting restrictions.

    A card first seen while planning turn T was drawn during turn T - 1; one first seen
    during turn T (after phase 1 or 2) was drawn during turn T. Cards seen for the first
    time with no history are taken as drawn in the last turn (the most restrictive).
    """

    seen: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """vehicle -> (deck:card, turn drawn) for every card ever seen, in order."""
    held: dict[str, list[str]] = field(default_factory=dict)
    """vehicle -> the damage cards it held at the last observation."""

    def update(self, observation: Observation, seat: Collection[str]) -> None:
        turn = int(observation["turn"])
        phase = int(observation["phase"])
        drawn_in = turn if phase > 0 else turn - 1
        for v in observation["vehicles"]:
            if v["id"] not in seat or "damage_cards" not in v:
                continue
            current = list(v["damage_cards"])
            before = self.held.get(v["id"], [])
            new = current[_common_prefix(before, current) :]
            self.seen.setdefault(v["id"], []).extend((card, drawn_in) for card in new)
            self.held[v["id"]] = current

    def status(self, vehicle: str, rules: Rules, turn: int, tripod: bool) -> dict[str, int]:
        """The lasting effects the seen cards leave at the planning of ``turn``, in the
        form of :attr:`dogfight.rules.state.Vehicle.status`."""
        if rules.specials != "000":
            return {}
        specs = {
            (letter, c.id): c
            for letter, deck in rules.catalog.damage_decks.items()
            for c in deck.cards
        }
        status: dict[str, int] = {}
        smoke_until = -1
        fire_from: int | None = None
        for name, drawn in self.seen.get(vehicle, []):
            letter, _, card_id = name.partition(":")
            spec = specs.get((letter, card_id))
            if spec is None:
                continue
            for special in spec.specials:
                if special in (AIRPLANE_ONLY if tripod else TRIPOD_ONLY):
                    continue
                if special is Special.ENGINE:
                    status["engine"] = status.get("engine", 0) + 1
                elif special is Special.WOUNDED_PILOT:
                    status["wounded"] = status.get("wounded", 0) + 1
                elif special in (Special.RUDDER_LEFT, Special.RUDDER_RIGHT, Special.GYROSCOPE):
                    if drawn + 1 == turn:
                        status[special.value] = turn
                elif special is Special.REVERSE_DESTROYED or special is Special.SMOKE_GENERATOR:
                    status[special.value] = 1
                elif special is Special.FIRE:
                    fire_from = drawn
                elif special is Special.SMOKE:
                    if drawn <= smoke_until:
                        fire_from, smoke_until = drawn, -1
                    else:
                        smoke_until = drawn + 2
        if fire_from is not None and turn - 3 <= fire_from <= turn - 1 and not tripod:
            status["fire"] = 3 - (turn - 1 - fire_from)
        return status


def _common_prefix(before: list[str], current: list[str]) -> int:
    """How many of ``current``'s cards were already held: ``before`` less the cards of a
    damage deck reshuffled since (those go back), when that is a prefix of ``current``."""
    candidates = [before]
    for letter in sorted({c.partition(":")[0] for c in before}):
        candidates.append([c for c in before if c.partition(":")[0] != letter])
    best = 0
    for candidate in candidates:
        if current[: len(candidate)] == candidate:
            best = max(best, len(candidate))
    return best


# --- the rebuilt state -----------------------------------------------------------------


def _pose(data: Mapping[str, Any]) -> Pose:
    return Pose(float(data["x"]), float(data["y"]), float(data["heading"]))


def _held(text: str) -> tuple[str, str]:
    letter, _, card = text.partition(":")
    return letter, card


_COMPOSITIONS: dict[int, tuple[object, dict[str, list[str]]]] = {}


def _compositions(catalog: Catalog) -> dict[str, list[str]]:
    """Every damage deck's full composition (cached per catalog: a bot rebuilds its view
    every turn)."""
    hit = _COMPOSITIONS.get(id(catalog))
    if hit is not None and hit[0] is catalog:
        return hit[1]
    piles = {letter: deck.composition() for letter, deck in sorted(catalog.damage_decks.items())}
    _COMPOSITIONS[id(catalog)] = (catalog, piles)
    return piles


def rebuild(
    observation: Observation,
    rules: Rules,
    seat: Collection[str] = (),
    tracker: StatusTracker | None = None,
) -> GameState:
    """A game state consistent with the observation; hidden facts take neutral values
    (enemy damage 0, enemy special damage none, damage decks in catalog order)."""
    catalog = rules.catalog
    turn = int(observation["turn"])
    phase = int(observation["phase"])
    vehicles: dict[str, Vehicle] = {}
    for v in observation["vehicles"]:
        kind = "tripod" if v["type"] in catalog.tripods else "airplane"
        own = "damage" in v
        resistance = (
            int(v["resistance"])
            if "resistance" in v
            else (
                rules.tripod_resistance(v["type"])
                if kind == "tripod"
                else catalog.airplane(v["type"]).damage
            )
        )
        previous = v.get("previous")
        tripod = None
        if kind == "tripod":
            tripod = TripodState(
                energy=int(v.get("energy", 0)),
                rating=int(v.get("energy_rating", catalog.tripods[v["type"]].energy)),
                toppled=int(v.get("toppled", 0)),
                cooling=int(v.get("cooling", 0)),
                reverse_pending=bool(v.get("reverse", False)),
                human=v.get("pilot") == "human",
            )
        status: dict[str, int] = {}
        if own and "status" in v:
            status = {str(k): int(n) for k, n in v["status"].items()}
        elif own and tracker is not None and v["id"] in seat:
            status = tracker.status(v["id"], rules, turn, tripod is not None)
        plan = None
        if "plan" in v and v["plan"] is not None:
            plan = Plan.model_validate(v["plan"])
        vehicles[v["id"]] = Vehicle(
            id=v["id"],
            type=v["type"],
            side=v["side"],
            pose=_pose(v["pose"]),
            resistance=resistance,
            damage=int(v.get("damage", 0)),
            held=[_held(c) for c in v.get("damage_cards", [])],
            eliminated=v.get("eliminated"),
            previous=(
                None
                if previous is None
                else Flown(Symbol(previous["symbol"]), bool(previous.get("steep", False)))
            ),
            jams={str(w): int(n) for w, n in v.get("jams", {}).items() if int(n) > 0},
            aim={str(w): (str(a["target"]), int(a["phase"])) for w, a in v.get("aim", {}).items()},
            rockets=int(v.get("rockets", 0)),
            plan=plan,
            kind=kind,
            tripod=tripod,
            status=status,
            bombs=int(v.get("bombs", 0)),
            bomber="bombs" in v,
            clock=clock_for(rules.era(v["type"])),
        )
    objectives = {
        o["id"]: Objective(
            o["id"],
            float(o["x"]),
            float(o["y"]),
            int(o["charges"]),
            bool(o["destroyed"]),
            reached=bool(o.get("reached", False)),
        )
        for o in observation.get("objectives", [])
    }
    piles = {letter: list(pile) for letter, pile in _compositions(catalog).items()}
    return GameState(
        rules=rules,
        vehicles=vehicles,
        piles=piles,
        turn=turn,
        phase=phase,
        phases_played=3 * (turn - 1) + phase,
        winner=observation.get("winner"),
        over=bool(observation.get("over", False)),
        objectives=objectives,
        targets=targets_of(observation.get("targets", [])),
    )


def guess_scenario(observation: Observation, rules: Rules) -> str | None:
    """The catalog scenario being played (a scenario is public knowledge): the one whose
    forces, models, objective count and table match what is on the table; None when
    none or several do (remembered per catalog and what it depends on: a bot asks
    every turn)."""
    forces = tuple(sorted((v["id"], v["side"], v["type"]) for v in observation["vehicles"]))
    objectives = len(observation.get("objectives", []))
    table = observation.get("table", {})
    size = (bool(table), table.get("width"), table.get("height"))
    key = (id(rules.catalog), forces, objectives, size)
    hit = _GUESSES.get(key)
    if hit is not None and hit[0] is rules.catalog:
        return hit[1]
    guess = _guess_scenario(rules.catalog, forces, objectives, table)
    if len(_GUESSES) >= 256:
        _GUESSES.clear()
    _GUESSES[key] = (rules.catalog, guess)
    return guess


_GUESSES: dict[tuple[object, ...], tuple[Catalog, str | None]] = {}


def _guess_scenario(
    catalog: Catalog,
    forces: tuple[tuple[str, str, str], ...],
    objectives: int,
    table: Mapping[str, Any],
) -> str | None:
    on_table = {(vid, side) for vid, side, _ in forces}
    types = {vid: kind for vid, _, kind in forces}
    found: list[str] = []
    for sid, scenario in sorted(catalog.scenarios.items()):
        specs = {v.id: v for v in (*scenario.vehicles, *scenario.reinforcements)}
        allowed = {(v.id, v.side) for v in specs.values()}
        base = {(v.id, v.side) for v in scenario.vehicles}
        if not base <= on_table <= allowed:
            continue
        if any(specs[vid].types and kind not in specs[vid].types for vid, kind in types.items()):
            continue
        count = scenario.objectives.count if scenario.objectives is not None else 0
        if objectives != count:
            continue
        if table and (
            table.get("width") != scenario.table.width
            or table.get("height") != scenario.table.height
        ):
            continue
        found.append(sid)
    return found[0] if len(found) == 1 else None


# --- maneuver cards as arrays ----------------------------------------------------------


@dataclass(frozen=True)
class CardTable:
    """A maneuver deck as arrays (index i is ``cards[i]``)."""

    ids: tuple[str, ...]
    forward: Floats
    left: Floats
    turn: Floats


_TABLES: dict[int, tuple[object, CardTable]] = {}
_SEQUENCES: dict[
    tuple[int, Flown | None, frozenset[Symbol], Restrictions], tuple[object, Ints]
] = {}


def card_table(deck: ManeuverDeck | TripodDeck) -> CardTable:
    """The deck's cards as arrays (cached per deck object)."""
    hit = _TABLES.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    cards: list[ManeuverCard] | list[TripodCard] = deck.cards
    table = CardTable(
        tuple(c.id for c in cards),
        np.array([c.forward for c in cards], dtype=np.float64),
        np.array([c.left for c in cards], dtype=np.float64),
        np.array([c.turn for c in cards], dtype=np.float64),
    )
    _TABLES[id(deck)] = (deck, table)
    return table


_FOLLOWS: dict[tuple[int, Restrictions], tuple[object, Bools]] = {}
_OPENS: dict[tuple[int, Flown | None, Restrictions], tuple[object, Bools]] = {}


def follows(deck: ManeuverDeck, restrictions: Restrictions = BASIC) -> Bools:
    """``ok[a, b]``: card ``b`` may be flown right after card ``a`` within a turn without
    breaking a flight restriction (:func:`~dogfight.rules.plans.card_problem`; cached per
    deck and restrictions)."""
    key = (id(deck), restrictions)
    hit = _FOLLOWS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    cards = deck.cards
    out = np.array(
        [
            [card_problem(after, b, False, restrictions) is None for b in cards]
            for after in (Flown(a.symbol, a.is_steep) for a in cards)
        ],
        dtype=np.bool_,
    ).reshape(len(cards), len(cards))
    _FOLLOWS[key] = (deck, out)
    return out


def opens(deck: ManeuverDeck, previous: Flown | None, restrictions: Restrictions = BASIC) -> Bools:
    """``ok[a]``: card ``a`` may open a turn after ``previous`` (cached)."""
    key = (id(deck), previous, restrictions)
    hit = _OPENS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    out = np.array(
        [card_problem(previous, c, True, restrictions) is None for c in deck.cards],
        dtype=np.bool_,
    )
    _OPENS[key] = (deck, out)
    return out


def legal_mask(
    deck: ManeuverDeck, previous: Flown | None, rows: Ints, restrictions: Restrictions = BASIC
) -> Bools:
    """Which plans (rows of card indexes) break no flight restriction after ``previous``:
    ``plan_problems`` is empty exactly when each card may follow the one before it."""
    first, after = opens(deck, previous, restrictions), follows(deck, restrictions)
    ok: Bools = first[rows[:, 0]]
    for k in range(1, rows.shape[1]):
        ok &= after[rows[:, k - 1], rows[:, k]]
    return ok


def legal_sequences(
    deck: ManeuverDeck,
    previous: Flown | None,
    symbols: Iterable[Symbol],
    restrictions: Restrictions = BASIC,
) -> Ints:
    """Every plan of three distinct cards (indexes into the deck, shape (n, 3)) whose
    symbols are in play and that breaks no flight restriction after ``previous``
    (cached per deck, previous maneuver, symbols and restrictions in force)."""
    allowed = frozenset(symbols)
    key = (id(deck), previous, allowed, restrictions)
    hit = _SEQUENCES.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    every = all_sequences(deck, allowed)
    out: Ints = every[legal_mask(deck, previous, every, restrictions)]
    out.flags.writeable = False  # shared: callers get the cached table itself
    _SEQUENCES[key] = (deck, out)
    return out


_EVERY: dict[tuple[int, frozenset[Symbol]], tuple[object, Ints]] = {}


def all_sequences(deck: ManeuverDeck, symbols: Iterable[Symbol]) -> Ints:
    """Every plan of three distinct cards in play, restrictions or not (cached)."""
    allowed = frozenset(symbols)
    key = (id(deck), allowed)
    hit = _EVERY.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    usable = [i for i, c in enumerate(deck.cards) if c.symbol in allowed]
    out = np.array(list(itertools.permutations(usable, 3)), dtype=np.int64).reshape(-1, 3)
    _EVERY[key] = (deck, out)
    return out


def status_allows(
    cards: list[ManeuverCard],
    status: Mapping[str, int],
    turn: int,
    specials: str | None = "000",
) -> bool:
    """Whether a plan passes the damaged-airplane planning restrictions of the special
    damage rules in force (jammed rudder, damaged engine: a stall, under 003 a steep
    card; 000's fire: no straight), like ``standard.check_airplane_plan``."""
    if specials is None:
        return True
    for side, direction in (("rudder_left", Direction.LEFT), ("rudder_right", Direction.RIGHT)):
        if status.get(side) == turn and any(c.arrow is direction for c in cards):
            return False
    if status.get("engine", 0):
        if specials == "003":
            if not any(c.is_steep for c in cards):
                return False
        elif not any(c.symbol is Symbol.STALL for c in cards):
            return False
    fire = specials == "000" and status.get("fire", 0)
    return not (fire and any(c.symbol is Symbol.STRAIGHT for c in cards))


def status_mask(
    deck: ManeuverDeck,
    sequences: Ints,
    status: Mapping[str, int],
    turn: int,
    specials: str | None = "000",
) -> Bools:
    """Which sequences pass :func:`status_allows` (vectorised over the deck's cards), for
    the special damage rules in force (000: no straight on fire; 003: the engine asks a
    steep card, not a stall)."""
    n = len(deck.cards)
    ok = np.ones(len(sequences), dtype=np.bool_)
    if not status:
        return ok
    banned = np.zeros(n, dtype=np.bool_)
    for side, direction in (("rudder_left", Direction.LEFT), ("rudder_right", Direction.RIGHT)):
        if status.get(side) == turn:
            banned |= np.array([c.arrow is direction for c in deck.cards])
    if status.get("fire", 0) and specials == "000":
        banned |= np.array([c.symbol is Symbol.STRAIGHT for c in deck.cards])
    ok &= ~banned[sequences].any(axis=1)
    if status.get("engine", 0):
        if specials == "003":
            stall = np.array([c.is_steep for c in deck.cards])
        else:
            stall = np.array([c.symbol is Symbol.STALL for c in deck.cards])
        ok &= stall[sequences].any(axis=1)
    return ok


def airplane_sequences(state: GameState, vehicle: Vehicle) -> Ints:
    """The plans a bot may give ``vehicle``: legal sequences passing its (known) status
    restrictions. When its damage forbids every plan that keeps the flight restrictions
    (an airplane on fire after an Immelmann may not plan the straight it owes), the
    plans the engine accepts that break the fewest restrictions (flown as 000 says)."""
    deck = state.rules.deck_of(vehicle.type)
    symbols = allowed_symbols(state)
    restrictions = state.rules.restrictions
    seqs = legal_sequences(deck, vehicle.previous, symbols, restrictions)
    mask = status_mask(deck, seqs, vehicle.status, state.turn, state.rules.specials)
    if mask.all():  # the cached table itself: what is worked out from it can be cached
        return seqs
    if mask.any():
        out: Ints = seqs[mask]
        return out
    every = all_sequences(deck, symbols)
    allowed = every[status_mask(deck, every, vehicle.status, state.turn, state.rules.specials)]
    if len(allowed) == 0:
        return seqs if len(seqs) else every
    broken = np.array(
        [
            len(plan_problems(vehicle.previous, [deck.cards[int(i)] for i in row], restrictions))
            for row in allowed
        ]
    )
    fewest: Ints = allowed[broken == broken.min()]
    return fewest


# --- poses moved by arrays of cards ----------------------------------------------------


def advance(
    x: Floats,
    y: Floats,
    heading: Floats,
    forward: Floats,
    left: Floats,
    turn: Floats,
    depth: float,
) -> tuple[Floats, Floats, Floats]:
    """Poses after a card (arrays broadcast together): the nose moved by the card's
    arrowhead, then the base put down behind it, as ``apply_card`` does; ``depth`` is
    the base's length (an airplane) or twice the hexagon's apothem (a tripod)."""
    rad = np.radians(heading)
    c, s = np.cos(rad), np.sin(rad)
    half = depth / 2.0
    nx = x + half * c + forward * c - left * s
    ny = y + half * s + forward * s + left * c
    h = np.mod(heading + turn, 360.0)
    rad2 = np.radians(h)
    return nx + half * np.cos(rad2), ny + half * np.sin(rad2), h


@dataclass(frozen=True)
class Flights:
    """Poses of a vehicle after each phase of a set of plans: arrays of shape (n, 3).

    Flights turned from the origin (:func:`fly_turned`) also say which of a few dozen
    distinct headings each one is (``turns`` indexes ``headings``): a cosine or sine per
    distinct heading then serves every plan (:meth:`units`), the very floats worked out
    plan by plan at a hundredth of the cost."""

    x: Floats
    y: Floats
    heading: Floats
    turns: Ints | None = None
    """(n, 3): each heading's index in ``headings``, when known."""
    headings: Floats | None = None
    """The distinct headings (``heading`` is ``headings[turns]``)."""

    def phase(self, p: int) -> tuple[Floats, Floats, Floats]:
        return self.x[:, p], self.y[:, p], self.heading[:, p]

    def rows(self, rows: Ints) -> Flights:
        """These plans' flights."""
        # take gathers rows of three values several times faster than indexing
        turns = None if self.turns is None else self.turns.take(rows, axis=0)
        return Flights(
            self.x.take(rows, axis=0),
            self.y.take(rows, axis=0),
            self.heading.take(rows, axis=0),
            turns,
            self.headings,
        )

    def units(self, p: int, rows: Ints | None = None) -> tuple[Floats, Floats] | None:
        """The cosine and sine of the headings after phase ``p`` (of ``rows`` only), as
        ``np.cos(np.radians(heading))`` gives them; None when the distinct headings are
        not known."""
        if self.turns is None or self.headings is None:
            return None
        which = self.turns[:, p] if rows is None else self.turns[rows, p]
        c, s = unit_vectors(self.headings)
        return c[which], s[which]


def unit_vectors(degrees: Floats) -> tuple[Floats, Floats]:
    """``np.cos(np.radians(degrees))`` and the sine (cached for the last few arrays: a
    set of flights asks for them phase after phase)."""
    key = id(degrees)
    hit = _UNITS.get(key)
    if hit is not None and hit[0] is degrees:
        return hit[1], hit[2]
    rad = np.radians(degrees)
    c, s = np.cos(rad), np.sin(rad)
    if len(_UNITS) >= 16:
        _UNITS.clear()
    _UNITS[key] = (degrees, c, s)
    return c, s


_UNITS: dict[int, tuple[Floats, Floats, Floats]] = {}


def fly(pose: Pose, table: CardTable, sequences: Ints, depth: float) -> Flights:
    """Where the base is after each card of each sequence (shape (n, k)).

    Sequences that begin with the same cards share those moves: each phase flies one
    row per run of equal beginnings (the sequences come grouped by their first cards),
    so a deck's thousands of plans make a few dozen first and second moves, not
    thousands. Every pose is the very float ``advance`` gives a single plan."""
    n, k = sequences.shape
    xs = np.empty((n, k))
    ys = np.empty((n, k))
    hs = np.empty((n, k))
    x = np.array([pose.x])
    y = np.array([pose.y])
    h = np.array([pose.heading])
    parent = np.zeros(n, dtype=np.intp)  # per sequence, its row among the last poses
    for p in range(k):
        if p < k - 1 and n > 1:
            fresh = np.empty(n, dtype=np.bool_)
            fresh[0] = True
            np.any(sequences[1:, : p + 1] != sequences[:-1, : p + 1], axis=1, out=fresh[1:])
            starts = np.flatnonzero(fresh)
            row = np.cumsum(fresh) - 1
        else:
            starts = row = np.arange(n)
        idx = sequences[starts, p]
        back = parent[starts]
        x, y, h = advance(
            x[back], y[back], h[back], table.forward[idx], table.left[idx], table.turn[idx], depth
        )
        xs[:, p], ys[:, p], hs[:, p] = x[row], y[row], h[row]
        parent = row
    return Flights(xs, ys, hs)


_FROM_ORIGIN: dict[tuple[int, float], tuple[CardTable, Flights]] = {}
TURNED_LIMIT = 40
"""Decks of more cards than this are flown plan by plan (the table of every three
cards from the origin would grow with the cube of the deck)."""


def fly_turned(pose: Pose, table: CardTable, sequences: Ints, depth: float) -> Flights:
    """Where the base is after each card of each three-card sequence, as :func:`fly`
    gives it to within a few 1e-14 cm: every sequence of the deck is flown once from the
    origin (cached per deck), and a plan from ``pose`` is that flight turned by the
    heading and moved to the pose (a card moves a base in its own frame). About twice
    as fast as flying a bot's thousands of plans; the planning bots use it to score
    plans, never to move a vehicle."""
    n = len(table.ids)
    if sequences.ndim != 2 or sequences.shape[1] != 3 or n > TURNED_LIMIT:
        return fly(pose, table, sequences, depth)
    key = (id(table), depth)
    hit = _FROM_ORIGIN.get(key)
    if hit is None or hit[0] is not table:
        every = np.indices((n, n, n)).reshape(3, -1).T
        hit = (table, fly(Pose(0.0, 0.0, 0.0), table, every, depth))
        _FROM_ORIGIN[key] = hit
    rows = _from_origin(hit[1], sequences, n)
    assert rows.turns is not None and rows.headings is not None
    rad = math.radians(pose.heading)
    c, s = math.cos(rad), math.sin(rad)
    # each distinct heading turned once: np.mod per element costs as much as a sine
    headings = np.mod(pose.heading + rows.headings, 360.0)
    return Flights(
        pose.x + rows.x * c - rows.y * s,
        pose.y + rows.x * s + rows.y * c,
        headings[rows.turns],
        rows.turns,
        headings,
    )


_ROWS: dict[tuple[int, int], tuple[Ints, Flights, Flights]] = {}


def _from_origin(origin: Flights, sequences: Ints, n: int) -> Flights:
    """The flights of ``sequences`` from the origin, picked from the table of every three
    cards, with their distinct headings; kept for the last few sequence arrays (the
    cached tables of :func:`legal_sequences` come back turn after turn)."""
    key = (id(sequences), id(origin))
    hit = _ROWS.get(key)
    if hit is not None and hit[0] is sequences and hit[1] is origin:
        return hit[2]
    code = (sequences[:, 0] * n + sequences[:, 1]) * n + sequences[:, 2]
    heading = origin.heading[code]
    headings, turns = np.unique(heading, return_inverse=True)
    rows = Flights(origin.x[code], origin.y[code], heading, turns.reshape(heading.shape), headings)
    if len(_ROWS) >= 32:
        _ROWS.clear()
    _ROWS[key] = (sequences, origin, rows)
    return rows


def walk(
    pose: Pose, cards: list[TripodCard], depth: float, reverse_pending: bool = False
) -> list[Pose]:
    """A tripod's pose after each of its cards (stationary cards stand still; a reverse
    makes the next card apply backwards), as ``rules.tripods.move`` moves it."""
    out: list[Pose] = []
    backward = reverse_pending
    for card in cards:
        if card.moves:
            if backward:
                rear = Pose(pose.x, pose.y, pose.heading + 180.0)
                moved = _apply(rear, card, depth)
                pose = Pose(moved.x, moved.y, (moved.heading + 180.0) % 360.0)
            else:
                pose = _apply(pose, card, depth)
        backward = card.symbol.value == "reverse"
        out.append(pose)
    return out


def _apply(pose: Pose, card: TripodCard, depth: float) -> Pose:
    x, y, h = advance(
        np.array([pose.x]),
        np.array([pose.y]),
        np.array([pose.heading]),
        np.array([card.forward]),
        np.array([card.left]),
        np.array([card.turn]),
        depth,
    )
    return Pose(float(x[0]), float(y[0]), float(h[0]))


def inside(x: Floats, y: Floats, width: float, height: float, margin: float) -> Bools:
    """Whether centre dots lie on the table with ``margin`` cm to spare."""
    return (x >= margin) & (x <= width - margin) & (y >= margin) & (y <= height - margin)
