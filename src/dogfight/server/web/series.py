"""Match series in the browser: several games between the same players with running
totals (002: "Match Scoring (for multiple matches)" / "Used to compare performance across
matches"; 003: "若以多局决定胜负(局数由玩家自行决定),则计算每局双方分数。总分较高者胜").

Each game of a series is an ordinary game made from the same request (the same setup,
seating and computer players; every game its own secret seed). A finished game's match
points (:func:`dogfight.rules.victory.scores`: 002's winner-only scoring or 003's
both-sides variant, as the game's ``match_scoring`` switch says, missions included) are
written to the series the first time the series is looked at after the game ended, as
campaigns do (:mod:`dogfight.server.web.campaigns`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from dogfight.rules.match_series import standing
from dogfight.rules.victory import scores
from dogfight.server.db.series_store import Series, SeriesStore
from dogfight.server.errors import ApiError
from dogfight.server.play.service import GameService
from dogfight.server.schemas import CreateGame
from dogfight.server.web.pages import page

Json = dict[str, Any]
MAX_GAMES = 50


class NewSeries(BaseModel):
    """A new match series: how many games, and the game each one is made from."""

    model_config = ConfigDict(extra="forbid")

    title: str | None = Field(default=None, max_length=200)
    games: int = Field(default=3, ge=1, le=MAX_GAMES, description="games agreed (003)")
    game: CreateGame = Field(description="as POST /api/games, without a seed")


def series_json(series: Series) -> Json:
    """What the series page shows: each game with its points and the running totals."""
    done = [row for row in series.played if row.result is not None]
    table = standing(series.sides, (row.result["points"] for row in done if row.result))
    totals_after = dict(zip((row.number for row in done), table.rows, strict=True))
    games = []
    for row in series.played:
        points, running = totals_after.get(row.number, (None, None))
        games.append(
            {
                "number": row.number,
                "game": row.game_id,
                "link": f"/play/{row.game_id}",
                "over": row.result is not None,
                "winner": row.result["winner"] if row.result else None,
                "points": points,
                "totals": running,
            }
        )
    finished = len(done) == series.games
    last = series.played[-1] if series.played else None
    return {
        "id": series.id,
        "title": series.title,
        "games_agreed": series.games,
        "scoring": series.scoring,
        "sides": series.sides,
        "games": games,
        "totals": table.totals,
        "leader": table.leader,
        "over": finished,
        "winner": table.leader if finished else None,
        "can_start_next": not finished
        and last is not None
        and last.result is not None
        and len(series.played) < series.games,
    }


def register_series(
    app: FastAPI,
    service: GameService,
    engine: Any,
    start_game: Callable[[CreateGame], Json],
    throttle: Callable[[Request], None] = lambda request: None,
) -> SeriesStore:
    """Add the series pages and API to ``app``; games go through ``start_game``.
    ``throttle`` refuses a caller over the server's rate of new games (429): a new series
    and a series' next game each start a game."""
    store = SeriesStore(engine)

    def opened(series_id: str) -> Series:
        series = store.load(series_id)
        if series is None:
            raise ApiError(404, f"no series {series_id!r}", "series_id")
        return settle(series)

    def settle(series: Series) -> Series:
        """Write the result of every game of the series that is over."""
        wrote = False
        for row in series.played:
            if row.result is not None:
                continue
            game = service.get(row.game_id, keep=False)
            with game.lock:
                state = game.state
                if not state.over:
                    continue
                result = {"winner": state.winner, "points": scores(state)}
            store.write_result(series.id, row.number, result)
            wrote = True
        if not wrote:
            return series
        fresh = store.load(series.id)
        assert fresh is not None
        return fresh

    def make(series_title: str, body: CreateGame, number: int) -> Json:
        return start_game(body.model_copy(update={"title": f"{series_title}, game {number}"}))

    @app.get("/series", include_in_schema=False)
    async def series_list_page() -> FileResponse:
        return page("series.html")

    @app.get("/series/{series_id}", include_in_schema=False)
    async def series_page(series_id: str) -> FileResponse:
        return page("series.html")

    @app.get("/api/series")
    async def list_series() -> Json:
        return {
            "series": [
                {"id": sid, "title": title, "created": created}
                for sid, title, created in store.ids()
            ]
        }

    @app.post("/api/series", status_code=201)
    async def create_series(body: NewSeries, request: Request) -> Json:
        """Start a series with its first game; the answer holds that game's seat links."""
        throttle(request)
        if body.game.seed is not None or body.game.analysis:
            raise ApiError(422, "every game of a series keeps its own secret seed", "game.seed")
        title = body.title or body.game.title or "Match series"
        made = make(title, body.game, 1)
        game = service.get(made["game"]["id"])
        with game.lock:
            sides = game.state.sides()
            scoring = game.state.rules.switches.match_scoring
        template = body.game.model_dump(mode="json", exclude_none=True)
        series_id = store.create(title, template, sides, body.games, scoring, game.id)
        return {"series": series_json(opened(series_id)), **made}

    @app.get("/api/series/{series_id}")
    async def get_series(series_id: str) -> Json:
        """Its games, each one's match points and the running totals (a finished game's
        result is written here first)."""
        return series_json(opened(series_id))

    @app.post("/api/series/{series_id}/next", status_code=201)
    async def next_game(series_id: str, request: Request) -> Json:
        """Start the next game of the series once the last one is over."""
        throttle(request)
        series = opened(series_id)
        number = len(series.played) + 1
        if series.played and series.played[-1].result is None:
            raise ApiError(
                409,
                f"game {series.played[-1].number} is not over yet: finish it first",
                "series_id",
            )
        if number > series.games:
            raise ApiError(409, f"the series of {series.games} games is over", "series_id")
        made = make(series.title, CreateGame.model_validate(series.template), number)
        if not store.add_game(series.id, number, made["game"]["id"]):
            raise ApiError(409, f"game {number} was started meanwhile", "series_id")
        return {"series": series_json(opened(series_id)), **made}

    return store
