"""Making a game from a request: a preset or a situation checked into seats, the answer
holding each seat's private link (shown only here), a rematch of a finished game, and the
limit of new games a minute from one address.

The routes (``POST /api/games``, ``.../rematch``, the campaigns' and series' missions)
live in :mod:`dogfight.server.web.app` and hand the work here; what a made game does next
(its computer players' first moves) stays with the app, which schedules it.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from dogfight.catalog.loader import Catalog
from dogfight.server.db import clock_rows
from dogfight.server.db.watch_rows import watch_of
from dogfight.server.errors import ApiError
from dogfight.server.play import views
from dogfight.server.play.games import LIGHT_VEHICLES, LiveGame
from dogfight.server.play.seating import Table, check_makes, seats_of, table_of
from dogfight.server.play.seats import new_token, token_hash
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.schemas import CreateGame
from dogfight.server.web.limits import Limits, RateLimit

Json = dict[str, Any]

Made = tuple[Json, LiveGame, bool]
"""A new game's answer, the game, and whether it goes on by itself (its computer
players act first)."""


class GameMaker:
    """Games made for the server's requests (one per application)."""

    def __init__(self, cat: Catalog, service: GameService, limits: Limits, site: str) -> None:
        self.cat = cat
        self.service = service
        self.limits = limits
        self.site = site
        """What every link written starts with (``--public-url``, or nothing: a path)."""
        self.new_games = RateLimit(limits.games_per_minute)
        self._ready: dict[str, Json] | None = None
        self.preset_tables: dict[str, Table] = {}
        """Each preset's setup checked once (not once per game made from it)."""

    def ready_made(self) -> dict[str, Json]:
        """The presets, worked out once (each places and checks a whole scenario)."""
        if self._ready is None:
            self._ready = presets(self.cat)
        return self._ready

    def new_game(self, body: CreateGame) -> Json:
        """Make a game; the answer holds each seat's private link (shown only here)."""
        ready = self.ready_made()
        if body.seed is not None and not body.analysis:
            raise ApiError(
                422,
                "a chosen seed lets anyone predict the damage cards: give it only for an open "
                "analysis game ('analysis': true); otherwise the server keeps its own secret",
                "seed",
            )
        if (body.preset is None) == (body.situation is None):
            raise ApiError(422, "give either 'preset' or 'situation'", "preset")
        if body.preset is not None:
            if body.preset not in ready:
                raise ApiError(
                    422, f"no preset {body.preset!r}; presets: {', '.join(ready)}", "preset"
                )
            setup = ready[body.preset]["setup"]
            title = body.title or ready[body.preset]["title"]
            table = self.preset_tables.get(body.preset)
            if table is None:
                table = self.preset_tables[body.preset] = table_of(setup, self.cat)
        else:
            assert body.situation is not None
            setup = body.situation
            title = body.title or (
                str(setup.get("scenario")) if setup.get("scenario") else "Custom game"
            )
            table = table_of(setup, self.cat)
        seats = seats_of(body, table, self.limits.max_vehicles)
        watch = new_token()
        game, tokens = self.service.create(
            setup,
            title,
            seats,
            body.seed,
            body.analysis,
            body.clock,
            (token_hash(watch), body.watch_delay),
        )
        return self.made_answer(game, tokens, watch)

    def made_answer(self, game: LiveGame, tokens: dict[str, str], watch: str) -> Json:
        """A new game's answer: its summary, each seat's private link (shown only here),
        the hot-seat link holding every person's seat and the spectators' watch link
        (``watch``: its token, shown only here too)."""
        links = []
        for seat in sorted(game.seats.values(), key=lambda s: s.position):
            token = tokens[seat.id]
            links.append(
                {
                    "id": seat.id,
                    "label": seat.label,
                    "side": seat.side,
                    "vehicles": sorted(game.seat_vehicles(seat.id)),
                    "computer": seat.bot,
                    "token": token,
                    "link": f"{self.site}/play/{game.id}#seat={seat.id}&token={token}",
                }
            )
        humans = [s for s in links if not s["computer"]]
        hotseat = ",".join(f"{s['id']}:{s['token']}" for s in humans)
        return {
            "game": views.summary(game),
            "seats": links,
            "hotseat_link": f"{self.site}/play/{game.id}#seats={hotseat}",
            "watch_link": f"{self.site}/watch/{game.id}#token={watch}",
        }

    def make(self, body: CreateGame) -> Made:
        """Make a game: asked here, as the game is made, whether it goes on by itself,
        instead of in a task handed to the game's worker for every new game."""
        made = self.new_game(body)
        game = self.service.get(made["game"]["id"])
        return made, game, game.more_to_do()

    def light(self, body: CreateGame) -> bool:
        """Whether a new game is light (:attr:`LiveGame.light`) and cheap to make: a
        preset already checked, with few vehicles, played by people only."""
        table = self.preset_tables.get(body.preset) if body.preset is not None else None
        return (
            table is not None
            and not self.service.store.notifies
            and len(table.sides) <= LIGHT_VEHICLES
            and not table.automated
            and not body.computer
            and (body.seats is None or all(spec.bot is None for spec in body.seats))
        )

    def rematch(self, game_id: str, seat_id: str, token: str | None) -> Made:
        """A finished game played again by a seat of it: the same setup, seats and
        computer players, turn clock, a new secret seed."""
        old = self.service.get(game_id, keep=False)  # read only: a finished game stays idle
        self.service.fresh(old)
        old.seat(seat_id, token)
        if not old.state.over:
            raise ApiError(409, "the game is not over: a rematch follows a finished game", None)
        seats = [
            (s.label, s.side, list(s.vehicles), s.bot)
            for s in sorted(old.seats.values(), key=lambda s: s.position)
        ]
        for label, _side, _vehicles, bot in seats:
            if bot is not None:  # its data may have gone since (a learned bot's weights)
                check_makes(bot, label, f"computer.{label}")
        old_watch = watch_of(self.service.store, game_id)
        watch = new_token()
        delay = 0 if old_watch is None else old_watch[1]
        game, tokens = self.service.create(
            old.setup,
            old.title,
            seats,
            None,
            clock=clock_rows.hours_of(self.service.store, game_id),  # the same turn clock
            watch=(token_hash(watch), delay),
        )
        return self.made_answer(game, tokens, watch), game, game.more_to_do()

    def throttle(self, request: Request) -> None:
        """429 when the calling address made too many games (or campaigns, or campaign
        missions: each makes a game or a record) in the last minute."""
        client = request.client.host if request.client else "unknown"
        wait = self.new_games.wait(client)
        if wait:
            raise ApiError(
                429,
                # the address counted is named: behind a proxy not named with
                # --trusted-proxy every player is the proxy's address (docs/deploy.md)
                f"at most {self.limits.games_per_minute} new games a minute from one address "
                f"({client}); try again in {wait:.0f} s",
                None,
            )
