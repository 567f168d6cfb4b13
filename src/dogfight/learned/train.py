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

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.batch.compare import MATCHUPS
from dogfight.bots.learned import LearnedBot
from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.learned.weights import NAMES, STARTING, Recipe, Weights
from dogfight.sim.duel import duel_situation
from dogfight.sim.run import play_game
from dogfight.sim.stats import wilson

Say = Callable[[str], None]
MAX_TURNS = 30
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
SIDES = (("allies", "central"), ("central", "allies"))

Task = tuple[tuple[str, str], str, list[float], list[float] | str, int, int, str | None]
"""(matchup, the candidate's side, its parameters, the opponent's parameters or the name
of a registered bot, seed, games, data folder)."""


def play_duels(task: Task) -> tuple[int, int]:
    """(wins, decided) of the candidate in ``games`` refereed duels (a worker's task)."""
    matchup, me, vector, opponent, seed, games, data = task
    catalog = load_catalog(data)
    situation = duel_situation(*matchup)
    them = SIDES[0][1] if me == SIDES[0][0] else SIDES[0][0]
    mine = Weights.of(vector)
    theirs = None if isinstance(opponent, str) else Weights.of(opponent)
    named = {them: opponent} if isinstance(opponent, str) else {}
    wins = decided = 0
    for i in range(games):
        # fresh bots each game: a bot remembers the game it plays
        made = {me: LearnedBot(mine)}
        if theirs is not None:
            made[them] = LearnedBot(theirs)
        result = play_game(
            situation,
            catalog,
            named,
            np.random.SeedSequence([seed, i]),
            i,
            MAX_TURNS,
            made=made,
        )
        wins += result.winner == me
        decided += result.winner is not None
    return wins, decided


def _run(pool: Executor | None, tasks: Sequence[Task]) -> list[tuple[int, int]]:
    if pool is None:
        return [play_duels(t) for t in tasks]
    return list(pool.map(play_duels, tasks))


def _data(catalog: Catalog) -> str | None:
    return str(catalog.folders[1]) if len(catalog.folders) > 1 else None


def against(
    catalog: Catalog,
    weights: Weights,
    games: int,
    seed: int = 0,
    bot: str = "hard",
    matchup: tuple[str, str] = MATCHUPS[0],
    pool: Executor | None = None,
) -> tuple[int, int]:
    """(wins, decided games) of ``weights`` against the referee's ``bot`` in ``games``
    refereed duels of ``matchup``, half as each side."""
    tasks: list[Task] = [
        (matchup, me, weights.vector(), bot, seed + k, games // 2, _data(catalog))
        for k, (me, _) in enumerate(SIDES)
    ]
    results = _run(pool, tasks)
    return sum(w for w, _ in results), sum(d for _, d in results)


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
    if plan.workers <= 1:
        return _train(catalog, plan, say, start, None)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=plan.workers, mp_context=context) as pool:
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
    data = _data(catalog)

    def shaped(vector: Any) -> Weights:
        return Weights.of([float(v) for v in vector])

    def check(generation: int) -> None:
        wins, decided = against(catalog, shaped(mean), plan.check_games, plan.seed, pool=pool)
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
                tasks.append((matchup, me, mine, "hard", seed + k, hard, data))
                tasks.append((matchup, me, mine, previous, seed + 2 + k, own, data))
        results = np.array(_run(pool, tasks)).reshape(plan.population, 2, 2, 2)
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
