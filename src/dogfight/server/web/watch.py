"""Spectators (issue 32 item 4): each game's watch link ``/watch/{game}#token=...``
shows what every seat sees in common (the table and the steps as no seat sees them: no
plan, no damage card, no decision, no secret seed), live over a WebSocket, or one turn
behind when the game was made with ``"watch_delay": 1``.

The watch token is random and stored only as a hash (as a seat's token): a game's id
alone, which its seats' links and the lobby show, does not let anyone watch. A game's
spectators' open sockets are limited (``max_spectators``, counted across the server's
processes: :mod:`dogfight.server.play.spectators`): one more is refused with close code
4429 and the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

from fastapi import FastAPI, Header, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field, ValidationError

from dogfight.server.db.watch_rows import watch_of
from dogfight.server.errors import ApiError
from dogfight.server.play import views
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seats import token_matches
from dogfight.server.play.service import GameService
from dogfight.server.play.spectators import SpectatorLeases
from dogfight.server.play.workers import GameWorkers
from dogfight.server.web.limits import Limits
from dogfight.server.web.pages import page
from dogfight.server.web.refusals import field_of
from dogfight.server.web.ws import Connection, Hub
from dogfight.words.terms import plural

WatchHeader = Annotated[str | None, Header(max_length=200)]


class WatchHello(BaseModel):
    """A spectator's WebSocket's first message: the watch token, the steps the page has."""

    model_config = {"extra": "forbid"}

    token: str = Field(max_length=200)
    since: int = Field(default=0, ge=0, le=1_000_000)


def watched_game(service: GameService, game_id: str, token: str | None) -> tuple[LiveGame, int]:
    """The game and its spectators' delay, for the holder of its watch token: 404 when
    there is no such game or it has no watch link (made before spectators), 403 for a
    wrong token. Run off the event loop (it reads the database)."""
    game = service.get(game_id)
    service.fresh(game)
    watch = watch_of(service.store, game_id)
    if watch is None:
        raise ApiError(404, f"game {game_id!r} has no watch link", "game_id")
    if not token_matches(token, watch[0]):
        raise ApiError(403, "wrong watch token", "token")
    return game, watch[1]


def register_watch(
    app: FastAPI,
    service: GameService,
    hub: Hub,
    workers: GameWorkers,
    limits: Limits,
    leases: SpectatorLeases,
) -> None:
    """The watch page, its HTTP view and its WebSocket."""

    @app.get("/watch/{game_id}", include_in_schema=False)
    async def watch_page(game_id: str) -> FileResponse:
        return page("watch.html")

    @app.get("/api/games/{game_id}/watch")
    async def get_watch(
        game_id: str, x_watch_token: WatchHeader = None, since: int = 0
    ) -> Response:
        """What a spectator sees (token in ``X-Watch-Token``): the table and the steps
        after ``since`` as no seat sees them (one turn behind for a delayed game)."""

        def work() -> str:
            game, delay = watched_game(service, game_id, x_watch_token)
            with game.lock:
                return views.watch_view_json(game, since, delay)

        text = await workers.run(game_id, work)
        return Response(text, media_type="application/json")

    @app.websocket("/api/games/{game_id}/watch/ws")
    async def watch_socket(websocket: WebSocket, game_id: str) -> None:
        """First message ``{"token": ..., "since": n}``; then the spectator's view after
        every change; ``"ping"`` gets a pong. A bad first message closes with 4400, a
        wrong token or game with 4403/4404, one spectator too many with 4429."""
        await websocket.accept()

        async def close(status: int, reason: str, field: str | None) -> None:
            with contextlib.suppress(Exception):
                await websocket.send_json(
                    {"type": "error", "error": reason, "field": field, "status": status}
                )
                await websocket.close(code=4000 + status, reason=reason[:120])

        try:
            try:
                first = await asyncio.wait_for(websocket.receive(), 30)
            except TimeoutError:
                await close(400, "no first message within 30 s: {token, since}", "token")
                return
            if first["type"] == "websocket.disconnect":
                return
            try:
                hello = WatchHello.model_validate_json(first.get("text") or "")
            except ValidationError as exc:
                error = exc.errors()[0]
                where = field_of(error.get("loc", ())) or "token"
                await close(400, f"first message {{token, since}}: {where}: {error['msg']}", where)
                return
            connection = Connection(websocket, "", sent=hello.since)

            def join() -> None:
                game, delay = watched_game(service, game_id, hello.token)
                connection.watch_delay = delay
                most = limits.max_spectators
                if not leases.admit(game_id, most):
                    raise ApiError(
                        429,
                        f"at most {plural(most, 'spectator')} may watch this game at once",
                        None,
                    )
                try:
                    hub.add(game_id, connection)
                    hub.queue(game, connection)
                except BaseException:  # admitted but not watching: it counts no more
                    hub.remove(game_id, connection)
                    leases.release(game_id)
                    raise

            try:
                await workers.run(game_id, join)
            except ApiError as exc:
                await close(exc.status, exc.error, exc.field)
                return
            try:
                await hub.listen(game_id, connection, lambda reason: close(400, reason, None))
            finally:
                await asyncio.to_thread(leases.release, game_id)
        except WebSocketDisconnect:
            return
