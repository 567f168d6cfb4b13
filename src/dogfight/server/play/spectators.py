"""The per-game spectator limit across server processes (issue 32 item 4): this process's
name for its rows of :mod:`dogfight.server.db.spectator_rows`, admitting and releasing
spectators there, and renewing the lease of its counts while it holds any.

A process that stops says goodbye (its rows deleted); one killed stops counting when
its lease (:data:`LEASE` seconds) runs out, renewed every :data:`RENEW` seconds."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from dogfight.server.db import spectator_rows
from dogfight.server.db.store import Store

LEASE = 60.0
RENEW = 20.0


class SpectatorLeases:
    """This process's spectators, counted in the database with every other process's."""

    def __init__(self, store: Store, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now
        self.process = secrets.token_hex(8)
        self.held = 0
        """Spectators this process holds open (all games)."""

    def admit(self, game_id: str, most: int) -> bool:
        """Count one more spectator on the game unless it has ``most`` already, in every
        process (0: no limit); whether it was admitted. Reads the database."""
        if not spectator_rows.admit(self.store, game_id, self.process, most, self.now(), LEASE):
            return False
        self.held += 1
        return True

    def release(self, game_id: str) -> None:
        """An admitted spectator has gone. Writes the database."""
        self.held -= 1
        spectator_rows.release(self.store, game_id, self.process)

    async def run(self) -> None:
        """Renew this process's leases while it holds spectators (until cancelled)."""
        while True:
            await asyncio.sleep(RENEW)
            if self.held:
                until = self.now() + LEASE
                await asyncio.to_thread(spectator_rows.renew, self.store, self.process, until)

    def close(self) -> None:
        """This process stops: its spectators count no more."""
        spectator_rows.forget(self.store, self.process)
