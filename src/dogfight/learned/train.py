"""Training the learned bot's parameters (:mod:`dogfight.learned.weights`) by refereed
duels against the ``hard`` bot and against earlier versions of itself.

A cross-entropy method — a numpy evolution strategy with a diagonal Gaussian, enough for
nine parameters — draws ``population`` candidates around the mean each generation,
scores each by refereed duels and moves the mean and spread to the best quarter. A
candidate's fitness is its share of decided games won, half against the ``hard`` bot
and half against the mean of the generation before (self-play), half as each side of
one of the statistical test's three matchups (:data:`dogfight.batch.compare.MATCHUPS`,
in turn). Every candidate of a generation plays the same seeds (common random numbers),
so their differences are the parameters' and not the dice's. The games are played on
``workers`` processes.

Every ``check_every`` generations, and at the end, the mean plays ``check_games``
referee duels (Camel against Albatros) against the ``hard`` bot, half as each side, and
the win rate is printed with its 95% interval.

A run is reproducible from its seed, generations, population and games (the wall-time
budget only stops a run early, and the file records the generations it reached).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.batch.compare import MATCHUPS
from dogfight.catalog.loader import Catalog
from dogfight.learned.duels import SIDES, Task, against, data_folder, run, workers_pool
from dogfight.learned.weights import NAMES, STARTING, Recipe, Weights
from dogfight.sim.stats import wilson

Say = Callable[[str], None]
ELITE = 0.25
"""The share of each generation the mean and spread move to."""
SMOOTHING = 0.5
"""How far the mean and spread move each generation (the rest stays)."""
SPREAD = {
    "predict": 0.3,
    "risk": 0.15,
    "risk_damage": 0.25,
    "ahead": 0.3,
    "behind": 0.3,
    "near_at": 0.05,
    "near_width": 0.08,
    "far": 0.25,
    "trapped": 6.0,
}
"""The search's first spread of each parameter: the whole range for ``predict``, about a
sixth of the hand-set value for the valuation (wider, the noise of a few dozen games per
candidate let the mean wander away from a good valuation)."""
FLOOR = 0.1
"""The smallest spread, as a share of the first (keeps the search from freezing)."""
AGAINST_HARD = 0.75
"""The share of a candidate's games played against the hard bot (the rest: self-play
against the mean of the generation before)."""


@dataclass(frozen=True)
class Plan:
    """What a training run does."""

    seed: int = 0
    generations: int = 60
    population: int = 6
    games: int = 96
    minutes: float = 120.0
    check_every: int = 10
    check_games: int = 200
    workers: int = 2


def _rate(wins: int, decided: int) -> str:
    low, high = wilson(wins, decided)
    share = wins / decided if decided else 0.0
    return f"{share:.1%} of {decided} decided [95%: {low:.1%}-{high:.1%}]"


def train(catalog: Catalog, plan: Plan, say: Say = print, start: Weights | None = None) -> Weights:
    """Weights trained as the module says; progress through ``say``."""
    with workers_pool(plan.workers) as pool:
        return _train(catalog, plan, say, start, pool)


def _train(
    catalog: Catalog, plan: Plan, say: Say, start: Weights | None, pool: Executor | None
) -> Weights:
    began = time.monotonic()
    rng = np.random.default_rng(plan.seed)
    first = np.array([SPREAD[n] for n in NAMES])
    mean = np.array((start or STARTING).vector())
    spread = first.copy()
    elite = max(2, round(plan.population * ELITE))
    played = 0
    progress: list[dict[str, Any]] = []
    done = 0
    data = data_folder(catalog)

    def shaped(vector: Any) -> Weights:
        return Weights.of([float(v) for v in vector])

    def check(generation: int) -> None:
        sides = against(catalog, shaped(mean), plan.check_games // 2, plan.seed, pool=pool)
        both = sides["allies"] + sides["central"]
        wins, decided = both.wins, both.decided
        say(f"generation {generation}: against the hard bot (referee) {_rate(wins, decided)}")
        progress.append(
            {"generation": generation, "games": played, "hard_wins": wins, "hard_decided": decided}
        )

    for generation in range(1, plan.generations + 1):
        if time.monotonic() - began > plan.minutes * 60.0:
            say(f"the time budget ({plan.minutes:g} minutes) is spent")
            break
        draws = mean + spread * rng.standard_normal((plan.population, len(mean)))
        # clipped to the parameters' ranges: the candidates are what they play
        candidates = np.array([shaped(d).vector() for d in draws])
        matchup = MATCHUPS[(generation - 1) % len(MATCHUPS)]
        seed = int(rng.integers(2**31))
        previous = shaped(mean).vector()
        hard = max(1, round(plan.games * AGAINST_HARD / 2))
        own = max(1, plan.games // 2 - hard)
        tasks: list[Task] = []
        for vector in candidates:
            mine = [float(v) for v in vector]
            for k, (me, _) in enumerate(SIDES):
                tasks.append(Task(matchup, None, me, mine, "hard", seed + k, 0, hard, data))
                tasks.append(Task(matchup, None, me, mine, previous, seed + 2 + k, 0, own, data))
        records = [(r.wins, r.decided) for r in run(pool, tasks)]
        results = np.array(records).reshape(plan.population, 2, 2, 2)
        # per candidate and opponent (hard, the mean): wins and decided games
        wins, decided = results[..., 0].sum(axis=1), results[..., 1].sum(axis=1)
        fitness = wins.sum(axis=1) / np.maximum(1, decided.sum(axis=1))
        played += plan.population * 2 * (hard + own)
        best = np.argsort(-fitness, kind="stable")[:elite]
        chosen = candidates[best]
        mean = SMOOTHING * chosen.mean(axis=0) + (1 - SMOOTHING) * mean
        spread = np.maximum(
            FLOOR * first, SMOOTHING * chosen.std(axis=0) + (1 - SMOOTHING) * spread
        )
        done = generation
        say(
            f"generation {generation}: {played:,} games played, {' vs '.join(matchup)}; "
            f"fitness best {fitness.max():.3f}, mean {fitness.mean():.3f} "
            f"(against hard {wins[:, 0].sum() / max(1, decided[:, 0].sum()):.1%}); "
            f"{time.monotonic() - began:.0f} s"
        )
        say("  mean " + ", ".join(f"{n} {v:.3g}" for n, v in zip(NAMES, mean, strict=True)))
        if plan.check_every and generation % plan.check_every == 0:
            check(generation)
    if not plan.check_every or done % plan.check_every:
        check(done)
    recipe = Recipe(
        seed=plan.seed,
        generations=done,
        population=plan.population,
        games=plan.games,
        minutes=plan.minutes,
    )
    return Weights.of([float(v) for v in mean], recipe=recipe, progress=progress)
