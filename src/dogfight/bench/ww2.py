"""Time a Martian turn of London's Burning (001): two tripods, three WW2 airplanes, three
Earthling turns (three planning phases of the airplanes, three action phases)."""

from __future__ import annotations

import statistics
import time

import numpy as np

from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase
from dogfight.rules.state import GameState
from dogfight.sim.run import start_refereed
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation


def londons_burning_turn_median_ms(catalog: Catalog, quick: bool = False, seed: int = 0) -> float:
    """Median milliseconds of the engine's work in one Martian turn (every planning phase
    and action phase; choosing the random plans is not timed)."""
    samples = 15 if quick else 120
    times: list[float] = []
    game = 0
    while len(times) < samples:
        setup = np.random.Generator(np.random.PCG64([seed, game, 1]))
        state = build(scenario_situation(catalog, "londons-burning", setup), catalog, seed + game)
        planner = np.random.Generator(np.random.PCG64([seed, game]))
        while not state.over and state.turn <= 6 and len(times) < samples:
            spent = _martian_turn(state, planner, seed + game)
            state, took = spent
            times.append(took)
        game += 1
    return round(statistics.median(times) * 1e3, 3)


def _martian_turn(
    state: GameState, planner: np.random.Generator, seed: int
) -> tuple[GameState, float]:
    took = 0.0
    turn = state.turn
    while not state.over and state.turn == turn:
        if state.awaiting_plans():
            plans = random_plans(state, planner)
            began = time.perf_counter()
            # a random plan the damage forbids is replaced by a legal one (rare)
            state, _, _ = start_refereed(state, plans)
            took += time.perf_counter() - began
        rng = step_rng(seed, state.turn, state.phase + 1)
        began = time.perf_counter()
        state, _ = resolve_phase(state, rng)
        took += time.perf_counter() - began
    return state, took
