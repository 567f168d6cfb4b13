"""Live updates: every open page of a seat holds a WebSocket; after each change to a game
each connection is sent the seat's view with the steps it has not seen yet."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from dogfight.server.games import LiveGame


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seat: str
    sent: int = 0
    """Steps already sent to this page."""
    version: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Hub:
    """Open connections by game."""

    def __init__(self) -> None:
        self.games: dict[str, set[Connection]] = {}

    def add(self, game_id: str, connection: Connection) -> None:
        self.games.setdefault(game_id, set()).add(connection)

    def remove(self, game_id: str, connection: Connection) -> None:
        self.games.get(game_id, set()).discard(connection)

    async def send(self, game: LiveGame, connection: Connection) -> None:
        """Send one connection its seat's view since what it has (if anything changed)."""
        async with connection.lock:
            if connection.version == game.version:
                return
            with game.lock:
                view = game.seat_view(connection.seat, since=connection.sent)
                version = game.version
            try:
                await connection.websocket.send_json(view)
            except Exception:
                self.remove(game.id, connection)
                with contextlib.suppress(Exception):
                    await connection.websocket.close()
                return
            connection.sent = view["steps_total"]
            connection.version = version

    async def close_all(self, game_id: str, message: dict[str, Any], code: int) -> None:
        """Send every page of the game ``message`` and close it with ``code``."""
        for connection in list(self.games.pop(game_id, ())):
            with contextlib.suppress(Exception):
                await connection.websocket.send_json(message)
                await connection.websocket.close(code=code)

    async def notify(self, game: LiveGame) -> None:
        connections = list(self.games.get(game.id, ()))
        if connections:
            await asyncio.gather(*(self.send(game, c) for c in connections))
