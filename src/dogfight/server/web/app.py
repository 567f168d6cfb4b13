"""The FastAPI application: the lobby and table pages, the HTTP API and the WebSocket.

Every refused request gets a 4xx and a JSON body ``{"error": "...", "field": ...}``;
nothing is written unless the whole request is valid. A seat's requests carry its token
(header ``X-Seat-Token`` or ``Authorization: Bearer``); the WebSocket's first message
does. ``docs/web.md`` describes the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.telemetry import TelemetryConfig
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.output import encoding
from dogfight.server.db.commits import GroupLost
from dogfight.server.db.notify import Listener
from dogfight.server.db.status import failed_ids
from dogfight.server.db.store import Store
from dogfight.server.errors import ApiError, GameFailed
from dogfight.server.play import failed_games, seat_actions, turn_clock, views
from dogfight.server.play.games import LiveGame
from dogfight.server.play.reminders import Reminders
from dogfight.server.play.reminders import Settings as ReminderSettings
from dogfight.server.play.seating import known_bots
from dogfight.server.play.service import GameService, one_arena
from dogfight.server.play.setups import client_catalog
from dogfight.server.play.spectators import SpectatorLeases
from dogfight.server.play.turn_clock import TurnClock
from dogfight.server.play.workers import GameWorkers
from dogfight.server.schemas import (
    REFUSALS,
    CheckPlans,
    Computer,
    CreateGame,
    Hello,
    Settings,
    SubmitDecisions,
    SubmitTargets,
)
from dogfight.server.shapes import schema
from dogfight.server.web import health, request_log
from dogfight.server.web.campaigns import register_campaigns
from dogfight.server.web.game_making import GameMaker
from dogfight.server.web.limits import Asgi, Guard, Limits, Receive, Scope, Send
from dogfight.server.web.metrics import Metrics, register_metrics, turn_mark, turns_since
from dogfight.server.web.pages import STATIC, Files, page
from dogfight.server.web.plans_request import OPENAPI as PLANS_OPENAPI
from dogfight.server.web.plans_request import (
    PLANS_PATH,
    AnswerKind,
    PlainRoute,
    read_plans,
    seat_token,
)
from dogfight.server.web.refusals import field_of, register_refusals
from dogfight.server.web.reminders import register_reminders
from dogfight.server.web.series import register_series
from dogfight.server.web.watch import register_watch
from dogfight.server.web.ws import Connection, Hub, eager

NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
"""The server exports no traces, metrics or logs through OpenTelemetry."""

LOST = "the database could not store this game's last changes: try again"
"""A request's refusal when the transaction holding its writes could not be committed."""

TAKEOVER = 1.0
"""Seconds (beyond its computer players' budget) a process waits for the process that
stored a game's last input to resolve it, before resolving it itself."""

Json = dict[str, Any]
T = TypeVar("T")


class JsonText(Response):
    """A JSON body already encoded (a seat's view, put together from cached parts)."""

    media_type = "application/json"


class Api(FastAPI):
    """The FastAPI application with the server's own ASGI layer (:class:`Guard`) in
    front of FastAPI's: every request passes it first, then gets FastAPI's whole
    handling (its error pages, routing...).

    Added as FastAPI middleware it ran inside FastAPI's own layers (its telemetry
    check, which reads the environment, then the server-error, exception-telemetry and
    body-limit middleware). In front, Guard also adds its headers to the 500 page of a
    request that crashed FastAPI's handling."""

    front: Asgi | None = None
    """Guard, ending in :meth:`behind` (None: FastAPI alone)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        front = self.front
        if front is None:
            await super().__call__(scope, receive, send)
        else:
            await front(scope, receive, send)

    async def behind(self, scope: Scope, receive: Receive, send: Send) -> None:
        """FastAPI's own handling of a request (the last of :attr:`front`)."""
        await super().__call__(scope, receive, send)


def _view(game: LiveGame, seat_id: str, since: int) -> JsonText:
    return JsonText(views.seat_view_json(game, seat_id, since))


class AtCommit(JsonText):
    """A JSON answer sent once what its request wrote is committed, right at the commit
    (``send_at_commit``: the server's ``deliver``), not when the request's task gets its
    turn again behind every request queued since: in a burst, that was the end of the
    whole burst."""

    def __init__(
        self,
        text: str,
        send_at_commit: Callable[[Callable[[], Coroutine[Any, Any, None]]], Awaitable[None]],
    ) -> None:
        super().__init__(text)
        self.send_at_commit = send_at_commit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.send_at_commit(lambda: super(AtCommit, self).__call__(scope, receive, send))


def _answered(game: LiveGame, seat_id: str, since: int, answer: str) -> str:
    """The answer to a seat's input (see :data:`AnswerKind`), as JSON text."""
    if answer == "update":
        return views.seat_update_json(game, seat_id)
    return views.seat_view_json(game, seat_id, since)


TokenHeader = Annotated[str | None, Header(alias="X-Seat-Token")]
AuthHeader = Annotated[str | None, Header(alias="Authorization")]


def create_app(
    db_url: str,
    catalog: Catalog | None = None,
    limits: Limits | None = None,
    bot_budget: float | None = None,
    public_url: str | None = None,
    metrics_token: str | None = None,
    allow_private_webhooks: bool = False,
    now: Callable[[], float] | None = None,
) -> Api:
    """The application serving one game database (any SQLAlchemy URL), within
    ``limits`` (default: from the environment, see :mod:`dogfight.server.web.limits`);
    ``bot_budget``: seconds a computer player may think per step (default
    ``DOGFIGHT_BOT_BUDGET``, 2); ``public_url``: the address the links it writes start
    with (:mod:`dogfight.server.web.public_url`; None: the links are paths);
    ``metrics_token``: who besides the machine itself may read ``/metrics``
    (:mod:`dogfight.server.web.metrics`);
    ``allow_private_webhooks``: reminders may go to a private or loopback address;
    ``now``: the turn clocks' time source (a test's)."""
    one_arena()  # before any worker thread makes an allocator arena of its own
    cat = catalog or load_catalog()
    limits = (limits or Limits.from_env()).resolved()
    store = Store(db_url)
    service = GameService(store, cat, bot_budget)
    hub = Hub()
    workers = GameWorkers()
    running: set[asyncio.Task[None]] = set()
    reminders = Reminders(store, ReminderSettings.from_env(public_url, allow_private_webhooks))
    service.in_use = lambda game_id: workers.busy(game_id) or bool(hub.connections(game_id))

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        hub.loop_thread = threading.get_ident()
        store.group_commits(hub.loop)
        if store.group is not None:
            store.group.on_lost = lost
            hub.attach(store.group)
        listener = None
        if store.notifies:  # PostgreSQL: other processes may share the games
            listener = Listener(db_url, heard, caught_up)
            listener.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listener.ready.wait(), 10)
        await workers.run(None, service.resume_all)
        for game in list(service.games.values()):
            schedule(game)
        ticking = asyncio.create_task(clock.run())
        renewing = asyncio.create_task(leases.run())
        yield
        ticking.cancel()
        renewing.cancel()
        with contextlib.suppress(SQLAlchemyError):  # a database gone: its leases run out
            await asyncio.to_thread(leases.close)
        if listener is not None:
            await listener.stop()
        await reminders.close()
        workers.close()
        store.close()

    app = Api(
        title="dogfight",
        lifespan=lifespan,
        docs_url=None,  # Swagger's page needs inline and CDN scripts: /openapi.json only
        redoc_url=None,
        responses=REFUSALS,
        # no OpenTelemetry: else FastAPI asks OpenTelemetry's global providers (which
        # read the environment) on every request whether anyone configured them
        telemetry=NO_TELEMETRY,
    )
    app.state.service = service
    app.state.store = store
    app.state.limits = limits
    metrics = app.state.metrics = Metrics(store, metrics_token)
    reminders.sent = lambda kind: metrics.reminders_sent.labels(kind).inc()
    reminders.failed = lambda kind: metrics.reminders_failed.labels(kind).inc()
    register_metrics(app, metrics)
    site = public_url or ""  # what every link the server writes starts with

    # --- errors ----------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        if isinstance(exc, GameFailed):
            return await failed(exc)
        return JSONResponse(exc.body(), status_code=exc.status)

    register_refusals(app)

    # --- helpers ---------------------------------------------------------------------

    def schedule(game: LiveGame) -> None:
        """Keep resolving a game whose next step waits for nobody (computer players)."""

        async def run() -> None:
            def work() -> bool:
                if not game.more_to_do():
                    return False
                mark = turn_mark(game)
                game.advance()
                metrics.turns.inc(turns_since(game, mark))
                hub.fan_out(game)
                reminders.notice(game, hub.loop)
                return True

            try:
                again = await workers.run(game.id, work, game)
            except GameFailed as exc:
                await hub.close_all(game.id, {"type": "error", **exc.body(), "status": 409}, 4409)
                return
            hub.flush(game.id)
            if again:
                schedule(game)

        task = asyncio.create_task(run())
        running.add(task)
        task.add_done_callback(running.discard)

    def catch_up(game: LiveGame, revision: int | None, rows: str | None = None) -> None:
        """Another process wrote to the game: read what it wrote and send the seats
        connected here their new views. If the game can now go on without anybody (a
        seat was handed to a computer player, or more steps are due than one advance
        resolves: a person's input is stored with the steps it resolves), the process
        that wrote is resolving it: the seats here get no view of that moment, they wait
        for the result (the next notification), and the game is resolved here only if
        none came (that process died: :func:`take_over`)."""

        async def run() -> None:
            def work() -> int | None:
                with game.lock:
                    if revision is not None and game.revision >= revision:
                        return None
                    game.reload(notice=None if rows is None else (revision or 0, rows))
                    if game.more_to_do():
                        return game.revision
                hub.fan_out(game)
                return None

            with contextlib.suppress(ApiError):
                awaited = await workers.run(game.id, work, game)
                if awaited is not None:
                    take_over(game, awaited)

        task = asyncio.create_task(run())
        running.add(task)
        task.add_done_callback(running.discard)

    def take_over(game: LiveGame, revision: int) -> None:
        """Resolve a game that waits for nobody if, :data:`TAKEOVER` seconds past its
        computer players' budget, no other process has written to it since
        ``revision`` (the one that wrote last died before resolving)."""

        async def run() -> None:
            await asyncio.sleep(game.budget + TAKEOVER)
            if game.revision == revision:
                schedule(game)

        task = asyncio.create_task(run())
        running.add(task)
        task.add_done_callback(running.discard)

    def heard(game_id: str, revision: int, rows: str | None) -> None:
        if store.own(rows):
            return  # written here: the writer holds it already
        game = service.games.get(game_id)
        if game is not None and game.revision < revision:
            catch_up(game, revision, rows)

    async def caught_up() -> None:
        for game in list(service.games.values()):
            catch_up(game, None)

    async def failed(exc: GameFailed) -> JSONResponse:
        """A request met a failed game (or made a step fail): see :func:`failure_answer`."""
        status, body = await failure_answer(exc)
        return JSONResponse(body, status_code=status)

    async def failure_answer(exc: GameFailed) -> tuple[int, Json]:
        """The seats' pages are told; the request gets 409, or 202 once its own input,
        stored with the steps before the one it completed and that failed, is committed
        (503 if it could not be)."""
        await close_failed(exc)
        if exc.stored:
            try:
                await committed(exc.failure.game_id)
            except ApiError as lost:
                return lost.status, lost.body()
        return exc.status, exc.body()

    async def close_failed(exc: GameFailed) -> None:
        """Every page of the game is told it failed (as a refusal says it: not whether
        one request's input was stored) and its WebSocket closed (4409)."""
        told = GameFailed(exc.failure).body()
        await hub.close_all(exc.failure.game_id, {"type": "error", **told, "status": 409}, 4409)

    def lost(game_ids: set[str], exc: BaseException) -> None:
        """The loop's transaction could not be committed: the games in it are read again
        from the database, and their pages (sent nothing of it) reconnect."""
        for game_id in game_ids:
            hub.abandon(
                game_id,
                {
                    "type": "error",
                    "error": "the database could not store the game's last changes: reconnecting",
                    "field": None,
                    "status": 503,
                },
                4503,
            )
            game = service.games.get(game_id)
            if game is not None:
                with contextlib.suppress(Exception), game.lock:
                    game.reload(full=True)

    async def on_seat(
        game_id: str,
        seat_id: str,
        token: str | None,
        work: Callable[[LiveGame], T],
        answered: bool = True,
    ) -> T:
        """Run ``work`` on the seat's game off the event loop (after the game's earlier
        work); if it changed the game, queue every connection its view and let computer
        players go on. Returns once what the work wrote is committed, and the game's
        messages are on their way — unless ``answered`` is False: the caller then
        answers with :func:`deliver`."""

        def task() -> tuple[LiveGame, T, bool, int]:
            game = service.get(game_id)
            before = game.version
            service.fresh(game)  # another process's writes, even if not heard of yet
            game.seat(seat_id, token)
            mark = turn_mark(game)
            out = work(game)
            if game.version == before:
                return game, out, False, 0
            hub.fan_out(game)
            reminders.notice(game, hub.loop)
            # asked here, in the game's turn: a game of people only has nothing more to
            # do after a request (no task is made for it, as one was for every request)
            return game, out, game.more_to_do(), turns_since(game, mark)

        game, out, again, turns = await workers.run(game_id, task, service.games.get(game_id))
        if turns:
            metrics.turns.inc(turns)
            request_log.resolved_turns(turns)  # its answer is sent with the results
        if again:
            schedule(game)
        if answered:
            await committed(game_id)
            hub.flush(game_id)  # this game's results out now, not after every queued request
        return out

    async def committed(game_id: str) -> None:
        """Wait until what the game's last work wrote on the loop is committed (503 if
        it could not be)."""
        try:
            await store.stored(game_id)
        except GroupLost:
            raise ApiError(503, LOST, None) from None

    async def deliver(game_id: str, answer: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Send the game's messages and the request's ``answer`` once what the request
        wrote is committed — right at the commit (:mod:`dogfight.server.db.commits`), not
        when this task's turn comes round again, behind every request queued since:
        in a burst that was the end of the whole burst. 503 if it could not be stored."""
        group = store.group
        done = group.pending(game_id) if group is not None else None
        if done is None or group is None:
            hub.flush(game_id)
            await answer()
            return
        sending: list[asyncio.Task[None] | None] = []
        failed: list[Exception] = []

        def now() -> None:
            hub.flush(game_id)
            try:
                sending.append(eager(answer()))
            except Exception as exc:  # the client went away: raised in this task below
                failed.append(exc)

        at_commit = not done.done() and group.then(now)  # done already: lost, told below
        if at_commit:
            # woken by the commit, or by its loss, through a future of this request's
            # own: awaiting the group's (shielded from this task's cancellation, as
            # committed() does) cost another pass of the loop and ~18,000 instructions
            woken = asyncio.get_running_loop().create_future()

            def wake() -> None:
                if not woken.done():  # (cancelled with this task)
                    woken.set_result(None)

            group.hold(wake, wake)
            await woken
            if done.exception() is not None:
                await committed(game_id)  # raises the loss as a 503
        else:
            await committed(game_id)
            now()
        if failed:
            raise failed[0]
        rest = sending[0]
        if rest is not None:  # the client's socket was full: the answer goes on
            await rest

    # --- the hot request, first of the routes (each request is matched against the
    # routes in order: before, the plans request was matched against twenty others)

    async def post_plans(request: Request) -> Response:
        """Submit the seat's plans for the turn; refused whole with the rule if illegal.

        Every seat's request every turn: the route takes the bare request and reads it
        itself (:mod:`dogfight.server.web.plans_request`), and its answer goes out at
        the commit (:class:`AtCommit`)."""
        asked = await read_plans(request)
        body = asked.body
        game_id, seat_id = asked.game_id, asked.seat_id

        def work(game: LiveGame) -> str:
            seat_actions.submit_plans(game, seat_id, body.turn, body.plans, body.phase)
            return _answered(game, seat_id, asked.since, asked.answer)

        text = await on_seat(game_id, seat_id, asked.token, work, answered=False)
        return AtCommit(text, lambda answer: deliver(game_id, answer))

    app.router.add_api_route(
        PLANS_PATH,
        post_plans,
        methods=["POST"],
        response_model=Json,
        openapi_extra=PLANS_OPENAPI,
        route_class_override=PlainRoute,
    )
    register_reminders(app, reminders, on_seat, seat_token)

    async def clock_ran_out(game: LiveGame) -> None:
        """The turn clock ran out: each seat the game waits for is handed to its
        computer player, which plays (logged)."""

        def task() -> None:
            turn_clock.hand_over(game, clock.now())
            hub.fan_out(game)
            reminders.notice(game, hub.loop)

        with contextlib.suppress(ApiError):
            await workers.run(game.id, task, game)
            await committed(game.id)
            hub.flush(game.id)
            if game.more_to_do():
                schedule(game)

    clock = TurnClock(lambda: list(service.games.values()), clock_ran_out, now or time.time)
    leases = SpectatorLeases(store, now or time.time)

    # --- pages -----------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def table(game_id: str) -> FileResponse:
        return page("play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return page("play.html")

    app.mount("/static", Files(directory=STATIC), name="static")

    # --- API -------------------------------------------------------------------------

    @app.get("/api/catalog")
    async def get_catalog() -> Json:
        """Airplanes, tripods, maneuver decks (card geometry), constants, rulesets,
        scenarios, ready-made setups and the computer players available."""
        # behind a public address the proxy lets other machines in, whatever we listen on
        return client_catalog(cat, known_bots(), limits.loopback_only and not site, public_url)

    @app.get("/healthz")
    async def healthz() -> Json:
        """The process is alive (its event loop answers); the database is not asked."""
        return {"ok": True}

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        """Ready for players: every check of ``health.READINESS`` passes, else 503 naming
        what failed (docs/deploy.md)."""
        status, body = await health.readiness(store)
        return JSONResponse(body, status_code=status)

    @app.get("/api/schema")
    async def get_schema() -> JsonText:
        """The JSON Schema of what a seat's page is sent, a view or an update
        (:func:`dogfight.server.shapes.schema`)."""
        return JsonText(encoding.text(schema()))

    @app.get("/api/games")
    async def list_games() -> Json:
        listed, broken = await workers.run(None, lambda: (store.list_games(), failed_ids(store)))
        return {
            "games": [
                {
                    "id": gid,
                    "title": title,
                    "created": created,
                    "over": over,
                    "failed": gid in broken,
                }
                for gid, title, created, over in listed
            ]
        }

    maker = GameMaker(cat, service, limits, site)
    new_game = maker.new_game
    app.state.new_game = new_game
    throttle = maker.throttle

    def start_game(body: CreateGame) -> Json:
        """Make a game on the calling thread (the event loop's: campaigns) and let its
        computer players start."""
        made = new_game(body)
        schedule(service.get(made["game"]["id"]))
        return made

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame, request: Request) -> Json:
        """Make a game; the answer holds each seat's private link (shown only here)."""
        throttle(request)
        if maker.light(body):
            made, game, due = maker.make(body)  # a duel of people: less work than handing it over
        else:
            made, game, due = await workers.run(None, lambda: maker.make(body))
        if due:
            schedule(game)
        return made

    @app.post("/api/games/{game_id}/seats/{seat_id}/rematch", status_code=201)
    async def rematch(
        game_id: str,
        seat_id: str,
        request: Request,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
    ) -> Json:
        """A finished game played again by a seat of it: the same setup, seats and
        computer players, a new secret seed; the answer is a new game's (every seat's
        private link, for the seat that asked to hand out)."""
        throttle(request)
        token = seat_token(x_seat_token, authorization)

        made, game, due = await workers.run(None, lambda: maker.rematch(game_id, seat_id, token))
        if due:
            schedule(game)
        return made

    register_campaigns(app, service, store.engine, cat, start_game, throttle)
    register_series(app, service, store.engine, start_game, throttle)
    register_watch(app, service, hub, workers, limits, leases)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> Json:
        """What anyone may know: seats, turn, phase, who is awaited, the result."""
        return await workers.run(
            game_id,
            lambda: views.summary(service.get(game_id, keep=False)),
            service.games.get(game_id),
        )

    @app.get("/api/games/{game_id}/seats/{seat_id}", response_model=Json)
    async def get_seat(
        game_id: str,
        seat_id: str,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
        since: int = 0,
    ) -> Response:
        """The seat's view: the table as it sees it, its stage, the steps since ``since``."""
        token = seat_token(x_seat_token, authorization)
        return await on_seat(game_id, seat_id, token, lambda g: _view(g, seat_id, since))

    @app.post("/api/games/{game_id}/seats/{seat_id}/check")
    async def post_check(
        game_id: str,
        seat_id: str,
        body: CheckPlans,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
    ) -> Json:
        """Flags and ghosts for cards being chosen (nothing is stored)."""
        token = seat_token(x_seat_token, authorization)
        return await on_seat(
            game_id, seat_id, token, lambda g: {"plans": views.check_draft(g, seat_id, body.plans)}
        )

    @app.post("/api/games/{game_id}/seats/{seat_id}/targets", response_model=Json)
    async def post_targets(
        game_id: str,
        seat_id: str,
        body: SubmitTargets,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
        since: int = 0,
        answer: AnswerKind = "view",
    ) -> Response:
        """Choose targets for the weapons asked about in the pending phase."""

        def work(game: LiveGame) -> Response:
            seat_actions.submit_answer(game, seat_id, body.turn, body.phase, body.fire)
            return JsonText(_answered(game, seat_id, since, answer))

        return await on_seat(game_id, seat_id, seat_token(x_seat_token, authorization), work)

    @app.post("/api/games/{game_id}/seats/{seat_id}/decisions", response_model=Json)
    async def post_decisions(
        game_id: str,
        seat_id: str,
        body: SubmitDecisions,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
        since: int = 0,
        answer: AnswerKind = "view",
    ) -> Response:
        """Answer engine decisions of the pending phase (a reorder after tailing...)."""

        def work(game: LiveGame) -> Response:
            seat_actions.submit_decisions(game, seat_id, body.turn, body.phase, body.answers)
            return JsonText(_answered(game, seat_id, since, answer))

        return await on_seat(game_id, seat_id, seat_token(x_seat_token, authorization), work)

    @app.post("/api/games/{game_id}/seats/{seat_id}/settings")
    async def post_settings(
        game_id: str,
        seat_id: str,
        body: Settings,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
    ) -> Json:
        """Auto-fire: never ask this seat for targets (the nearest is taken)."""
        token = seat_token(x_seat_token, authorization)
        await on_seat(
            game_id,
            seat_id,
            token,
            lambda g: seat_actions.set_auto_fire(g, seat_id, body.auto_fire),
        )
        return {"auto_fire": body.auto_fire}

    @app.post("/api/games/{game_id}/seats/{seat_id}/computer")
    async def post_computer(
        game_id: str,
        seat_id: str,
        body: Computer,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
    ) -> Json:
        """Hand the seat to a computer player (``bot``), or back to its person (null)."""
        token = seat_token(x_seat_token, authorization)
        await on_seat(game_id, seat_id, token, lambda g: seat_actions.set_bot(g, seat_id, body.bot))
        return {"computer": body.bot}

    @app.get("/api/games/{game_id}/seats/{seat_id}/replay")
    async def get_replay(
        game_id: str,
        seat_id: str,
        x_seat_token: TokenHeader = None,
        authorization: AuthHeader = None,
    ) -> Json:
        """Every step of the game so far as this seat saw it; of a failed game, the steps
        up to the failure, and the failure."""
        token = seat_token(x_seat_token, authorization)
        try:
            return await on_seat(game_id, seat_id, token, lambda g: views.replay(g, seat_id))
        except GameFailed as exc:
            refusal = exc
        await close_failed(refusal)

        def work() -> Json:
            game = failed_games.until_failure(store, cat, refusal.failure)
            if game is None:
                raise refusal
            game.seat(seat_id, token)
            return views.replay(game, seat_id)

        return await workers.run(game_id, work)

    @app.websocket("/api/games/{game_id}/ws")
    async def websocket(websocket: WebSocket, game_id: str) -> None:
        """First message ``{"seat": ..., "token": ..., "since": n}``; then the seat's
        view after every change; ``"ping"`` gets a pong. A bad message (not that JSON,
        a binary frame, anything but ``"ping"`` later) closes with code 4400 and the
        reason; a wrong token or seat with 4403/4404, a failed game with 4409."""
        await websocket.accept()

        async def refuse(reason: str, field: str | None = "seat") -> None:
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "error": reason, "field": field})
                await websocket.close(code=4400, reason=reason[:120])

        try:
            try:
                first = await asyncio.wait_for(websocket.receive(), 30)
            except TimeoutError:
                await refuse("no first message within 30 s: {seat, token, since}")
                return
            if first["type"] == "websocket.disconnect":
                return
            text = first.get("text")
            if text is None:
                await refuse("the first message is JSON text {seat, token, since}, not binary")
                return
            try:
                hello = Hello.model_validate_json(text)
            except ValidationError as exc:
                error = exc.errors()[0]
                where = field_of(error.get("loc", ())) or "seat"
                await refuse(
                    f"first message {{seat, token, since}}: {where}: {error['msg']}", where
                )
                return
            connection = Connection(websocket, hello.seat, sent=hello.since)

            def join(game: LiveGame) -> None:
                hub.add(game_id, connection)
                hub.queue(game, connection)

            try:
                await on_seat(game_id, hello.seat, hello.token, join)
            except ApiError as exc:
                await websocket.send_json({"type": "error", **exc.body(), "status": exc.status})
                await websocket.close(code=4000 + exc.status, reason=exc.error[:120])
                return
            await hub.listen(game_id, connection, lambda reason: refuse(reason, None))
        except WebSocketDisconnect:
            return

    app.front = request_log.RequestLog(Guard(app.behind, limits=limits), metrics)
    return app
