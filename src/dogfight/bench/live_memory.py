"""``dogfight bench --server``'s memory figure (issue 28): a server that touched every
one of 10,000 stored games holds no more memory than a server with 200 live games.

Anyone may list the games and ask for each: before the bound on the games a server keeps
in memory (:mod:`dogfight.server.play.service`, ``DOGFIGHT_LIVE_GAMES``), 150 stored games
took a server from 103 to 279 MB in 5 s. Here the duels are made straight in a fresh
SQLite file (no server: making them is not what is measured), then

1. a ``dogfight serve`` bounded to ``live`` games holds the first ``live`` games (each
   seat's view is asked for): its resident memory is the reference, *with 200 live
   games*;
2. a ``dogfight serve`` with its default bound (or ``bound``) starts on all the games
   (resuming those that may move without a person: none of these duels), and each
   game's summary and a seat's view are asked for, as a client listing the games and
   opening each would: its resident memory after that is the figure, whose target is
   the reference.

Memory is read from /proc as the other server figures are
(:func:`dogfight.bench.server._memory_mb`).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import httpx

from dogfight.bench.server import _memory_mb, _servers, camel_cards

TOUCHING = 16
"""Requests in flight at once while the games are touched."""


TURNS = 2
"""Turns played in each stored duel (a game holds every state of its replay)."""


def _make_duels(url: str, count: int, games: list[tuple[str, str, str]]) -> None:
    """Make ``count`` more duels in the database (no server), each played :data:`TURNS`
    turns (random legal plans), adding (game, seat, token) of each to ``games``."""
    import random

    from dogfight.catalog import load_catalog
    from dogfight.server.db.store import Store
    from dogfight.server.play.seat_actions import submit_plans
    from dogfight.server.play.seating import seats_of, table_of
    from dogfight.server.play.service import GameService
    from dogfight.server.play.setups import presets
    from dogfight.server.schemas import CreateGame

    catalog = load_catalog()
    store = Store(url)
    try:
        service = GameService(store, catalog, live=1)
        setup = presets(catalog)["duel"]["setup"]
        seats = seats_of(CreateGame(preset="duel"), table_of(setup, catalog))
        rng = random.Random(len(games))
        cards = camel_cards()
        for _ in range(count):
            game, tokens = service.create(setup, "duel", seats, None)
            for turn in range(1, TURNS + 1):
                for seat_id in sorted(tokens):
                    if game.state.over:
                        break
                    playing = [
                        v for v in game.seat_vehicles(seat_id) if game.state.vehicles[v].in_play
                    ]
                    plans = {vid: {"cards": rng.sample(cards, 3)} for vid in playing}
                    submit_plans(game, seat_id, turn, plans)
            seat = min(tokens)
            games.append((game.id, seat, tokens[seat]))
    finally:
        store.close()


async def _touch(base: str, games: list[tuple[str, str, str]]) -> int:
    """Ask for each game's summary and a seat's view; how many requests were refused."""
    refused = 0
    queue = list(reversed(games))

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal refused
        while queue:
            game, seat, token = queue.pop()
            for path, headers in (
                (f"/api/games/{game}", {}),
                (f"/api/games/{game}/seats/{seat}", {"X-Seat-Token": token}),
            ):
                answer = await client.get(base + path, headers=headers)
                refused += answer.status_code != 200

    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.gather(*(worker(client) for _ in range(TOUCHING)))
    return refused


def run(stored: int = 10_000, live: int = 200, bound: int | None = None) -> dict[str, Any]:
    """The figure (see the module's text): ``stored`` games touched by a server with its
    default bound (or ``bound``), against one holding ``live`` games."""
    games: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'games.sqlite'}"
        _make_duels(url, min(live, stored), games)
        with _servers(url, 1, env={"DOGFIGHT_LIVE_GAMES": str(live)}) as (bases, procs):
            refused = asyncio.run(_touch(bases[0], games))
            reference = _memory_mb(procs[0].pid)
        _make_duels(url, stored - len(games), games)
        env = {} if bound is None else {"DOGFIGHT_LIVE_GAMES": str(bound)}
        with _servers(url, 1, env=env, start_s=600.0) as (bases, procs):
            refused += asyncio.run(_touch(bases[0], games))
            touched = _memory_mb(procs[0].pid)
    target = reference.get("rss_mb", 0.0)
    return {
        "scenario": {
            "stored_games": stored,
            "live_games": live,
            "bound": "default (DOGFIGHT_LIVE_GAMES unset)" if bound is None else bound,
        },
        "server_memory_mb": {"with_live_games": reference, "after_touching_stored": touched},
        "refused": refused,
        "what": f"resident memory of a server that resumed and touched (summary and a "
        f"seat's view) each of {stored} stored duels, against a server holding {live} live "
        "duels (resumed and touched the same way)",
        "targets": {"after_touching_rss_mb": target, "refused": 0},
        "meets_targets": {
            "after_touching_rss_mb": 0 < touched.get("rss_mb", 0.0) <= target,
            "refused": refused == 0,
        },
    }
