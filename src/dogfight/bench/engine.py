"""Time the rules core: one phase with 4 and with 32 airplanes, one of 001's Invasion
rules (two tripods a side and two bombers dropping), whole random duels."""

from __future__ import annotations

import platform
import resource
import statistics
import sys
import time
from typing import Any

import numpy as np

from dogfight.bench.bots import hard_bot_decision_median_ms, spark_of_hope_games_per_second
from dogfight.bench.invasion import invasion_phase_median_us
from dogfight.bench.solo import decision_median_ms
from dogfight.bench.sopwith import turn_20_planes_median_ms
from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.sim.duel import melee_situation, random_game, tripods_situation
from dogfight.situation import build

TARGETS = {
    "phase_4_median_us": 1000.0,
    "phase_32_median_us": 15000.0,
    "phase_2_tripods_4_airplanes_median_us": 2000.0,
    "phase_invasion_median_us": 1000.0,
    "games_per_second": 100.0,
    "sopwith_turn_20_planes_median_ms": 200.0,
    "automated_tripod_decision_median_ms": 5.0,
    "hard_bot_decision_median_ms": 200.0,
    "spark_of_hope_games_per_second_2_workers": 2.0,
}


def phase_times(
    catalog: Catalog, airplanes: int, samples: int, seed: int = 0, tripods: bool = False
) -> list[float]:
    """Seconds taken by each resolved phase over random games of ``airplanes`` planes
    (or, with ``tripods``, of two tripods against four airplanes)."""
    times: list[float] = []
    game = 0
    while len(times) < samples:
        situation = tripods_situation() if tripods else melee_situation(airplanes)
        state = build(situation, catalog, seed + game)
        planner = np.random.Generator(np.random.PCG64([seed, game]))
        while not state.over and state.turn <= 6 and len(times) < samples:
            state, _ = start_turn(state, random_plans(state, planner))
            while not state.over:
                rng = step_rng(seed + game, state.turn, state.phase + 1)
                began = time.perf_counter()
                state, _ = resolve_phase(state, rng)
                times.append(time.perf_counter() - began)
                if state.phase == 0:
                    break
        game += 1
    return times


def games_per_second(catalog: Catalog, games: int, seed: int = 0) -> float:
    began = time.perf_counter()
    for i in range(games):
        random_game(catalog, seed + i)
    return games / (time.perf_counter() - began)


def peak_memory_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports kilobytes, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def run(catalog: Catalog, quick: bool = False) -> dict[str, Any]:
    """All figures as one JSON-ready dictionary, with the targets beside them."""
    samples = 60 if quick else 600
    four = phase_times(catalog, 4, samples)
    many = phase_times(catalog, 32, samples // 4)
    mixed = phase_times(catalog, 6, samples // 2, tripods=True)
    rate = games_per_second(catalog, 20 if quick else 300)
    figures = {
        "phase_4_median_us": round(statistics.median(four) * 1e6, 1),
        "phase_32_median_us": round(statistics.median(many) * 1e6, 1),
        "phase_2_tripods_4_airplanes_median_us": round(statistics.median(mixed) * 1e6, 1),
        "phase_invasion_median_us": invasion_phase_median_us(catalog, quick),
        "games_per_second": round(rate, 1),
        "sopwith_turn_20_planes_median_ms": turn_20_planes_median_ms(quick),
        "automated_tripod_decision_median_ms": decision_median_ms(quick, catalog),
        "hard_bot_decision_median_ms": hard_bot_decision_median_ms(catalog, quick),
        "spark_of_hope_games_per_second_2_workers": spark_of_hope_games_per_second(catalog, quick),
    }
    return {
        "figures": figures,
        "targets": TARGETS,
        "met": {
            k: (figures[k] <= v if k.endswith(("_us", "_ms")) else figures[k] >= v)
            for k, v in TARGETS.items()
        },
        "samples": {"phase_4": len(four), "phase_32": len(many), "tripods": len(mixed)},
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
