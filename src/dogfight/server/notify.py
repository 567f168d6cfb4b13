"""Several server processes on one PostgreSQL database: each hears of every other's
writes through PostgreSQL's LISTEN/NOTIFY.

Every write to a game notifies the channel :data:`dogfight.server.store.CHANNEL` with
``"<game id> <revision>"`` when it commits (``Store.claim``). Each process listens on
its own connection; a notification of a game it holds at an older revision makes it
catch up (:meth:`LiveGame.reload`) and send the new views to the seats connected to it.
After a lost connection it listens again and catches up on every game it holds (what
was said while it was away is lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from dogfight.server.store import CHANNEL

log = logging.getLogger("dogfight.server")

RETRY = 1.0
"""Seconds between attempts to listen again after the connection is lost."""


def libpq_url(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


class Listener:
    """Listens on the channel; calls ``changed(game_id, revision)`` for each
    notification and ``lost()`` after a reconnection, on the event loop."""

    def __init__(
        self,
        url: str,
        changed: Callable[[str, int], None],
        lost: Callable[[], Awaitable[None]],
    ) -> None:
        self.url = libpq_url(url)
        self.changed = changed
        self.lost = lost
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        await self.lost()
                    first = False
                    async for note in connection.notifies():
                        game_id, _, revision = note.payload.partition(" ")
                        if revision.isdigit():
                            self.changed(game_id, int(revision))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("dogfight: listening for other processes' changes: %s", exc)
                first = False
            await asyncio.sleep(RETRY)
