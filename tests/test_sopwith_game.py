"""The Sopwith rules core, clause by clause of 004 (and the issue's build list).

Planes are placed by map label (J10 is the centre; its neighbours are J9 N, K9 NE, K10
SE, J11 S, I10 SW, I9 NW). The helpers here are shared with ``test_sopwith_fire.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np
import pytest

from dogfight.sopwith import events as ev
from dogfight.sopwith.board import Board, Cloud
from dogfight.sopwith.game import (
    NMR_EDGE,
    GameError,
    GameState,
    Plane,
    PlaneSetup,
    Status,
    new_game,
    resolve_turn,
    state_from_json,
    state_to_json,
    turn_rng,
)
from dogfight.sopwith.hexes import FACING_NAMES, Hex, label, parse_label
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders, Strip
from dogfight.sopwith.rules import Ruleset, load_ruleset

SIDE = 10
RULES = load_ruleset()
E = TypeVar("E", bound=ev.Event)


def rules(**switches: Any) -> Ruleset:
    """004's ruleset with some switches changed."""
    return Ruleset.model_validate({**RULES.model_dump(), **switches})


def at(text: str) -> Hex:
    return parse_label(text, SIDE)


def plane(
    name: str,
    where: str,
    facing: str = "N",
    *,
    status: Status = Status.FLYING,
    airfield: str = "S",
    **fields: Any,
) -> Plane:
    """A plane flying (by default) at a labelled hex; ``where`` may name an airfield's
    corner for a plane on the ground."""
    base = Plane(
        name=name,
        letter="?",
        airfield=airfield,
        status=status,
        hex=at(where),
        facing=FACING_NAMES.index(facing),
        ammo=RULES.ammo,
        strength=RULES.damage_capacity,
    )
    return replace(base, **fields)


def grounded(name: str, airfield: str = "S", **fields: Any) -> Plane:
    """A plane on the ground at its airfield."""
    corner = Board(SIDE).airfield(airfield).corner
    return replace(
        plane(name, label(corner, SIDE), status=Status.GROUND, airfield=airfield),
        facing=Board(SIDE).airfield(airfield).strip(Strip.BETA).facing,
        **fields,
    )


def game(
    *planes: Plane, clouds: Iterable[str] = (), ruleset: Ruleset = RULES, turn: int = 1
) -> GameState:
    lettered = tuple(replace(p, letter=chr(ord("A") + i)) for i, p in enumerate(planes))
    cloud_list = tuple(Cloud(i + 1, (at(c),)) for i, c in enumerate(clouds))
    return GameState(ruleset, lettered, cloud_list, turn)


def mv(text: str) -> MoveOrder:
    """``"A"``, ``"LT:A"`` (fire A), ``"RS:L+R"``, ``"A:?"`` (a bare FIRE)."""
    manoeuvre, _, fire = text.partition(":")
    if fire == "?":
        return MoveOrder(Manoeuvre(manoeuvre), (), True)
    lines = tuple(Line(x) for x in fire.split("+")) if fire else ()
    return MoveOrder(Manoeuvre(manoeuvre), lines)


def order(player: str, m1: str, m2: str, m3: str, *, turn: int = 1, **fields: Any) -> Orders:
    return Orders(player, turn, (mv(m1), mv(m2), mv(m3)), **fields)


def resolve(
    state: GameState,
    *orders: Orders,
    clouds: dict[int, int | None] | None = None,
    seed: int = 0,
) -> tuple[GameState, list[ev.Event]]:
    if clouds is None and state.clouds:
        clouds = {c.number: None for c in state.clouds}  # keep clouds still unless asked
    return resolve_turn(state, {o.player: o for o in orders}, turn_rng(seed, state.turn), clouds)


def of(events: Iterable[ev.Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def where(state: GameState, name: str) -> tuple[str, str]:
    p = state.plane(name)
    return label(p.hex, SIDE), FACING_NAMES[p.facing]


# --- movement ---------------------------------------------------------------------------


def test_moves_are_simultaneous_move_by_move() -> None:
    """Issue 6: "Moves are resolved simultaneously, move by move, with fire after each
    move": every plane's move 1 comes before anybody's move 2."""
    state = game(plane("a", "J10"), plane("b", "E10", "S"))
    _, events = resolve(state, order("a", "A", "RT", "A"), order("b", "A", "A", "LS"))
    moves = [(e.move, e.plane) for e in of(events, ev.Moved)]
    assert moves == [(1, "a"), (1, "b"), (2, "a"), (2, "b"), (3, "a"), (3, "b")]


def test_a_turn_of_three_moves() -> None:
    state = game(plane("a", "J10"), plane("b", "B10"))
    after, _ = resolve(state, order("a", "A", "RT", "LS"), order("b", "A", "A", "A"))
    # J10 N -A-> J9 N -RT-> K8 NE -LS-> K7 NE ... checked against the manoeuvre table
    assert where(after, "a") == ("K7", "NE")
    assert after.turn == 2


def test_zero_in_move_two_is_also_move_three() -> None:
    """004: "0 or N = No Move (N.B. If this move used in 'Move 2' must also be used in
    'Move 3')"."""
    state = game(plane("a", "J10"), plane("b", "B10"))
    after, events = resolve(state, order("a", "A", "0", "RT"), order("b", "A", "A", "A"))
    changed = of(events, ev.ManoeuvreChanged)
    assert [(c.move, c.written, c.flown) for c in changed] == [
        (3, Manoeuvre.RIGHT_TURN, Manoeuvre.NO_MOVE)
    ]
    assert where(after, "a") == ("J9", "N")


def test_zero_in_move_one_is_flown_ahead_by_default() -> None:
    """Ruling S5: the rule book makes a plane move on Move 1 (004 says nothing else);
    switch ``zero_first_move = "allowed"`` flies the 0."""
    state = game(plane("a", "J10"), plane("b", "B10"))
    after, events = resolve(state, order("a", "0", "A", "A"), order("b", "A", "A", "A"))
    assert [(c.move, c.flown) for c in of(events, ev.ManoeuvreChanged)] == [(1, Manoeuvre.AHEAD)]
    assert where(after, "a") == ("J7", "N")
    state = game(plane("a", "J10"), plane("b", "B10"), ruleset=rules(zero_first_move="allowed"))
    after, events = resolve(state, order("a", "0", "A", "A"), order("b", "A", "A", "A"))
    assert not of(events, ev.ManoeuvreChanged)
    assert where(after, "a") == ("J8", "N")


def test_immelman_turn_is_for_aces_only() -> None:
    """004: "The Immelman Turn is a manoeuvre available only to 'Ace' pilots" (ruling
    S18: a non-Ace's I is flown as Ahead)."""
    state = game(plane("ace", "J10", ace=True), plane("rookie", "E10"))
    after, events = resolve(state, order("ace", "I", "A", "A"), order("rookie", "I", "A", "A"))
    assert where(after, "ace") == ("J11", "S")  # J9 facing S, then two hexes south
    assert where(after, "rookie") == ("E7", "N")
    assert [(c.plane, c.written, c.flown) for c in of(events, ev.ManoeuvreChanged)] == [
        ("rookie", Manoeuvre.IMMELMANN, Manoeuvre.AHEAD)
    ]


def test_two_planes_may_share_a_hex() -> None:
    """Ruling S4: no collisions; 004 has none."""
    state = game(plane("a", "J12"), plane("b", "J8", "S"))
    after, _ = resolve(state, order("a", "A", "A", "0"), order("b", "A", "A", "0"))
    assert where(after, "a")[0] == where(after, "b")[0] == "J10"
    assert all(p.in_game for p in after.planes)


# --- NMR and crashes ----------------------------------------------------------------------


def test_nmr_in_flight_flies_ahead_three_times() -> None:
    """004: "If a player NMR's while his 'plane is in flight, his 'plane will fly AHEAD
    for the three moves of his turn"."""
    state = game(plane("a", "J10", "SE"), plane("b", "B10"))
    after, events = resolve(state, order("b", "A", "A", "A"))
    assert of(events, ev.OrdersMissing) == [ev.OrdersMissing(1, "a", True)]
    assert where(after, "a") == ("M11", "SE")
    assert not [e for e in of(events, ev.Fired) if e.plane == "a"]


def test_nmr_switch_no_move() -> None:
    state = game(plane("a", "J10", "SE"), plane("b", "B10"), ruleset=rules(nmr="no_move"))
    after, _ = resolve(state, order("b", "A", "A", "A"))
    assert where(after, "a") == ("J10", "SE")


def test_nmr_on_the_ground_stays_on_the_ground() -> None:
    state = game(grounded("a"), plane("b", "B10"))
    after, events = resolve(state, order("b", "A", "A", "A"))
    assert after.plane("a").status is Status.GROUND
    assert of(events, ev.OrdersMissing) == [ev.OrdersMissing(1, "a", False)]


def test_nmr_to_the_edge_crashes_and_points_are_shared() -> None:
    """004: "A player can NMR any number of times, but his 'plane is considered to have
    crashed when he reaches the edge of the board"; "the damage points he has left will
    be shared out amongst the players still in the game. When shared these points will
    be rounded down"."""
    state = game(
        plane("lost", "J2", strength=11),
        plane("b", "E10"),
        plane("c", "G10"),
        grounded("d", "NE"),
    )
    after, events = resolve(
        state, order("b", "A", "A", "A"), order("c", "A", "A", "A"), order("d", "0", "0", "0")
    )
    # J2 -> J1, the board's top edge, in move 1: "reaches the edge", still on the board
    crash = of(events, ev.Crashed)
    assert [(c.plane, c.move, c.reason, label(c.hex, SIDE), c.strength) for c in crash] == [
        ("lost", 1, NMR_EDGE, "J1", 11)
    ]
    assert after.plane("lost").status is Status.CRASHED
    # 11 points among the three still in the game (one on the ground): 3 each
    shared = of(events, ev.PointsShared)
    assert shared == [ev.PointsShared(1, 1, "lost", 11, 3, ("b", "c", "d"))]
    assert [after.plane(n).score for n in "bcd"] == [3, 3, 3]
    # no more moves for the crashed plane
    assert [e.move for e in of(events, ev.Moved) if e.plane == "lost"] == [1]


def test_a_plane_with_orders_flies_along_the_edge() -> None:
    """004: the NMR'd plane "is considered to have crashed when he reaches the edge of the
    board"; a plane with orders crashes only when it "accidentally flies off the board"."""
    state = game(plane("a", "J2", strength=11), plane("b", "E10"))
    after, events = resolve(state, order("a", "A", "0", "0"), order("b", "A", "A", "A"))
    assert of(events, ev.Crashed) == []
    assert after.plane("a").flying and label(after.plane("a").hex, SIDE) == "J1"


def test_flying_into_a_cloud_is_a_crash() -> None:
    """004: "If a 'plane crashes either by going off the edge of the board or flying into
    a cloud"."""
    state = game(plane("a", "J12"), plane("b", "E10"), clouds=["J10"])
    _, events = resolve(state, order("a", "A", "A", "A"), order("b", "A", "A", "A"))
    assert [(c.plane, c.move, c.reason) for c in of(events, ev.Crashed)] == [
        ("a", 2, "flew into a cloud")
    ]
    assert of(events, ev.PointsShared)[0].each == 12


def test_a_cloud_moved_onto_a_plane_is_not_flown_into() -> None:
    """Ruling S13: a 0 move inside a cloud that came to the plane is no crash."""
    state = game(plane("a", "J10"), plane("b", "E10"), clouds=["J10"])
    after, events = resolve(state, order("a", "0", "0", "0"), order("b", "A", "A", "A"))
    assert after.plane("a").flying
    assert not of(events, ev.Crashed)


def test_original_clouds_do_damage_instead() -> None:
    """Board game (``cloud_entry = "damage"``): one damage point a move inside."""
    state = game(
        plane("a", "J12"), plane("b", "E10"), clouds=["J10"], ruleset=load_ruleset("original")
    )
    after, events = resolve(state, order("a", "A", "A", "0"), order("b", "A", "A", "A"))
    assert [(d.move, d.strength) for d in of(events, ev.CloudDamage)] == [(2, 11), (3, 10)]
    assert after.plane("a").strength == 10


def test_no_sharing_when_switched_off() -> None:
    state = game(
        plane("lost", "J2"), plane("b", "E10"), plane("c", "G10"), ruleset=rules(crash_share=False)
    )
    after, events = resolve(state, order("b", "A", "A", "A"), order("c", "A", "A", "A"))
    assert not of(events, ev.PointsShared)
    assert after.plane("b").score == 0


def test_shares_round_down_to_nothing() -> None:
    state = game(
        plane("lost", "J2", strength=2), plane("b", "E10"), plane("c", "G10"), grounded("d")
    )
    after, events = resolve(state, order("b", "A", "A", "A"), order("c", "A", "A", "A"))
    assert of(events, ev.PointsShared)[0].each == 0
    assert after.plane("b").score == 0


# --- airfields -----------------------------------------------------------------------------


def test_take_off_defaults_to_beta() -> None:
    """004: "If a player doesn't specify an airstrip in his orders when taking off, his
    'plane will take off on the BETA airstrip"; "When landing and taking off players must
    move Ahead on the two hexes of the airstrip"."""
    state = game(grounded("a"), grounded("b", "N"))
    after, events = resolve(
        state, order("a", "A", "A", "A", take_off=True), order("b", "0", "0", "0")
    )
    assert of(events, ev.TookOff) == [ev.TookOff(1, "a", "S", Strip.BETA, False)]
    assert [label(e.end, SIDE) for e in of(events, ev.Moved)] == ["J18", "J17", "J16"]
    assert where(after, "a") == ("J16", "N")
    assert after.plane("b").status is Status.GROUND


def test_take_off_on_the_declared_strip() -> None:
    """004 orders: "Turn 1: ALPHA/BETA/GAMMA airstrip ... Move 1: A / Move 2: A"."""
    state = game(grounded("a"), grounded("b", "N"))
    after, events = resolve(
        state,
        order("a", "A", "A", "LT", strip=Strip.GAMMA),
        order("b", "A", "A", "A", strip=Strip.ALPHA),
    )
    assert [(t.plane, t.strip, t.declared) for t in of(events, ev.TookOff)] == [
        ("a", Strip.GAMMA, True),
        ("b", Strip.ALPHA, True),
    ]
    assert where(after, "a") == ("L17", "N")  # K18, L18 facing NE, then LT
    assert where(after, "b") == ("M2", "SE")  # K1, L2 facing SE, then A
    # GAMMA runs along the board's side: a right turn off its end leaves the board
    _, events = resolve(state, order("a", "A", "A", "RT", strip=Strip.GAMMA))
    assert [c.plane for c in of(events, ev.Crashed)] == ["a"]


def test_take_off_moves_are_flown_ahead() -> None:
    state = game(grounded("a"), grounded("b", "N"))
    _, events = resolve(state, order("a", "LT", "0", "A", take_off=True), order("b", "0", "0", "0"))
    assert [(c.move, c.flown) for c in of(events, ev.ManoeuvreChanged)] == [
        (1, Manoeuvre.AHEAD),
        (2, Manoeuvre.AHEAD),
    ]


def _approach(name: str = "a", **fields: Any) -> Plane:
    """A plane of airfield S two hexes up BETA's line, flying home (south)."""
    return plane(name, "J16", "S", **fields)


def test_declared_landing_lands_and_reloads_at_own_airfield() -> None:
    """004: "Players may reload (back up to 16) every time they land at own airfield";
    a landing is Ahead on the two hexes of the strip (ruling S8)."""
    state = game(_approach(ammo=3, last_ahead=True), plane("b", "B10"))
    after, events = resolve(
        state,
        order("a", "A", "A", "A", land=True, strip=Strip.BETA),
        order("b", "A", "A", "A"),
    )
    # J16 -A-> J17 (strip hex 2) -A-> J18 (strip hex 1): landed in move 2
    assert of(events, ev.Landed) == [ev.Landed(1, 2, "a", "S", Strip.BETA, True)]
    a = after.plane("a")
    assert a.status is Status.GROUND and a.ammo == 16
    assert [e.move for e in of(events, ev.Moved) if e.plane == "a"] == [1, 2]


def test_no_declaration_no_landing() -> None:
    """004: "If a player doesn't tell the GM of his intention to land, then he won't be
    allowed to do so"."""
    state = game(_approach(), plane("b", "B10"))
    after, events = resolve(state, order("a", "A", "A", "A"), order("b", "A", "A", "A"))
    assert [r.reason for r in of(events, ev.LandingRefused)] == ["no landing declared"]
    assert after.plane("a").flying


def test_landing_on_another_strip_than_declared_is_refused() -> None:
    state = game(_approach(), plane("b", "B10"))
    after, events = resolve(
        state, order("a", "A", "A", "A", land=True, strip=Strip.GAMMA), order("b", "A", "A", "A")
    )
    reasons = [r.reason for r in of(events, ev.LandingRefused)]
    assert reasons == ["declared GAMMA, flew BETA", "declared a landing, did not land"]
    assert after.plane("a").flying


def test_landing_only_at_own_airfield_by_default() -> None:
    """Ruling S9: the rule book lets a plane land only at its own base; switch
    ``landing = "any_airfield"`` allows any, without reloading."""
    visitor = _approach(airfield="N", ammo=3)
    state = game(visitor, plane("b", "B10"))
    after, events = resolve(
        state, order("a", "A", "A", "A", land=True, strip=Strip.BETA), order("b", "A", "A", "A")
    )
    assert of(events, ev.LandingRefused)[0].reason == "S is not its own airfield"
    state = game(visitor, plane("b", "B10"), ruleset=rules(landing="any_airfield"))
    after, events = resolve(
        state, order("a", "A", "A", "A", land=True, strip=Strip.BETA), order("b", "A", "A", "A")
    )
    assert of(events, ev.Landed) == [ev.Landed(1, 2, "a", "S", Strip.BETA, False)]
    assert after.plane("a").ammo == 3


def test_landing_needs_two_aheads_on_the_strip() -> None:
    """A slip onto the strip's first hex followed by an Ahead is not a landing."""
    state = game(plane("a", "I16", "S"), plane("b", "B10"))
    # I16 -LS-> J17 facing S (a slip), then A to J18: not Ahead on both hexes
    _, events = resolve(
        state, order("a", "LS", "A", "A", land=True, strip=Strip.BETA), order("b", "A", "A", "A")
    )
    assert not of(events, ev.Landed)


def test_repairs_two_points_per_complete_turn_on_the_ground_up_to_eight() -> None:
    """004: "for each complete TURN spent on the ground may repair two damage points. A
    'plane may not recover to a strength higher than eight points"."""
    state = game(grounded("a", strength=5), grounded("b", "N", strength=7), plane("c", "B10"))
    after, events = resolve(state, order("c", "A", "A", "A"))
    assert [(r.plane, r.points, r.strength) for r in of(events, ev.Repaired)] == [
        ("a", 2, 7),
        ("b", 1, 8),
    ]
    after, events = resolve(replace(after, clouds=()), order("c", "A", "A", "A", turn=2))
    assert [(r.plane, r.strength) for r in of(events, ev.Repaired)] == [("a", 8)]
    assert after.plane("b").strength == 8


def test_no_repair_above_the_cap_nor_in_the_landing_turn() -> None:
    state = game(grounded("a", strength=10), _approach("l", strength=3, last_ahead=True))
    after, events = resolve(state, order("l", "A", "A", "A", land=True, strip=Strip.BETA))
    assert not of(events, ev.Repaired)
    assert after.plane("a").strength == 10
    assert after.plane("l").strength == 3  # landed in move 2: not a complete turn


def test_original_repairs_to_full_strength() -> None:
    state = game(grounded("a", strength=11), plane("c", "B10"), ruleset=load_ruleset("original"))
    after, _ = resolve(state, order("c", "A", "A", "A"))
    assert after.plane("a").strength == 12


# --- points, Aces, the end -----------------------------------------------------------------


def test_last_plane_flying_wins_five_points() -> None:
    """004: "The last surviving 'plane is the winner (and is awarded 5 bonus points)"."""
    state = game(plane("a", "J10"), plane("lost", "J2"))
    after, events = resolve(state, order("a", "A", "A", "A"))
    assert after.over and after.winner == "a"
    assert of(events, ev.GameOver) == [ev.GameOver(1, "a", 5)]
    # 12 points shared with the only plane left, then the bonus
    assert after.plane("a").score == 12 + 5
    with pytest.raises(GameError, match="over"):
        resolve(after)


def test_nobody_left_no_winner() -> None:
    state = game(plane("a", "J2"), plane("b", "J18", "S"))
    after, events = resolve(state)
    assert after.over and after.winner is None
    assert of(events, ev.GameOver) == [ev.GameOver(1, None, 0)]


def test_forty_points_make_an_ace() -> None:
    """004: "a player has inflicted/reached 40 hits/points on other players (including
    bonus points) he then becomes an Ace"."""
    state = game(plane("a", "J10", score=38), plane("b", "J7", "N"), plane("c", "B10"))
    after, events = resolve(
        state, order("a", "A:A", "0", "0"), order("b", "A", "0", "0"), order("c", "A", "A", "A")
    )
    # a J9, b J6: three hexes, 2 damage -> 40 points
    assert after.plane("a").score == 40
    assert of(events, ev.AceGained) == [ev.AceGained(1, "a", 40)]
    assert after.plane("a").ace


def test_ace_status_is_lost_below_forty() -> None:
    """004: "If, after being shot down etc, his score falls below the 40 mark, the player
    loses his Ace status" (switch ``shot_down_points``; 004's table is cut, ruling S17)."""
    state = game(
        plane("ace", "J2", score=45, ace=True),
        plane("b", "E10"),
        ruleset=rules(shot_down_points=-10, crash_share=False),
    )
    after, events = resolve(state, order("b", "A", "A", "A"))
    assert after.plane("ace").score == 35
    assert of(events, ev.AceLost) == [ev.AceLost(1, "ace", 35)]


def test_original_aces_are_made_in_the_game_and_kept() -> None:
    """Board game: 15 damage inflicted in the game makes an Ace for the rest of it."""
    original = load_ruleset("original")
    state = game(plane("a", "J10", score=100, game_points=13), plane("b", "J7"), ruleset=original)
    after, events = resolve(state, order("a", "A:A", "0", "0"), order("b", "A", "0", "0"))
    assert after.plane("a").game_points == 15 and after.plane("a").ace
    assert of(events, ev.AceGained)


def test_new_game_publishes_aces_carried_in() -> None:
    state = new_game(RULES, [PlaneSetup("old", score=52), PlaneSetup("new")], [])
    assert [p.ace for p in state.planes] == [True, False]
    assert [p.status for p in state.planes] == [Status.GROUND, Status.GROUND]
    assert [p.airfield for p in state.planes] == ["S", "N"]
    assert all(p.ammo == 16 and p.strength == 12 for p in state.planes)


@pytest.mark.parametrize(
    ("setups", "message"),
    [
        ([PlaneSetup("solo")], "at least two"),
        ([PlaneSetup("a"), PlaneSetup("A")], "two planes are named"),
        ([PlaneSetup("a", airfield="X"), PlaneSetup("b")], "no airfield 'X'"),
    ],
)
def test_bad_setups_are_refused(setups: list[PlaneSetup], message: str) -> None:
    with pytest.raises(GameError, match=message):
        new_game(RULES, setups, [])


def test_orders_for_another_turn_or_plane_are_refused() -> None:
    state = game(plane("a", "J10"), plane("b", "E10"))
    with pytest.raises(GameError, match="turn 2, but the turn to play is 1"):
        resolve(state, order("a", "A", "A", "A", turn=2))
    with pytest.raises(GameError, match="no plane 'zed'"):
        resolve(state, order("zed", "A", "A", "A"))
    out = game(plane("a", "J10", status=Status.SHOT_DOWN), plane("b", "E10"), plane("c", "G10"))
    with pytest.raises(GameError, match="out of the game"):
        resolve(out, order("a", "A", "A", "A"))


# --- clouds, determinism, storage -----------------------------------------------------------


def test_clouds_move_once_at_the_end_of_the_turn() -> None:
    """004: "They will be moved once at the end of each Turn (i.e. a set of three
    'Moves'), ready for the next turn": by the GM's entry, else at random from the seed."""
    state = game(plane("a", "B10"), plane("b", "E10"), clouds=["J10", "M10"])
    after, events = resolve_turn(state, {}, turn_rng(1, 1), {1: 0})
    moved = of(events, ev.CloudMoved)
    assert (moved[0].cloud, moved[0].direction, moved[0].entered) == (1, 0, True)
    assert label(after.clouds[0].hexes[0], SIDE) == "J9"
    assert moved[1].entered is False and moved[1].direction is not None
    again, _ = resolve_turn(state, {}, turn_rng(1, 1), {1: 0})
    assert again.clouds == after.clouds
    board = Board(SIDE)
    for seed in range(30):
        moved_state, _ = resolve_turn(state, {}, turn_rng(seed, 1))
        for cloud in moved_state.clouds:
            assert all(board.on_board(h) and h not in board.airfield_hexes for h in cloud.hexes)


def test_clouds_stay_with_switch_none() -> None:
    state = game(
        plane("a", "B10"), plane("b", "E10"), clouds=["J10"], ruleset=rules(clouds_move="none")
    )
    after, _ = resolve_turn(state, {}, turn_rng(1, 1))
    assert after.clouds == state.clouds


def test_same_seed_same_turn() -> None:
    state = new_game(RULES, [PlaneSetup(n) for n in "abcd"], [Cloud(1, (at("J10"),))])
    orders = {"a": order("a", "A", "A", "A:L+R+A", strip=Strip.ALPHA)}
    one = resolve_turn(state, orders, turn_rng(3, 1))
    two = resolve_turn(state, orders, turn_rng(3, 1))
    assert one == two


def test_state_json_round_trip() -> None:
    state = game(plane("a", "J10", pilot="Hissing Sid", ace=True), grounded("b"), clouds=["K5"])
    assert state_from_json(state_to_json(state)) == state
    after, _ = resolve(state, order("a", "A", "RT", "LS:A"), order("b", "A", "A", "A"))
    assert state_from_json(state_to_json(after)) == after


def test_pilot_name_from_the_orders() -> None:
    """004 IDENTIFICATION: "may choose a name to fly under e.g. Hissing Sid"."""
    state = game(plane("a", "J10"), plane("b", "E10"))
    after, _ = resolve(state, order("a", "A", "A", "A", pilot="Hissing Sid"))
    assert after.plane("a").pilot == "Hissing Sid"


def test_events_serialise() -> None:
    state = game(plane("a", "J10"), plane("b", "J7", "S"))
    _, events = resolve(state, order("a", "A:A", "A", "A"), order("b", "A", "0", "0"))
    data = [e.to_json() for e in events]
    fired = next(d for d in data if d["kind"] == "fired")
    assert fired["hits"] == [{"kind": "hit", "target": "b", "distance": 1, "damage": 4}]
    assert fired["line"] == "A"


def test_random_games_keep_their_invariants() -> None:
    """Twenty random turns of six planes: counters stay in range and planes out stay out."""
    rng = np.random.Generator(np.random.PCG64(11))
    state = new_game(RULES, [PlaneSetup(f"p{i}") for i in range(6)], [Cloud(1, (at("J10"),))])
    manoeuvres = ["A", "LT", "RT", "LS", "RS", "0"]
    for _ in range(20):
        if state.over:
            break
        orders = {}
        for p in state.in_game():
            if rng.random() < 0.1:
                continue
            moves = [
                f"{manoeuvres[int(rng.integers(6))]}:{'LRA'[int(rng.integers(3))]}"
                if rng.random() < 0.5
                else manoeuvres[int(rng.integers(6))]
                for _ in range(3)
            ]
            orders[p.name] = order(p.name, *moves, turn=state.turn, land=bool(rng.random() < 0.2))
        before = state
        state, _ = resolve_turn(state, orders, turn_rng(11, state.turn))
        for old, new in zip(before.planes, state.planes, strict=True):
            assert 0 <= new.ammo <= RULES.ammo
            assert 0 <= new.strength <= RULES.damage_capacity
            assert new.score >= old.score
            if not old.in_game:
                assert new == old
            if new.flying:
                assert Board(SIDE).on_board(new.hex)
