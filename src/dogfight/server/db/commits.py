"""One SQLite commit for the writes of every light game the event loop worked on in one
pass (group commit), and nothing of theirs acknowledged before it.

A light game's work runs on the event loop (:mod:`dogfight.server.play.workers`), and each of
its writes (a plan, a turn's steps) used to be a transaction of its own: under a burst
of submissions the commits — the write-ahead log appended and its locks taken once per
write — were a fifth of the server's work. Here the writes made on the loop's thread go
into one open transaction (a write refused — a plan submitted twice, a game changed
elsewhere — is undone alone and raised at once, as before: :meth:`LoopCommits.write`).
The transaction is committed by a callback queued when it was opened, which runs after
everything already queued on the loop (in a burst, after every submission read in the
same pass), or as soon as it has been open :data:`SPAN` seconds.

What the writes lead to waits for that commit, so that no answer, no page and no
process sees anything that is not stored:

- a request waits for :meth:`LoopCommits.stored` before it answers (the seat's
  requests do, in ``on_seat``);
- the WebSocket messages due meanwhile are built and handed over only once the commit
  is done (:meth:`LoopCommits.hold`; :class:`dogfight.server.web.ws.Hub` asks it). A commit
  made in the middle of some work (a write that found the transaction open longer than
  :data:`SPAN`, another use of the database) tells which game's state may hold what is
  not stored yet (:meth:`LoopCommits.busy`): no message is built from it then;
- any other use of the database on the loop's thread (a new game, a seat's settings, a
  read) commits the open transaction first (the pool's ``checkout`` event): it sees
  what was written, and never waits on a lock the loop itself holds.

If the commit fails (a full disk), nothing of the group is stored: each request waiting
gets :class:`GroupLost`, its messages are dropped, and ``on_lost`` is told which games
were in the group (the server reloads them from the database and closes their pages'
sockets: the pages reconnect and see what is stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("dogfight.server")

Then = Callable[[], None]
"""What waits for a commit: a message to release, a request's answer."""

SPAN = 0.01
"""Seconds a transaction stays open at most (committed after the write that finds it
older): in a burst the first games' answers do not wait for the whole burst's work,
and a commit is still shared by a dozen writes."""


NO_GAMES: frozenset[str] = frozenset()
"""No game's work is under way (a commit made between two pieces of work)."""


class GroupLost(Exception):
    """The transaction holding a game's last writes could not be committed: nothing of
    them is stored."""


class LoopCommits:
    """The open transaction of the writes made on the event loop's thread."""

    def __init__(
        self,
        connect: Callable[[], Any],
        loop: asyncio.AbstractEventLoop,
        thread: int | None = None,
    ) -> None:
        """``connect()``: a DB-API connection of the database (SQLite), kept for the
        group's writes; ``thread``: the loop's thread (default: the calling one)."""
        self._connect = connect
        self._connection: Any = None
        self._cursor: Any = None
        """The cursor of every write on ``_connection`` (made with it)."""
        self._works: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        """The writes made in the open transaction, in order (done again by :meth:`_redo`)."""
        self.loop = loop
        self.thread = threading.get_ident() if thread is None else thread
        self.open = False
        self.games: set[str] = set()
        """The games with a write in the open transaction."""
        self._opened = 0.0
        """When the open transaction was begun (``time.perf_counter``)."""
        self._done: asyncio.Future[None] | None = None
        self._pending: dict[str, asyncio.Future[None]] = {}
        """Each game's last group until it is committed (or, lost, until a waiter is
        told): what :meth:`stored` waits for."""
        self._after: list[Then] = []
        self._dropped: list[Then] = []
        self._answers: list[Then] = []
        self._amid: frozenset[str] | None = NO_GAMES
        """While a commit releases what waited for it: the games whose work it was made in
        the middle of (None: any game's), see :meth:`busy`."""
        self.on_lost: Callable[[set[str], BaseException], None] = lambda games, exc: None
        self.on_committed: Callable[[], None] = lambda: None
        """Called after each commit, once what waited for it was released (the server
        sends the messages it released at once: its pages learn their results without
        waiting for every request queued behind theirs)."""
        self.commits = 0
        """Transactions committed (a figure for tests and the benchmark)."""

    def here(self) -> bool:
        """Whether the caller runs on the loop's thread (its writes go in the group)."""
        return threading.get_ident() == self.thread

    def write(self, game_id: str, work: Callable[..., None], *args: Any) -> None:
        """``work(cursor, *args)`` — one game's writes — in the open transaction (opened,
        and its commit queued on the loop, if none is). If ``work`` raises, its writes
        are undone and the exception raised; the others' stay. ``work`` must write the
        same again if called again on the database as it was before it (see
        :meth:`_redo`).

        A write is not put in a savepoint of its own (a SAVEPOINT and a RELEASE, two
        statements more for every write) to be undone alone: one refused before it
        changed a row (the game's claim found it moved on) has nothing to undo, and
        the rare one refused after (a unique key already taken) is undone by
        :meth:`_redo`."""
        cursor = self._cursor
        if cursor is None:
            self._connection = self._connect()
            cursor = self._cursor = self._connection.cursor()
        if not self.open:
            cursor.execute("BEGIN")
            self.open = True
            self._opened = time.perf_counter()
            self._done = self.loop.create_future()
            self.loop.call_soon(self.settle)
        database = cursor.connection
        changes = database.total_changes
        try:
            work(cursor, *args)
        except BaseException:
            if database.total_changes != changes or not database.in_transaction:
                self._redo()
            raise
        self._works.append((work, args))
        self.games.add(game_id)
        assert self._done is not None
        self._pending[game_id] = self._done
        if time.perf_counter() - self._opened > SPAN:
            # the writes before this one have waited long enough; this game's work goes
            # on after its write (its state may change before the work is done)
            self.settle(frozenset((game_id,)))

    def _redo(self) -> None:
        """Undo a failed write that changed rows (or whose failure ended the transaction,
        as SQLite does on a full disk or an I/O error): roll the transaction back, and
        begin it again with the writes made in it before, done again in order (each
        writes what it wrote: the same claims of the same revisions, the same rows).
        If that fails, the group is lost."""
        try:
            self._connection.rollback()
            self._cursor.execute("BEGIN")
            for work, args in self._works:
                work(self._cursor, *args)
        except Exception as again:
            self._lose(again)

    def settle(self, amid: frozenset[str] | None = NO_GAMES) -> None:
        """Commit the open transaction (if any), then release what waited for it.
        ``amid``: the games whose work is under way on the loop's thread (None: any
        game's may be), told to what is released (:meth:`busy`); none when the commit is
        made between two pieces of work (the callback queued on the loop)."""
        if not self.open:
            return
        try:
            self._commit()
        except BaseException as exc:
            self._lose(exc)
            return
        games, done, after, _, answers = self._close()
        self.commits += 1
        for game_id in games:
            if self._pending.get(game_id) is done:
                del self._pending[game_id]
        if done is not None and not done.done():
            done.set_result(None)
        self._amid = amid
        try:
            self._run((*after, self.on_committed, *answers))
        finally:
            self._amid = NO_GAMES

    def busy(self, game_id: str) -> bool:
        """Whether the game's work may be under way on the loop while the commit just
        made releases what waited for it: that commit came in the middle of the work
        (the game's own write, or another use of the database), so the game's state may
        already hold what the rest of the work will write — a message built from it
        now could show what is not stored. False between two pieces of work."""
        amid = self._amid
        return amid is None or game_id in amid

    @staticmethod
    def _run(thens: tuple[Then, ...] | list[Then]) -> None:
        for then in thens:
            try:
                then()
            except Exception:  # one waiter's failure must not keep the others waiting
                log.exception("dogfight: after a commit")

    def _commit(self) -> None:
        self._connection.commit()

    def _close(
        self,
    ) -> tuple[set[str], asyncio.Future[None] | None, list[Then], list[Then], list[Then]]:
        """No transaction open any more: what the closed one held (its games, its future,
        what waited for it, what to tell if it is dropped, the answers)."""
        held = self.games, self._done, self._after, self._dropped, self._answers
        self.open, self.games, self._done, self._works = False, set(), None, []
        self._after, self._dropped, self._answers = [], [], []
        return held

    def _lose(self, exc: BaseException) -> None:
        """The open transaction cannot be committed: roll it back, drop what waited for
        it, fail its waiters and tell ``on_lost``."""
        with contextlib.suppress(Exception):
            self._connection.rollback()
        games, done, _, dropped, _ = self._close()
        if done is not None and not done.done():
            done.set_exception(GroupLost(f"{type(exc).__name__}: {exc}"))
            done.add_done_callback(lambda f: f.exception())  # retrieved even if unawaited
        self._run(dropped)
        self.on_lost(games, exc)

    def settle_here(self) -> None:
        """Commit the open transaction first when called on the loop's thread (before
        another use of the database there)."""
        if self.open and self.here():
            self.settle(None)  # maybe in the middle of some game's work

    def pending(self, game_id: str) -> asyncio.Future[None] | None:
        """What the game's last writes on the loop wait for: None once they are
        committed, else a future done at the commit (with :class:`GroupLost` if they
        could not be, until a waiter of :meth:`stored` is told)."""
        return self._pending.get(game_id)

    async def stored(self, game_id: str) -> None:
        """Wait until the game's writes in the open transaction (if any) are committed;
        :class:`GroupLost` if they could not be."""
        done = self._pending.get(game_id)
        if done is None:
            return
        try:
            await asyncio.shield(done)
        finally:
            if done.done() and self._pending.get(game_id) is done:
                del self._pending[game_id]  # lost: told (a later request sees it reloaded)

    def hold(self, release: Then, dropped: Then | None = None) -> bool:
        """Keep ``release`` (messages handed over, a test's crash) until the open
        transaction is committed, if one is open and the caller is on the loop's thread
        (True); else False: the caller goes on at once. If the commit fails, ``release``
        is dropped and ``dropped`` (if given) called instead."""
        if not self._keep(self._after, release):
            return False
        if dropped is not None:
            self._dropped.append(dropped)
        return True

    def then(self, answer: Callable[[], None]) -> bool:
        """:meth:`hold` for a request's answer: run after the commit once every message
        it released is handed over (``on_committed``), so that a message released
        after this answer's own is not sent before it is put in place of an older."""
        return self._keep(self._answers, answer)

    def _keep(self, kept: list[Then], then: Then) -> bool:
        if not self.open or not self.here():
            return False
        kept.append(then)
        return True

    def close(self) -> None:
        """Commit what is open and let the connection go."""
        self.settle_here()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._cursor.close()
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = self._cursor = None
