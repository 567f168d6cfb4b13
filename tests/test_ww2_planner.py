"""The planning bots' WW2 airplanes (``bots/ww2_airplanes.py``): the ``hard`` level
treats the Earthling turn as simultaneous — an enemy airplane is expected at the end of
any card and speed it may fly, and its guns count against us — while ``easy`` expects
it where it stands; ``learned`` expects, for its ``predict`` share, what ``hard`` would
fly in the enemy's seat."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.bots import ww2_airplanes as ww2
from dogfight.bots.plane_planner import EASY, HARD, Level, Valuation
from dogfight.bots.threats import Enemy
from dogfight.catalog.loader import load_catalog
from dogfight.learned.policy import level_of
from dogfight.learned.weights import current
from dogfight.rules.arrays import Floats
from dogfight.rules.state import GameState, Vehicle
from dogfight.situation.format import build, parse_situation

CATALOG = load_catalog()


def duel(
    first: tuple[float, float, float] = (45.0, 30.0, 90.0),
    second: tuple[float, float, float] = (45.0, 60.0, 270.0),
    types: tuple[str, str] = ("spitfire-mk1", "bf-109e"),
) -> GameState:
    vehicles = [
        {"id": vid, "type": t, "side": side, "pose": {"x": x, "y": y, "heading": h}}
        for vid, t, side, (x, y, h) in zip(
            ("spitfire", "bf109"), types, ("raf", "luftwaffe"), (first, second), strict=True
        )
    ]
    data = {"ruleset": "ww2", "table": {"width": 90, "height": 90}, "vehicles": vehicles}
    return build(parse_situation(data, "ww2-planner"), CATALOG, 0)


def alone(vehicle: Vehicle) -> Enemy:
    """One pose, where the vehicle stands."""
    one = np.ones((1, 3))
    p = vehicle.pose
    return Enemy(vehicle, one * p.x, one * p.y, one * p.heading, np.ones(1))


def test_the_hard_level_expects_an_enemy_airplane_at_the_end_of_any_card_and_speed() -> None:
    state = duel()
    enemy = state.vehicles["bf109"]
    options = ww2.choices(state, enemy)
    x, y, h = ww2.end_poses(state, enemy, options)
    model = ww2._moving(state, enemy)
    for p in range(3):
        ex, ey, eh = model.phase(p)
        assert np.array_equal(ex, x) and np.array_equal(ey, y) and np.array_equal(eh, h)
    assert len(model.weight) == len(options) > 1
    assert np.allclose(model.weight, 1.0 / len(options))


poses = st.tuples(st.floats(10.0, 80.0), st.floats(10.0, 80.0), st.floats(0.0, 359.0)).map(
    lambda t: (float(t[0]), float(t[1]), float(t[2]))
)


@settings(max_examples=60, deadline=None)
@given(poses, poses, st.sampled_from(["bf-109e", "ju-87-stuka"]))
def test_an_enemys_guns_at_us_are_our_guns_at_it_seen_from_its_seat(
    ours: tuple[float, float, float], theirs: tuple[float, float, float], their_type: str
) -> None:
    """What the enemy's guns deal us (front, and the Stuka's rear gunner) is what
    the same measure gives with the seats swapped: one geometry for both directions."""
    state = duel(ours, theirs, ("spitfire-mk1", their_type))
    me, them = state.vehicles["spitfire"], state.vehicles["bf109"]
    x, y, h = (np.array([v]) for v in ours)
    taken = ww2._guns_at(state, me, x, y, h, alone(them), 0)
    tx, ty, th = (np.array([v]) for v in theirs)
    dealt = ww2._attack(state, them, tx, ty, th, alone(me), 0)
    assert np.allclose(taken, dealt)


def test_the_enemys_guns_weigh_by_the_valuations_risk_at_the_hard_level_only() -> None:
    state = duel()
    me, them = state.vehicles["spitfire"], state.vehicles["bf109"]
    options = ww2.choices(state, me)
    x, y, h = ww2.end_poses(state, me, options)
    guns = ww2._guns_at(state, me, x, y, h, ww2._moving(state, them), 0)
    assert guns.max() > 0.0 and guns.min() < guns.max()  # some ends are safer than others

    def scored(level: Level, risk: float) -> Floats:
        at = replace(level, valuation=Valuation(risk=risk))
        return ww2.scores(state, me, options, at, np.random.default_rng(0))

    assert np.allclose(scored(HARD, 0.0) - scored(HARD, 2.0), 2.0 * guns)
    assert np.array_equal(scored(EASY, 0.0), scored(EASY, 2.0))


def test_only_the_hard_level_sees_how_the_enemy_can_move() -> None:
    """A Yak-1 and a Re.2001 have the same guns (B counters), damage and base, but other
    decks and speeds: ``easy`` (and the batched easy bot that mirrors it) values our
    choices the same against either, where it stands; ``hard`` does not."""
    values = {}
    for enemy in ("yak-1", "re-2001"):
        state = duel((45.0, 30.0, 90.0), (45.0, 60.0, 270.0), ("spitfire-mk1", enemy))
        me = state.vehicles["spitfire"]
        options = ww2.choices(state, me)
        values[enemy] = {
            level.name: ww2.scores(state, me, options, level, np.random.default_rng(0))
            for level in (EASY, HARD)
        }
    assert np.array_equal(values["yak-1"]["easy"], values["re-2001"]["easy"])
    assert not np.allclose(values["yak-1"]["hard"], values["re-2001"]["hard"])


def test_the_learned_level_expects_what_hard_would_fly_in_the_enemys_seat() -> None:
    """The predicted share sits on the enemy's choices in the order ``hard`` values them
    from the enemy's seat, the best first; the rest of the weight is spread evenly."""
    state = duel((40.0, 30.0, 80.0), (50.0, 62.0, 250.0))
    them = state.vehicles["bf109"]
    level = level_of(current())
    model = ww2._predicted(state, them, level, np.random.default_rng(0))
    options = ww2.choices(state, them)
    values = ww2.scores(state, them, options, HARD, np.random.default_rng(0))
    assert np.isclose(model.weight.sum(), 1.0)
    floor = (1.0 - level.predict) / len(options)
    extra = model.weight - floor
    best = np.argsort(-values, kind="stable")[: level.predicted]
    assert np.isclose(extra[best].sum(), level.predict)
    assert int(np.argmax(model.weight)) == int(np.argmax(values))
    # a (card, speed) valued better carries more of the prediction
    assert np.all(np.diff(extra[best]) <= 1e-12)
    assert np.allclose(np.delete(extra, best), 0.0)
