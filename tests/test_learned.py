"""The learned policy (issue 33 item 2): it plans only legal cards, from its side's view
alone, one implementation for both engines; its weights files are checked; a short
training run improves it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight import ENGINE_VERSION
from dogfight.batch import special
from dogfight.batch.bridge import from_states
from dogfight.batch.compare import MATCHUPS
from dogfight.batch.policies import legal, sequences
from dogfight.batch.spec import SYMBOLS
from dogfight.batch.state import BatchState
from dogfight.bots.base import make
from dogfight.bots.learned import LearnedBot
from dogfight.bots.view import airplane_sequences
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.learned.features import COLUMNS as NAMES
from dogfight.learned.policy import choose, learned_plans
from dogfight.learned.train import Plan, against_random, train
from dogfight.learned.weights import SHIPPED, STARTING, Weights, current, load
from dogfight.rules.observation import observe, side_seat
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build


def _table(catalog: Catalog, ruleset: str, first: str, second: str) -> BatchState:
    situation = duel_situation(first, second).model_copy(update={"ruleset": ruleset})
    return from_states([build(situation, catalog, 0)])


Side = st.tuples(
    st.floats(2.0, 88.0),  # x
    st.floats(2.0, 88.0),  # y
    st.floats(0.0, 359.0),  # heading
    st.integers(-1, len(SYMBOLS) - 1),  # previous maneuver's symbol
    st.booleans(),  # steep
    st.integers(0, 12),  # damage
    st.integers(0, 2),  # engine hits
    st.integers(0, 1),  # rudder jammed left this turn
    st.integers(0, 3),  # front gun jammed
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["wog", "wow", "wow-basic"]),
    st.sampled_from(MATCHUPS),
    st.lists(Side, min_size=2, max_size=2),
    st.integers(0, 2**32 - 1),
)
def test_the_policy_never_plans_an_illegal_card(
    catalog: Catalog,
    ruleset: str,
    matchup: tuple[str, str],
    sides: list[tuple[float, float, float, int, bool, int, int, int, int]],
    seed: int,
) -> None:
    """Whatever the poses, previous maneuvers, damage, jams and lasting damage, every
    plan is three cards of the airplane's deck that break no flight restriction and
    obey its special damage (an engine hit's stall or steep card, a jammed rudder)."""
    batch = _table(catalog, ruleset, *matchup)
    for n, (x, y, h, symbol, steep, damage, engine, rudder, jam) in enumerate(sides):
        batch.x[0, n], batch.y[0, n], batch.heading[0, n] = x, y, h
        batch.prev_symbol[0, n], batch.prev_steep[0, n] = symbol, steep and symbol >= 0
        batch.damage[0, n] = min(damage, int(batch.resistance[0, n]) - 1)
        batch.engine[0, n] = engine if ruleset != "wog" else 0
        batch.rudder[0, n, 0] = rudder * int(batch.turn[0]) if ruleset == "wow" else 0
        batch.jams[0, n, 0] = jam
    spec = batch.spec
    seqs = sequences(spec)
    rng = np.random.default_rng(seed)
    learned_plans(batch, rng, None, Weights(STARTING))
    for n in range(2):
        plan = batch.plan[0, n]
        deck = int(spec.type_deck[batch.type[0, n]])
        start, size = int(spec.deck_start[deck]), int(spec.deck_size[deck])
        assert all(start <= c < start + size and spec.card_usable[c] for c in plan)
        assert len(set(plan.tolist())) == 3
        forbid, need = special.needs(batch, np.array([0]), np.array([n]))
        rows = seqs.rows[deck, : seqs.count[deck]]
        kind_ok = legal(spec, batch.prev_symbol[0, n], batch.prev_steep[0, n], rows)
        may = special.allowed(seqs.feature[deck, : seqs.count[deck]], forbid[0], need[0])
        if (kind_ok & may).any():  # a legal plan the damage allows exists: it is one
            assert legal(spec, batch.prev_symbol[0, n], batch.prev_steep[0, n], plan[None])[0]
            triple = np.flatnonzero((rows == plan).all(axis=1))[0]
            assert may[triple]


def test_the_bot_plans_legal_cards_in_the_referee(catalog: Catalog) -> None:
    """Referee games: every plan the learned bot hands over passes the referee's own
    checks, and explain() names each airplane's three best plans, best first."""
    for seed in range(6):
        state = build(duel_situation("bristol-f2b", "fokker-d7"), catalog, seed)
        bot = make("learned")
        assert isinstance(bot, LearnedBot)
        seat = side_seat(state, "allies")
        rng = np.random.default_rng(seed)
        plans = bot.plan_turn(observe(state, seat), state.rules, seat, rng)
        for vid, plan in plans.items():
            vehicle = state.vehicles[vid]
            deck = state.rules.deck_of(vehicle.type)
            index = [[c.id for c in deck.cards].index(card) for card in plan.cards]
            assert index in airplane_sequences(state, vehicle).tolist()
        why = bot.explain()
        assert set(why) == set(plans)
        for vid, best in why.items():
            assert len(best) == 3 and best[0][0] == plans[vid].cards
            assert [v for _, v in best] == sorted((v for _, v in best), reverse=True)


def test_it_plays_from_its_sides_view_alone(catalog: Catalog) -> None:
    """Two tables that differ only in the other side's secrets (damage, damage cards,
    lasting special damage, its plan already made) give the same plan."""
    one = _table(catalog, "wow", "bristol-f2b", "fokker-d7")
    one.x[0] = (40.0, 50.0)
    one.y[0] = (30.0, 45.0)
    other = one.copy()
    other.damage[0, 1] = 9
    other.engine[0, 1] = 1
    other.rudder[0, 1] = (int(other.turn[0]), 0)
    other.fire[0, 1] = 2
    other.observer[0, 1] = True
    other.plan[0, 1] = sequences(other.spec).rows[int(other.spec.type_deck[other.type[0, 1]]), 5]
    one.plan[0, 1] = other.plan[0, 1]
    other.holder[0, :, :2] = 1
    mask = np.array([[True, False]])
    for seed in range(5):
        a = choose(one, np.random.default_rng(seed), Weights(STARTING), mask, explain=True)
        b = choose(other, np.random.default_rng(seed), Weights(STARTING), mask, explain=True)
        assert a[0].plans.tolist() == b[0].plans.tolist()
        assert a[0].best == b[0].best


def test_the_bot_sees_only_its_seats_observation(catalog: Catalog) -> None:
    """The referee's bot: the same observation of its seat gives the same plan and the
    same explanation whatever the enemy's damage."""
    state = build(duel_situation(), catalog, 0)
    hurt = build(duel_situation(), catalog, 0)
    hurt.vehicles["central"].damage = 11
    seat = side_seat(state, "allies")
    outs = []
    for s in (state, hurt):
        bot = make("learned")
        assert isinstance(bot, LearnedBot)
        outs.append(
            (
                bot.plan_turn(observe(s, seat), s.rules, seat, np.random.default_rng(4)),
                bot.explain(),
            )
        )
    assert outs[0] == outs[1]


def _write(path: Path, **change: object) -> Path:
    data = json.loads(SHIPPED.read_text())
    data.update(change)
    path.write_text(json.dumps(data))
    return path


def test_the_shipped_weights_load() -> None:
    w = load(SHIPPED)
    assert w.vector.shape == (len(NAMES),)
    assert w.recipe is not None
    assert SHIPPED.stat().st_size <= 1_000_000


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("missing", "no such weights file"),
        ("truncated", "a whole JSON weights file"),
        ("shape", "shape \\[28\\] and 28 weights"),
        ("engine", f"this engine version \\({ENGINE_VERSION}\\)"),
        ("features", "the features dealt, taken"),
        ("field", "weights"),
    ],
)
def test_bad_weights_files_are_refused(tmp_path: Path, case: str, expected: str) -> None:
    """A missing, truncated, other-shaped, other-engine or other-featured weights file is
    one DataError naming the file and what was expected."""
    path = tmp_path / "w.json"
    if case == "truncated":
        path.write_text(SHIPPED.read_text()[:200])
    elif case == "shape":
        _write(path, weights=[0.5] * 9, shape=[9])
    elif case == "engine":
        _write(path, engine=ENGINE_VERSION + 1)
    elif case == "features":
        _write(path, features=list(reversed(NAMES)))
    elif case == "field":
        data = json.loads(SHIPPED.read_text())
        del data["weights"]
        path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=expected) as caught:
        load(path)
    assert str(path) in str(caught.value)


def test_bad_weights_on_the_command_line_exit_2(tmp_path: Path) -> None:
    """`dogfight train --weights` and the environment variable: one message naming
    the file, exit status 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "dogfight",
            "train",
            "--weights",
            str(bad),
            "--out",
            str(tmp_path / "out.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert str(bad) in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out.json").exists()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "dogfight",
            "simulate",
            "duel",
            "--engine",
            "batch",
            "--bots",
            "allies=learned",
            "--games",
            "4",
            "--out",
            str(tmp_path / "sim"),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "DOGFIGHT_LEARNED_WEIGHTS": str(tmp_path / "none.json")},
    )
    assert run.returncode == 2, run.stderr
    assert "none.json" in run.stderr and "Traceback" not in run.stderr


def test_current_reads_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path / "mine.json", weights=[0.1] * len(NAMES))
    monkeypatch.setenv("DOGFIGHT_LEARNED_WEIGHTS", str(path))
    assert current().vector.tolist() == [0.1] * len(NAMES)
    assert make("learned").weights.source == str(path)  # type: ignore[attr-defined]


def test_a_short_training_run_improves_the_win_rate_against_random(catalog: Catalog) -> None:
    """From poor weights (fleeing fights, hugging the edge), three seeded generations of
    the evolution strategy win more batched duels against the random bot."""
    poor = Weights(-STARTING, own_plans=16, enemy_plans=3, replies=0, reply_pool=8)
    before = against_random(catalog, poor, 200, 9)
    plan = Plan(seed=3, generations=3, population=6, games=48, check_every=0, check_games=2)
    after_weights = train(catalog, plan, lambda _: None, poor)
    after = against_random(catalog, after_weights, 200, 9)
    assert after >= before + 0.05, (before, after)
    again = train(catalog, plan, lambda _: None, poor)
    assert again.vector.tolist() == after_weights.vector.tolist()


def test_the_bench_figures_of_the_learned_bot(catalog: Catalog) -> None:
    """`dogfight bench --bots`' pieces: win shares with their interval, duels per
    CPU-second."""
    from dogfight.bench.bots import batched_duels_per_cpu_second, learned_against

    report = learned_against(catalog, 4, workers=1)
    for side in ("allies", "central"):
        got = report[side]
        assert got["decided"] <= 4 and got["ci95"][0] <= got["share"] <= got["ci95"][1]
    assert batched_duels_per_cpu_second(catalog, "learned", 16) > 0


def test_simulate_plays_the_learned_bot_in_both_engines(tmp_path: Path) -> None:
    """`simulate duel --engine batch --bots allies=learned` and the referee's
    `--bots learned` write their results."""
    for engine in ("batch", "local"):
        out = tmp_path / engine
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "dogfight",
                "simulate",
                "duel",
                "--engine",
                engine,
                "--bots",
                "allies=learned",
                "--games",
                "6",
                "--workers",
                "1",
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        assert json.loads((out / "results.json").read_text())["summary"]["games"] == 6


def test_ww2_airplanes_are_flown_by_the_batch_and_as_hard_by_the_referee(
    tmp_path: Path,
) -> None:
    """The batch policy plans a WW2 airplane's card and speed each phase (it was
    refused); the referee's bot flies WW2 airplanes as the hard bot does."""
    ww2 = str(Path(__file__).parents[1] / "examples" / "ww2-duel.json")
    common = ["--bots", "raf=learned", "--games", "2", "--workers", "1"]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "dogfight",
            "simulate",
            ww2,
            "--engine",
            "batch",
            *common,
            "--out",
            str(tmp_path / "batch"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads((tmp_path / "batch" / "results.json").read_text())
    assert results["config"]["bots"]["raf"] == "learned"
    run = subprocess.run(
        [sys.executable, "-m", "dogfight", "simulate", ww2, *common, "--out", str(tmp_path / "r")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
