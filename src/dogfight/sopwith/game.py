"""The Sopwith rules core: a game state, every player's orders and a random generator in,
the next state and the turn's events out. No I/O, no clock, no module-level randomness.

A turn (004: "a set of three 'Moves'") is resolved move by move: every plane in flight
flies its manoeuvre at the same time, planes that left the board, reached its edge with
no orders or flew into a cloud crash, planes that flew Ahead along an airstrip with a
landing declared land, and then every burst ordered for that move is fired at once from
the new positions. At the end of the turn planes on the ground repair, the last plane
flying wins, Ace status is recomputed and the clouds move.

Every choice 004 leaves open is a numbered ruling (S1, S2...) in ``docs/rulings.md``;
the docstrings below name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from dogfight.errors import DogfightError
from dogfight.sopwith import events as ev
from dogfight.sopwith.board import Board, Cloud, cloud_hexes, default_airfields, move_clouds
from dogfight.sopwith.hexes import Hex, neighbour, ray, rotate
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders, Strip
from dogfight.sopwith.rules import Ruleset

ENGINE_VERSION = 2
"""Bumped whenever a change alters how turns resolve (not on refactors)."""

NMR_EDGE = "reached the edge of the board with no orders (NMR)"
"""The crash of a plane flying 004's NMR default into an edge hex (S12)."""

MAX_PLANES = 26
"""One map letter each."""


class GameError(DogfightError):
    """A request the game cannot take: orders for another turn or for a plane that is
    not (or no longer) in the game, a turn after the game is over, a bad setup."""


class Status(StrEnum):
    GROUND = "ground"
    FLYING = "flying"
    SHOT_DOWN = "shot down"
    CRASHED = "crashed"


@dataclass(frozen=True, slots=True)
class Plane:
    """One player's plane.

    ``hex`` is where the plane is: in flight, its hex; on the ground, its airfield's
    corner hex; out of the game, the last hex it was in. ``score`` is the pilot's score
    carried from game to game (004's Ace list); ``game_points`` the points made in this
    game. ``last_ahead`` says the plane's last move was an Ahead (the first half of a
    landing, S8).
    """

    name: str
    letter: str
    airfield: str
    status: Status
    hex: Hex
    facing: int
    ammo: int
    strength: int
    score: int = 0
    game_points: int = 0
    ace: bool = False
    pilot: str | None = None
    last_ahead: bool = False

    @property
    def in_game(self) -> bool:
        return self.status in (Status.GROUND, Status.FLYING)

    @property
    def flying(self) -> bool:
        return self.status is Status.FLYING


@dataclass(frozen=True)
class GameState:
    """A game between turns. ``turn`` is the next turn to resolve (1 before the first)."""

    ruleset: Ruleset
    planes: tuple[Plane, ...]
    clouds: tuple[Cloud, ...]
    turn: int = 1
    over: bool = False
    winner: str | None = None
    board: Board = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", Board(self.ruleset.board_side))

    def plane(self, name: str) -> Plane:
        for p in self.planes:
            if p.name == name:
                return p
        raise GameError(
            f"no plane {name!r} in this game; planes: {', '.join(p.name for p in self.planes)}"
        )

    def in_game(self) -> list[Plane]:
        return [p for p in self.planes if p.in_game]


@dataclass(frozen=True, slots=True)
class PlaneSetup:
    """A plane as the Games Master enters it when the game is created."""

    name: str
    airfield: str | None = None
    pilot: str | None = None
    score: int = 0


# --- manoeuvres ---------------------------------------------------------------------------

_SIDESTEP = {
    Manoeuvre.AHEAD: (0, 0),
    Manoeuvre.LEFT_TURN: (-1, -1),
    Manoeuvre.RIGHT_TURN: (1, 1),
    Manoeuvre.LEFT_SLIP: (-1, 0),
    Manoeuvre.RIGHT_SLIP: (1, 0),
    Manoeuvre.IMMELMANN: (0, 3),
}
"""Per manoeuvre: (hex side it leaves through, change of facing), in sixths of a turn."""


def fly(h: Hex, facing: int, manoeuvre: Manoeuvre) -> tuple[Hex, int]:
    """The hex a manoeuvre ends in and the facing (004 MOVEMENT).

    A: the hex ahead, same facing. LT/RT: "turns left (right) by 60 degrees and moves
    ahead one hex": the front-left (front-right) hex, facing the way it moved. LS/RS: the
    same hex, keeping the facing (a slip). 0: stays. I (Immelman Turn): "moves forward
    one hex and turns to face in the opposite direction". Ruling S1.
    """
    if manoeuvre is Manoeuvre.NO_MOVE:
        return h, facing
    side, turn_by = _SIDESTEP[manoeuvre]
    return neighbour(h, rotate(facing, side)), rotate(facing, turn_by)


_LINE_SIDE = {Line.LEFT: -1, Line.AHEAD: 0, Line.RIGHT: 1}


def line_of_fire(h: Hex, facing: int, line: Line, reach: int) -> tuple[Hex, ...]:
    """The hexes a burst along ``line`` reaches, nearest first: the straight row leaving
    through the front-left (L), front (A) or front-right (R) side. Ruling S2."""
    return ray(h, rotate(facing, _LINE_SIDE[line]), reach)


def centralised(bursts_left: int) -> tuple[Line, ...]:
    """004: "All ambiguous firing orders (e.g. "A - FIRE") will be centralised. If you have
    three bursts left, it will be L+R+A; if you have two bursts left it will be L+R; one
    burst will be A"."""
    if bursts_left >= 3:
        return (Line.LEFT, Line.RIGHT, Line.AHEAD)
    if bursts_left == 2:
        return (Line.LEFT, Line.RIGHT)
    if bursts_left == 1:
        return (Line.AHEAD,)
    return ()


# --- setting up ----------------------------------------------------------------------------


def ace_by_score(ruleset: Ruleset, score: int, game_points: int, was_ace: bool) -> bool:
    """004: "a player has inflicted/reached 40 hits/points ... he then becomes an Ace ...
    If ... his score falls below the 40 mark, the player loses his Ace status" (career);
    the board game's Ace is made in the game and stays one for it (``ace_basis="game"``)."""
    if ruleset.ace_basis == "career":
        return score >= ruleset.ace_threshold
    return was_ace or game_points >= ruleset.ace_threshold


def new_game(ruleset: Ruleset, setups: Sequence[PlaneSetup], clouds: Iterable[Cloud]) -> GameState:
    """A game before turn 1: every plane on the ground at its airfield (004's first orders
    are a take-off), full ammunition and damage points, the pilots' carried scores."""
    if len(setups) < 2:
        raise GameError("a game needs at least two planes")
    if len(setups) > MAX_PLANES:
        raise GameError(f"at most {MAX_PLANES} planes (one map letter each), not {len(setups)}")
    seen: set[str] = set()
    for s in setups:
        if not s.name.strip():
            raise GameError("a plane needs a name")
        if s.name.casefold() in seen:
            raise GameError(f"two planes are named {s.name!r}")
        seen.add(s.name.casefold())
    board = Board(ruleset.board_side)
    fields_ = default_airfields(len(setups))
    planes = []
    for i, s in enumerate(setups):
        name = s.airfield or fields_[i]
        if name not in board.airfields:
            raise GameError(
                f"plane {s.name!r}: no airfield {name!r}; airfields: {', '.join(board.airfields)}"
            )
        home = board.airfield(name)
        planes.append(
            Plane(
                name=s.name,
                letter=chr(ord("A") + i),
                airfield=name,
                status=Status.GROUND,
                hex=home.corner,
                facing=home.strip(Strip.BETA).facing,
                ammo=ruleset.ammo,
                strength=ruleset.damage_capacity,
                score=s.score,
                ace=ace_by_score(ruleset, s.score, 0, False),
                pilot=s.pilot,
            )
        )
    cloud_list = tuple(clouds)
    for cloud in cloud_list:
        for h in cloud.hexes:
            if not board.on_board(h):
                raise GameError(f"cloud {cloud.number}: hex {h} is not on the board")
    return GameState(ruleset, tuple(planes), cloud_list)


# --- one turn ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Flight:
    """A plane's working copy during a turn."""

    plane: Plane
    manoeuvres: list[Manoeuvre] = field(default_factory=list)
    fire: list[MoveOrder] = field(default_factory=list)
    land: bool = False
    land_strip: Strip | None = None
    taking_off: bool = False
    started_on_ground: bool = False
    bursts_used: int = 0
    landed: bool = False
    nmr: bool = False
    """No orders came and the plane flies 004's NMR default (S11, S12)."""


def _check_orders(state: GameState, orders: Mapping[str, Orders]) -> None:
    names = {p.name for p in state.planes}
    for key, o in orders.items():
        if key not in names or o.player != key:
            raise GameError(
                f"{o.source or 'orders'}: no plane {o.player!r} in this game; planes: "
                + ", ".join(p.name for p in state.planes)
            )
        plane = state.plane(key)
        if not plane.in_game:
            raise GameError(
                f"{o.source or 'orders'}: {key} is out of the game ({plane.status.value})"
            )
        if o.turn != state.turn:
            raise GameError(
                f"{o.source or 'orders'}: orders of {key} are for turn {o.turn}, "
                f"but the turn to play is {state.turn}"
            )


def _plan(state: GameState, plane: Plane, orders: Orders | None, out: list[ev.Event]) -> _Flight:
    """What a plane will do this turn, after 004's defaults and corrections."""
    rules = state.ruleset
    t = state.turn
    flight = _Flight(plane, started_on_ground=plane.status is Status.GROUND)
    if orders is not None and orders.pilot:
        flight.plane = replace(plane, pilot=orders.pilot)
    if orders is None:
        out.append(ev.OrdersMissing(t, plane.name, plane.flying))
        if plane.flying:
            # 004: "his 'plane will fly AHEAD for the three moves of his turn"
            m = Manoeuvre.AHEAD if rules.nmr == "ahead" else Manoeuvre.NO_MOVE
            flight.manoeuvres = [m, m, m]
            flight.nmr = True
            flight.fire = [MoveOrder(m)] * 3
        return flight
    written = [mo.manoeuvre for mo in orders.moves]
    flown = list(written)
    flight.fire = list(orders.moves)
    if plane.status is Status.GROUND:
        # S7: orders that declare a take-off, name a strip or fly at all are a take-off
        wants = orders.take_off or (orders.strip is not None and not orders.land)
        if not (wants or any(m is not Manoeuvre.NO_MOVE for m in written)):
            flight.fire = []
            return flight
        home = state.board.airfield(airfield_at(state.board, plane))
        strip = home.strip(orders.strip or rules.take_off_strip)
        out.append(ev.TookOff(t, plane.name, home.name, strip.strip, orders.strip is not None))
        flight.plane = replace(
            flight.plane,
            status=Status.FLYING,
            hex=home.corner,
            facing=strip.facing,
            last_ahead=False,
        )
        flight.taking_off = True
        for i in (0, 1):
            if flown[i] is not Manoeuvre.AHEAD:
                out.append(
                    ev.ManoeuvreChanged(
                        t,
                        i + 1,
                        plane.name,
                        flown[i],
                        Manoeuvre.AHEAD,
                        "take-off: Ahead along the two hexes of the airstrip",
                    )
                )
                flown[i] = Manoeuvre.AHEAD
        start = 2
    else:
        start = 0
        flight.land = orders.land
        flight.land_strip = orders.strip if orders.land else None
    for i in range(start, 3):
        if flown[i] is Manoeuvre.IMMELMANN and not plane.ace:
            out.append(
                ev.ManoeuvreChanged(
                    t, i + 1, plane.name, flown[i], Manoeuvre.AHEAD, "Immelman Turn: Aces only"
                )
            )
            flown[i] = Manoeuvre.AHEAD
    if start == 0 and flown[0] is Manoeuvre.NO_MOVE and rules.zero_first_move == "ahead":
        out.append(
            ev.ManoeuvreChanged(
                t, 1, plane.name, flown[0], Manoeuvre.AHEAD, "a plane must move on Move 1"
            )
        )
        flown[0] = Manoeuvre.AHEAD
    if flown[1] is Manoeuvre.NO_MOVE and flown[2] is not Manoeuvre.NO_MOVE:
        out.append(
            ev.ManoeuvreChanged(
                t,
                3,
                plane.name,
                flown[2],
                Manoeuvre.NO_MOVE,
                "a 0 in Move 2 must also be used in Move 3",
            )
        )
        flown[2] = Manoeuvre.NO_MOVE
    flight.manoeuvres = flown
    return flight


def airfield_at(board: Board, plane: Plane) -> str:
    """The airfield a plane on the ground stands at (its own unless it landed elsewhere)."""
    for name, f in board.airfields.items():
        if f.corner == plane.hex:
            return name
    return plane.airfield


def _move(
    state: GameState,
    flights: list[_Flight],
    move: int,
    clouds: frozenset[Hex],
    out: list[ev.Event],
) -> None:
    """Move ``move`` (1-3): everybody flies at once, then crashes, landings, shares."""
    rules = state.ruleset
    board = state.board
    t = state.turn
    crashed: list[_Flight] = []
    for f in flights:
        p = f.plane
        if not p.flying or f.landed:
            continue
        m = f.manoeuvres[move - 1]
        end, facing = fly(p.hex, p.facing, m)
        out.append(ev.Moved(t, move, p.name, m, p.hex, end, facing))
        off = not board.on_board(end)
        # 004: "A player can NMR any number of times, but his 'plane is considered to
        # have crashed when he reaches the edge of the board" (S12)
        if off or (f.nmr and end != p.hex and board.on_edge(end)):
            why = "flew off the board" if off else NMR_EDGE
            out.append(ev.Crashed(t, move, p.name, why, end, p.strength))
            f.plane = replace(p, status=Status.CRASHED, hex=p.hex if off else end, facing=facing)
            crashed.append(f)
            continue
        if end in clouds:
            if rules.cloud_entry == "crash" and end != p.hex:
                out.append(ev.Crashed(t, move, p.name, "flew into a cloud", end, p.strength))
                f.plane = replace(p, status=Status.CRASHED, hex=end, facing=facing)
                crashed.append(f)
                continue
            if rules.cloud_entry == "damage" and rules.cloud_damage:
                left = max(0, p.strength - rules.cloud_damage)
                out.append(ev.CloudDamage(t, move, p.name, p.strength - left, left))
                p = replace(p, strength=left)
                if left == 0:
                    out.append(ev.ShotDown(t, move, p.name, ()))
                    f.plane = replace(p, status=Status.SHOT_DOWN, hex=end, facing=facing)
                    continue
        landing = _landing(state, f, m, end, move, out)
        if landing is not None:
            field_, strip = landing
            reload = field_ == p.airfield
            home = board.airfield(field_)
            out.append(ev.Landed(t, move, p.name, field_, strip, reload))
            f.plane = replace(
                p,
                status=Status.GROUND,
                hex=home.corner,
                facing=home.strip(Strip.BETA).facing,
                ammo=rules.ammo if reload else p.ammo,
                last_ahead=False,
            )
            f.landed = True
            continue
        taxiing = f.taking_off and move <= 2
        f.plane = replace(
            p, hex=end, facing=facing, last_ahead=m is Manoeuvre.AHEAD and not taxiing
        )
    for f in crashed:
        _share(state, flights, f, move, out)


def _landing(
    state: GameState,
    f: _Flight,
    m: Manoeuvre,
    end: Hex,
    move: int,
    out: list[ev.Event],
) -> tuple[str, Strip] | None:
    """S8: a plane lands when, with a landing declared, it flies Ahead from one hex of an
    airstrip into the other, having come onto the first with an Ahead too (004: "When
    landing and taking off players must move Ahead on the two hexes of the airstrip")."""
    p = f.plane
    if m is not Manoeuvre.AHEAD or not p.last_ahead or (f.taking_off and move <= 2):
        return None
    strip = state.board.strip_at(p.hex, end)
    if strip is None:
        return None
    t = state.turn
    if not f.land:
        # 004: "If a player doesn't tell the GM of his intention to land, then he won't be
        # allowed to do so."
        out.append(ev.LandingRefused(t, move, p.name, "no landing declared"))
        return None
    if f.land_strip is not None and f.land_strip is not strip.strip:
        out.append(
            ev.LandingRefused(
                t, move, p.name, f"declared {f.land_strip.value}, flew {strip.strip.value}"
            )
        )
        return None
    if state.ruleset.landing == "own_airfield" and strip.airfield != p.airfield:
        out.append(ev.LandingRefused(t, move, p.name, f"{strip.airfield} is not its own airfield"))
        return None
    return strip.airfield, strip.strip


def _share(
    state: GameState, flights: list[_Flight], crashed: _Flight, move: int, out: list[ev.Event]
) -> None:
    """004: "If a 'plane crashes ... the damage points he has left will be shared out
    amongst the players still in the game. When shared these points will be rounded
    down." Still in the game: every plane flying or on the ground after the move's
    crashes (S12)."""
    rules = state.ruleset
    p = crashed.plane
    if rules.shot_down_points:
        crashed.plane = replace(p, score=p.score + rules.shot_down_points)
    if not rules.crash_share:
        return
    still = [f for f in flights if f.plane.in_game]
    if not still or p.strength <= 0:
        return
    each = p.strength // len(still)
    out.append(
        ev.PointsShared(
            state.turn, move, p.name, p.strength, each, tuple(f.plane.name for f in still)
        )
    )
    if each:
        for f in still:
            f.plane = replace(
                f.plane, score=f.plane.score + each, game_points=f.plane.game_points + each
            )


def _fire(
    state: GameState,
    flights: list[_Flight],
    move: int,
    clouds: frozenset[Hex],
    out: list[ev.Event],
) -> None:
    """Every burst of move ``move``, all at once from the positions after the move
    (S3), then the damage."""
    rules = state.ruleset
    t = state.turn
    where: dict[Hex, list[_Flight]] = {}
    for f in flights:
        if f.plane.flying and not f.landed:
            where.setdefault(f.plane.hex, []).append(f)
    damage: dict[str, int] = {}
    shooters: dict[str, list[str]] = {}
    points: dict[str, int] = {}
    for f in flights:
        p = f.plane
        if not p.flying or f.landed or not f.fire:
            continue
        order = f.fire[move - 1]
        lines = list(order.fire)
        if order.ambiguous_fire:
            left = min(rules.bursts_per_turn - f.bursts_used - len(lines), p.ammo - len(lines))
            extra = centralised(left)
            if not extra:
                out.append(ev.BurstNotFired(t, move, p.name, None, "no bursts left"))
            lines.extend(extra)
        for line in lines:
            if f.bursts_used >= rules.bursts_per_turn:
                out.append(
                    ev.BurstNotFired(
                        t, move, p.name, line, f"{rules.bursts_per_turn} bursts a turn used"
                    )
                )
                continue
            if p.ammo <= 0:
                out.append(ev.BurstNotFired(t, move, p.name, line, "out of ammunition"))
                continue
            f.bursts_used += 1
            p = replace(p, ammo=p.ammo - 1)
            hits: list[ev.Hit] = []
            blocked: Hex | None = None
            for k, h in enumerate(line_of_fire(p.hex, p.facing, line, rules.range), 1):
                if not state.board.on_board(h):
                    break
                if h in clouds:
                    blocked = h
                    break
                targets = [g for g in where.get(h, ()) if g is not f]
                for g in targets:
                    d = rules.damage(k, p.ace)
                    hits.append(ev.Hit(g.plane.name, k, d))
                    damage[g.plane.name] = damage.get(g.plane.name, 0) + d
                    shooters.setdefault(g.plane.name, []).append(p.name)
                    points[p.name] = points.get(p.name, 0) + d * rules.points_per_damage
                if targets and rules.fire_hits == "nearest":
                    break
            out.append(ev.Fired(t, move, p.name, line, tuple(hits), blocked))
        f.plane = p
    for f in flights:
        p = f.plane
        gained = points.get(p.name, 0)
        if gained:
            p = replace(p, score=p.score + gained, game_points=p.game_points + gained)
        taken = damage.get(p.name, 0)
        if taken:
            left = max(0, p.strength - taken)
            p = replace(p, strength=left)
            if left == 0:
                by = tuple(dict.fromkeys(shooters[p.name]))
                out.append(ev.ShotDown(t, move, p.name, by))
                p = replace(
                    p,
                    status=Status.SHOT_DOWN,
                    score=p.score + rules.shot_down_points,
                )
        f.plane = p


def resolve_turn(
    state: GameState,
    orders: Mapping[str, Orders],
    rng: np.random.Generator,
    cloud_moves: Mapping[int, int | None] | None = None,
) -> tuple[GameState, list[ev.Event]]:
    """Resolve ``state.turn`` with every player's orders (a missing plane is an NMR).

    ``cloud_moves`` is the Games Master's entry for the end-of-turn cloud move (cloud
    number → facing, None: stays); clouds he did not enter move as the ruleset says,
    drawing directions from ``rng``, the only randomness of a turn.
    """
    if state.over:
        raise GameError(f"the game is over (turn {state.turn - 1} was the last)")
    _check_orders(state, orders)
    rules = state.ruleset
    t = state.turn
    out: list[ev.Event] = [ev.TurnStarted(t)]
    flights: list[_Flight] = []
    for plane in state.planes:
        if plane.in_game:
            flights.append(_plan(state, plane, orders.get(plane.name), out))
        else:
            flights.append(_Flight(plane))
    clouds = cloud_hexes(state.clouds)
    for move in (1, 2, 3):
        _move(state, flights, move, clouds, out)
        _fire(state, flights, move, clouds, out)
    for f in flights:
        if f.land and not f.landed and f.plane.flying:
            out.append(ev.LandingRefused(t, 0, f.plane.name, "declared a landing, did not land"))
    # 004 REPAIRS: "for each complete TURN spent on the ground may repair two damage
    # points. A 'plane may not recover to a strength higher than eight points." (S10)
    for f in flights:
        p = f.plane
        if f.started_on_ground and p.status is Status.GROUND and p.strength < rules.repair_cap:
            new = min(p.strength + rules.repair_per_turn, rules.repair_cap)
            if new > p.strength:
                out.append(ev.Repaired(t, p.name, new - p.strength, new))
                f.plane = replace(p, strength=new)
    planes = [f.plane for f in flights]
    over = False
    winner: str | None = None
    alive = [p for p in planes if p.in_game]
    if len(alive) <= 1:
        # 004: "The last surviving 'plane is the winner (and is awarded 5 bonus points)."
        over = True
        bonus = rules.last_plane_bonus if alive else 0
        if alive:
            winner = alive[0].name
            i = planes.index(alive[0])
            planes[i] = replace(
                alive[0],
                score=alive[0].score + bonus,
                game_points=alive[0].game_points + bonus,
            )
        out.append(ev.GameOver(t, winner, bonus))
    for i, p in enumerate(planes):
        ace = ace_by_score(rules, p.score, p.game_points, p.ace)
        if ace != p.ace:
            out.append((ev.AceGained if ace else ev.AceLost)(t, p.name, p.score))
            planes[i] = replace(p, ace=ace)
    new_clouds = state.clouds
    if not over:
        new_clouds, went = move_clouds(
            state.board, state.clouds, dict(cloud_moves or {}), rules.clouds_move, rng
        )
        for cloud in new_clouds:
            entered = cloud_moves is not None and cloud.number in cloud_moves
            out.append(ev.CloudMoved(t, cloud.number, went[cloud.number], cloud.hexes, entered))
    return (
        GameState(rules, tuple(planes), new_clouds, t + 1, over, winner),
        out,
    )


def turn_rng(seed: int, turn: int) -> np.random.Generator:
    """The generator of one turn, derived from the game's seed and the turn number, so a
    stored game can replay any turn without keeping generator state."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, turn])))


# --- as JSON (for the store) ------------------------------------------------------------


def state_to_json(state: GameState) -> dict[str, Any]:
    """The state as plain JSON data; :func:`state_from_json` reads it back equal."""
    return {
        "engine": ENGINE_VERSION,
        "ruleset": state.ruleset.model_dump(mode="json"),
        "turn": state.turn,
        "over": state.over,
        "winner": state.winner,
        "planes": [
            {
                "name": p.name,
                "letter": p.letter,
                "airfield": p.airfield,
                "status": p.status.value,
                "hex": [p.hex.q, p.hex.r],
                "facing": p.facing,
                "ammo": p.ammo,
                "strength": p.strength,
                "score": p.score,
                "game_points": p.game_points,
                "ace": p.ace,
                "pilot": p.pilot,
                "last_ahead": p.last_ahead,
            }
            for p in state.planes
        ],
        "clouds": [
            {"number": c.number, "hexes": [[h.q, h.r] for h in c.hexes]} for c in state.clouds
        ],
    }


def state_from_json(data: Mapping[str, Any]) -> GameState:
    planes = tuple(
        Plane(
            name=p["name"],
            letter=p["letter"],
            airfield=p["airfield"],
            status=Status(p["status"]),
            hex=Hex(*p["hex"]),
            facing=p["facing"],
            ammo=p["ammo"],
            strength=p["strength"],
            score=p["score"],
            game_points=p["game_points"],
            ace=p["ace"],
            pilot=p["pilot"],
            last_ahead=p["last_ahead"],
        )
        for p in data["planes"]
    )
    clouds = tuple(Cloud(c["number"], tuple(Hex(*h) for h in c["hexes"])) for c in data["clouds"])
    return GameState(
        Ruleset.model_validate(data["ruleset"]),
        planes,
        clouds,
        data["turn"],
        data["over"],
        data["winner"],
    )
