"""Engine and computer-player work off the event loop.

Resolving a step, a computer player's planning, loading a game and building a seat's
view are CPU work: done on the event loop they would freeze every other game's
requests. :class:`GameWorkers` runs them on a thread pool, one task per game at a time
(a game's requests queue behind each other; other games' requests go on). Waiting for a
game's turn happens on the event loop, so a busy game never holds a pool thread idle.

Except for a *light* game's work (people only, a few vehicles: a duel's whole turn is
well under a millisecond of engine work): handing it to a thread and back costs more
than the work, and the threads and the event loop then queue for Python's global lock
(each hand-off waits up to a switch interval), so under load every request waited on
the others. Such work runs on the event loop, still one task per game at a time; a
game whose work once takes more CPU time than :data:`INLINE_LIMIT` is not light any more.

A computer player gets a time budget per step (:func:`within_budget`): one that has not
answered in time is replaced, for that step, by the cheap random legal plan, and the
late answer is thrown away.
"""

from __future__ import annotations

import asyncio
import os
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Protocol, TypeVar

T = TypeVar("T")

BUDGET_ENV = "DOGFIGHT_BOT_BUDGET"
"""Seconds a computer player may think per step before its random fallback is used."""

DEFAULT_BUDGET = 2.0

THREADS_ENV = "DOGFIGHT_WORKERS"
"""Threads resolving steps and building views (default: 8)."""

INLINE_LIMIT = 0.02
"""Seconds of CPU time a light game's work may take on the event loop: a game whose work
once took longer runs on the threads from then on."""


def bot_budget() -> float:
    """The budget from ``DOGFIGHT_BOT_BUDGET`` (seconds, > 0), else 2 s."""
    try:
        value = float(os.environ.get(BUDGET_ENV, DEFAULT_BUDGET))
    except ValueError:
        return DEFAULT_BUDGET
    return value if value > 0 and value != float("inf") else DEFAULT_BUDGET


class OverBudget(Exception):
    """A computer player did not answer within its time budget."""


_thinkers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dogfight-bot")
"""Computer players think here; one that runs over its budget keeps its thread until it
finishes (a thread cannot be stopped), so at most four can be running late at once and
later ones wait their turn (and fall back if the wait eats their budget)."""


def within_budget(work: Callable[[], T], seconds: float) -> T:
    """``work()``'s answer if it comes within ``seconds``; else :class:`OverBudget`
    (the work goes on in its thread, its answer is dropped)."""
    future = _thinkers.submit(work)
    try:
        return future.result(timeout=seconds)
    except FutureTimeout:
        future.cancel()
        raise OverBudget(f"no answer within {seconds:g} s") from None


class Light(Protocol):
    """A game that may be light: its work then runs on the event loop."""

    light: bool


class GameWorkers:
    """A thread pool running each game's work, one task per game at a time."""

    def __init__(self, threads: int | None = None) -> None:
        if threads is None:
            threads = int(os.environ.get(THREADS_ENV, "8") or 8)
        self.pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="dogfight")
        self._turns: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._running: dict[str, int] = {}
        """Each game's tasks running or waiting for their turn (:meth:`busy`)."""

    def busy(self, game_id: str) -> bool:
        """Whether a task of the game is running or waiting for its turn (such a game
        stays in memory: :mod:`dogfight.server.play.service`)."""
        return game_id in self._running

    async def run(
        self, game_id: str | None, work: Callable[[], T], light: Light | None = None
    ) -> T:
        """``work()`` on the pool, after every earlier task of ``game_id`` (None: a task
        of no game, such as creating one, runs at once); on the event loop instead when
        ``light`` says the game is light (and then told if the work took too long)."""
        loop = asyncio.get_running_loop()
        if game_id is None:
            return await loop.run_in_executor(self.pool, work)
        running = self._running
        running[game_id] = running.get(game_id, 0) + 1
        try:
            return await self._run(game_id, work, light, loop)
        finally:
            left = running[game_id] - 1
            if left:
                running[game_id] = left
            else:
                del running[game_id]

    async def _run(
        self,
        game_id: str,
        work: Callable[[], T],
        light: Light | None,
        loop: asyncio.AbstractEventLoop,
    ) -> T:
        """:meth:`run` of a game's task."""
        turn = self._turns.get(game_id)
        if turn is None:
            if light is not None and light.light:
                # no task of the game is running or waiting (each holds its lock): its
                # work runs now, with no lock to make and take (this work never waits)
                return _inline(work, light)
            turn = asyncio.Lock()
            self._turns[game_id] = turn
        async with turn:
            if light is not None and light.light:
                return _inline(work, light)
            return await loop.run_in_executor(self.pool, work)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _inline(work: Callable[[], T], light: Light) -> T:
    """``work()`` on the event loop; the game is not light any more if it took more
    than :data:`INLINE_LIMIT` seconds of CPU time."""
    began = time.thread_time()  # CPU time: a busy machine's pauses do not count
    try:
        return work()
    finally:
        if time.thread_time() - began > INLINE_LIMIT:
            light.light = False
