"""All games of one database: loaded on first use, kept in memory, created from a
checked setup (tokens shown once, stored as hashes)."""

from __future__ import annotations

import secrets
import threading
import time

from dogfight import ENGINE_VERSION
from dogfight.catalog.loader import Catalog
from dogfight.server import status
from dogfight.server.errors import ApiError, GameFailed, StepError
from dogfight.server.game_rows import record_of
from dogfight.server.games import LiveGame
from dogfight.server.records import Json, slug
from dogfight.server.seats import new_game_id, new_token, token_hash
from dogfight.server.store import Store
from dogfight.server.tables import GameRow, SeatRow


class GameService:
    """All games of one database, loaded on first use and kept in memory."""

    def __init__(self, store: Store, catalog: Catalog, budget: float | None = None) -> None:
        self.store = store
        self.catalog = catalog
        self.budget = budget
        """Each computer player's time budget per step (None: ``DOGFIGHT_BOT_BUDGET``)."""
        self.games: dict[str, LiveGame] = {}
        self.lock = threading.Lock()
        status.ensure_table(store)

    def get(self, game_id: str) -> LiveGame:
        """The game, loaded on first use; 404 if there is none, 409 if it failed."""
        with self.lock:
            game = self.games.get(game_id)
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
        with self.lock:
            game = self.games.setdefault(game_id, loaded)
        game.advance()
        return game

    def resume_all(self) -> int:
        """Load every unfinished game and resolve what can be (after a restart); a game
        that fails is marked so and skipped. Returns how many games are running."""
        running = 0
        for game_id in self.store.game_ids(unfinished_only=True):
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
    ) -> tuple[LiveGame, dict[str, str]]:
        """Make a game from a checked setup and seats (label, side, vehicles, bot);
        returns it with each seat's token (shown once, stored only as a hash). Without
        a ``seed`` the server draws a 62-bit secret one (too many to try them all
        against the damage cards a seat has seen)."""
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
        self.store.create_game(row, rows, [status.status_row(game_id, analysis)])
        try:
            made = LiveGame(record, self.catalog, self.store, self.budget, analysis)
        except StepError as exc:
            failure = status.mark_failed(self.store, game_id, exc.turn, exc.phase, exc.cause)
            raise GameFailed(failure) from None
        with self.lock:
            game = self.games.setdefault(game_id, made)
        game.advance()
        return game, tokens
