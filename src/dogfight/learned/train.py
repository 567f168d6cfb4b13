"""Training the learned policy's weights by self-play on the batched engine.

The weights are a direction (the policy picks the best plan, so only their direction
counts): a cross-entropy method — a numpy evolution strategy with a diagonal Gaussian,
enough for a dozen weights — draws ``population`` candidates around the mean each
generation, scores each by batched games and moves the mean and spread to the best
quarter. A candidate's fitness is its share of decided games won, as each side of one of
the statistical test's three matchups (:data:`dogfight.batch.compare.MATCHUPS`, in turn),
against the batched ``easy`` bot and against the mean of the generation before (an
earlier version of itself). Every candidate of a generation plays the same seeds
(common random numbers), so their differences are the weights' and not the dice's.

Every ``check_every`` generations, and at the end, the mean plays referee duels against
the ``hard`` bot (both sides) and the win rate is printed with its 95% interval.

A run is reproducible from its seed and number of generations: ``dogfight train --seed S
--generations G`` writes the same weights (the wall-time budget only stops a run early,
and the file records the generations it reached).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from dogfight.batch.bridge import from_states
from dogfight.batch.compare import MATCHUPS
from dogfight.batch.easy import easy_plans
from dogfight.batch.policies import Policy, random_plans
from dogfight.batch.run import play
from dogfight.batch.state import BatchState
from dogfight.catalog.loader import Catalog
from dogfight.learned.policy import learned_plans
from dogfight.learned.weights import ENV, STARTING, Recipe, Weights
from dogfight.sim.duel import duel_situation
from dogfight.sim.stats import wilson
from dogfight.situation.format import build

Say = Callable[[str], None]
MAX_TURNS = 30
ELITE = 0.25
"""The share of each generation the mean and spread move to."""
SMOOTHING = 0.7
"""How far the mean and spread move each generation (the rest stays)."""
FLOOR = 0.02
"""The smallest spread of a weight (keeps the search from freezing on noise)."""


_TEMPLATES: dict[tuple[int, str, str], BatchState] = {}


def _template(catalog: Catalog, first: str, second: str) -> BatchState:
    key = (id(catalog), first, second)
    if key not in _TEMPLATES:
        _TEMPLATES[key] = from_states([build(duel_situation(first, second), catalog, 0)])
    return _TEMPLATES[key]


def win_share(
    catalog: Catalog,
    weights: Weights,
    opponent: Policy,
    games: int,
    seed: int,
    matchup: tuple[str, str] = MATCHUPS[0],
) -> tuple[int, int]:
    """(wins, decided games) of ``weights`` against ``opponent`` in ``games`` batched
    duels of ``matchup``, half as each side."""
    template = _template(catalog, *matchup)
    mine: Policy = partial(learned_plans, weights=weights)
    wins = decided = 0
    for k, (me, them) in enumerate((("allies", "central"), ("central", "allies"))):
        results = play(
            template,
            {me: "me", them: "them"},
            games // 2,
            seed + k,
            MAX_TURNS,
            policies={"me": mine, "them": opponent},
        )
        wins += sum(r.winner == me for r in results)
        decided += sum(r.winner is not None for r in results)
    return wins, decided


@contextmanager
def _weights_in_force(weights: Weights) -> Iterator[None]:
    """The ``learned`` bot's weights set to these (through the environment variable a
    user sets, on a temporary file) for the referee games of a check."""
    before = os.environ.get(ENV)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "weights.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(weights.to_json())
        os.environ[ENV] = path
        try:
            yield
        finally:
            if before is None:
                os.environ.pop(ENV, None)
            else:
                os.environ[ENV] = before


def against_hard(
    catalog: Catalog, weights: Weights, games: int, seed: int = 0, bot: str = "hard"
) -> tuple[int, int]:
    """(wins, decided games) of ``weights`` against the referee's ``bot`` in ``games``
    referee duels (Camel against Albatros), half as each side."""
    from dogfight.sim.run import play_games

    wins = decided = 0
    with _weights_in_force(weights):
        for me, them in (("allies", "central"), ("central", "allies")):
            half = games // 2
            results = play_games(
                duel_situation(), catalog, {me: "learned", them: bot}, seed, list(range(half)), half
            )
            wins += sum(r.winner == me for r in results)
            decided += sum(r.winner is not None for r in results)
    return wins, decided


@dataclass(frozen=True)
class Plan:
    """What a training run does."""

    seed: int = 0
    generations: int = 40
    population: int = 10
    games: int = 200
    minutes: float = 120.0
    check_every: int = 10
    check_games: int = 60


def _rate(wins: int, decided: int) -> str:
    low, high = wilson(wins, decided)
    share = wins / decided if decided else 0.0
    return f"{share:.1%} of {decided} decided [95%: {low:.1%}-{high:.1%}]"


def train(catalog: Catalog, plan: Plan, say: Say = print, start: Weights | None = None) -> Weights:
    """Weights trained as the module says; progress through ``say``."""
    began = time.monotonic()
    rng = np.random.default_rng(plan.seed)
    base = start or Weights(STARTING)
    mean = base.vector / np.linalg.norm(base.vector)
    spread = np.full(len(mean), 0.3)
    elite = max(2, round(plan.population * ELITE))
    played = 0
    progress: list[dict[str, Any]] = []
    done = 0

    def shaped(vector: Any) -> Weights:
        return Weights(
            vector / np.linalg.norm(vector),
            base.own_plans,
            base.enemy_plans,
            base.replies,
            base.reply_pool,
        )

    def check(generation: int) -> None:
        wins, decided = against_hard(catalog, shaped(mean), plan.check_games, plan.seed)
        say(f"generation {generation}: against the hard bot (referee) {_rate(wins, decided)}")
        progress.append(
            {"generation": generation, "games": played, "hard_wins": wins, "hard_decided": decided}
        )

    for generation in range(1, plan.generations + 1):
        if time.monotonic() - began > plan.minutes * 60.0:
            say(f"the time budget ({plan.minutes:g} minutes) is spent")
            break
        candidates = mean + spread * rng.standard_normal((plan.population, len(mean)))
        matchup = MATCHUPS[(generation - 1) % len(MATCHUPS)]
        seed = int(rng.integers(2**31))
        previous: Policy = partial(learned_plans, weights=shaped(mean))
        fitness = np.zeros(plan.population)
        for c, vector in enumerate(candidates):
            w = shaped(vector)
            w1, d1 = win_share(catalog, w, easy_plans, plan.games // 2, seed, matchup)
            w2, d2 = win_share(catalog, w, previous, plan.games // 2, seed + 7, matchup)
            fitness[c] = (w1 / max(1, d1) + w2 / max(1, d2)) / 2.0
            played += plan.games
        best = np.argsort(-fitness, kind="stable")[:elite]
        chosen = candidates[best]
        mean = SMOOTHING * chosen.mean(axis=0) + (1 - SMOOTHING) * mean
        mean /= np.linalg.norm(mean)
        spread = np.maximum(FLOOR, SMOOTHING * chosen.std(axis=0) + (1 - SMOOTHING) * spread)
        done = generation
        say(
            f"generation {generation}: {played:,} games played, {' vs '.join(matchup)}; "
            f"fitness best {fitness.max():.3f}, mean {fitness.mean():.3f}; "
            f"{time.monotonic() - began:.0f} s"
        )
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
    out = shaped(mean)
    return Weights(
        out.vector, out.own_plans, out.enemy_plans, out.replies, out.reply_pool, recipe, progress
    )


def against_random(catalog: Catalog, weights: Weights, games: int, seed: int) -> float:
    """The share of decided batched duels ``weights`` win against the ``random`` bot."""
    wins, decided = win_share(catalog, weights, random_plans, games, seed)
    return wins / max(1, decided)
