"""The random bot draws its plan without listing every legal plan (issue 13: "the random
bot samples a legal plan without enumerating all ~2,700 (same distribution or documented
change)"): uniform among the legal plans of the best safety tier, as when it listed them."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dogfight.bots.sampling import random_airplane_plan
from dogfight.bots.threats import best_tier
from dogfight.bots.view import airplane_sequences, card_table, fly
from dogfight.catalog.loader import Catalog
from dogfight.geometry.pose import Pose
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build, parse_situation


def _best(state: GameState, vid: str) -> list[tuple[str, ...]]:
    """The best tier, listed the old way: every legal plan flown."""
    vehicle = state.vehicles[vid]
    deck = state.rules.deck_of(vehicle.type)
    seqs = airplane_sequences(state, vehicle)
    flights = fly(vehicle.pose, card_table(deck), seqs, state.rules.base_length)
    rows = seqs[best_tier(state.rules, flights)]
    return [tuple(deck.cards[int(i)].id for i in row) for row in rows]


@pytest.mark.parametrize(
    "pose",
    [Pose(45.0, 20.0, 90.0), Pose(3.0, 45.0, 180.0), Pose(2.0, 2.0, 225.0)],
    ids=["open table", "at an edge", "in a corner, facing out"],
)
def test_random_plans_are_uniform_over_the_best_tier(catalog: Catalog, pose: Pose) -> None:
    state = build(duel_situation(), catalog, 0)
    state.vehicles["allied"].pose = pose
    best = _best(state, "allied")
    rng = np.random.default_rng(3)
    draws = 3000
    seen = Counter(
        random_airplane_plan(state, state.vehicles["allied"], rng).cards for _ in range(draws)
    )
    assert set(seen) <= set(best)
    # The first card's share matches the listed tier's (a chi-square test, 1e-4 level).
    expected = Counter(plan[0] for plan in best)
    observed: Counter[str] = Counter()
    for plan, n in seen.items():
        observed[plan[0]] += n
    chi2 = sum(
        (observed[c] - draws * k / len(best)) ** 2 / (draws * k / len(best))
        for c, k in expected.items()
    )
    assert chi2 < 40.0  # about 14 degrees of freedom: p < 1e-4 beyond 40


def test_a_skewed_sampler_would_fail(catalog: Catalog) -> None:
    """The uniformity check above can fail: always the first plan of the tier."""
    state = build(duel_situation(), catalog, 0)
    best = _best(state, "allied")
    expected = Counter(plan[0] for plan in best)
    chi2 = sum(
        ((3000 if c == best[0][0] else 0) - 3000 * k / len(best)) ** 2 / (3000 * k / len(best))
        for c, k in expected.items()
    )
    assert chi2 > 40.0


def test_a_plane_on_fire_with_a_jammed_rudder_still_gets_a_legal_plan() -> None:
    """000: "An airplane on fire cannot plan any straight maneuver until all the flame
    counters are removed", and a jammed rudder forbids the other arrows: few plans are
    left, which random draws missed (``dogfight bench`` stopped on Down from the Alps,
    seed 7). The solo planner and a computer seat's fallback find one."""
    from dogfight.bots.random_plans import SOLO_DRAWS, legal_plan, random_legal_plan
    from dogfight.catalog.loader import load_catalog
    from dogfight.rules.engine import start_turn
    from dogfight.sim.solo import play_solo

    catalog = load_catalog()
    game = play_solo(catalog, "down-from-the-alps", 7, max_turns=20)  # used to raise
    assert game.state.turn > 1
    start = build(
        parse_situation(
            {
                "ruleset": "wog",
                "vehicles": [
                    {
                        "id": "a",
                        "type": "spad-xiii",
                        "side": "allies",
                        "pose": {"x": 45, "y": 45, "heading": 0},
                        "status": {"fire": 3, "rudder_left": 1},
                    },
                    {
                        "id": "b",
                        "type": "albatros-d3",
                        "side": "central",
                        "pose": {"x": 10, "y": 80, "heading": 180},
                    },
                ],
            }
        ),
        catalog,
        0,
    )
    for seed in range(20):
        rng = np.random.Generator(np.random.PCG64(seed))
        for plan in (
            legal_plan(start, "a", rng),
            random_legal_plan(start, "a", rng),
            random_legal_plan(start, "a", rng, SOLO_DRAWS),
        ):
            assert plan is not None
            start_turn(
                start, {"a": plan, "b": random_airplane_plan(start, start.vehicles["b"], rng)}
            )


def test_a_damaged_engine_and_a_jammed_rudder_still_get_a_legal_plan(catalog: Catalog) -> None:
    """000: a damaged engine "must plan at least one stall maneuver every turn", and a
    jammed rudder: "the airplane cannot choose maneuvers to the left or right, based on
    the symbol drawn". The stall is one card of three: the exhaustive pick must not
    keep only the cards the damage allows alone (the stall), or it finds no plan and
    the solo game stopped on an illegal one (Down from the Alps, seed 43)."""
    from dogfight.bots.random_plans import legal_plan
    from dogfight.rules.engine import start_turn
    from dogfight.sim.solo import play_solo

    play_solo(catalog, "down-from-the-alps", 43, max_turns=20)  # used to raise
    camel = {"type": "sopwith-camel", "side": "allies", "pose": {"x": 45, "y": 45, "heading": 0}}
    albatros = {
        "type": "albatros-d3",
        "side": "central",
        "pose": {"x": 10, "y": 80, "heading": 180},
    }
    vehicles = [
        {**camel, "id": "a", "status": {"engine": 1, "rudder_right": 1}},
        {**albatros, "id": "b"},
    ]
    start = build(parse_situation({"ruleset": "wog", "vehicles": vehicles}), catalog, 0)
    for seed in range(10):
        rng = np.random.Generator(np.random.PCG64(seed))
        plan = legal_plan(start, "a", rng)
        assert plan is not None
        start_turn(start, {"a": plan, "b": random_airplane_plan(start, start.vehicles["b"], rng)})


DAMAGED = {
    "fire and a jammed rudder": (
        {"fire": 3, "rudder_left": 1},
        ["1,5,11", "2,3,14", "13,2,3", "2,3,11", "13,2,14", "7,5,13"],
        ["2,9,11", "7,2,15", "11,2,7", "2,3,11", "13,2,14", "9,7,5"],
    ),
    "a damaged engine": (
        {"engine": 1},
        ["1,14,7", "3,14,6", "14,6,2", "14,5,11", "13,2,14", "10,14,5"],
        ["5,7,14", "8,11,14", "5,9,14", "4,9,14", "13,2,14", "3,5,14"],
    ),
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_one_random_legal_planner_keeps_each_callers_seeded_plans(
    catalog: Catalog, name: str
) -> None:
    """A computer seat's fallback (one random draw, then the exhaustive pick) and a solo
    game's airplanes (up to SOLO_DRAWS draws) are one planner with a parameter; the
    seeded plans are those each drew before (``random_legal_plan`` and
    ``sim.solo.airplane_plan``), here on a damaged SPAD of 002. A computer seat's plans
    with a damaged engine changed once: before, its fallback found no plan with the
    stall 002 asks for and handed back its illegal draw ("9,8,12")."""
    from dogfight.bots.random_plans import SOLO_DRAWS, random_legal_plan

    status, seat_plans, solo_plans = DAMAGED[name]
    start = build(
        parse_situation(
            {
                "ruleset": "wow",
                "vehicles": [
                    {
                        "id": "a",
                        "type": "spad-xiii",
                        "side": "allies",
                        "pose": {"x": 45, "y": 45, "heading": 0},
                        "status": status,
                    },
                    {
                        "id": "b",
                        "type": "albatros-d3",
                        "side": "central",
                        "pose": {"x": 10, "y": 80, "heading": 180},
                    },
                ],
            }
        ),
        catalog,
        0,
    )
    for draws, wanted in ((1, seat_plans), (SOLO_DRAWS, solo_plans)):
        got = []
        for seed in range(6):
            rng = np.random.Generator(np.random.PCG64(seed))
            got.append(",".join(random_legal_plan(start, "a", rng, draws).cards))
        assert got == wanted, draws


@pytest.mark.parametrize("ruleset", ["wow", "wow-basic"])
def test_random_plans_keep_the_rulesets_restrictions_and_damage(
    catalog: Catalog, ruleset: str
) -> None:
    """The sampled plans break none of the ruleset's flight restrictions (003: "进行这动作
    前,玩家都必须先执行一次左徊旋、右徊旋或直线飞行", a steep card only after a turn or a
    straight; 002's Immelmann counter) and pass its damage rules (a damaged engine asks
    a stall under 002, a steep card under 003), so the engine never refuses or
    straightens them."""
    from dogfight.rules.plans import plan_problems
    from dogfight.rules.standard import check_airplane_plan

    state = build(duel_situation().model_copy(update={"ruleset": ruleset}), catalog, 0)
    vehicle = state.vehicles["allied"]
    vehicle.pose = Pose(45.0, 45.0, 90.0)
    vehicle.status["engine"] = 1
    deck = state.rules.deck_of(vehicle.type)
    rng = np.random.default_rng(5)
    for _ in range(200):
        cards = [deck.card(c) for c in random_airplane_plan(state, vehicle, rng).cards]
        assert not plan_problems(vehicle.previous, cards, state.rules.restrictions)
        check_airplane_plan(state, vehicle, cards)


@pytest.mark.parametrize(
    "pose",
    [Pose(6.0, 45.0, 180.0), Pose(4.0, 45.0, 180.0)],
    ids=["a tenth of the plans safe", "none safe: the on-table tier"],
)
def test_every_plan_of_a_small_best_tier_is_drawn_as_often(catalog: Catalog, pose: Pose) -> None:
    """Plan by plan, not only the first card: near an edge the best tier is a few hundred
    plans, found by the first draws or, when they all miss, by flying every plan; each of
    them comes up as often as the others (a chi-square test at the 1e-4 level, fixed
    seed)."""
    state = build(duel_situation(), catalog, 0)
    vehicle = state.vehicles["allied"]
    vehicle.pose = pose
    best = _best(state, "allied")
    assert 100 < len(best) < 300
    rng = np.random.default_rng(17)
    per_plan = 40
    draws = per_plan * len(best)
    seen = Counter(random_airplane_plan(state, vehicle, rng).cards for _ in range(draws))
    assert set(seen) <= set(best)
    dof = len(best) - 1
    limit = dof + 4.0 * (2 * dof) ** 0.5  # beyond it: p < 1e-4

    def chi2(counts: Counter[tuple[str, ...]]) -> float:
        return sum((counts[plan] - per_plan) ** 2 / per_plan for plan in best)

    assert chi2(seen) < limit
    # and a sampler that favoured one plan a twentieth of the time would fail
    assert chi2(Counter({**seen, best[0]: seen[best[0]] + draws // 20})) > limit


def test_the_bot_draws_from_its_observation_as_from_the_state(catalog: Catalog) -> None:
    """The random bot draws an airplane's plan from its seat's observation without
    rebuilding the game: the same plans, the same generator left behind."""
    from dogfight.bots.base import make
    from dogfight.rules.observation import observe, side_seat

    state = build(duel_situation(), catalog, 0)
    for i, pose in enumerate([Pose(45.0, 20.0, 90.0), Pose(6.0, 45.0, 180.0)]):
        state.vehicles["allied"].pose = pose
        seat = side_seat(state, "allies")
        ours, theirs = np.random.default_rng(i), np.random.default_rng(i)
        for _ in range(30):
            plans = make("random").plan_turn(observe(state, seat), state.rules, seat, ours)
            assert plans == {
                "allied": random_airplane_plan(state, state.vehicles["allied"], theirs)
            }
        assert ours.random() == theirs.random()
