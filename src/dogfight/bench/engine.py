"""Time the rules core honestly: phases in which every vehicle is in play and apart.

A phase is sampled only when all N vehicles start it in play with no two bases
overlapping and are all still in play when its firing step begins (checked, untimed, by
resolving the same phase with the same generator up to the firing step). Each table is a
fresh layout from :mod:`dogfight.bench.layouts` with random legal plans; its three phases
are sampled while they meet that condition. Per-vehicle cost is the median phase time
divided by N; the growth ratio compares 64 airplanes with 4 at constant density.
"""

from __future__ import annotations

import functools
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.bench import layouts
from dogfight.bench.bots import hard_bot_decision_median_ms, spark_of_hope_games_per_second
from dogfight.bench.invasion import invasion_phase_median_us
from dogfight.bench.solo import decision_median_ms
from dogfight.bench.sopwith import turn_20_planes_median_ms
from dogfight.bench.ww2 import londons_burning_turn_median_ms
from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.firing import table_of
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation, random_game
from dogfight.sim.run import game_seeds, play_game
from dogfight.situation.format import Situation, build

COUNTS = (4, 8, 16, 32, 64)
"""Airplanes on the table at constant density."""

TARGETS: dict[str, float] = {
    "phase_4_median_us": 100.0,
    "phase_32_median_us": 1500.0,
    "phase_32_crowded_90x90_median_us": 5000.0,
    "per_plane_growth_64_vs_4": 2.0,
    "phase_2_tripods_4_airplanes_median_us": 250.0,
    "phase_invasion_median_us": 1000.0,
    "games_per_second": 400.0,
    "simulate_random_bots_slowdown": 1.5,
    "sopwith_turn_20_planes_median_ms": 50.0,
    "automated_tripod_decision_median_ms": 5.0,
    "hard_bot_decision_median_ms": 5.0,
    "spark_of_hope_games_per_second_2_workers": 2.0,
    "londons_burning_martian_turn_median_ms": 3.0,
}
LOWER_IS_BETTER = {"per_plane_growth_64_vs_4", "simulate_random_bots_slowdown"}

Resolver = Callable[[GameState, np.random.Generator], tuple[GameState, list[Event]]]


def _resolve(state: GameState, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
    return resolve_phase(state, rng)


@dataclass
class PhaseSample:
    """Seconds per sampled phase, and how many phases were skipped for not meeting the
    condition (a vehicle off the table or overlapping)."""

    times: list[float]
    skipped: int
    tables: int


def _apart(state: GameState, count: int) -> bool:
    in_play = state.in_play()
    if len(in_play) < count:
        return False
    return not any(table_of(state).overlaps.values())


def phase_times(
    catalog: Catalog,
    make: Callable[[np.random.Generator], Situation],
    samples: int,
    seed: int = 0,
    resolver: Resolver = _resolve,
) -> PhaseSample:
    """Seconds taken by ``resolver`` on phases where every vehicle of tables made by
    ``make`` is in play and apart (see the module docstring)."""
    times: list[float] = []
    skipped = 0
    tables = 0
    while len(times) < samples:
        rng = np.random.Generator(np.random.PCG64([seed, tables]))
        state = build(make(rng), catalog, seed + tables)
        count = len(state.vehicles)
        state, _ = start_turn(state, random_plans(state, rng))
        for phase in (1, 2, 3):
            if len(times) >= samples or state.over or not _apart(state, count):
                break
            moved, _ = resolve_phase(
                state, step_rng(seed + tables, 1, phase), stop_before_firing=True
            )
            if len(moved.in_play()) < count:
                skipped += 1
                break
            rng_phase = step_rng(seed + tables, 1, phase)
            began = time.process_time()
            state, _ = resolver(state, rng_phase)
            times.append(time.process_time() - began)
        tables += 1
    return PhaseSample(times, skipped, tables)


def games_per_second(
    catalog: Catalog, games: int, seed: int = 0, lengths: list[int] | None = None
) -> float:
    """Complete random 1-vs-1 games (random legal plans) per second on this core; each
    game's action phases are appended to ``lengths``."""
    began = time.process_time()
    for i in range(games):
        game = random_game(catalog, seed + i)
        if lengths is not None:
            lengths.append(game.state.phases_played)
    return games / (time.process_time() - began)


def random_bot_games_per_second(
    catalog: Catalog, games: int, seed: int = 0, lengths: list[int] | None = None
) -> float:
    """Complete 1-vs-1 games between two ``random`` bots as ``dogfight simulate`` plays
    them (observations, bots' views, plans checked by the referee), per second on this
    core; a few games first warm the bots' caches. Each game's action phases are
    appended to ``lengths``: the random bot keeps off the table's edge more often than
    :func:`~dogfight.sim.duel.random_game`'s playouts (which give up after 40 draws),
    so its games are longer."""
    situation = duel_situation()
    bots = {"allies": "random", "central": "random"}
    for i, sequence in enumerate(game_seeds(seed + 1, 3)):
        play_game(situation, catalog, bots, sequence, i)
    began = time.process_time()
    for i, sequence in enumerate(game_seeds(seed, games)):
        result = play_game(situation, catalog, bots, sequence, i)
        if lengths is not None:
            lengths.append(result.phases)
    return games / (time.process_time() - began)


def peak_memory_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports kilobytes, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _median_us(sample: PhaseSample) -> float:
    return round(statistics.median(sample.times) * 1e6, 1)


def scaling(
    catalog: Catalog, quick: bool = False, resolver: Resolver = _resolve
) -> tuple[dict[str, float], dict[str, PhaseSample]]:
    """Median phase time at each of :data:`COUNTS` airplanes at constant density, the
    crowded 90 x 90 table with 32 and the mixed tripod table; per-plane cost and growth."""
    base = 40 if quick else 400
    samples: dict[str, PhaseSample] = {}
    figures: dict[str, float] = {}
    for count in COUNTS:
        n = max(4 if quick else 20, base * 4 // count)
        make = functools.partial(layouts.constant_density, count)
        sample = phase_times(catalog, make, n, resolver=resolver)
        samples[f"phase_{count}"] = sample
        figures[f"phase_{count}_median_us"] = _median_us(sample)
    for count in COUNTS:
        figures[f"per_plane_{count}_us"] = round(figures[f"phase_{count}_median_us"] / count, 2)
    figures["per_plane_growth_64_vs_4"] = round(
        figures["per_plane_64_us"] / figures["per_plane_4_us"], 2
    )
    crowded = phase_times(
        catalog,
        functools.partial(layouts.crowded, 32),
        8 if quick else 80,
        resolver=resolver,
    )
    samples["phase_32_crowded_90x90"] = crowded
    figures["phase_32_crowded_90x90_median_us"] = _median_us(crowded)
    mixed = phase_times(catalog, layouts.tripods_and_airplanes, base // 2, resolver=resolver)
    samples["phase_2_tripods_4_airplanes"] = mixed
    figures["phase_2_tripods_4_airplanes_median_us"] = _median_us(mixed)
    return figures, samples


def run(catalog: Catalog, quick: bool = False) -> dict[str, Any]:
    """All figures as one JSON-ready dictionary, with the targets beside them."""
    figures, samples = scaling(catalog, quick)
    random_lengths: list[int] = []
    bot_lengths: list[int] = []
    figures.update(
        {
            "phase_invasion_median_us": invasion_phase_median_us(catalog, quick),
            "games_per_second": round(
                games_per_second(catalog, 20 if quick else 300, lengths=random_lengths), 1
            ),
            "simulate_random_bots_games_per_second": round(
                random_bot_games_per_second(catalog, 10 if quick else 150, lengths=bot_lengths),
                1,
            ),
            "sopwith_turn_20_planes_median_ms": turn_20_planes_median_ms(quick),
            "automated_tripod_decision_median_ms": decision_median_ms(quick, catalog),
            "hard_bot_decision_median_ms": hard_bot_decision_median_ms(catalog, quick),
            "spark_of_hope_games_per_second_2_workers": spark_of_hope_games_per_second(
                catalog, quick
            ),
            "londons_burning_martian_turn_median_ms": londons_burning_turn_median_ms(
                catalog, quick
            ),
        }
    )
    figures["simulate_random_bots_slowdown"] = round(
        figures["games_per_second"] / figures["simulate_random_bots_games_per_second"], 2
    )
    # the two games differ in length (see random_bot_games_per_second): the same ratio
    # per action phase played
    figures["random_game_phases_per_game"] = round(statistics.mean(random_lengths), 2)
    figures["simulate_random_bots_phases_per_game"] = round(statistics.mean(bot_lengths), 2)
    figures["simulate_random_bots_slowdown_per_phase"] = round(
        figures["simulate_random_bots_slowdown"]
        * statistics.mean(random_lengths)
        / statistics.mean(bot_lengths),
        2,
    )
    return {
        "figures": figures,
        "targets": TARGETS,
        "met": {
            k: (
                figures[k] <= v
                if k.endswith(("_us", "_ms")) or k in LOWER_IS_BETTER
                else figures[k] >= v
            )
            for k, v in TARGETS.items()
        },
        "samples": {
            name: {"phases": len(s.times), "tables": s.tables, "skipped": s.skipped}
            for name, s in samples.items()
        },
        "sampling": "phases in which every vehicle is in play and no bases overlap; "
        "constant density: 2,025 cm² of table per airplane; phases and games are timed in "
        "CPU time of this process (the machine is shared)",
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
