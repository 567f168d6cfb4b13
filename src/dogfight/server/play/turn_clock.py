"""The turn clock (issue 32 item 3): in a game made with one (24 or 48 hours), a seat
that has not played when its time runs out is handed to a computer player, which plays
that turn (and the next, until the seat is taken back: the seat tools' "Take it back",
``POST .../computer`` with null, as for any seat handed over).

Each process looks, every :data:`TICK` seconds (``DOGFIGHT_CLOCK_TICK``), at the games
it holds; a turn's time runs from the end of the game's last resolved step (or the
game's making). The time is read from ``now`` (injectable: a test does not wait a day).
Of several processes, the first to hand the seat over wins; the others find it handed
(the seat is a computer's: it is not awaited any more).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from dogfight.server.db import clock_rows
from dogfight.server.errors import ApiError
from dogfight.server.play import seat_actions
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import check_flies, kinds_of, known_bots
from dogfight.server.shapes import ClockNote, ClockShown

log = logging.getLogger("dogfight.clock")

TICK_ENV = "DOGFIGHT_CLOCK_TICK"
TICK = 60.0


def hand_over(game: LiveGame, now: float) -> None:
    """The turn clock ran out (on the game's worker): each seat the game waits for is
    handed to its computer player, which plays; stored first (``clock_outs``: the game's
    log says so, :func:`notes`), then logged on the server's log."""
    turn = game.next_step()
    for seat_id in game.waiting_for():
        bot = bot_for(game, seat_id)
        if bot is None:
            continue
        number = turn[0] if turn else game.state.turn
        if not clock_rows.ran_out(game.store, game.id, number, seat_id, bot, now):
            continue  # another process handed it over first
        seat_actions.set_bot(game, seat_id, bot)
        log.warning(
            "game %s: the turn clock ran out for seat %s in turn %s: %s plays it",
            game.id,
            seat_id,
            number,
            bot,
        )


def notes(game: LiveGame) -> list[ClockNote]:
    """The game's log's notes of the clocks that ran out, in words (no secret: who was
    awaited is public), made from the stored rows."""
    out: list[ClockNote] = []
    for turn, seat_id, bot in clock_rows.outs_of(game.store, game.id):
        seat = game.seats.get(seat_id)
        label = seat.label if seat is not None else seat_id
        text = (
            f"Turn {turn}: {label}'s turn clock ran out; the {bot} computer player plans "
            "for this seat (its player takes the seat back from the seat tools)"
        )
        out.append({"turn": turn, "seat": seat_id, "text": text})
    return out


def bot_for(game: LiveGame, seat_id: str) -> str | None:
    """The first computer player that flies the seat's vehicles."""
    seat = game.seats[seat_id]
    kinds = kinds_of(game.initial, {*seat.vehicles, *game.seat_vehicles(seat_id)})
    for bot in known_bots():
        with contextlib.suppress(ApiError):
            check_flies(bot, seat.label, kinds, "bot")
            return bot
    return None


@dataclass
class TurnClock:
    """One process's turn clocks."""

    games: Callable[[], list[LiveGame]]
    """The games this process holds."""
    hand_over: Callable[[LiveGame], Awaitable[None]]
    """Hand the seats the game waits for to their computer players (on its worker)."""
    now: Callable[[], float] = time.time
    tick: float = field(default_factory=lambda: float(os.environ.get(TICK_ENV) or TICK))
    hours: dict[str, int] = field(default_factory=dict)

    async def run(self) -> None:
        """Look at the clocks every :attr:`tick` seconds, until cancelled."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.look()
            except Exception:
                log.exception("turn clocks not looked at")

    async def look(self) -> None:
        """Hand over the awaited seats of every clocked game whose turn has run out
        (who is awaited is asked on the game's worker, by :attr:`hand_over`)."""
        for game in self.games():
            if game.failure is not None:
                continue
            hours = self.hours.get(game.id)
            if hours is None:
                hours = self.hours[game.id] = await asyncio.to_thread(
                    clock_rows.hours_of, game.store, game.id
                )
            if not hours:
                continue
            began = await asyncio.to_thread(clock_rows.turn_began, game.store, game.id)
            if began is not None and self.now() - began >= hours * 3600:
                await self.hand_over(game)


def shown(game: LiveGame) -> ClockShown | None:
    """The game's clock for its summary (None: a game without one). The hours are read
    once for the game's life; when the turn began, once per version of the game (the
    summary is made once per version)."""
    hours = game.view_cache.kept(("clock hours",), clock_rows.hours_of, game.store, game.id)
    if not hours:
        return None
    began = None if game.state.over else clock_rows.turn_began(game.store, game.id)
    ends = None
    if began is not None:
        at = datetime.fromtimestamp(began + hours * 3600, UTC)
        ends = at.isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"hours": hours, "ends": ends, "ran_out": notes(game)}
