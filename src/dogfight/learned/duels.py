"""Refereed duels between two bots, one of them usually the learned bot with given
weights: what training scores its candidates by (:mod:`dogfight.learned.train`) and what
``dogfight bench --bots`` reports (:mod:`dogfight.bench.bots`), one way for both.

A duel is a matchup of :func:`~dogfight.sim.duel.duel_situation` (two airplanes facing
each other across the table) under a ruleset, played through the referee
(:func:`~dogfight.sim.run.play_game`) with a fresh bot each game. Game ``i`` of a task
seeded ``seed`` draws from ``SeedSequence([seed, i])``, so a task gives the same games
whichever process plays it, and a run split into chunks gives the same games as one."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from dogfight.batch.compare import MATCHUPS
from dogfight.bots.learned import LearnedBot
from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.learned.weights import Weights
from dogfight.sim.duel import duel_situation
from dogfight.sim.run import play_game

MAX_TURNS = 30
SIDES = (("allies", "central"), ("central", "allies"))

Player = list[float] | str
"""A side's bot: the learned bot with these parameters, or a registered bot by name."""


@dataclass(frozen=True)
class Task:
    """Games ``first`` to ``first + games - 1`` of a run of duels (a worker's share)."""

    matchup: tuple[str, str]
    """The allies' airplane type and the central side's."""
    ruleset: str | None
    """None: the situation's default."""
    side: str
    """The side ``player`` flies; ``opponent`` flies the other."""
    player: Player
    opponent: Player
    seed: int
    first: int
    games: int
    data: str | None
    """A data folder over the shipped catalog."""


@dataclass(frozen=True)
class Record:
    """Games won by a side's player and games decided (a draw decides nothing)."""

    wins: int
    decided: int

    def __add__(self, other: Record) -> Record:
        return Record(self.wins + other.wins, self.decided + other.decided)


def play_duels(task: Task) -> Record:
    """The ``player``'s record in the task's duels."""
    catalog = load_catalog(task.data)
    situation = duel_situation(*task.matchup)
    if task.ruleset is not None:
        situation = situation.model_copy(update={"ruleset": task.ruleset})
    them = SIDES[0][1] if task.side == SIDES[0][0] else SIDES[0][0]
    seats = ((task.side, task.player), (them, task.opponent))
    named = {side: p for side, p in seats if isinstance(p, str)}
    learned = {side: Weights.of(p) for side, p in seats if not isinstance(p, str)}
    wins = decided = 0
    for i in range(task.first, task.first + task.games):
        # fresh bots each game: a bot remembers the game it plays
        made = {side: LearnedBot(w) for side, w in learned.items()}
        result = play_game(
            situation,
            catalog,
            named,
            np.random.SeedSequence([task.seed, i]),
            i,
            MAX_TURNS,
            made=made,
        )
        wins += result.winner == task.side
        decided += result.winner is not None
    return Record(wins, decided)


def run(pool: Executor | None, tasks: Sequence[Task]) -> list[Record]:
    """Each task's record, on ``pool``'s processes (None: here)."""
    if pool is None:
        return [play_duels(t) for t in tasks]
    return list(pool.map(play_duels, tasks))


@contextmanager
def workers_pool(workers: int) -> Iterator[Executor | None]:
    """``workers`` processes to play duels on (None for one: play them here)."""
    if workers <= 1:
        yield None
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield pool


def data_folder(catalog: Catalog) -> str | None:
    """The catalog's data folder over the shipped one, for a worker to load it again."""
    return str(catalog.folders[1]) if len(catalog.folders) > 1 else None


def player_of(who: Weights | str) -> Player:
    return who if isinstance(who, str) else who.vector()


CHUNK = 50
"""Games per task when a side's games are split for the workers."""


def against(
    catalog: Catalog,
    who: Weights | str,
    games: int,
    seed: int = 0,
    bot: str = "hard",
    matchup: tuple[str, str] = MATCHUPS[0],
    ruleset: str | None = None,
    pool: Executor | None = None,
) -> dict[str, Record]:
    """``who`` (learned weights or a registered bot) against the referee's ``bot`` in
    ``games`` refereed duels of ``matchup`` as each side: its record per side (side
    ``k`` of :data:`SIDES` plays seed ``seed + k``)."""
    tasks = [
        Task(
            matchup,
            ruleset,
            me,
            player_of(who),
            bot,
            seed + k,
            first,
            min(CHUNK, games - first),
            data_folder(catalog),
        )
        for k, (me, _) in enumerate(SIDES)
        for first in range(0, games, CHUNK)
    ]
    out = {me: Record(0, 0) for me, _ in SIDES}
    for task, record in zip(tasks, run(pool, tasks), strict=True):
        out[task.side] += record
    return out
