"""Live updates: every open page of a seat holds a WebSocket; after each change to a game
each connection is sent the seat's view with the steps it has not been sent yet — or,
when neither the table nor the steps changed (a seat's plan is in, the others are still
awaited), a small update: the summary, the seat and its stage.

The views are built where the change was made (on a worker thread, with the game
locked) and put in each connection's outbox; one sender task per connection empties it.
So a change never waits for a slow client: a client that lets :data:`OUTBOX` views pile
up, or does not take one within :data:`SEND_TIMEOUT` seconds, is disconnected (its page
reconnects and asks for what it missed with ``since``). The send timeout is kept by one
watchdog for every connection (:meth:`Hub.watch`), not by a timer per message: under a
burst the timers cost more than the sends.

A light game's work runs on the event loop (:mod:`dogfight.server.play.workers`); right after
it, :meth:`Hub.flush` starts sending the game's new messages at once instead of leaving
them to the senders. In a burst every submission is already queued on the loop before
the first sender task runs, so every game's results went out only after the whole
burst's work: now each game's go out as soon as its turn is resolved (the clients read
them while the server works on the next games). A send that cannot finish at once (the
client's socket is full) goes on in a task of its own: nothing waits for a slow client.

On SQLite a light game's writes share the loop's open transaction
(:mod:`dogfight.server.db.commits`), and nothing of them may be sent before it is
committed: while it is open, a change made on the loop only marks the game's
connections due, and each due connection's message is built when the commit releases
them (:meth:`Hub.attach`). So a connection is built one message per commit — in a burst
both seats' plans of a duel often land in one, and each connection was built an update
after the first plan, then the view after the second, and the update thrown away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import types
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from dogfight.output import encoding
from dogfight.server.db.commits import LoopCommits
from dogfight.server.play import views
from dogfight.server.play.games import LiveGame

log = logging.getLogger("dogfight.server")

OUTBOX = 32
"""Views waiting to be sent to one connection before it counts as too slow."""

SEND_TIMEOUT = 10.0
"""Seconds one view may take to send before the connection counts as too slow."""


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seat: str
    sent: int = 0
    """Steps already put in the outbox (only touched with the game locked)."""
    watch_delay: int | None = None
    """A spectator's connection (:mod:`dogfight.server.web.watch`): the turns it sees the
    game behind (0 or 1); None: a seat's."""
    version: int = -1
    """The game's version of the last view queued."""
    state: object = None
    """The game's state object when the last whole view was queued: while it is the
    same and no step came, a change is sent as an update (who is awaited, the stage)."""
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=OUTBOX))
    close_code: int = 1013
    """The code the connection is closed with when its outbox ends (1013: too slow)."""
    sending: float | None = None
    """When the message being sent was handed to the socket (the loop's clock), or None:
    while it is set no other send begins (the messages go out one at a time, in the
    order they were queued)."""
    sender: asyncio.Task[None] | None = None
    """The task emptying the outbox (:meth:`Hub.pump`)."""
    finishing: asyncio.Task[None] | None = None
    """A send begun by :meth:`Hub.flush` that could not finish at once, going on."""
    waiting: bool = False
    """Whether the sender has taken a message from the outbox and waits for ``finishing``
    before it sends it (no other send may begin meanwhile)."""
    ready_update: bool = False
    """Whether the last of ``ready`` is an update (dropped when another message comes
    after it before it is sent: an update's parts are all in the next message)."""
    ready: list[str] = field(default_factory=list)
    """Views a light game's work queued on the event loop, not yet in the outbox:
    :meth:`Hub.flush`, right after the work, sends them; what it does not send, a
    callback queued with the first of them puts in the outbox (after everything older).
    Put in the outbox at once, each woke the sender for nothing (flush took it back)."""


class Hub:
    """Open connections by game."""

    def __init__(self) -> None:
        self.games: dict[str, set[Connection]] = {}
        self._lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread: int | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self.commits: LoopCommits | None = None
        """The loop's open transaction (SQLite: :meth:`attach`)."""
        self._due: dict[Connection, LiveGame] = {}
        """Connections whose game changed on the loop while its transaction was open, in
        order: each is built its message when the commit releases it (:meth:`_release`)."""
        self._holding = False
        """Whether :meth:`_release` waits for the open transaction's commit."""
        self._left: dict[Connection, LiveGame] = {}
        """Connections due at a commit made in the middle of their game's work: left for
        the end of that work (:meth:`_release`)."""
        self._retrying = False
        """Whether :meth:`_retry` is queued on the loop."""
        self._released: dict[Connection, None] = {}
        """Connections given messages by a commit (:meth:`send_released`), in order."""

    def attach(self, commits: LoopCommits) -> None:
        """Hold the messages of changes made on the loop until ``commits`` (the loop's
        open transaction) is committed, and send them right after it."""
        self.commits = commits
        commits.on_committed = self.send_released

    def add(self, game_id: str, connection: Connection) -> None:
        with self._lock:
            self.games.setdefault(game_id, set()).add(connection)

    def remove(self, game_id: str, connection: Connection) -> None:
        with self._lock:
            held = self.games.get(game_id)
            if held is not None:
                held.discard(connection)
                if not held:
                    del self.games[game_id]

    def connections(self, game_id: str) -> list[Connection]:
        with self._lock:
            return list(self.games.get(game_id, ()))

    def queue(self, game: LiveGame, connection: Connection) -> None:
        """Queue the connection its message (if the game changed since its last one),
        after the game's work. On a worker thread it is built now and posted to the loop;
        on the loop (a light game's work) it is put in ``ready`` — or, while the loop's
        transaction is open, only marked due: built when the commit releases it."""
        on_loop = threading.get_ident() == self.loop_thread
        with game.lock:
            if connection.version == game.version:
                return
            if on_loop:
                if self._left:
                    self._left.pop(connection, None)  # queued again by its game's work
                if self._due_at_commit(game, connection):
                    return
            text, update = self._build(game, connection)
            if not on_loop:
                if self.loop is not None:
                    # posted with the game locked: the messages of one connection built
                    # on different threads reach the loop in the order they were built
                    self.loop.call_soon_threadsafe(self.post, connection, text)
                return
        self._ready(connection, text, update)

    @staticmethod
    def _build(game: LiveGame, connection: Connection) -> tuple[str, bool]:
        """The connection's next message (the game locked, changed since the last one)
        and whether it is an update: the seat's view with the steps it has not been
        sent, or an update when the table and the steps are as last sent (only who is
        awaited changed). A spectator is sent the view of no seat."""
        if connection.watch_delay is not None:
            text = views.watch_view_json(game, connection.sent, connection.watch_delay)
            connection.sent = views.watched(game, connection.watch_delay)
            connection.version = game.version
            return text, False
        if connection.state is game.state and connection.sent == len(game.steps):
            text, update = views.seat_update_json(game, connection.seat), True
        else:
            text = views.seat_view_json(game, connection.seat, since=connection.sent)
            update = False
            connection.state = game.state
        connection.sent = len(game.steps)
        connection.version = game.version
        return text, update

    def _due_at_commit(self, game: LiveGame, connection: Connection) -> bool:
        """Mark the connection due at the open transaction's commit (True), if one is
        open on the loop: what the game's work wrote is not stored yet."""
        if not self._holding:
            commits = self.commits
            if commits is None or not commits.hold(self._release, self._drop_due):
                return False
            self._holding = True
        self._due[connection] = game
        return True

    def _release(self) -> None:
        """At the commit: build each due connection its message, from the game as it is
        now (everything the loop changed in it is stored), for :meth:`send_released`.

        A game whose work the commit came in the middle of (``LoopCommits.busy``) is not
        read now: its connections are left for the end of that work (which queues them
        again), else for :meth:`_retry`. A game that is not light any more (its work
        runs on the threads now) is built for on a thread, as its work's messages are:
        the loop never waits for a game's lock."""
        self._holding = False
        due, self._due = self._due, {}
        commits, loop = self.commits, self.loop
        assert commits is not None and loop is not None
        last: LiveGame | None = None
        busy = light = False
        for connection, game in due.items():
            if game is not last:  # a game's connections come one after the other
                last, busy, light = game, commits.busy(game.id), game.light
            if busy:
                self._left[connection] = game
            elif light:
                self._build_ready(game, connection)
            else:
                loop.run_in_executor(None, self.queue, game, connection)
        if self._left and not self._retrying:
            self._retrying = True
            loop.call_soon(self._retry)

    def _retry(self) -> None:
        """Build the connections a commit left (:meth:`_release`) their messages, now
        that their games' work is over: at the next commit if a transaction is open,
        else at once (everything the loop changed is stored)."""
        self._retrying = False
        left, self._left = self._left, {}
        for connection, game in left.items():
            with game.lock:
                if connection.version == game.version or self._due_at_commit(game, connection):
                    continue
            self._build_ready(game, connection)
        self.send_released()

    def _build_ready(self, game: LiveGame, connection: Connection) -> None:
        """Build the connection's message on the loop and hand it over for
        :meth:`send_released` (a view that cannot be built closes the connection: its
        page reconnects)."""
        try:
            with game.lock:
                if connection.version == game.version:
                    return
                text, update = self._build(game, connection)
        except Exception:
            log.exception("dogfight: a view of game %s", game.id)
            connection.close_code = 1011
            self.post(connection, None)
            return
        self._ready(connection, text, update, True)

    def _drop_due(self) -> None:
        """The transaction could not be committed: nothing due at its commit is sent
        (the pages of its games are told and closed, ``LoopCommits.on_lost``)."""
        self._due.clear()
        self._holding = False

    def _ready(
        self, connection: Connection, text: str, update: bool, released: bool = False
    ) -> None:
        """Add a message built on the loop to the connection's ``ready`` (in place of an
        update still there: a seat whose opponent's plan and the turn's result came in
        one pass of the loop is sent the result alone); ``released`` by a commit: sent
        by :meth:`send_released` once the commit has released all it held."""
        ready = connection.ready
        if not ready:
            self.loop.call_soon(self._settle, connection)  # type: ignore[union-attr]
        elif connection.ready_update:
            ready.pop()
        ready.append(text)
        connection.ready_update = update
        if released:
            self._released[connection] = None

    def send_released(self) -> None:
        """Send now what the commit just made released (``hold``), connection by
        connection as :meth:`flush` does."""
        released, self._released = self._released, {}
        for connection in released:
            self._flush_one(connection)

    def fan_out(self, game: LiveGame) -> None:
        """Queue every connection of the game its new view (on a worker thread)."""
        for connection in self.connections(game.id):
            self.queue(game, connection)

    def post(self, connection: Connection, text: str | None) -> None:
        """Put a message in the outbox (on the event loop), after any view still in
        ``ready``; None closes the connection."""
        if connection.ready:
            self._settle(connection)
        self._put(connection, text)

    def _settle(self, connection: Connection) -> None:
        """Put the connection's ``ready`` views in its outbox (its sender sends them)."""
        ready, connection.ready = connection.ready, []
        for text in ready:
            self._put(connection, text)

    def _put(self, connection: Connection, text: str | None) -> None:
        try:
            connection.outbox.put_nowait(text)
        except asyncio.QueueFull:
            # too slow: drop it (the sender closes it), its page reconnects with since=
            while not connection.outbox.empty():
                connection.outbox.get_nowait()
            connection.outbox.put_nowait(None)

    def flush(self, game_id: str) -> None:
        """Send now, on the event loop, what the game's connections have in their
        outboxes and ``ready`` (after a light game's work, which queued it), message
        after message while each send finishes at once; one that cannot (the client's
        socket is full) goes on in a task and the connection's sender sends the rest
        after it."""
        for connection in self.connections(game_id):
            self._flush_one(connection)

    def _flush_one(self, connection: Connection) -> None:
        """:meth:`flush` of one connection."""
        outbox = connection.outbox
        while not outbox.empty() and _idle(connection):
            text = outbox.get_nowait()
            if text is None:  # closing: the sender's work
                outbox.put_nowait(None)
                break
            rest = eager(self._send(connection, text))
            if rest is not None:
                connection.finishing = rest
                break
        ready = connection.ready
        if not ready:
            return
        if not outbox.empty() or not _idle(connection):
            self._settle(connection)  # behind what waits: the sender's work
            return
        connection.ready = []
        for i, text in enumerate(ready):
            rest = eager(self._send(connection, text))
            if rest is not None or not outbox.empty():  # waiting, or failed (closing)
                if rest is not None:
                    connection.finishing = rest
                for later in ready[i + 1 :]:
                    self._put(connection, later)
                break

    async def _send(self, connection: Connection, text: str) -> None:
        """Send one message (the connection idle: :func:`_idle`); a send that fails ends
        the connection (its sender closes it)."""
        connection.sending = asyncio.get_running_loop().time()
        try:
            await connection.websocket.send_text(text)
        except Exception:
            self.post(connection, None)
        finally:
            connection.sending = None

    async def pump(self, game_id: str, connection: Connection) -> None:
        """Send the connection's outbox in order until it is closed or too slow (the
        watchdog then cancels this task)."""
        loop = asyncio.get_running_loop()
        connection.sender = asyncio.current_task()
        self._watching(loop)
        try:
            while True:
                text = await connection.outbox.get()
                if text is None:
                    break
                finishing = connection.finishing
                if finishing is not None and not finishing.done():
                    # after the send begun by flush(), which goes on in a task
                    connection.waiting = True
                    try:
                        await asyncio.wait((finishing,))
                    finally:
                        connection.waiting = False
                connection.sending = loop.time()
                await connection.websocket.send_text(text)
                connection.sending = None
        except (Exception, asyncio.CancelledError):
            pass
        self.remove(game_id, connection)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await connection.websocket.close(code=connection.close_code)

    async def listen(
        self, game_id: str, connection: Connection, refuse: Callable[[str], Awaitable[None]]
    ) -> None:
        """Send the connection its messages (:meth:`pump`) and answer its ``"ping"``s
        until it closes; anything else it sends is ``refuse``d (with the reason)."""
        sender = asyncio.create_task(self.pump(game_id, connection))
        try:
            while True:
                message = await connection.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message.get("text") == "ping":
                    self.post(connection, encoding.text({"type": "pong"}))
                    continue
                await refuse("after the first message only 'ping' is expected")
                return
        finally:
            self.remove(game_id, connection)
            sender.cancel()

    def _watching(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._watchdog is None or self._watchdog.done():
            self._watchdog = loop.create_task(self.watch())

    async def watch(self, every: float = 1.0) -> None:
        """Cancel the sender of every connection whose message has been sending for
        more than :data:`SEND_TIMEOUT` seconds (its client does not read); ends when no
        connection is left."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(every, SEND_TIMEOUT))
            with self._lock:
                held = [c for conns in self.games.values() for c in conns]
            if not held:
                return
            late = loop.time() - SEND_TIMEOUT
            for connection in held:
                began = connection.sending
                if began is not None and began < late:
                    for task in (connection.sender, connection.finishing):
                        if task is not None:
                            task.cancel()

    def abandon(self, game_id: str, message: dict[str, Any], code: int) -> None:
        """:meth:`close_all`, every message not yet sent to the game's pages dropped
        first (they show what could not be stored)."""
        self._close_pages(game_id, message, code, drop=True)

    async def close_all(self, game_id: str, message: dict[str, Any], code: int) -> None:
        """Send every page of the game ``message`` and close it with ``code`` (after
        what is already in its outbox)."""
        self._close_pages(game_id, message, code, drop=False)

    def _close_pages(self, game_id: str, message: dict[str, Any], code: int, drop: bool) -> None:
        with self._lock:
            held = list(self.games.pop(game_id, ()))
        for connection in held:
            if drop:
                connection.ready = []
                while not connection.outbox.empty():
                    connection.outbox.get_nowait()
            connection.close_code = code
            self.post(connection, encoding.text(message))
            self.post(connection, None)


def _idle(connection: Connection) -> bool:
    """Whether a send may begin on the connection: none is under way (the sender's or
    one :meth:`Hub.flush` began), and the sender holds no message waiting for one.
    (Everything that sends runs on the event loop: flags, not a lock, whose coroutines
    cost a third of a message's sending.)"""
    return connection.sending is None and not connection.waiting


def eager(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` now up to its first wait: None if it finished, else the task it goes
    on in. (A task would start only after everything already queued on the loop: in a
    burst, every other game's submissions.)"""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_finish(coro, waiting))


async def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    await _resume(coro, waiting)


@types.coroutine
def _resume(coro: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """Go on with a coroutine stopped at its first wait (``waiting``: what it yielded to
    the loop, a future), as ``await`` would have: what the task sends or throws in is
    passed on to it."""
    while True:
        try:
            sent = yield waiting
        except BaseException as exc:  # the task's cancellation, passed on
            try:
                waiting = coro.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = coro.send(sent)
            except StopIteration:
                return
