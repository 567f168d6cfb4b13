"""Several server processes on one PostgreSQL database: each hears of every other's
writes through PostgreSQL's LISTEN/NOTIFY.

Every write to a game notifies the channel :data:`dogfight.server.db.pg_statements.CHANNEL` with
``"<game id> <revision>"`` when it commits (``Store.claim``; a batch's one statement,
``Store.add_batch``, adds the rows written when they fit: a plan, a turn's steps). Each process
listens on its own connection; a notification of a game it holds at an older revision
makes it catch up (:meth:`LiveGame.reload`: from the rows carried when it held the
revision before, else by reading the rows stored since) and send the new views to the
seats connected to it.
After a lost connection it listens again and catches up on every game it holds (what
was said while it was away is lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import make_url

from dogfight.server.db.pg_statements import CHANNEL

log = logging.getLogger("dogfight.server")

RETRY = 1.0
"""Seconds between attempts to listen again after the connection is lost."""

DELAY_ENV = "DOGFIGHT_TEST_NOTIFY_DELAY"
"""Tests only: seconds by which this process hands on each notification it hears (a
notification that comes late, after the seat's next request: what a seat's request
must not depend on, see :meth:`dogfight.server.play.service.GameService.fresh`)."""


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get(DELAY_ENV, "0") or 0))
    except ValueError:
        return 0.0


DELAY = _delay()


def libpq_url(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


class Listener:
    """Listens on the channel; calls ``changed(game_id, revision, rows)`` for each
    notification (``rows``: the rows written, when the notification carried them, as
    JSON text for ``Store.noticed``; else None) and ``lost()`` after a reconnection, on
    the event loop."""

    def __init__(
        self,
        url: str,
        changed: Callable[[str, int, str | None], None],
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
                    # any notification that came with the LISTEN's answer
                    async for note in connection.notifies(timeout=0):
                        self._heard(note.payload)
                    self.ready.set()
                    if not first:
                        await self.lost()
                    first = False
                    await self._listen(connection.pgconn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("dogfight: listening for other processes' changes: %s", exc)
                first = False
            await asyncio.sleep(RETRY)

    async def _listen(self, pgconn: Any) -> None:
        """Hand on every notification until the connection breaks (raised). The
        connection's socket is watched by the event loop once, and each wake-up reads
        every notification that came (psycopg's ``notifies()`` starts and stops
        watching the socket for each one, through several generators: a few percent of
        a busy server's time)."""
        from psycopg.pq import ConnStatus

        loop = asyncio.get_running_loop()
        broken: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()
                while (note := pgconn.notifies()) is not None:
                    self._heard(note.extra.decode())
                if pgconn.status != ConnStatus.OK:
                    raise ConnectionError("the connection was closed")
            except Exception as exc:  # the connection was lost
                if not broken.done():
                    broken.set_exception(exc)

        fd = pgconn.socket
        loop.add_reader(fd, readable)
        try:
            readable()  # whatever came before the socket was watched
            await broken
        finally:
            loop.remove_reader(fd)

    def _heard(self, payload: str) -> None:
        game_id, _, rest = payload.partition(" ")
        revision, _, rows = rest.partition(" ")
        if revision.isdigit():
            if DELAY:
                asyncio.get_running_loop().call_later(
                    DELAY, self.changed, game_id, int(revision), rows or None
                )
                return
            self.changed(game_id, int(revision), rows or None)
