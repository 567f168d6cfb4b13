"""Airplane rules, part 2: who can fire at whom, range, arcs, line of sight, overlaps and
two-seaters.

Most tables here have every airplane of one maneuver deck flying the same heading and
the same cards, so their relative positions before the phase are those of the firing
step. Source ids: 000 Tripods & Triplanes (``wog``), 002 Wings of War manual (``wow``),
003 Wings of War basic rules (``wow-basic``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from conftest import HOLD, Json, of, plain, plane, run, situation

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.rules.events import DamageDrawn, Event, Fired, HeldFire

SPAD = "spad-xiii"  # deck A, fires A, resistance 16
X0, Y0 = 10.0, 45.0

_C = load_catalog().constants
RULER = _C.ruler.length
HALF_MARK = _C.ruler.half
HALF_L = _C.airplane_base.length / 2  # centre to nose / tail
HALF_W = _C.airplane_base.width / 2  # centre to wing tip
ARC = _C.arcs.front.width / 2


def shot(dx: float, dy: float = 0.0, *, fire: Any = None, **kw: Any) -> Json:
    """SPAD "a" at (X0, Y0) heading 0 and an enemy SPAD "b" ``dx`` ahead, ``dy`` to the
    left, flying away with the same cards; deck A stacked with an A1 and an A2."""
    kw.setdefault("damage_decks", {"A": plain("A", 1, 2)})
    return situation(
        plane("a", SPAD, "allies", X0, Y0, 0, fire=fire),
        plane("b", SPAD, "central", X0 + dx, Y0 + dy, 0),
        **kw,
    )


def fired(events: list[Event], firer: str = "a") -> list[Fired]:
    return [e for e in of(events, Fired) if e.firer == firer]


def drawn(events: list[Event], vehicle: str = "b") -> list[DamageDrawn]:
    return [e for e in of(events, DamageDrawn) if e.vehicle == vehicle]


# --- a single target -------------------------------------------------------------------------


def test_airplane_fires_at_enemy_in_arc_and_reach() -> None:
    """000 FIRING AIRPLANES: "If an edge of the ruler can reach any point of the base of an
    enemy ... while staying within the firing arc of the attacking airplane (the arc
    between the two black lines), the attacking airplane can fire at its opponent." """
    state, events = run(shot(12), phases=1)
    (f,) = fired(events)
    assert (f.target, f.weapon) == ("b", "front")
    (d,) = drawn(events)
    assert d.source == "a front"
    assert state.vehicles["b"].damage == d.points > 0


def test_short_range_draws_two_cards() -> None:
    """000: "If the target airplane base is reached by the first half of the ruler, the shot
    is at short range. The owner of the target ... draws two damage cards from the deck
    that matches the firepower letter of the firing airplane." 002: "First half of ruler →
    2 damage cards"."""
    stack = plain("A", 1, 2)
    state, events = run(shot(HALF_MARK - 2, damage_decks={"A": stack}), phases=1)
    (f,) = fired(events)
    assert (f.range, f.cards) == ("short", 2)
    (d,) = drawn(events)
    assert (d.deck, d.cards, d.points) == ("A", tuple(stack), 3)
    assert state.vehicles["b"].damage == 3


def test_long_range_draws_one_card() -> None:
    """000: "If the target is reached by the second half of the ruler, the shot is at long
    range. The owner of the target ... draws one damage card from the appropriate deck."
    002: "Second half → 1 damage card"."""
    stack = plain("A", 2, 1)
    state, events = run(shot(HALF_MARK + HALF_L + 3, damage_decks={"A": stack}), phases=1)
    (f,) = fired(events)
    assert (f.range, f.cards) == ("long", 1)
    (d,) = drawn(events)
    assert (d.deck, d.cards, d.points) == ("A", (stack[0],), 2)
    assert state.vehicles["b"].damage == 2


@pytest.mark.parametrize(
    ("dx", "expected"),
    [
        (HALF_MARK + HALF_L - 0.25, "short"),  # centre beyond the half mark, tail within it
        (HALF_MARK + HALF_L, "short"),  # tail exactly on the half mark
        (HALF_MARK + HALF_L + 0.25, "long"),
        (RULER + HALF_L - 0.25, "long"),  # centre beyond the ruler, tail within reach
        (RULER + HALF_L, "long"),  # tail exactly at the end of the ruler
        (RULER + HALF_L + 0.25, None),  # the nearest point of the base is out of reach
    ],
)
def test_range_is_measured_to_the_nearest_point_of_the_base(
    dx: float, expected: str | None
) -> None:
    """000: "If an edge of the ruler can reach any point of the base of an enemy ... the
    attacking airplane can fire" / "If the target airplane base is reached by the first
    half of the ruler, the shot is at short range." 003: "目标飞机牌的任何部份若处于纸尺的
    一半长度内,目标飞机的玩家需从损伤牌迭抽取 2 张损伤牌。否则玩家只需抽取 1 张损伤牌"
    (if any part of the target's card is within half the ruler, two damage cards; else
    one). Measured to the base, not to its centre."""
    _, events = run(shot(dx), phases=1)
    shots = fired(events)
    if expected is None:
        assert shots == []
        assert drawn(events) == []
        return
    (f,) = shots
    assert f.range == expected
    assert f.distance == pytest.approx(dx - HALF_L)
    assert len(drawn(events)[0].cards) == f.cards == (2 if expected == "short" else 1)


# --- firing arc --------------------------------------------------------------------------------


def test_target_outside_the_front_arc_cannot_be_fired_at_even_if_near() -> None:
    """000: "... while staying within the firing arc of the attacking airplane (the arc
    between the two black lines)". 003: "检查飞机机首(正前方约 60 度)... 的火力范围,在其
    枪炮射程内的敌机即可成为射击目标" (check the front arc, about 60 degrees straight
    ahead: enemies within it and within range can be targeted)."""
    for dx, dy in ((0.0, HALF_W + 4), (2.0, -(HALF_W + 4)), (-8.0, 0.0)):
        _, events = run(shot(dx, dy), phases=1)
        assert fired(events) == [], (dx, dy)
    # the same distance straight ahead is a hit
    _, events = run(shot(HALF_W + 4 + HALF_L, 0.0), phases=1)
    assert len(fired(events)) == 1


def test_any_point_of_the_base_inside_the_arc_is_enough() -> None:
    """000: "If an edge of the ruler can reach any point of the base of an enemy ... while
    staying within the firing arc of the attacking airplane, the attacking airplane can
    fire at its opponent." The target's centre is outside the arc, a corner inside."""
    dx, dy = 12.0, 8.5
    assert math.degrees(math.atan2(dy, dx)) > ARC  # centre outside the arc
    assert math.degrees(math.atan2(dy - HALF_W, dx + HALF_L)) < ARC  # near corner inside
    state, events = run(shot(dx, dy), phases=1)
    (f,) = fired(events)
    assert f.target == "b"
    firer = state.vehicles["a"].pose
    assert firer.heading == 0
    bearing = math.degrees(math.atan2(f.point[1] - firer.y, f.point[0] - firer.x))
    assert bearing <= ARC + 1e-6  # the point the ruler reaches is inside the arc


# --- choosing a target ---------------------------------------------------------------------


def _two_targets(fire: Any = None) -> Json:
    """Enemy "b" straight ahead at short range and enemy "c" ahead-left at long range,
    both reachable by "a"."""
    return situation(
        plane("a", SPAD, "allies", X0, Y0, 0, fire=fire),
        plane("b", SPAD, "central", X0 + 12, Y0, 0),
        plane("c", SPAD, "central", X0 + 20, Y0 + 12, 0),
        damage_decks={"A": plain("A", 1, 1, 1)},
    )


def test_one_target_per_weapon_and_auto_is_the_nearest() -> None:
    """000: "Each airplane can fire at a single target each round, choosing one if there
    are several possible targets." 003: "机首或机尾(双座机)的机枪只可各自向一个目标开火"
    (front and rear guns may each fire at one target only). A plan that leaves the choice
    open ("auto") fires at the nearest reachable enemy (ruling R17)."""
    _, events = run(_two_targets(), phases=1)
    (f,) = fired(events)
    assert (f.target, f.range) == ("b", "short")
    assert [d.vehicle for d in of(events, DamageDrawn)] == ["b"]


def test_explicit_fire_choice_among_several_targets() -> None:
    """000: "Each airplane can fire at a single target each round, choosing one if there
    are several possible targets." The plan names the farther one."""
    _, events = run(_two_targets(fire=("c", "auto", "auto")), phases=1)
    (f,) = fired(events)
    assert (f.target, f.range, f.cards) == ("c", "long", 1)
    assert [(d.vehicle, len(d.cards)) for d in of(events, DamageDrawn)] == [("c", 1)]


def test_firing_is_not_mandatory() -> None:
    """000: "Firing is not mandatory." A plan holds fire with "none"."""
    _, events = run(_two_targets(fire=HOLD), phases=1)
    assert fired(events) == []
    assert of(events, DamageDrawn) == []
    assert [(h.firer, h.reason) for h in of(events, HeldFire)] == [("a", "holds fire")]


# --- two-seaters ------------------------------------------------------------------------------


def test_two_seater_rear_arc_fires_separately_with_its_own_deck(catalog: Catalog) -> None:
    """002: "Two-seater planes may fire front and rear arcs separately, each at different
    targets." / "Draw damage cards from deck matching the red letter of the firing arc."
    003: "枪弹威力印明两个英文字母的话,代表这是一部双座飞机。前一个字母代表前方枪弹威力。
    后一个字母代表后方枪弹威力" (two letters: a two-seater; the first is the front
    firepower, the second the rear); rear arc "双座机的正后方约 120 度"."""
    bristol = catalog.airplanes["bristol-f2b"]
    front, rear = bristol.firepower
    assert front != rear
    enemy = "fokker-d7"
    assert catalog.airplanes[enemy].maneuver_deck == bristol.maneuver_deck
    front_stack = plain(front, 1, 2)
    rear_stack = plain(rear, 2, 0)
    sit = situation(
        plane("bristol", "bristol-f2b", "allies", 40, 45, 0),
        plane("ahead", enemy, "central", 40 + 12, 45, 0),
        plane("behind", enemy, "central", 40 - 15, 45 + 5, 0, fire=HOLD),
        damage_decks={front: front_stack, rear: rear_stack},
    )
    state, events = run(sit, phases=1)
    shots = {f.weapon: f for f in fired(events, "bristol")}
    assert {w: (f.target, f.range) for w, f in shots.items()} == {
        "front": ("ahead", "short"),
        "rear": ("behind", "short"),
    }
    by_target = {d.vehicle: d for d in of(events, DamageDrawn)}
    assert (by_target["ahead"].deck, by_target["ahead"].cards) == (front, tuple(front_stack))
    assert (by_target["behind"].deck, by_target["behind"].cards) == (rear, tuple(rear_stack))
    assert by_target["behind"].source == "bristol rear"
    assert state.vehicles["ahead"].damage == 3
    assert state.vehicles["behind"].damage == 2


# --- line of sight ---------------------------------------------------------------------------


def _screen(blocker_side: str, blocker_dy: float) -> Json:
    """Firer "f" aims at enemy "t" 22 cm ahead; airplane "g" of ``blocker_side`` sits
    12 cm ahead, ``blocker_dy`` to the left of the line."""
    return situation(
        plane("f", SPAD, "allies", X0, Y0, 0, fire=("t", "t", "t")),
        plane("g", SPAD, blocker_side, X0 + 12, Y0 + blocker_dy, 0, fire=HOLD),
        plane("t", SPAD, "central", X0 + 22, Y0, 0),
    )


@pytest.mark.parametrize("blocker_side", ["allies", "central"])
def test_a_base_between_firer_and_target_blocks(blocker_side: str) -> None:
    """000 LINE OF SIGHT: "A weapon using a ruler ... may not fire through other vehicles,
    enemy or friendly. If it is not possible to reach any point of a target base without
    the edge of the ruler crossing another base, then the line of sight of the firing
    vehicle is blocked". 002 FAQ: "Can I fire through my own plane? No. Firing blocked if
    path crosses any plane (friendly or enemy)." 003: "在飞机和目标间若有己方飞机,则不可
    向这目标开火" (if an own airplane is between, you cannot fire at that target)."""
    _, events = run(_screen(blocker_side, 0.0), phases=1)
    assert fired(events, "f") == []
    held = [h for h in of(events, HeldFire) if h.firer == "f"]
    assert [h.weapon for h in held] == ["front"]
    assert held[0].reason.startswith("chosen target t")
    assert "blocked by g" in held[0].reason
    assert "t" not in [d.vehicle for d in of(events, DamageDrawn)]


def test_a_gap_beside_the_blocking_base_lets_the_ruler_through() -> None:
    """000: "If it is not possible to reach any point of a target base without the edge of
    the ruler crossing another base, then the line of sight ... is blocked" — so if some
    point of the target can be reached past the blocking base, the shot is allowed."""
    _, events = run(_screen("allies", 2.0), phases=1)
    (f,) = fired(events, "f")
    assert f.target == "t"
    # the ruler reaches the part of the target's tail edge right of the blocker
    assert f.point[1] < Y0 - 1.0


# --- overlapping airplanes ---------------------------------------------------------------------


def test_overlapping_airplanes_cannot_fire_at_each_other() -> None:
    """002 Overlapping: "If two planes overlap: Neither can fire at each other." 003:
    "当飞机牌互相重迭时,双方不可向对方开火" (when airplane cards overlap, neither side
    may fire at the other)."""
    overlapping = _C.airplane_base.length - 1.5
    _, events = run(shot(overlapping), phases=1)
    assert of(events, Fired) == []
    apart = _C.airplane_base.length + 1.5
    _, events = run(shot(apart), phases=1)
    assert [f.target for f in fired(events)] == ["b"]


def test_overlapping_airplanes_can_fire_at_others_through_each_other() -> None:
    """002: "If two planes overlap: ... Both can fire at other planes normally." 000: "Two
    overlapping airplanes don't block each other's line of sight"."""
    sit = situation(
        plane("a", SPAD, "allies", 30, Y0, 0),
        plane("b", SPAD, "central", 30 + _C.airplane_base.length - 1.5, Y0, 0),
        plane("c", SPAD, "central", 30 + 14, Y0, 0),
    )
    _, events = run(sit, phases=1)
    assert [f.target for f in fired(events)] == ["c"]


def test_overlapping_airplanes_do_not_block_shots_at_them() -> None:
    """000: "Two overlapping airplanes don't block each other's line of sight or the line
    of sight of the airplanes firing at them." 002: "Others can fire at overlapping
    planes." The base overlapping the target sits between it and the firer."""
    near = X0 + 15
    sit = situation(
        plane("f", SPAD, "allies", X0, Y0, 0, fire=("t", "t", "t")),
        plane("x", SPAD, "central", near, Y0, 0),
        plane("t", SPAD, "central", near + _C.airplane_base.length - 1.5, Y0, 0),
    )
    _, events = run(sit, phases=1)
    assert [f.target for f in fired(events, "f")] == ["t"]
    # without the overlap the same base hides the target
    sit["vehicles"][1]["pose"]["x"] = near - 4.0
    _, events = run(sit, phases=1)
    assert fired(events, "f") == []
