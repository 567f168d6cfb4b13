"""Prometheus metrics of one server process (``GET /metrics``, the text exposition).

Each process keeps its own counters, so each is scraped on its own port (``docs/deploy.md``
"Metrics"): behind nginx one ``/metrics`` would be any process's, a different one at
each scrape. The games by state are read from the database (shared by the processes),
at most once per :data:`GAMES_CACHE` seconds whatever the number of scrapes.

Who may read it: a client on the machine itself (a loopback address, as
:class:`dogfight.server.web.limits.Guard` sees it: behind a trusted proxy the player's
address, never the proxy's), or anyone giving ``Authorization: Bearer TOKEN`` when a
token is set (``--metrics-token`` / ``DOGFIGHT_METRICS_TOKEN``). Anyone else gets 404:
the counters say how busy the club is, nothing a player needs.

The metrics live in a registry of the application's own (several applications in one
test process must not share counters); the reminders' counters are defined here for the
reminders to increment (``app.state.metrics``).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import os
import time
from dataclasses import dataclass, field

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dogfight.server.db.status import GameStatusRow
from dogfight.server.db.store import Store
from dogfight.server.db.tables import GameRow
from dogfight.server.play.games import LiveGame

GAMES_CACHE = 15.0
"""Seconds the games by state, read from the database, are reused."""

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

TOKEN_ENV = "DOGFIGHT_METRICS_TOKEN"

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: finer below the 300 ms a turn's results must come within (issue 32)."""


def games_by_state(store: Store) -> dict[str, int]:
    """How many games are in play, over and failed (one grouped query)."""
    failed = GameStatusRow.failed_turn.is_not(None)
    query = (
        select(GameRow.over, failed, func.count())
        .select_from(GameRow)
        .outerjoin(GameStatusRow, GameStatusRow.game_id == GameRow.id)
        .group_by(GameRow.over, failed)
    )
    counts = {"in_play": 0, "over": 0, "failed": 0}
    with Session(store.engine) as session:
        for over, broken, number in session.execute(query):
            state = "failed" if broken else "over" if over else "in_play"
            counts[state] += int(number)
    return counts


class GamesCollector(Collector):
    """``dogfight_games{state=...}``, read from the store on a scrape, cached."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.read_at = -GAMES_CACHE
        self.counts: dict[str, int] = {}

    def collect(self) -> list[GaugeMetricFamily]:
        now = time.monotonic()
        if now - self.read_at >= GAMES_CACHE or not self.counts:
            self.counts = games_by_state(self.store)
            self.read_at = now
        family = GaugeMetricFamily(
            "dogfight_games", "Games in the database by state.", labels=["state"]
        )
        for state, number in self.counts.items():
            family.add_metric([state], number)
        return [family]


@dataclass
class Metrics:
    """The process's metrics (one registry per application)."""

    store: Store
    token: str | None = None
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.turns = Counter(
            "dogfight_turns_resolved", "Turns resolved by this process.", registry=r
        )
        self.requests = Histogram(
            "dogfight_request_seconds",
            "HTTP request latency by route template and status class.",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.results = Histogram(
            "dogfight_result_seconds",
            "From a turn's last plan (its request's arrival) to the turn's results sent.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.sockets = Gauge(
            "dogfight_websockets", "WebSocket connections open on this process.", registry=r
        )
        self.reminders_sent = Counter(
            "dogfight_reminders_sent", "Turn reminders sent.", ["channel"], registry=r
        )
        self.reminders_failed = Counter(
            "dogfight_reminders_failed", "Turn reminders that failed.", ["channel"], registry=r
        )
        r.register(GamesCollector(self.store))

    def allowed(self, client: str | None, authorization: str | None) -> bool:
        """Whether a request may read the metrics (see the module's docstring)."""
        if self.token and authorization and authorization.lower().startswith("bearer "):
            return hmac.compare_digest(authorization[7:].strip(), self.token)
        return _loopback(client)

    async def exposition(self) -> bytes:
        """The text exposition (the games' query on a thread, off the event loop)."""
        return await asyncio.to_thread(generate_latest, self.registry)


def metrics_token(given: str | None) -> str | None:
    """The bearer token for ``/metrics``: given, else ``DOGFIGHT_METRICS_TOKEN``."""
    return given or os.environ.get(TOKEN_ENV) or None


def _loopback(client: str | None) -> bool:
    if not client:
        return False
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return False


def register_metrics(app: FastAPI, metrics: Metrics) -> None:
    """``GET /metrics``: the text exposition, to the machine itself or the token's bearer
    (anyone else: 404, as if there were no such page)."""

    @app.get("/metrics", include_in_schema=False)
    async def get_metrics(request: Request) -> Response:
        client = request.client.host if request.client else None
        if not metrics.allowed(client, request.headers.get("authorization")):
            return JSONResponse({"error": "Not Found", "field": None}, status_code=404)
        return Response(await metrics.exposition(), media_type=CONTENT_TYPE)


def turn_mark(game: LiveGame) -> tuple[int, bool]:
    """Where a game is before some work (its turn, whether it is over): see
    :func:`turns_since`."""
    state = game.state
    return state.turn, bool(state.over)


def turns_since(game: LiveGame, mark: tuple[int, bool]) -> int:
    """Turns resolved since ``mark`` (:func:`turn_mark`): each turn begun, and the last
    one when it ended the game."""
    turn, over = turn_mark(game)
    return max(0, turn - mark[0]) + (1 if over and not mark[1] and turn == mark[0] else 0)
