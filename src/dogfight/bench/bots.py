"""Time the computer players: the hard airplane bot's decision, and whole bot-vs-bot
games of *A Spark of Hope* on two worker processes."""

from __future__ import annotations

import statistics
import time

import numpy as np

from dogfight.bots.base import make
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.observation import observe, side_seat
from dogfight.sim.duel import duel_situation
from dogfight.sim.parallel import RunSpec, run_local
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation


def hard_bot_decision_median_ms(catalog: Catalog, quick: bool = False) -> float:
    """Median time of the ``hard`` bot's plan_turn (one airplane against one) at the start
    of every turn of seeded duels against the ``random`` bot."""
    samples = 15 if quick else 80
    times: list[float] = []
    game = 0
    while len(times) < samples:
        state = build(duel_situation(), catalog, game)
        hard, other = make("hard"), make("random")
        rng = np.random.default_rng(game)
        while not state.over and state.turn <= 10 and len(times) < samples:
            allies, central = side_seat(state, "allies"), side_seat(state, "central")
            seen = observe(state, allies)
            began = time.process_time()
            mine = hard.plan_turn(seen, state.rules, allies, rng)
            times.append(time.process_time() - began)
            theirs = other.plan_turn(observe(state, central), state.rules, central, rng)
            state, _ = start_turn(state, {**mine, **theirs})
            while not state.over:
                state, _ = resolve_phase(state, step_rng(game, state.turn, state.phase + 1))
                if state.phase == 0:
                    break
        game += 1
    return round(statistics.median(times) * 1000.0, 2)


def spark_of_hope_games_per_second(
    catalog: Catalog, quick: bool = False, workers: int = 2
) -> float:
    """Whole games of *A Spark of Hope* (hard Earth pilot against the Martian bot, setup
    redrawn per game) per second of wall time on ``workers`` processes, start-up
    included."""
    games = 8 if quick else 40
    situation = scenario_situation(catalog, "a-spark-of-hope")
    spec = RunSpec(
        situation=situation.model_dump(mode="json", exclude_defaults=True),
        bots={"earth": "hard", "martians": "martian"},
        seed=0,
        games=games,
        vary=True,
        data=catalog.folders[1] if len(catalog.folders) > 1 else None,
    )
    began = time.process_time()
    run_local(spec, workers)
    return round(games / (time.process_time() - began), 2)
