"""Fire in Sopwith (004 FIRING and IMPORTANT): three bursts a turn along the Left, Right
and Ahead lines, range 4, damage by distance, ammunition, centralised ambiguous orders.
"""

from __future__ import annotations

import pytest
from test_sopwith_game import RULES, SIDE, at, game, grounded, of, order, plane, resolve, rules

from dogfight.sopwith import events as ev
from dogfight.sopwith.game import Status, centralised, line_of_fire
from dogfight.sopwith.hexes import FACING_NAMES, label
from dogfight.sopwith.model import Line

# From J10, the first four hexes of each line for a plane facing N: the lines leave
# through the front-left (NW), front (N) and front-right (NE) sides (ruling S2).
LINES_NORTH = {
    Line.LEFT: ["I9", "H9", "G8", "F8"],
    Line.AHEAD: ["J9", "J8", "J7", "J6"],
    Line.RIGHT: ["K9", "L9", "M8", "N8"],
}


@pytest.mark.parametrize("line", list(Line))
def test_lines_of_fire_facing_north(line: Line) -> None:
    """004: "Firing for the ordinary player is in the left, right and ahead directions.
    The range is 4 hexes"; the board game: "Fire may be directed along a straight line
    that starts in any of the three hexes bordering the front of the plane"."""
    hexes = line_of_fire(at("J10"), 0, line, RULES.range)
    assert [label(h, SIDE) for h in hexes] == LINES_NORTH[line]


@pytest.mark.parametrize("facing", range(6))
def test_lines_of_fire_turn_with_the_plane(facing: int) -> None:
    """For every facing, L/A/R are the straight rows through the front-left, front and
    front-right sides: the rows of facings f-1, f and f+1."""
    centre = at("J10")
    for line, side in ((Line.LEFT, -1), (Line.AHEAD, 0), (Line.RIGHT, 1)):
        hexes = line_of_fire(centre, facing, line, 4)
        row = line_of_fire(centre, (facing + side) % 6, Line.AHEAD, 4)
        assert hexes == row


def _duel(distance: int, line: Line = Line.AHEAD, ace: bool = False) -> list[ev.Event]:
    """A plane flies from J11 to J10 (facing N) and fires one burst along ``line`` at a
    plane standing still ``distance`` hexes away on that line."""
    target = LINES_NORTH[line][distance - 1] if distance <= 4 else None
    if target is None:
        target = label(line_of_fire(at("J10"), 0, line, distance)[-1], SIDE)
    state = game(
        plane("gun", "J11", ace=ace),
        plane("target", target),
        ruleset=rules(zero_first_move="allowed"),
    )
    _, events = resolve(
        state, order("gun", f"A:{line.value}", "0", "0"), order("target", "0", "0", "0")
    )
    return events


@pytest.mark.parametrize("line", list(Line))
@pytest.mark.parametrize(("distance", "damage"), [(1, 4), (2, 3), (3, 2), (4, 1), (5, 0)])
def test_damage_by_distance(line: Line, distance: int, damage: int) -> None:
    """004: "the damage done to the target depends on the distance. Four damage if the
    target is at one hexagon distance" (one less per hex further); none beyond 4."""
    fired = of(_duel(distance, line), ev.Fired)
    assert len(fired) == 1
    hits = [(h.target, h.distance, h.damage) for h in fired[0].hits]
    assert hits == ([("target", distance, damage)] if damage else [])


@pytest.mark.parametrize(("distance", "damage"), [(1, 5), (2, 4), (3, 3), (4, 2), (5, 0)])
def test_aces_fire_better_at_the_same_range(distance: int, damage: int) -> None:
    """004: "Ace planes fire better than other planes:- Five damage if the target is at
    one hexagon distance. (NOTE: The range of four hexes remains the same...)"."""
    hits = of(_duel(distance, ace=True), ev.Fired)[0].hits
    assert [h.damage for h in hits] == ([damage] if damage else [])


def test_ruleset_damage_table() -> None:
    assert [RULES.damage(d, False) for d in range(0, 6)] == [0, 4, 3, 2, 1, 0]
    assert [RULES.damage(d, True) for d in range(0, 6)] == [0, 5, 4, 3, 2, 0]


def test_hits_score_a_point_per_damage_point() -> None:
    """004 POINTS TABLE: "made on enemy 'plane.... +1 point"."""
    state = game(plane("gun", "J10"), plane("target", "J7", "N"), plane("c", "B10"))
    after, _ = resolve(
        state,
        order("gun", "A:A", "0", "0"),
        order("target", "A", "0", "0"),
        order("c", "A", "A", "A"),
    )
    # gun J9, target J6: three hexes, 2 damage
    assert after.plane("gun").score == 2
    assert after.plane("target").strength == 10


def test_every_plane_on_the_line_is_hit() -> None:
    """Ruling S2: 004 is silent, the rule book hits every plane on the line in range."""
    state = game(
        plane("gun", "J11"),
        plane("near", "J8"),
        plane("far", "J6"),
        ruleset=rules(zero_first_move="allowed", nmr="no_move"),
    )
    _, events = resolve(state, order("gun", "A:A", "0", "0"))
    hits = [(h.target, h.distance, h.damage) for h in of(events, ev.Fired)[0].hits]
    assert hits == [("near", 2, 3), ("far", 4, 1)]


def test_nearest_plane_only_with_the_switch() -> None:
    state = game(
        plane("gun", "J11"),
        plane("near", "J8"),
        plane("far", "J6"),
        ruleset=rules(zero_first_move="allowed", nmr="no_move", fire_hits="nearest"),
    )
    _, events = resolve(state, order("gun", "A:A", "0", "0"))
    assert [h.target for h in of(events, ev.Fired)[0].hits] == ["near"]


def test_two_planes_in_the_hit_hex_are_both_hit() -> None:
    state = game(
        plane("gun", "J11"),
        plane("x", "J8"),
        plane("y", "J8", "S"),
        ruleset=rules(zero_first_move="allowed", nmr="no_move"),
    )
    _, events = resolve(state, order("gun", "A:A", "0", "0"))
    assert sorted(h.target for h in of(events, ev.Fired)[0].hits) == ["x", "y"]


def test_clouds_block_fire() -> None:
    """Ruling S13: a burst stops at the first cloud hex; planes in or beyond it are not
    hit (the board game: "Planes can fire out of clouds ... but not into clouds")."""
    state = game(
        plane("gun", "J11"),
        plane("beyond", "J7"),
        clouds=["J9"],
        ruleset=rules(zero_first_move="allowed", nmr="no_move"),
    )
    _, events = resolve(state, order("gun", "A:A", "0", "0"))
    fired = of(events, ev.Fired)[0]
    assert fired.hits == () and fired.blocked == at("J9")


def test_fire_is_simultaneous_within_a_move() -> None:
    """Ruling S3: every burst of a move is fired from the positions after the move, and
    a plane shot down in that move still fires."""
    state = game(
        plane("a", "J11", strength=3),
        plane("b", "J8", "S", strength=3),
        ruleset=rules(zero_first_move="allowed"),
    )
    after, events = resolve(state, order("a", "A:A", "0", "0"), order("b", "A:A", "0", "0"))
    # a J10, b J9: one hex, 4 damage each way; both down in move 1
    assert sorted(s.plane for s in of(events, ev.ShotDown)) == ["a", "b"]
    assert {p.status for p in after.planes} == {Status.SHOT_DOWN}
    assert after.over and after.winner is None
    assert [p.score for p in after.planes] == [4, 4]


def test_a_plane_with_no_damage_points_left_is_shot_down() -> None:
    """Ruling S14: damage points at 0 (004's "12 dge" counted down) is shot down; it
    flies no further moves."""
    state = game(plane("gun", "J11"), plane("t", "J8", "S", strength=2), plane("c", "B10"))
    after, events = resolve(
        state, order("gun", "A:A", "A", "A"), order("t", "A", "A", "A"), order("c", "A", "A", "A")
    )
    assert of(events, ev.ShotDown) == [ev.ShotDown(1, 1, "t", ("gun",))]
    t = after.plane("t")
    assert t.status is Status.SHOT_DOWN and t.strength == 0
    assert [e.move for e in of(events, ev.Moved) if e.plane == "t"] == [1]


def test_three_bursts_a_turn_in_any_combination() -> None:
    """004: "Players are only allowed three bursts of fire per turn. They may be used
    spread over the three moves (as above), used all in one move (e.g. "fire L+R+A"), or
    any other combination"; bursts beyond three are not fired (ruling S16)."""
    state = game(plane("gun", "J10"), plane("c", "B10"))
    after, events = resolve(state, order("gun", "A:L+R", "A:A", "A:R"), order("c", "A", "A", "A"))
    fired = [(e.move, e.line) for e in of(events, ev.Fired)]
    assert fired == [(1, Line.LEFT), (1, Line.RIGHT), (2, Line.AHEAD)]
    refused = of(events, ev.BurstNotFired)
    assert [(e.move, e.line, e.reason) for e in refused] == [
        (3, Line.RIGHT, "3 bursts a turn used")
    ]
    assert after.plane("gun").ammo == 13


def test_ammunition_one_per_burst_and_none_when_out() -> None:
    """004: "16 ammo"; ruling S15: one burst uses one; without ammunition nothing fires."""
    state = game(plane("gun", "J10", ammo=1), plane("c", "B10"))
    after, events = resolve(state, order("gun", "A:L+R", "A", "A"), order("c", "A", "A", "A"))
    assert [e.line for e in of(events, ev.Fired)] == [Line.LEFT]
    assert [e.reason for e in of(events, ev.BurstNotFired)] == ["out of ammunition"]
    assert after.plane("gun").ammo == 0


@pytest.mark.parametrize(
    ("left", "lines"),
    [(3, [Line.LEFT, Line.RIGHT, Line.AHEAD]), (2, [Line.LEFT, Line.RIGHT]), (1, [Line.AHEAD])],
)
def test_ambiguous_fire_is_centralised(left: int, lines: list[Line]) -> None:
    """004: "All ambiguous firing orders (e.g. "A - FIRE") will be centralised. If you have
    three bursts left, it will be L+R+A; if you have two bursts left it will be L+R; one
    burst will be A"."""
    assert list(centralised(left)) == lines
    used = 3 - left
    first = "A:" + "+".join(["A"] * used) if used else "A"
    state = game(plane("gun", "J10"), plane("c", "B10"))
    _, events = resolve(state, order("gun", first, "A:?", "A"), order("c", "A", "A", "A"))
    assert [e.line for e in of(events, ev.Fired) if e.move == 2] == lines


def test_ambiguous_fire_counts_ammunition_left() -> None:
    """Ruling S15: bursts left are also limited by the ammunition."""
    state = game(plane("gun", "J10", ammo=2), plane("c", "B10"))
    _, events = resolve(state, order("gun", "A:?", "A", "A"), order("c", "A", "A", "A"))
    assert [e.line for e in of(events, ev.Fired)] == [Line.LEFT, Line.RIGHT]


def test_ambiguous_fire_with_nothing_left() -> None:
    state = game(plane("gun", "J10"), plane("c", "B10"))
    _, events = resolve(state, order("gun", "A:L+R+A", "A:?", "A"), order("c", "A", "A", "A"))
    assert [(e.move, e.line, e.reason) for e in of(events, ev.BurstNotFired)] == [
        (2, None, "no bursts left")
    ]


def test_no_fire_from_the_ground() -> None:
    """A plane that stays on the ground fires nothing (the board game: "No firing while
    Landed")."""
    state = game(grounded("a"), plane("b", "B10"))
    _, events = resolve(state, order("a", "0:A", "0:L", "0"), order("b", "A", "A", "A"))
    assert not [e for e in of(events, ev.Fired) if e.plane == "a"]
    assert FACING_NAMES[state.plane("a").facing] == "N"
