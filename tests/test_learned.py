"""The learned bot (issue 33 item 2): it plans only legal cards, from its seat's
observation alone; its weights files are checked; a short training run improves it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_simulate import dogfight

from dogfight import ENGINE_VERSION
from dogfight.batch.compare import MATCHUPS
from dogfight.bots.base import make
from dogfight.bots.learned import LearnedBot
from dogfight.bots.view import airplane_sequences
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.learned import duels
from dogfight.learned.duels import Record, against
from dogfight.learned.policy import level_of
from dogfight.learned.train import Plan as Training
from dogfight.learned.train import train
from dogfight.learned.weights import NAMES, SHIPPED, Weights, current, load
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.plans import Flown, Plan
from dogfight.rules.turns import check_plans
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build

Side = st.tuples(
    st.floats(2.0, 88.0),  # x
    st.floats(2.0, 88.0),  # y
    st.floats(0.0, 359.0),  # heading
    st.integers(-1, 12),  # previous maneuver: a card of the deck, or none
    st.integers(0, 12),  # damage
)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["wog", "wow", "wow-basic"]),
    st.sampled_from(MATCHUPS),
    st.lists(Side, min_size=2, max_size=2),
    st.integers(0, 2**32 - 1),
)
def test_the_bot_never_plans_an_illegal_card(
    catalog: Catalog,
    ruleset: str,
    matchup: tuple[str, str],
    sides: list[tuple[float, float, float, int, int]],
    seed: int,
) -> None:
    """Whatever the poses, previous maneuvers and damage, every plan the bot hands over
    from its seat's observation passes the referee's checks of a plan."""
    situation = duel_situation(*matchup).model_copy(update={"ruleset": ruleset})
    state = build(situation, catalog, 0)
    for vehicle, (x, y, h, previous, damage) in zip(state.vehicles.values(), sides, strict=True):
        vehicle.pose = Pose(x, y, h)
        cards = state.rules.deck_of(vehicle.type).cards
        if previous >= 0:
            card = cards[previous % len(cards)]
            vehicle.previous = Flown(card.symbol, bool(card.steep))
        vehicle.damage = min(damage, vehicle.resistance - 1)
    for side in ("allies", "central"):
        seat = side_seat(state, side)
        bot = make("learned")
        plans = bot.plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(seed))
        assert set(plans) == set(seat)
        check_plans(state, plans, alone=True)


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


def test_the_bot_sees_only_its_seats_observation(catalog: Catalog) -> None:
    """Two tables that differ only in the other seat's secrets (its damage, the damage
    cards it holds, its plan already made) give the same plan and the same explanation."""
    state = build(duel_situation(), catalog, 0)
    hurt = build(duel_situation(), catalog, 0)
    enemy = hurt.vehicles["central"]
    enemy.damage = 11
    enemy.held = [("A", hurt.piles["A"][-1])]
    deck = hurt.rules.deck_of(enemy.type)
    row = airplane_sequences(hurt, enemy)[7]
    enemy.plan = Plan(cards=tuple(deck.cards[int(c)].id for c in row))
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
    assert len(w.vector()) == len(NAMES)
    assert w.recipe is not None and w.recipe.generations > 0
    assert SHIPPED.stat().st_size <= 1_000_000


def test_dogfight_train_s_defaults_are_the_shipped_recipe() -> None:
    """`dogfight train --seed 1` writes the shipped file again (issue 33: "`dogfight train
    --seed S` reproduces it"): the training's defaults are its recipe."""
    recipe = load(SHIPPED).recipe
    assert recipe is not None
    plan = Training()
    assert (plan.generations, plan.population, plan.games, plan.minutes) == (
        recipe.generations,
        recipe.population,
        recipe.games,
        recipe.minutes,
    )
    assert json.loads(SHIPPED.read_text())["progress"][-1]["generation"] == recipe.generations


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("missing", "no such weights file"),
        ("truncated", "a whole JSON weights file"),
        ("shape", "the 9 parameters predict, risk, "),
        ("engine", f"this engine version \\({ENGINE_VERSION}\\)"),
        ("order", "in this order"),
        ("range", "a number from 0 to 1"),
        ("field", "parameters"),
    ],
)
def test_bad_weights_files_are_refused(tmp_path: Path, case: str, expected: str) -> None:
    """A missing, truncated, other-shaped (other parameters), other-engine or
    out-of-range weights file is one DataError naming the file and what was expected."""
    path = tmp_path / "w.json"
    parameters = json.loads(SHIPPED.read_text())["parameters"]
    if case == "truncated":
        path.write_text(SHIPPED.read_text()[:200])
    elif case == "shape":
        _write(path, parameters={"predict": 0.5, "risk": 1.0})
    elif case == "engine":
        _write(path, engine=ENGINE_VERSION + 1)
    elif case == "order":
        _write(path, parameters=dict(reversed(parameters.items())))
    elif case == "range":
        _write(path, parameters={**parameters, "predict": 1.5})
    elif case == "field":
        data = json.loads(SHIPPED.read_text())
        del data["parameters"]
        path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=expected) as caught:
        load(path)
    assert str(path) in str(caught.value)


def test_bad_weights_on_the_command_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`dogfight train --weights` and the environment variable: one message naming
    the file, exit status 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    run = dogfight("train", "--weights", str(bad), "--out", str(tmp_path / "out.json"))
    assert run.returncode == 2, run.stderr
    assert str(bad) in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out.json").exists()
    monkeypatch.setenv("DOGFIGHT_LEARNED_WEIGHTS", str(tmp_path / "none.json"))
    run = dogfight(
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
    )
    assert run.returncode == 2, run.stderr
    assert "none.json" in run.stderr and "Traceback" not in run.stderr


def test_current_reads_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = dict(zip(NAMES, [0.25, 2.0, 1.0, 3.0, 1.0, 0.5, 0.5, 1.0, 30.0], strict=True))
    path = _write(tmp_path / "mine.json", parameters=mine)
    monkeypatch.setenv("DOGFIGHT_LEARNED_WEIGHTS", str(path))
    assert current().vector() == list(mine.values())
    bot = make("learned")
    assert isinstance(bot, LearnedBot)
    assert bot.weights.source == str(path)
    assert bot.level == level_of(current())


def test_a_short_training_run_improves_the_win_rate_against_random(catalog: Catalog) -> None:
    """From poor weights (a coward: damage taken weighs ten times a point dealt, being
    in an enemy's sights ten times more than having it in its own, the edge free, the
    enemy not predicted), two seeded generations of the evolution strategy win more
    refereed duels against the random bot; the same seed trains the same weights."""
    poor = Weights.of([0.0, 10.0, 10.0, 0.0, 20.0, 0.45, 0.6, 0.0, 0.0])
    before = _total(against(catalog, poor, 20, 9, "random"))
    plan = Training(3, generations=2, population=4, games=8, check_every=0, workers=1)
    trained = train(catalog, plan, lambda _: None, poor)
    after = _total(against(catalog, trained, 20, 9, "random"))
    assert after.wins / after.decided >= before.wins / before.decided + 0.1, (before, after)
    again = train(catalog, plan, lambda _: None, poor)
    assert again.vector() == trained.vector()


def test_duels_split_for_the_workers_are_the_same_games(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A side's games split into tasks of any size are the same games: game ``i`` draws
    from its own seed whichever task plays it."""
    whole = against(catalog, "random", 5, 4, "random")
    monkeypatch.setattr(duels, "CHUNK", 2)
    assert against(catalog, "random", 5, 4, "random") == whole
    assert sum(r.decided for r in whole.values()) > 0


def _total(sides: dict[str, Record]) -> Record:
    return sides["allies"] + sides["central"]


def test_the_bench_figures_of_the_learned_bot(catalog: Catalog) -> None:
    """`dogfight bench --bots`' pieces: win shares with their interval, duels per
    CPU-second."""
    from dogfight.bench.bots import batched_duels_per_cpu_second, learned_against

    report = learned_against(catalog, 4, workers=1)
    for got in (report[side] for side in ("allies", "central")):
        assert got["decided"] <= 4 and got["ci95"][0] <= got["share"] <= got["ci95"][1]
    for got in report["hard_against_itself"].values():  # the seats' own weight
        assert got["decided"] <= 8 and got["ci95"][0] <= got["share"] <= got["ci95"][1]
    both = report["both_sides"]
    assert both["decided"] == report["allies"]["decided"] + report["central"]["decided"]
    assert batched_duels_per_cpu_second(catalog, "learned", 16) > 0


def test_simulate_plays_the_learned_bot_in_both_engines(tmp_path: Path) -> None:
    """`simulate duel --engine batch --bots allies=learned` and the referee's
    `--bots learned` write their results."""
    for engine in ("batch", "local"):
        out = tmp_path / engine
        run = dogfight(
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
        )
        assert run.returncode == 0, run.stderr
        assert json.loads((out / "results.json").read_text())["summary"]["games"] == 6


def test_ww2_airplanes_are_flown_by_the_batch_and_by_the_referee(
    tmp_path: Path,
) -> None:
    """The batch policy plans a WW2 airplane's card and speed each phase (it was
    refused); the referee's bot flies them too (its WW2 planning is pinned in
    tests/test_ww2_planner.py)."""
    ww2 = str(Path(__file__).parents[1] / "examples" / "ww2-duel.json")
    common = ["--bots", "raf=learned", "--games", "2", "--workers", "1"]
    run = dogfight("simulate", ww2, "--engine", "batch", *common, "--out", str(tmp_path / "batch"))
    assert run.returncode == 0, run.stderr
    results = json.loads((tmp_path / "batch" / "results.json").read_text())
    assert results["config"]["bots"]["raf"] == "learned"
    run = dogfight("simulate", ww2, *common, "--out", str(tmp_path / "r"))
    assert run.returncode == 0, run.stderr
