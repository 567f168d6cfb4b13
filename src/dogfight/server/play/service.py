"""All games of one database: loaded on first use, kept in memory while in use (the
least recently used idle ones leave it past a bound), created from a checked setup
(tokens shown once, stored as hashes).

A game in memory (:class:`LiveGame`) holds every state of its replay: about a megabyte
for a duel a few turns in. Anyone may list the games and ask for each, so the games held
are bounded: past :data:`LIVE_ENV` (default :data:`DEFAULT_LIVE`) the least recently
used *idle* games are dropped (each game loaded looks at :data:`WALK` of those held at
most), and come back from the database (replayed) when next asked for. A game is idle
when nothing is under way on it or waiting for it: no WebSocket connected to it, no work
of it running or queued (a request, a computer player thinking, a turn being resolved:
the server says so, :attr:`GameService.in_use`), its lock free, nothing written and not
yet committed, and no step due that waits only for computer players. Everything a game
holds is stored (plans, answers, decisions, a decision pending, half the plans of a
turn): dropped and loaded again it is the same game. A request that only reads a game's
summary (``GET /api/games/{id}``) reads the game held, or a copy loaded for it and then
dropped: it keeps no game in memory.

With several processes on one PostgreSQL database a game dropped here simply stops
hearing other processes' notifications; loaded again it reads what they wrote. A seat's
request first checks the game's stored revision (:meth:`GameService.fresh`)."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from dogfight import ENGINE_VERSION
from dogfight.catalog.loader import Catalog
from dogfight.server.db import status
from dogfight.server.db.clock_rows import ClockRow
from dogfight.server.db.game_rows import record_of
from dogfight.server.db.records import Json, slug
from dogfight.server.db.store import Store
from dogfight.server.db.tables import Base, GameRow, SeatRow
from dogfight.server.db.watch_rows import WatchRow
from dogfight.server.errors import ApiError, GameFailed, StepError
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seats import new_game_id, new_token, token_hash

LIVE_ENV = "DOGFIGHT_LIVE_GAMES"
"""Games a server keeps in memory at most when they are idle (see the module's text)."""

DEFAULT_LIVE = 32
"""The bound without :data:`LIVE_ENV`: some 4 MB of duels a few turns in (an idle game
asked for again costs its replay, a few milliseconds); ``dogfight bench --server``
measures a server that touched 10,000 stored games against one with 200 live games
(``docs/web.md``). Games in use are kept whatever their number."""


def _libc(name: str) -> Callable[..., int] | None:
    """A function of glibc (None elsewhere: another C library keeps its own ways)."""
    try:
        import ctypes

        found: Callable[..., int] = getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    return found


_TRIM = _libc("malloc_trim")
_MALLOPT = _libc("mallopt")
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter: how many allocator arenas the process may make."""


def one_arena() -> None:
    """Let every thread of the server allocate from one glibc arena (called before its
    worker threads start). By default each thread that loads games gets an arena of its
    own, which keeps what that thread freed: a server that loaded thousands of games on
    eight workers ended some 3 to 8 MB above one holding 200 live games; with one arena
    it ends below (``dogfight bench --server``, ``docs/web.md``). The interpreter's
    lock serialises most allocations anyway."""
    if _MALLOPT is not None:
        _MALLOPT(M_ARENA_MAX, 1)


WALK = 64
"""Games held that dropping the idle ones past the bound looks at, at most, per game
loaded (:meth:`GameService._evict`)."""

TRIM_EVERY = 16
"""Games dropped between two :func:`give_back` calls at most (a call walks the
allocator's arenas: well under a millisecond next to a game's replay)."""


def give_back() -> None:
    """Give the memory the allocator holds free back to the system (glibc): the games
    dropped from memory are freed, but glibc keeps what each thread freed in that
    thread's arena, and a server whose eight workers loaded thousands of games one
    after the other held some 40 MB more than with 200 games live (``dogfight bench
    --server``). Asked after every :attr:`GameService.live` games dropped: a few
    milliseconds."""
    if _TRIM is not None:
        _TRIM(0)


def live_games() -> int:
    """The bound from ``DOGFIGHT_LIVE_GAMES`` (a whole number >= 1), else the default."""
    try:
        value = int(os.environ.get(LIVE_ENV, DEFAULT_LIVE))
    except ValueError:
        return DEFAULT_LIVE
    return value if value >= 1 else DEFAULT_LIVE


class GameService:
    """All games of one database, loaded on first use and kept in memory while in use
    (at most ``live`` idle ones: see the module's text)."""

    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        budget: float | None = None,
        live: int | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.budget = budget
        """Each computer player's time budget per step (None: ``DOGFIGHT_BOT_BUDGET``)."""
        self.live = live_games() if live is None else max(1, live)
        """Games kept in memory at most (past it the least recently used idle ones go)."""
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        """The games in memory, the least recently used first."""
        self.in_use: Callable[[str], bool] = lambda game_id: False
        """Whether the server has something under way on a game or waiting for it (a
        WebSocket connected, a request or a computer player's work running or queued):
        such a game is never dropped (set by :func:`dogfight.server.web.app.create_app`)."""
        self.lock = threading.Lock()
        self.dropped = 0
        """Games dropped from memory so far (every :attr:`live` of them, the memory
        freed is given back: :func:`give_back`)."""

    def get(self, game_id: str, keep: bool = True) -> LiveGame:
        """The game, loaded on first use; 404 if there is none, 409 if it failed.
        ``keep`` False (a request that only reads the game's summary): a game not in
        memory is loaded for the caller alone and not kept, one in memory is not marked
        as used."""
        with self.lock:
            game = self.games.get(game_id)
            if game is not None and keep:
                self.games.move_to_end(game_id)
        if game is not None:
            if game.failure is not None:
                raise GameFailed(game.failure)
            return game
        # loaded (every step replayed) without holding up other games
        record = self.store.load(game_id)
        if record is None:
            raise ApiError(404, f"no game {game_id!r}", "game_id")
        # the flags read with the record, else (SQLite) asked for
        failed = (
            status.failure(self.store, game_id) if record.flags is None or record.flags[1] else None
        )
        if failed is not None:
            raise GameFailed(failed)
        try:
            loaded = LiveGame(record, self.catalog, self.store, self.budget)
        except StepError as exc:
            failure = status.mark_failed(self.store, game_id, exc.turn, exc.phase, exc.cause)
            raise GameFailed(failure) from None
        if not keep:
            with self.lock:
                self._dropped_one()  # (the copy's memory is given back with the next)
            return loaded
        game = self._hold(loaded)
        game.advance()
        return game

    def _hold(self, loaded: LiveGame) -> LiveGame:
        """Keep a game just loaded or made (unless another thread loaded it first: that
        one is kept and returned), the most recently used, and drop the least recently
        used idle games past the bound."""
        with self.lock:
            game = self.games.setdefault(loaded.id, loaded)
            self.games.move_to_end(loaded.id)
            self._evict(game)
        return game

    def _evict(self, keep: LiveGame) -> None:
        """Drop idle games, the least recently used first, until at most :attr:`live`
        are held (``keep``, the game being handed out, stays), looking at
        :data:`WALK` games at most (or :attr:`live`, if more). Called with the lock.

        A game in use that the walk meets is put last, as the most recently used (it
        is), so the next walk goes on past it. Before, when more games were in use than
        the bound (500 duels' sockets open and quiet, players between turns), every
        game loaded walked past all of them to find the one idle game to drop: 0.8 ms of
        a visit's 4.4 (``dogfight bench --server --open``, ``docs/web.md``). Now an idle
        game beyond the walk's reach is dropped by a later load, after at most (games in
        use) / :data:`WALK` of them."""
        excess = len(self.games) - self.live
        for _ in range(min(len(self.games), max(WALK, self.live))):
            if excess <= 0:
                break
            game_id, game = next(iter(self.games.items()))
            if game is keep or not self._idle(game):
                self.games.move_to_end(game_id)
                continue
            del self.games[game_id]
            excess -= 1
            self._dropped_one()

    def _dropped_one(self) -> None:
        """A game left memory (dropped, or a copy loaded for one request): every
        :attr:`live` (at most :data:`TRIM_EVERY`) of them the memory freed is given back
        (:func:`give_back`)."""
        self.dropped += 1
        if self.dropped % min(self.live, TRIM_EVERY) == 0:
            give_back()

    def _idle(self, game: LiveGame) -> bool:
        """Whether nothing is under way on the game or waiting for it (see the module's
        text): it may leave memory and be loaded again when asked for."""
        if self.in_use(game.id):
            return False
        group = self.store.group
        if group is not None and group.pending(game.id) is not None:
            return False  # written on the loop, not committed yet
        if not game.lock.acquire(blocking=False):
            return False  # a turn being resolved, a computer player thinking...
        try:
            return game.failure is not None or not (game.unsaved or game.more_to_do())
        finally:
            game.lock.release()

    def fresh(self, game: LiveGame) -> None:
        """Catch up with what other processes stored since the game was read (several
        processes on one PostgreSQL database): the game's stored revision is looked up
        (one read of its row by primary key) and, if it is newer than the one held, the
        rows stored since are read. Asked before a seat's request is answered: the
        notification of another process's write may come after the seat's next
        request, which must see the write its seat made there (issue 28)."""
        if not self.store.notifies or game.failure is not None:
            return
        stored = self.store.revision(game.id)
        if stored is None or stored <= game.revision:
            return
        with game.lock:
            if stored > game.revision:
                game.reload()

    def resume_all(self) -> int:
        """Load every unfinished game that may have work to do without a person
        (:meth:`Store.games_to_resume`: a computer seat, or inputs stored after its last
        step) and resolve what can be (after a restart); a game that fails is marked so
        and skipped. The others wait for their people and are loaded when asked for.
        Returns how many games are running."""
        running = 0
        for game_id in self.store.games_to_resume():
            try:
                self.get(game_id)
            except GameFailed:
                continue
            running += 1
        return running

    def create(
        self,
        setup: Json,
        title: str,
        seats: list[tuple[str, str, list[str], str | None]],
        seed: int | None,
        analysis: bool = False,
        clock: int = 0,
        watch: tuple[str, int] | None = None,
    ) -> tuple[LiveGame, dict[str, str]]:
        """Make a game from a checked setup and seats (label, side, vehicles, bot);
        returns it with each seat's token (shown once, stored only as a hash). Without
        a ``seed`` the server draws a 62-bit secret one (too many to try them all
        against the damage cards a seat has seen). ``watch``: the watch token's hash and
        the spectators' delay (:mod:`dogfight.server.db.watch_rows`)."""
        seed = secrets.randbits(62) if seed is None else seed
        game_id = new_game_id()
        tokens: dict[str, str] = {}
        rows: list[SeatRow] = []
        taken: set[str] = set()
        for position, (label, side, vehicles, bot) in enumerate(seats):
            seat_id = slug(label, taken)
            taken.add(seat_id)
            token = new_token()
            tokens[seat_id] = token
            rows.append(
                SeatRow(
                    game_id=game_id,
                    seat=seat_id,
                    position=position,
                    label=label,
                    side=side,
                    vehicles=vehicles,
                    token_hash=token_hash(token),
                    bot=bot,
                    auto_fire=False,
                )
            )
        row = GameRow(
            id=game_id,
            title=title,
            created=time.time(),
            seed=seed,
            setup=setup,
            engine=ENGINE_VERSION,
            over=False,
        )
        # held at once from what is stored (not read back and replayed)
        record = record_of(row, rows)
        extra: list[Base] = [status.status_row(game_id, analysis)]
        if clock:  # the turn clock's hours (server/play/turn_clock.py)
            extra.append(ClockRow(game_id=game_id, hours=clock))
        if watch is not None:
            extra.append(WatchRow(game_id=game_id, token_hash=watch[0], delay=watch[1]))
        self.store.create_game(row, rows, extra)
        try:
            made = LiveGame(record, self.catalog, self.store, self.budget, analysis)
        except StepError as exc:
            failure = status.mark_failed(self.store, game_id, exc.turn, exc.phase, exc.cause)
            raise GameFailed(failure) from None
        game = self._hold(made)
        game.advance()
        return game, tokens
