"""The planning bots' shortcuts give what the long way gives: legal plans from the
pair table, escapes turned and moved instead of flown, a thinned enemy model, the
arcs measured along whichever axis is longer, runs of plans that share their first
cards."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.bots import kernels, threats
from dogfight.bots.plane_choice import _best
from dogfight.bots.plane_planner import (
    _LEVEL,
    Runs,
    _end_position,
    _escapes,
    _prefixes,
    _trapped,
    _weapon_values,
    evaluate,
    spread_dot,
    take_rows,
    usable_symbols,
)
from dogfight.bots.threats import (
    SAFE_MARGIN,
    CardOdds,
    Enemy,
    airplane_flights,
    arc_offsets,
    in_arc_offsets,
    nearest_in_arc,
    nearest_in_arc_rows,
    world_points,
)
from dogfight.bots.view import (
    Flights,
    airplane_sequences,
    card_table,
    fly,
    fly_turned,
    inside,
    legal_sequences,
)
from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import Symbol
from dogfight.geometry.pose import Pose
from dogfight.rules.context import Rules
from dogfight.rules.plans import BASIC, Flown, Restrictions, plan_problems
from dogfight.rules.state import GameState, Vehicle
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build, parse_situation

CATALOG = load_catalog()
DECKS = sorted(CATALOG.maneuver_decks)
DECK_AND_POSE = (
    st.sampled_from(DECKS),
    st.floats(-50, 150),
    st.floats(-50, 150),
    st.floats(0, 360, exclude_max=True),
)
"""A deck and a pose (x, y, heading) to fly its plans from."""


def _the_long_way(deck_name: str, previous: Flown | None, restrictions: Restrictions) -> np.ndarray:
    deck = CATALOG.maneuver_decks[deck_name]
    usable = [i for i, c in enumerate(deck.cards) if c.symbol in _LEVEL]
    rows = [
        combo
        for combo in itertools.permutations(usable, 3)
        if not plan_problems(previous, [deck.cards[i] for i in combo], restrictions)
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


@pytest.mark.parametrize(
    "restrictions", [BASIC, Restrictions(immelmann_counter=True, steep_after_turn_or_straight=True)]
)
@pytest.mark.parametrize(
    "previous", [None, Flown(Symbol.IMMELMANN, False), Flown(Symbol.STRAIGHT, True)]
)
def test_legal_sequences_are_the_plans_that_break_no_restriction(
    previous: Flown | None, restrictions: Restrictions
) -> None:
    """Every three-card plan plan_problems finds nothing wrong with, in the same order,
    for every deck (the restrictions judge one pair of cards at a time)."""
    for name in DECKS:
        deck = CATALOG.maneuver_decks[name]
        got = legal_sequences(deck, previous, _LEVEL, restrictions)
        assert np.array_equal(got, _the_long_way(name, previous, restrictions)), name


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(DECKS),
    st.floats(0, 90),
    st.floats(0, 90),
    st.floats(-720, 720),
    st.integers(0, 10_000),
)
def test_a_flight_turned_and_moved_is_the_flight_flown_from_the_pose(
    deck_name: str, x: float, y: float, heading: float, pick: int
) -> None:
    """A card moves a base in its own frame, so a plan flown from the origin, turned by
    the heading and moved to the pose, ends where flying it from the pose ends: how the
    bot tests its escapes from thousands of end positions at once."""
    deck = CATALOG.maneuver_decks[deck_name]
    seqs = legal_sequences(deck, None, _LEVEL)
    row = seqs[pick % len(seqs)][None, :]
    table = card_table(deck)
    origin = fly(Pose(0.0, 0.0, 0.0), table, row, 10.0)
    there = fly(Pose(x, y, heading), table, row, 10.0)
    rad = np.radians(heading)
    ex, ey = origin.x[0], origin.y[0]
    assert np.allclose(there.x[0], x + ex * np.cos(rad) - ey * np.sin(rad), atol=1e-9)
    assert np.allclose(there.y[0], y + ex * np.sin(rad) + ey * np.cos(rad), atol=1e-9)
    escapes = _escapes(deck, _LEVEL, 10.0)
    assert escapes.x.shape == (12, 3)  # a dozen compact turns, three cards each


def test_a_thinned_enemy_keeps_spread_poses_and_weights_summing_to_one() -> None:
    m = 21
    weight = np.concatenate([np.full(14, 0.5 / 14), np.full(7, 0.5 / 7)])
    poses = np.arange(m * 3, dtype=np.float64).reshape(m, 3)
    enemy = Enemy(None, poses, poses + 100, poses + 200, weight)  # type: ignore[arg-type]
    thin = enemy.thinned(5)
    assert len(thin.weight) == 5 and thin.weight.sum() == pytest.approx(1.0)
    assert thin.x[0, 0] == 0 and thin.x[-1, 0] == poses[-1, 0]  # first and last kept
    assert enemy.thinned(30) is enemy


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(DECKS),
    st.floats(0, 90),
    st.floats(0, 90),
    st.floats(-720, 720),
    st.integers(0, 2**32 - 1),
)
def test_plans_flown_together_share_their_first_moves_bit_for_bit(
    deck_name: str, x: float, y: float, heading: float, seed: int
) -> None:
    """``fly`` moves each run of plans that begin alike once per shared card: every
    pose is still the very float of that plan flown alone, in the deck's order or in
    any other."""
    deck = CATALOG.maneuver_decks[deck_name]
    table = card_table(deck)
    seqs = legal_sequences(deck, None, _LEVEL)
    rng = np.random.default_rng(seed)
    rows = seqs[rng.choice(len(seqs), size=min(60, len(seqs)), replace=False)]
    for order in (rows[np.lexsort(rows.T[::-1])], rows):
        together = fly(Pose(x, y, heading), table, order, 10.0)
        for i, row in enumerate(order):
            alone = fly(Pose(x, y, heading), table, row[None, :], 10.0)
            for mine, theirs in zip(
                (together.x, together.y, together.heading),
                (alone.x, alone.y, alone.heading),
                strict=True,
            ):
                assert mine[i].tolist() == theirs[0].tolist()


def _nearest_in_arc_point_by_point(
    fx: np.ndarray, fy: np.ndarray, axis: np.ndarray, half: float, px: np.ndarray, py: np.ndarray
) -> np.ndarray:
    """The plain (firing dots, bases) loop over sample points, in float32."""
    rad = np.radians(axis)
    c = np.cos(rad).astype(np.float32)[:, None]
    s = np.sin(rad).astype(np.float32)[:, None]
    ox, oy = fx.astype(np.float32)[:, None], fy.astype(np.float32)[:, None]
    qx, qy = px.astype(np.float32), py.astype(np.float32)
    slope = np.float32(math.tan(math.radians(half)))
    best = np.full((len(fx), px.shape[0]), np.inf, dtype=np.float32)
    for j in range(px.shape[1]):
        dx, dy = qx[None, :, j] - ox, qy[None, :, j] - oy
        along = (dx * c + dy * s) * slope
        across = np.abs(dy * c - dx * s)
        d2 = dx * dx + dy * dy
        d2[across > along] = np.inf
        best = np.minimum(best, d2)
    return best.astype(np.float64)


ARC_CASE = (
    st.sampled_from([1, 5, 7]),
    st.sampled_from([10.0, 40.0, 60.0]),
    st.integers(0, 2**32 - 1),
)
"""Sample points per base, an arc's half-width and a seed."""


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.integers(1, 400), *ARC_CASE)
def test_arcs_measured_either_way_are_the_plain_loop_bit_for_bit(
    a: int, b: int, k: int, half: float, seed: int
) -> None:
    """The compiled arc test (:mod:`dogfight.bots.kernels`) gives numpy's float32
    operations' distances on every element, more firing dots than bases or fewer."""
    rng = np.random.default_rng(seed)
    fx, fy, axis = rng.uniform(0, 90, a), rng.uniform(0, 90, a), rng.uniform(0, 360, a)
    bx, by, heading = rng.uniform(0, 90, b), rng.uniform(0, 90, b), rng.uniform(0, 360, b)
    local = (rng.uniform(-5, 5, k), rng.uniform(-5, 5, k))
    px, py = world_points(bx, by, heading, local)
    rad = np.radians(heading)[:, None]
    c, s = np.cos(rad), np.sin(rad)
    assert np.array_equal(px, bx[:, None] + local[0] * c - local[1] * s)
    assert np.array_equal(py, by[:, None] + local[0] * s + local[1] * c)
    got = nearest_in_arc(fx, fy, axis, half, px, py)
    assert got.shape == (a, b)
    assert np.array_equal(got, _nearest_in_arc_point_by_point(fx, fy, axis, half, px, py))


def test_runs_of_plans_sharing_their_first_cards_are_the_distinct_beginnings() -> None:
    """Each plan's run holds exactly the plans with its first p + 1 cards, as
    :func:`numpy.unique` groups them, for grouped plans (as flown) and shuffled ones."""
    deck = CATALOG.maneuver_decks[DECKS[0]]
    seqs = legal_sequences(deck, None, _LEVEL)
    shuffled = seqs[np.random.default_rng(3).permutation(len(seqs))]
    for plans, grouped in ((seqs, True), (shuffled, False)):
        for p, (first, inverse) in enumerate(_prefixes(plans)[0]):
            beginnings = plans[:, : p + 1]
            assert np.array_equal(beginnings[first][inverse], beginnings)
            if grouped:
                assert len(first) == len(np.unique(beginnings, axis=0))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 15.0, 90.0, 37.5]))
def test_a_pose_is_trapped_when_no_escape_flown_from_it_stays_on(seed: int, step: float) -> None:
    """The heading-by-heading box test answers what flying every compact escape from
    every pose answers (poses near the edges and corners, headings shared or not)."""
    state = build(duel_situation(), CATALOG, 0)
    me = next(iter(state.in_play()))
    rules = state.rules
    rng = np.random.default_rng(seed)
    n = 300
    w, h = rules.table_width, rules.table_height
    fx = np.where(rng.random(n) < 0.5, rng.uniform(-2, 26, n), w - rng.uniform(-2, 26, n))
    fy = rng.uniform(-2, h + 2, n)
    fh = rng.uniform(0, 360, n) if step == 0.0 else (rng.integers(0, 24, n) * step % 360.0)
    fh = fh.astype(np.float64)
    escapes = _escapes(rules.deck_of(me.type), frozenset(usable_symbols(rules)), rules.base_length)
    rad = np.radians(fh)[:, None]
    c, s = np.cos(rad), np.sin(rad)
    ok = np.ones((n, len(escapes.x)), dtype=np.bool_)
    for p in range(3):
        x = fx[:, None] + escapes.x[None, :, p] * c - escapes.y[None, :, p] * s
        y = fy[:, None] + escapes.x[None, :, p] * s + escapes.y[None, :, p] * c
        ok &= inside(x, y, w, h, SAFE_MARGIN)
    inner = np.minimum(np.minimum(fx, w - fx), np.minimum(fy, h - fy)) >= 25.0
    assert np.array_equal(_trapped(rules, me, fx, fy, fh), ~ok.any(axis=1) & ~inner)
    # told each pose's index among distinct headings (listed twice, in no order)
    distinct, index = np.unique(fh, return_inverse=True)
    order = rng.permutation(2 * len(distinct))
    listed = np.concatenate([distinct, distinct])[order]
    where = np.argsort(order)  # listed[where[i]] is the i-th of distinct, doubled
    index = where[index + len(distinct) * rng.integers(0, 2, n)]
    assert np.array_equal(listed[index], fh)
    told = _trapped(rules, me, fx, fy, fh, (index, listed))
    assert np.array_equal(told, ~ok.any(axis=1) & ~inner)


@settings(max_examples=40, deadline=None)
@given(*DECK_AND_POSE)
def test_plans_turned_from_the_origin_land_where_they_are_flown(
    deck_name: str, x: float, y: float, heading: float
) -> None:
    """A plan flown from the origin, turned and moved to the pose, lands where flying
    it from the pose lands (to 1e-9 cm and degree), for every legal plan of a deck."""
    deck = CATALOG.maneuver_decks[deck_name]
    seqs = legal_sequences(deck, None, _LEVEL)
    table = card_table(deck)
    pose = Pose(x, y, heading)
    flown, turned = fly(pose, table, seqs, 4.0), fly_turned(pose, table, seqs, 4.0)
    assert np.allclose(turned.x, flown.x, rtol=0, atol=1e-9)
    assert np.allclose(turned.y, flown.y, rtol=0, atol=1e-9)
    gap = np.abs((turned.heading - flown.heading + 180.0) % 360.0 - 180.0)
    assert gap.max() <= 1e-9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=60), st.integers(1, 70))
def test_the_shortlist_is_the_stable_sort_s_best_with_ties_to_the_earlier_plan(
    values: list[int], count: int
) -> None:
    """The partition-based shortlist keeps exactly the plans a stable sort keeps (many
    equal scores: the earlier ones), in their original order."""
    score = np.array(values, dtype=np.float64) / 4.0
    expected = np.sort(np.argsort(-score, kind="stable")[:count])
    assert np.array_equal(_best(score, count), expected)


def _scoring_table(seed: int, tripod: bool) -> tuple[GameState, Vehicle, list[Enemy]]:
    """A rocketeer under the Standard Rules, aiming at its enemy (an airplane, or a
    tripod with its armour up and its heat-ray firing), and that enemy's random poses
    around it."""
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(20, 70, 2)
    enemy = {"id": "them", "type": "mk1-locust" if tripod else "albatros-d5a", "side": "b"}
    data: dict[str, Any] = {
        "switches": {"standard_rules": True},
        "vehicles": [
            {"id": "me", "type": "nieuport-17", "side": "a", "rockets": 2}
            | {"pose": {"x": x, "y": y, "heading": float(rng.uniform(0, 360))}},
            enemy | {"pose": {"x": x + 10.0, "y": y, "heading": 180.0}},
        ],
    }
    state = build(parse_situation(data, "test"), CATALOG, 0)
    me, them = state.vehicles["me"], state.vehicles["them"]
    me.aim = {"front": ("them", state.phases_played)}
    m = 7
    ex = x + rng.uniform(-25, 25, (m, 1)) + np.cumsum(rng.uniform(-6, 6, (m, 3)), axis=1)
    ey = y + rng.uniform(-25, 25, (m, 1)) + np.cumsum(rng.uniform(-6, 6, (m, 3)), axis=1)
    eh = rng.uniform(0, 360, (m, 3))
    weight = rng.random(m)
    ray = np.array([0.8, 0.0, 0.8])
    return state, me, [Enemy(them, ex, ey, eh, weight / weight.sum(), ray)]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_plan_scores_among_others_as_it_scores_alone(
    seed: int, tripod: bool, centres: bool
) -> None:
    """``evaluate`` works out damage per run of plans that share their first cards and
    spreads it to the plans: each plan gets what it gets scored on its own (the aim
    bonus carried from phase to phase, rockets, a tripod's armour and heat-ray, the end
    position), up to the order of a matrix product's sums."""
    state, me, enemies = _scoring_table(seed, tripod)
    rng = np.random.default_rng(seed)
    every = airplane_sequences(state, me)
    rows = np.sort(rng.choice(len(every), size=40, replace=False))
    seqs = every[rows]
    table = card_table(state.rules.deck_of(me.type))
    flights = fly_turned(me.pose, table, seqs, state.rules.base_length)
    together = evaluate(state, me, seqs, flights, enemies, True, centres)
    for i in range(len(seqs)):
        one = Flights(flights.x[i : i + 1], flights.y[i : i + 1], flights.heading[i : i + 1])
        alone = evaluate(state, me, seqs[i : i + 1], one, enemies, True, centres)
        assert together.score[i] == pytest.approx(alone.score[0], rel=1e-12, abs=1e-9)
        assert together.rockets[i] == alone.rockets[0]


def _end_position_plainly(
    rules: Rules, me: Vehicle, flights: Flights, enemies: list[Enemy], risk: float
) -> np.ndarray:
    """The end-position score as first written: one array per step, (poses, plans)."""
    fx, fy, fh = (a[:, 2] for a in (flights.x, flights.y, flights.heading))
    rad = np.radians(fh)
    cos, sin = np.cos(rad)[None, :], np.sin(rad)[None, :]
    out = np.zeros(len(fx))
    for enemy in enemies:
        ex, ey, eh = enemy.phase(2)
        dx = ex[:, None] - fx[None, :]
        dy = ey[:, None] - fy[None, :]
        d = np.sqrt(dx * dx + dy * dy) + 1e-6
        ahead = (dx * cos + dy * sin) / d
        erad = np.radians(eh)[:, None]
        behind = -(dx * np.cos(erad) + dy * np.sin(erad)) / d
        if enemy.vehicle.tripod is not None:
            reach = rules.heat_ray_ruler(enemy.vehicle.type).length
            behind = np.maximum(behind, 0.5 * behind + 0.5)
        else:
            reach = rules.ruler
        near = np.exp(-(((d - 0.45 * reach) / (0.6 * reach)) ** 2))
        mine = np.clip(ahead, 0.0, None) ** 2 * near
        theirs = np.clip(behind, 0.0, None) ** 2 * near
        value = (
            2.0 * mine - 2.0 * risk * theirs - 1.5 * d / (rules.table_width + rules.table_height)
        )
        out += np.ascontiguousarray(value.T) @ enemy.weight
    out -= 40.0 * _trapped(rules, me, fx, fy, fh)
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.floats(1.0, 2.5))
def test_the_end_position_worked_in_place_is_the_plain_formula_bit_for_bit(
    seed: int, tripod: bool, risk: float
) -> None:
    """The in-place end-position score gives the very floats of the plain formula."""
    state, me, enemies = _scoring_table(seed, tripod)
    seqs = airplane_sequences(state, me)
    table = card_table(state.rules.deck_of(me.type))
    flights = fly_turned(me.pose, table, seqs, state.rules.base_length)
    got = _end_position(state.rules, me, seqs, flights, enemies, risk)
    assert np.array_equal(got, _end_position_plainly(state.rules, me, flights, enemies, risk))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-3.0, 3.0))
def test_safety_tiers_from_the_extremes_are_those_phase_by_phase(seed: int, spread: float) -> None:
    """Tiers read from each plan's least and greatest x and y are the phase-by-phase
    tests (centres exactly on a margin included)."""
    state = build(duel_situation(), CATALOG, 0)
    rules = state.rules
    w, h = rules.table_width, rules.table_height
    rng = np.random.default_rng(seed)
    edges = np.array([SAFE_MARGIN, w - SAFE_MARGIN, 0.0, w, -1e-9, w + 1e-9])
    x = np.where(rng.random((200, 3)) < 0.3, rng.choice(edges, (200, 3)), 0.0)
    x = x + rng.uniform(-spread, w + spread, (200, 3)) * (x == 0.0)
    y = rng.uniform(-spread, h + spread, (200, 3))
    flights = Flights(x, y, np.zeros((200, 3)))
    safe = inside(x, y, w, h, SAFE_MARGIN).all(axis=1)
    on = inside(x, y, w, h, -1e-9).all(axis=1)
    assert np.array_equal(
        threats._safe_tiers(rules, flights), np.where(safe, 2, np.where(on, 1, 0))
    )


def test_the_sequences_a_bot_flies_are_the_cached_table_and_read_only() -> None:
    """An airplane free of special damage gets the cached table of legal plans itself,
    which nobody may write to; its flights from the origin are picked once."""
    state = build(duel_situation(), CATALOG, 0)
    me = state.vehicles["allied"]
    seqs = airplane_sequences(state, me)
    assert seqs is airplane_sequences(state, me) and not seqs.flags.writeable
    table = card_table(state.rules.deck_of(me.type))
    first = fly_turned(me.pose, table, seqs, state.rules.base_length)
    again = fly_turned(me.pose, table, seqs, state.rules.base_length)
    flown = fly_turned(me.pose, table, seqs.copy(), state.rules.base_length)
    for a, b, c in zip(
        (first.x, first.y, first.heading),
        (again.x, again.y, again.heading),
        (flown.x, flown.y, flown.heading),
        strict=True,
    ):
        assert np.array_equal(a, b) and np.array_equal(a, c)


@settings(max_examples=40, deadline=None)
@given(*DECK_AND_POSE, st.integers(0, 2**32 - 1))
def test_distinct_headings_give_each_plan_its_heading_cosine_and_sine_bit_for_bit(
    deck_name: str, x: float, y: float, heading: float, seed: int
) -> None:
    """Turning each distinct heading once gives every plan the heading its own turn gives
    it, and the cosine and sine per distinct heading are each plan's own, for all the
    plans or some of them; the arcs and base points measured with them are the same."""
    deck = CATALOG.maneuver_decks[deck_name]
    seqs = legal_sequences(deck, None, _LEVEL)
    table = card_table(deck)
    pose = Pose(x, y, heading)
    turned = fly_turned(pose, table, seqs, 4.5)
    from_origin = fly(Pose(0.0, 0.0, 0.0), table, seqs, 4.5)
    assert np.array_equal(turned.heading, np.mod(heading + from_origin.heading, 360.0))
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(len(seqs), size=min(50, len(seqs)), replace=False))
    for p in range(3):
        for picked in (None, rows):
            units = turned.units(p, picked)
            assert units is not None
            h = turned.heading[:, p] if picked is None else turned.heading[picked, p]
            rad = np.radians(h)
            assert np.array_equal(units[0], np.cos(rad))
            assert np.array_equal(units[1], np.sin(rad))
    subset = turned.rows(rows)
    units = subset.units(2)
    assert units is not None
    fx, fy, fh = subset.phase(2)
    local = (np.array([0.0, 2.0, -2.0]), np.array([0.0, 3.0, -3.0]))
    bx, by, bh = rng.uniform(0, 90, 7), rng.uniform(0, 90, 7), rng.uniform(0, 360, 7)
    px, py = world_points(bx, by, bh, local)
    assert np.array_equal(
        nearest_in_arc(fx, fy, fh, 40.0, px, py, units), nearest_in_arc(fx, fy, fh, 40.0, px, py)
    )
    given_units, own_units = world_points(fx, fy, fh, local, units), world_points(fx, fy, fh, local)
    for a, b in zip(given_units, own_units, strict=True):
        assert np.array_equal(a, b)


def test_a_remembered_scenario_guess_is_the_one_worked_out() -> None:
    """Each catalog scenario is recognised from a seat's observation, the first time
    and when remembered; a duel is none of them, and a table of another size is not
    the scenario's."""
    from dogfight.bots.view import _GUESSES, guess_scenario
    from dogfight.rules.observation import observe, side_seat
    from dogfight.situation.scenarios import scenario_situation

    for sid in sorted(CATALOG.scenarios):
        state = build(scenario_situation(CATALOG, sid), CATALOG, 0)
        side = sorted({v.side for v in state.vehicles.values()})[0]
        seen = observe(state, side_seat(state, side))
        _GUESSES.clear()
        first = guess_scenario(seen, state.rules)
        assert guess_scenario(seen, state.rules) == first
        # the variant shows what its original shows: the two cannot be told apart
        assert first == (None if sid == "alsace-again-variant" else sid)
        moved = {**seen, "table": {**seen.get("table", {}), "width": 1234.0}}
        if "table" in seen:
            assert guess_scenario(moved, state.rules) is None
    duel = build(duel_situation(), CATALOG, 0)
    assert guess_scenario(observe(duel, side_seat(duel, "allies")), duel.rules) is None


def test_a_predictor_puts_its_share_on_what_it_would_fly_in_the_enemys_seat() -> None:
    """A level with a ``predictor`` models an enemy airplane as uniform plausible plans
    (``1 - predict`` of the weight) and the ``predicted`` best plans the predictor
    chooses from the enemy's seat (``predict``, shared evenly): the same plans the
    predictor's own planning of the enemy ranks first."""
    from dataclasses import replace

    from dogfight.bots.plane_choice import _enemy_airplane_model, plan_airplane
    from dogfight.bots.plane_planner import HARD

    state = build(duel_situation(), CATALOG, 0)
    me, enemy = state.vehicles["allied"], state.vehicles["central"]
    level = replace(HARD, predictor=HARD, predict=0.8, predicted=3)
    seqs = airplane_sequences(state, me)
    length = state.rules.base_length
    flights = fly_turned(me.pose, card_table(state.rules.deck_of(me.type)), seqs, length)
    pool = np.arange(len(seqs))
    model = _enemy_airplane_model(
        state, me, seqs, flights, pool, enemy, level, np.random.default_rng(7)
    )
    assert math.isclose(float(model.weight.sum()), 1.0)
    assert np.allclose(model.weight[-3:], 0.8 / 3)
    assert np.allclose(model.weight[:-3], 0.2 / (len(model.weight) - 3))
    # the predictor's choice, drawn with the same generator after the same draws
    rng = np.random.default_rng(7)
    threats.airplane_enemy(state, enemy, rng, level.samples)
    choice = plan_airplane(state, enemy, HARD, rng)
    enemy_seqs = airplane_sequences(state, enemy)
    enemy_flights = fly_turned(
        enemy.pose, card_table(state.rules.deck_of(enemy.type)), enemy_seqs, length
    )
    top = choice.rows[:3]
    assert np.array_equal(model.x[-3:], enemy_flights.x[top])
    assert np.array_equal(model.heading[-3:], enemy_flights.heading[top])


def test_a_predictor_with_a_temperature_weighs_its_plans_by_their_values() -> None:
    """With ``predicted_temperature`` T the ``predicted`` best plans share ``predict`` in
    proportion to exp(value / T), their values as the predictor scored them (best first,
    so the shares fall); the rest stays uniform."""
    from dataclasses import replace

    from dogfight.bots.plane_choice import _enemy_airplane_model, plan_airplane
    from dogfight.bots.plane_planner import HARD

    state = build(duel_situation(), CATALOG, 0)
    me, enemy = state.vehicles["allied"], state.vehicles["central"]
    level = replace(HARD, predictor=HARD, predict=0.7, predicted=16, predicted_temperature=0.5)
    seqs = airplane_sequences(state, me)
    length = state.rules.base_length
    flights = fly_turned(me.pose, card_table(state.rules.deck_of(me.type)), seqs, length)
    model = _enemy_airplane_model(
        state, me, seqs, flights, np.arange(len(seqs)), enemy, level, np.random.default_rng(3)
    )
    rng = np.random.default_rng(3)
    threats.airplane_enemy(state, enemy, rng, level.samples)
    choice = plan_airplane(state, enemy, HARD, rng, 16)
    assert len(choice.rows) == len(choice.values) == 16 and len(choice.ranked) == 3
    assert [v for _, v in choice.ranked] == list(choice.values[:3])
    expected = np.exp((choice.values - choice.values[0]) / 0.5)
    shares = model.weight[-16:]
    assert np.allclose(shares, 0.7 * expected / expected.sum())
    assert np.all(np.diff(shares) <= 0) and shares[0] > shares[-1]
    assert np.allclose(model.weight[:-16], 0.3 / (len(model.weight) - 16))
    assert math.isclose(float(model.weight.sum()), 1.0)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 300),
    st.integers(1, 4000),
    st.integers(1, 42),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_a_product_per_run_spread_to_the_plans_is_the_product_per_plan_bit_for_bit(
    runs: int, plans: int, m: int, seed: int, transposed: bool
) -> None:
    """``spread_dot`` multiplies each run's row once and spreads the sums to the plans:
    the very floats of the product over the rows spread first (the matrix product sums
    the rows of a whole block of four alike, the last few another way), for the
    layouts ``evaluate`` gives it; ``take_rows`` gathers the same values, C-contiguous."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, runs)).T if transposed else rng.standard_normal((runs, m))
    a = a * (rng.random(a.shape) < 0.5)  # many zeros, as out of reach
    w = rng.random(m)
    w /= w.sum()
    inverse = np.sort(rng.integers(0, runs, plans))
    expected = a[inverse] @ w
    assert np.array_equal(spread_dot(a, w, inverse), expected)
    got = take_rows(a, inverse)
    assert np.array_equal(got, a[inverse])
    assert got.flags.c_contiguous


SCORES_SHA256 = "ed6657c4654b80a93b00f18e348fd0a2c2a160f3192a7dd3144d174062a71fab"
"""Of ``evaluate``'s scores and rockets over the tables below, as the phase-by-phase
version (before the runs of all phases were scored side by side) gave them."""


def test_scores_are_those_worked_out_phase_by_phase_bit_for_bit() -> None:
    """The runs of the three phases side by side, both vehicles' arcs measured on one set
    of offsets between centre dots, a run's sum spread to its plans: every score and
    rocket phase is the very float the phase-by-phase version gave (rocketeers, the aim
    bonus, tripods' armour and heat-rays, centre dots and whole bases, a few hundred
    plans each)."""
    digest = hashlib.sha256()
    for seed in range(12):
        for tripod in (False, True):
            for centres in (False, True):
                state, me, enemies = _scoring_table(seed, tripod)
                every = airplane_sequences(state, me)
                rng = np.random.default_rng(seed)
                size = min(len(every), 300 + 100 * seed)
                seqs = every[np.sort(rng.choice(len(every), size=size, replace=False))]
                table = card_table(state.rules.deck_of(me.type))
                flights = fly_turned(me.pose, table, seqs, state.rules.base_length)
                got = evaluate(state, me, seqs, flights, enemies, True, centres)
                digest.update(got.score.tobytes())
                digest.update(got.rockets.tobytes())
    assert digest.hexdigest() == SCORES_SHA256


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.integers(1, 25), *ARC_CASE)
def test_arcs_pair_by_pair_are_the_arcs_every_dot_against_every_base_bit_for_bit(
    r: int, b: int, k: int, half: float, seed: int
) -> None:
    """``nearest_in_arc_rows`` (each column its own firing dot and bases) and
    ``in_arc_offsets`` (single points, measured both ways on one set of offsets) give
    what ``nearest_in_arc`` gives column by column."""
    rng = np.random.default_rng(seed)
    fx, fy, axis = rng.uniform(0, 90, r), rng.uniform(0, 90, r), rng.uniform(0, 360, r)
    bx, by, bh = rng.uniform(0, 90, (b, r)), rng.uniform(0, 90, (b, r)), rng.uniform(0, 360, (b, r))
    local = (rng.uniform(-5, 5, k), rng.uniform(-5, 5, k))
    px, py = world_points(bx.ravel(), by.ravel(), bh.ravel(), local)  # (b r, k)
    px, py = px.T.reshape(k, b, r), py.T.reshape(k, b, r)
    rad = np.radians(axis)
    units = np.cos(rad)[None, :], np.sin(rad)[None, :]
    got = nearest_in_arc_rows(fx[None, :], fy[None, :], units, half, px, py)
    # the bases' arcs at the firing dots' points (the dots as single points)
    brad = np.radians(bh)
    theirs = nearest_in_arc_rows(
        bx, by, (np.cos(brad), np.sin(brad)), half, fx[None, None, :], fy[None, None, :]
    )
    f32 = np.float32
    offsets = arc_offsets(bx.astype(f32), by.astype(f32), fx.astype(f32), fy.astype(f32))
    mine = in_arc_offsets(offsets, (units[0].astype(f32), units[1].astype(f32)), half)
    back = (np.cos(brad).astype(f32), np.sin(brad).astype(f32))
    reverse = in_arc_offsets(offsets, back, half, reverse=True)
    for j in range(r):
        one = slice(j, j + 1)  # column j alone
        alone = nearest_in_arc(fx[one], fy[one], axis[one], half, px[:, :, j].T, py[:, :, j].T)
        assert np.array_equal(got[:, j], alone[0])
        dots = nearest_in_arc(bx[:, j], by[:, j], bh[:, j], half, fx[one, None], fy[one, None])
        assert np.array_equal(theirs[:, j], dots[:, 0])
        centres = nearest_in_arc(fx[one], fy[one], axis[one], half, bx[:, j, None], by[:, j, None])
        assert np.array_equal(mine[:, j], centres[0])
        assert np.array_equal(reverse[:, j], dots[:, 0])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(DECKS), st.integers(0, 2**32 - 1), st.integers(1, 400))
def test_runs_side_by_side_are_each_phase_s_runs_with_their_poses(
    deck_name: str, seed: int, size: int
) -> None:
    """``Runs`` lays phase p's runs in columns offsets[p]:offsets[p + 1] with the poses
    and headings' cosines each run's plans have at that phase, each run's run of the phase
    before, an array's phase entry per run, the aim bonus carried from the phase before,
    and the product per phase spread to the plans as ``per_plan(a) @ w`` gives it."""
    deck = CATALOG.maneuver_decks[deck_name]
    every = legal_sequences(deck, None, _LEVEL)
    rng = np.random.default_rng(seed)
    seqs = every[np.sort(rng.choice(len(every), size=min(size, len(every)), replace=False))]
    flights = fly_turned(Pose(30.0, 40.0, 75.0), card_table(deck), seqs, 4.0)
    runs = Runs.of(seqs, flights)
    m = 3
    values = rng.standard_normal((m, runs.offsets[3]))
    w = rng.random(m)
    by = runs.by_phase(np.arange(3.0)[None, :].repeat(m, axis=0))
    for p, (first, inverse) in enumerate(_prefixes(seqs)[0]):
        c = runs.columns(p)
        assert np.array_equal(runs.x[c], flights.x[first, p])
        assert np.array_equal(runs.heading[c], flights.heading[first, p])
        units = flights.units(p, first)
        assert runs.units is not None and units is not None
        assert np.array_equal(runs.units[0][c], units[0])
        assert np.all(by[:, c] == p)
        if p:
            parent = _prefixes(seqs)[0][p - 1][1][first]
            assert np.array_equal(runs.parent[c], runs.offsets[p - 1] + parent)
        spread = values[:, c].T[inverse]
        assert np.array_equal(runs.per_plan(values, p), spread)
        assert np.array_equal(runs.summed(values, w, p), np.ascontiguousarray(spread) @ w)
    # a weapon's value: 1 card in the ruler, 2 within half, the aim bonus carried from
    # the run's run a phase before (times the reach now for our weapons), a tripod's
    # unprotected sides; numpy's operations on each element, from any first phase
    d2 = np.where(values > 1.5, np.inf, (values + 2.0) ** 2)
    apart = rng.random(d2.shape) > 0.1
    shield = rng.integers(0, 2, d2.shape).astype(np.float64)
    card = CardOdds(1.7, 0.6, 0.1, 0.9)
    for start, own, sh in ((0, True, None), (1, False, None), (0, True, shield), (2, True, None)):
        lo = runs.offsets[start]
        value, hit = _weapon_values(
            runs, start, d2[:, lo:], apart, 9.0, 4.0, card, True, 1.0, own, sh
        )
        reach = (d2[:, lo:] <= 9.0) & apart[:, lo:]
        cards = ((d2[:, lo:] <= 4.0) + 1.0) * reach
        k = runs.offsets[start + 1] - lo
        before = reach.astype(np.float64)[:, runs.parent[lo + k :] - lo]
        bonus = np.concatenate([np.full((m, k), 1.0), before], axis=1)
        if own:
            bonus = bonus * reach
        want = cards * (card.points + card.nonzero * bonus)
        if sh is not None:
            want = want * sh[:, lo:] + 0.3 * cards * card.energy * (1.0 - sh[:, lo:])
        assert np.array_equal(hit, reach.astype(np.float64))
        assert np.array_equal(value, want)


def test_an_airplane_s_flights_are_worked_out_once_for_both_seats_and_read_only() -> None:
    """The flights a bot works out for its own airplane serve the enemy's bot modelling
    it the same turn (the same arrays, which nobody may write to), and are those worked
    out afresh; another status (as another seat sees it), pose or turn is another entry."""
    state = build(duel_situation(), CATALOG, 0)
    me = state.vehicles["allied"]
    seqs, flights, pool = airplane_flights(state, me)
    again = airplane_flights(state, me)
    assert again[1] is flights and again[2] is pool
    assert not flights.x.flags.writeable and not pool.flags.writeable
    table = card_table(state.rules.deck_of(me.type))
    fresh = fly_turned(me.pose, table, seqs, state.rules.base_length)
    assert np.array_equal(flights.x, fresh.x) and np.array_equal(flights.heading, fresh.heading)
    for other in (
        dataclasses.replace(me, status={"fire": 1}),
        dataclasses.replace(me, pose=Pose(40.0, 40.0, 0.0)),
    ):
        assert airplane_flights(state, other)[1] is not flights
    later = dataclasses.replace(state, turn=state.turn + 1)
    assert airplane_flights(later, me)[1] is not flights


def test_numba_is_loaded_only_by_a_process_that_plans_an_airplane() -> None:
    """Importing the bots leaves Numba out (its import and the kernels' loading cost a
    process ~0.4 s of CPU); the first kernel call brings it in and binds every kernel to
    its compiled dispatcher."""
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from dogfight.bots import kernels, plane_planner\n"
        "before = 'numba' in sys.modules\n"
        "plane_planner._prefixes(np.array([[0, 1, 2], [0, 1, 3]]))\n"
        "import numba\n"
        "bound = all(isinstance(getattr(kernels, f.__name__), numba.core.registry.CPUDispatcher)"
        " for f in kernels._KERNELS)\n"
        "print(before, bound)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["False", "True"], out.stderr


def test_the_kernels_compile_without_a_cache_where_none_can_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A read-only install without a writable home gives Numba nowhere to cache: the
    kernels are compiled in the process instead, and give the same runs."""
    import numba.core.caching

    seqs = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 1], [1, 0, 2]])
    want = _prefixes(seqs)
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes", [])
    try:
        kernels._compile_all()
        got = _prefixes(seqs)
    finally:
        monkeypatch.undo()
        kernels._compile_all()
    assert np.array_equal(got[1], want[1])
    for (first, inverse), (f, i) in zip(got[0], want[0], strict=True):
        assert np.array_equal(first, f) and np.array_equal(inverse, i)
