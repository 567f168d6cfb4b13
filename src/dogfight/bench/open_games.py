"""``dogfight bench --server --open N --active M`` (issue 32, item 6): how big the server
gets — many open games, most of them waiting a day for a plan, a few hundred played live.

Real ``dogfight serve`` processes share one database (with two or more, a throwaway
PostgreSQL cluster unless ``--db``), as :mod:`dogfight.bench.server` starts them, with
the settings a club's server runs with (:data:`DEPLOYED`). Before the run, a burst on
servers and a database of their own measures the CPU time of a turn played (what the
capacity figures start from). The run has three phases, one after the other, and a
last measure:

1. **active alone** — ``active`` pairs of scripted players each play a duel live, both
   seats' WebSockets open, a thinking time before every plan (:data:`HUMAN_THINK`, a
   person's pace; ``--think`` another); when a duel ends its players make a new one, so
   ``active`` games are played at every moment (on a bigger table than the preset's:
   :data:`LIVE_TABLE`). After ``seconds`` seconds each server's memory (resident and
   unique) is read: what it holds *with the active games alone*.
2. **making** — ``open - active`` more duels are made through the server's own route
   (``POST /api/games``, what a lobby sends), :data:`MAKERS` keep-alive connections per
   process at once, the live players pausing meanwhile (their sockets open). They are
   the games waiting a day: nobody plays them here. (The route and not the store's API:
   it is what a club's players use, so its speed is a figure of its own, and it is fast
   enough: see ``docs/deploy.md``.)
3. **open** — ``seconds`` more seconds of live play while the waiting games' players come
   back now and then: ``visits`` a second (spread evenly), each a player of a waiting
   game, never the same game twice, who loads the game's page (``GET /play/<game>``) and
   reads its seat's view over HTTP on a fresh connection, and goes (no socket held).
   Then each server's memory is read again: what it holds *with every game open*.
4. **a visit's cost** — :data:`VISIT_COST` more waiting games' players come back, the
   live players paused: the CPU time of the servers and the database per visit.

The report gives the active games' result latencies (plan sent → every seat has the
result, as :mod:`dogfight.bench.server` measures them) of each phase, the targets judged
on the open phase's; each server's memory after phases 1 and 3 and their ratio; every
error (a refused request, a dropped socket, a result that never came, a refused plan);
the idle players' requests served; the load average (1 and 5 minutes) sampled through
the run; the CPU time of the servers, the database and the clients in each phase; and
the capacity figures ``docs/deploy.md``'s table is made of (:func:`capacity`).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from dogfight.bench.server import (
    RAMP,
    Game,
    Http,
    HttpError,
    Json,
    _cpu_s,
    _database,
    _memory_mb,
    _own_cpu_s,
    _servers,
    camel_cards,
    client_loop,
)

SECONDS = 60.0
"""Seconds of each measured phase (active alone, every game open)."""

VISITS = 20.0
"""Waiting games' players coming back a second (each visit: the page and the seat's view).
10,000 open turn-a-day games whose players each come back a few times a day make well
under one a second; twenty touch far more distinct games than a server keeps in memory
(``DOGFIGHT_LIVE_GAMES``), which is what the memory figure is about."""

HUMAN_THINK = (5.0, 20.0)
"""Seconds a live player takes to plan a turn, drawn uniformly, in the run the targets are
judged on: a person choosing three maneuver cards in a browser (quick: most take longer).
``--think 0.2,2`` is the stress variant (the burst bench's pace): 500 games then ask for
about 170 turns a second."""

MAKERS = 16
"""Keep-alive connections per server process making the waiting games at once."""

MAX_TURNS = 100
"""Turns a live duel is played at most before its players start another."""

LIVE_TABLE = 300.0
"""The live duels' table (cm a side), the preset duel's airplanes at its edges: random
cards fly the preset's two airplanes off its 90 cm table in two or three turns, and
players who start a new game every eight seconds would make the making of games most of
the work measured; here they meet after some five turns and a duel lasts about ten."""

RAMP_MAX = 300.0
"""Seconds the live players are given to make their first games and open their sockets
(they arrive over :data:`~dogfight.bench.server.RAMP` seconds) before the first phase."""

VISIT_COST = 500
"""Waiting games visited after the open phase, the live players paused: the CPU time of
a visit, measured alone."""

SETTLE = 3.0
"""Seconds given to the live turns under way to end before a measure taken alone."""

LOAD_EVERY = 5.0
"""Seconds between two samples of the load average."""

PACES = {"a turn every 10 s": 10.0, "a turn every 30 s": 30.0, "a turn a day": 86_400.0}
"""How often an active game plays a turn, in the capacity figures: live (quick players,
players who think) and turn-a-day."""

FLEETS = (100, 500, 2_000, 10_000)
"""Active games the capacity figures give the processes for."""

BUSY = 0.5
"""The share of a core the capacity figures let a process use: the rest is headroom for
turns that come together (a process at its whole core queues every result behind the
others; the benches' p99s grow long before that)."""

BURST = 200
"""Games of the burst that measures the CPU time of a turn played (the capacity)."""

DEPLOYED = ("--log-format", "json", "--public-url", "https://dogfight.example.org")
"""The servers run as ``deploy/systemd/dogfight@.service`` runs them: a JSON line per
request (here to /dev/null), a public address (so every change looks for the seats'
reminders due, as on a club's server)."""

RATIO_TARGET = 1.5
"""Each server's memory with every game open over its memory with the active alone."""

P99_TARGET_MS = 300.0


class Phases:
    """The run's shared state: the phase now, and what each phase recorded."""

    NAMES = ("ramp", "alone", "making", "open")

    def __init__(self, think: tuple[float, float] = HUMAN_THINK) -> None:
        self.think = think
        """Each live plan's thinking time is drawn between these (seconds)."""
        self.now = "ramp"
        self.latencies: dict[str, list[float]] = {name: [] for name in self.NAMES}
        self.errors: dict[str, list[str]] = {name: [] for name in self.NAMES}
        self.games_started = 0
        self.games_ended = 0
        self.stopping = False
        self.playing = asyncio.Event()
        """Set while the live players play (cleared while the waiting games are made:
        a turn under way ends, the next waits, the sockets stay open)."""
        self.playing.set()
        self.load: dict[str, list[list[float]]] = {name: [] for name in self.NAMES}

    def error(self, what: str) -> None:
        self.errors[self.now].append(what[:200])


async def _slot(
    phases: Phases, numbers: itertools.count[int], bases: list[str], cards: list[str]
) -> None:
    """One pair of players: a duel played live to its end, then another, until stopped
    (on a :data:`LIVE_TABLE` table). Each turn's latency (or error) is counted in the
    phase it ended in."""
    from dogfight.server.play.setups import duel_setup

    live = {"situation": duel_setup(LIVE_TABLE, LIVE_TABLE)}
    rng = np.random.default_rng(next(numbers))
    await asyncio.sleep(float(rng.uniform(0, RAMP)))
    while not phases.stopping:
        await phases.playing.wait()
        game = Game(next(numbers), bases, cards, live)
        try:
            try:
                await game.start()
            except Exception as exc:
                phases.error(f"start: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1.0)
                continue
            phases.games_started += 1
            for turn in range(1, MAX_TURNS + 1):
                await phases.playing.wait()
                if game.over or phases.stopping:
                    break
                await game.turn(turn, phases.think)
                phases.latencies[phases.now].extend(game.latencies)
                game.latencies.clear()
                for error in game.errors:
                    phases.error(error)
                if game.errors:
                    break
            phases.games_ended += game.over
        finally:
            await game.stop()


async def _make(
    phases: Phases, bases: list[str], count: int, say: Callable[[str], None]
) -> list[tuple[str, str, str, str]]:
    """Make ``count`` duels through ``POST /api/games``, :data:`MAKERS` keep-alive
    connections per process at once; each game's base URL, id, and one seat and its token
    (the player who will come back)."""
    made: list[tuple[str, str, str, str]] = []
    left = [count]
    rng = np.random.default_rng(count)

    async def maker(base: str) -> None:
        http = Http(base)
        try:
            while left[0] > 0:
                left[0] -= 1
                try:
                    answer = await http.request("POST", "/api/games", {"preset": "duel"})
                except HttpError as exc:
                    phases.error(f"make: {exc}")
                    continue
                seat = answer["seats"][int(rng.integers(len(answer["seats"])))]
                made.append((base, answer["game"]["id"], seat["id"], seat["token"]))
                if len(made) % 1000 == 0:
                    say(f"{len(made)} waiting games made")
        finally:
            http.close()

    await asyncio.gather(*(maker(base) for base in bases for _ in range(MAKERS)))
    return made


async def _visit(phases: Phases, game: tuple[str, str, str, str], served: list[float]) -> None:
    """A waiting game's player comes back: the page, then its seat's view, over a new
    connection closed after (no socket held). Each request answered adds its time to
    ``served``."""
    base, game_id, seat, token = game
    http = Http(base)
    try:
        for path, token_sent, page in (
            (f"/play/{game_id}", None, True),
            (f"/api/games/{game_id}/seats/{seat}", token, False),
        ):
            began = time.perf_counter()
            await http.request("GET", path, token=token_sent, page=page)
            served.append(time.perf_counter() - began)
    except HttpError as exc:
        phases.error(f"visit: {exc}")
    finally:
        http.close()


async def _visitors(
    phases: Phases,
    waiting: list[tuple[str, str, str, str]],
    rate: float,
    seconds: float,
    served: list[float],
) -> int:
    """Waiting games' players coming back, ``rate`` a second for ``seconds``, each game
    at most once (in a shuffled order); how many came."""
    if rate <= 0 or not waiting:
        await asyncio.sleep(seconds)
        return 0
    order = np.random.default_rng(len(waiting)).permutation(len(waiting))
    count = min(len(waiting), int(rate * seconds))
    loop = asyncio.get_running_loop()
    began = loop.time()
    visits: list[asyncio.Task[None]] = []
    for i in order[:count]:
        due = began + len(visits) / rate - loop.time()
        if due > 0:
            await asyncio.sleep(due)
        visits.append(asyncio.create_task(_visit(phases, waiting[int(i)], served)))
    await asyncio.gather(*visits)
    await asyncio.sleep(max(0.0, began + seconds - loop.time()))
    return count


async def _visit_cost(
    phases: Phases,
    games: list[tuple[str, str, str, str]],
    pids: list[int],
    database_cpu: Callable[[], float] | None,
) -> Json:
    """``games``' players coming back, eight at a time, nothing else going on: the CPU
    time of the servers and the database per visit (the page and the seat's view)."""
    before = Meter(pids, database_cpu)
    served: list[float] = []
    queue = list(games)

    async def visitor() -> None:
        while queue:
            await _visit(phases, queue.pop(), served)

    await asyncio.gather(*(visitor() for _ in range(8)))
    used = Meter(pids, database_cpu).since(before, len(games))
    return {
        "visits": len(games),
        "requests_served": len(served),
        "servers_ms_per_visit": used["servers_ms_per_turn"],
        "database_ms_per_visit": used["database_ms_per_turn"],
        "request_ms": _latency([1000 * s for s in served]),
    }


async def _load_sampler(phases: Phases) -> None:
    while True:
        phases.load[phases.now].append([round(x, 2) for x in os.getloadavg()])
        await asyncio.sleep(LOAD_EVERY)


class Meter:
    """The CPU times of the servers, the database and the clients, read at a moment."""

    def __init__(self, pids: list[int], database: Callable[[], float] | None) -> None:
        self.pids, self.database = pids, database
        self.at = time.perf_counter()
        self.servers = [_cpu_s(pid) for pid in pids]
        self.database_s = database() if database else None
        self.clients = _own_cpu_s()

    def since(self, before: Meter, turns: int) -> Json:
        """The CPU time used from ``before`` to this reading, and per turn measured."""
        servers = [a - b for a, b in zip(self.servers, before.servers, strict=True)]
        database = (
            None
            if self.database_s is None or before.database_s is None
            else self.database_s - before.database_s
        )

        def per_turn(seconds: float | None) -> float | None:
            return None if seconds is None or not turns else round(1000 * seconds / turns, 2)

        return {
            "wall_s": round(self.at - before.at, 1),
            "servers_s": [round(s, 2) for s in servers],
            "database_s": None if database is None else round(database, 2),
            "clients_s": round(self.clients - before.clients, 2),
            "servers_ms_per_turn": per_turn(sum(servers)),
            "database_ms_per_turn": per_turn(database),
        }


def _latency(ms: list[float]) -> Json:
    ms = sorted(ms)
    return {
        "turns": len(ms),
        "p50": round(statistics.median(ms), 1) if ms else None,
        "p99": round(float(np.percentile(ms, 99)), 1) if ms else None,
        "max": round(ms[-1], 1) if ms else None,
    }


def _database_bytes(url: str) -> int | None:
    """The database's size on disk: PostgreSQL's ``pg_database_size``, SQLite's file."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        return path.stat().st_size if path.exists() else None
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            size = conn.execute(sqlalchemy.text("SELECT pg_database_size(current_database())"))
            return int(size.scalar_one())
    finally:
        engine.dispose()


def capacity(
    servers_ms: float,
    database_ms: float | None,
    game_ms: float | None,
    memory_kb: float | None,
    database_kb: float | None,
    live_ms: float | None = None,
) -> Json:
    """``docs/deploy.md``'s capacity table from the CPU time a turn played costs the
    servers (``servers_ms``) and the database (``database_ms``), and a game made and
    connected (``game_ms``), as a burst measures them: the turns one core resolves a
    second, the active games a process carries at each of :data:`PACES` (at :data:`BUSY`
    of its core), the processes (and the database's cores) :data:`FLEETS` of active games
    need, and the memory an open game takes."""
    per_core = 1000 / servers_ms
    database = database_ms or 0.0

    def needed(games: int, every_s: float, ms: float) -> float:
        return games / every_s * ms / 1000 / BUSY

    return {
        "servers_cpu_ms_per_turn": round(servers_ms, 2),
        "database_cpu_ms_per_turn": None if database_ms is None else round(database_ms, 2),
        "turns_per_s_per_core": {
            "server_process": round(per_core, 1),
            "with_its_database": round(1000 / (servers_ms + database), 1),
        },
        "active_games_per_process": {
            pace: int(per_core * every * BUSY) for pace, every in PACES.items()
        },
        "processes_needed": {
            str(games): {
                pace: max(1, int(np.ceil(needed(games, every, servers_ms))))
                for pace, every in PACES.items()
            }
            for games in FLEETS
        },
        "processes_needed_at_live_cost": None
        if not live_ms
        else {
            str(games): {
                pace: max(1, int(np.ceil(needed(games, every, live_ms))))
                for pace, every in PACES.items()
            }
            for games in FLEETS
        },
        "live_servers_cpu_ms_per_turn": live_ms,
        "database_cores_needed": {
            str(games): {
                pace: round(needed(games, every, database), 2) for pace, every in PACES.items()
            }
            for games in FLEETS
        },
        "servers_cpu_ms_per_game_made": game_ms,
        "memory_per_open_game_kb": {"server": memory_kb, "database": database_kb},
        "what": "from the CPU time of a turn played (turn_cost: both plans, the turn "
        "resolved and stored, the results sent over both sockets; a game's making and "
        "its seats' connecting apart, servers_cpu_ms_per_game_made); a process is one "
        f"core at most (Python's lock) and is counted at {BUSY:.0%} of it, the rest "
        "headroom for turns that come together; the database's cores are apart (its own "
        "processes); memory: what each server grew per waiting game from the active-alone "
        "phase to every "
        "game open (mean of the processes), and the database's size per open game; "
        "at live cost: from the servers' CPU time per turn of the active-alone phase "
        "(thinking time, each turn alone, the ended games' replacements made and "
        "connected: what live play cost here, live_servers_cpu_ms_per_turn)",
    }


async def _run(
    bases: list[str],
    pids: list[int],
    database_cpu: Callable[[], float] | None,
    open_games: int,
    active: int,
    seconds: float,
    visits: float,
    cards: list[str],
    say: Callable[[str], None],
    think: tuple[float, float],
) -> Json:
    phases = Phases(think)
    numbers = itertools.count()
    sampler = asyncio.create_task(_load_sampler(phases))
    slots = [asyncio.create_task(_slot(phases, numbers, bases, cards)) for _ in range(active)]
    marks: dict[str, Meter] = {}
    memory: dict[str, list[Json]] = {}
    turns: dict[str, int] = {}
    out: Json = {}
    waiting: list[tuple[str, str, str, str]] = []
    try:
        # every pair of players has its first game made and its sockets open
        ramp_end = time.monotonic() + RAMP_MAX
        while phases.games_started < active and time.monotonic() < ramp_end:
            await asyncio.sleep(0.2)
        for name, work in (("alone", None), ("making", "make"), ("open", "visit")):
            phases.now = name
            say(f"phase {name} ({phases.games_started} live games started so far)")
            marks[name] = Meter(pids, database_cpu)
            if work is None:
                await asyncio.sleep(seconds)
            elif work == "make":
                phases.playing.clear()
                waiting = await _make(phases, bases, max(0, open_games - active), say)
                phases.playing.set()
                out["waiting_made"] = len(waiting)
            else:
                served: list[float] = []
                out["visits"] = await _visitors(phases, waiting, visits, seconds, served)
                out["visit_requests_served"] = len(served)
                out["visit_request_ms"] = _latency([1000 * s for s in served])
            turns[name] = len(phases.latencies[name])
            out.setdefault("cpu", {})[name] = Meter(pids, database_cpu).since(
                marks[name], turns[name]
            )
            if name in ("alone", "open"):
                memory[name] = [_memory_mb(pid, unique=True) for pid in pids]
            phases.load[name].append([round(x, 2) for x in os.getloadavg()])
        # what a player coming back costs, measured alone: the live players pause (the
        # turns under way end first)
        phases.playing.clear()
        await asyncio.sleep(SETTLE)
        out["visit_cost"] = await _visit_cost(phases, waiting[-VISIT_COST:], pids, database_cpu)
    finally:
        phases.stopping = True
        sampler.cancel()
        for slot in slots:
            slot.cancel()
        await asyncio.gather(sampler, *slots, return_exceptions=True)
    out["phases"] = phases
    out["memory"] = memory
    return out


def run(
    open_games: int = 10_000,
    active: int = 500,
    processes: int = 2,
    db: str | None = None,
    seconds: float = SECONDS,
    visits: float = VISITS,
    burst: int = BURST,
    say: Callable[[str], None] = lambda what: None,
    think: tuple[float, float] = HUMAN_THINK,
) -> Json:
    """The run (see the module's text) after a burst of ``burst`` games on servers and a
    database of their own (:func:`dogfight.bench.server.run`: every seat of every game
    submitting at once, four turns), which gives the CPU time of a turn played, the
    turns alone, that :func:`capacity` starts from; the report."""
    from dogfight.bench.server import run as run_burst

    say(f"a burst of {burst} games: the CPU time of a turn")
    turns = run_burst(
        games=burst, turns=4, think=(0.0, 0.0), processes=processes, db=db, serve_args=DEPLOYED
    )

    cards = camel_cards()
    began = time.perf_counter()
    with (
        _database(processes, db) as (url, kind, database_cpu),
        _servers(url, processes, args=DEPLOYED) as (bases, procs),
    ):
        pids = [p.pid for p in procs]
        started = [_memory_mb(pid, unique=True) for pid in pids]
        load_before = [round(x, 2) for x in os.getloadavg()]
        got = client_loop(
            _run(bases, pids, database_cpu, open_games, active, seconds, visits, cards, say, think)
        )
        stored = _database_bytes(url)
    phases: Phases = got["phases"]
    memory = got["memory"]
    errors = [e for name in Phases.NAMES for e in phases.errors[name]] + [
        f"burst: {e}" for e in turns["first_errors"]
    ]
    ratios = [
        round(o["rss_mb"] / a["rss_mb"], 3) if a.get("rss_mb") and o.get("rss_mb") else None
        for a, o in zip(memory.get("alone", []), memory.get("open", []), strict=True)
    ]
    unique_ratios = [
        round(o["uss_mb"] / a["uss_mb"], 3) if a.get("uss_mb") and o.get("uss_mb") else None
        for a, o in zip(memory.get("alone", []), memory.get("open", []), strict=True)
    ]
    open_latency = _latency([1000 * x for x in phases.latencies["open"]])
    waiting = got.get("waiting_made", 0)
    grown_kb = (
        statistics.mean(
            1024 * (o["rss_mb"] - a["rss_mb"]) / waiting
            for a, o in zip(memory["alone"], memory["open"], strict=True)
        )
        if waiting and "open" in memory
        else None
    )
    samples = [s for name in Phases.NAMES for s in phases.load[name]]
    making = got["cpu"].get("making", {})
    report: Json = {
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
        },
        "scenario": {
            "open_games": open_games,
            "active_games": active,
            "waiting_games": max(0, open_games - active),
            "processes": processes,
            "database": kind,
            "seconds_per_phase": seconds,
            "visits_per_s": visits,
            "think_time_s": list(think),
            "live_table_cm": LIVE_TABLE,
            "serve_args": list(DEPLOYED),
        },
        "wall_s": round(time.perf_counter() - began, 1),
        "latency_ms": {
            "open": open_latency,
            "alone": _latency([1000 * x for x in phases.latencies["alone"]]),
            "making": _latency([1000 * x for x in phases.latencies["making"]]),
            "what": "the active games' turns, by the phase they ended in: from sending the "
            "turn's last plan to every seat of the game having the turn's result on its "
            "WebSocket; the targets are judged on the open phase (every game open)",
        },
        "live_games": {"started": phases.games_started, "ended": phases.games_ended},
        "making": {
            "games": waiting,
            "wall_s": making.get("wall_s"),
            "games_per_s": round(waiting / making["wall_s"], 1)
            if waiting and making.get("wall_s")
            else None,
            "servers_ms_per_game": round(1000 * sum(making["servers_s"]) / waiting, 2)
            if waiting and making
            else None,
            "how": f"POST /api/games {{'preset': 'duel'}}, {MAKERS} keep-alive connections "
            "per process at once; the live players pause meanwhile (a turn under way ends, "
            "the sockets stay open), so that the making is measured alone",
        },
        "idle_players": {
            "cost": got.get("visit_cost"),
            "visits": got.get("visits", 0),
            "requests_served": got.get("visit_requests_served", 0),
            "request_ms": got.get("visit_request_ms"),
            "what": "in the open phase, waiting games' players coming back (each game at "
            "most once): a new connection, GET /play/<game> and GET the seat's view, closed; "
            f"cost: after it, {VISIT_COST} more, eight at a time, the live players paused: "
            "the CPU time of the servers and the database per visit",
        },
        "cpu_s": {
            **got["cpu"],
            "what": "each phase's CPU time (user + system, /proc) of the server processes, "
            "the database cluster's processes (when the bench made it) and the clients' "
            "one process, and per turn of the active games measured in the phase (the "
            "open phase's includes the idle players' requests, the making phase's the "
            "making)",
        },
        "server_memory_mb": [
            {"started": s, "alone": a, "open": o}
            for s, a, o in zip(
                started, memory.get("alone", []), memory.get("open", []), strict=True
            )
        ],
        "memory_ratio": {
            "rss": ratios,
            "uss": unique_ratios,
            "what": "each server's memory with every game open (the end of the open "
            "phase) over its memory with the active games alone (the end of the first "
            "phase): resident (rss) and unique (uss) set",
        },
        "database_bytes": stored,
        "load_average": {
            "before": load_before,
            "samples": {name: phases.load[name] for name in Phases.NAMES},
            "max_1_min": max((s[0] for s in samples), default=None),
            "max_5_min": max((s[1] for s in samples), default=None),
            "what": f"os.getloadavg() (1, 5, 15 minutes) every {LOAD_EVERY:g} s and at "
            "each phase's end",
        },
        "turn_cost": {
            "games": burst,
            "turns_measured": turns["turns_measured"],
            "servers_ms_per_turn_played": turns["cpu_s"]["servers_ms_per_turn_played"],
            "database_ms_per_turn_played": turns["cpu_s"]["database_ms_per_turn_played"],
            "servers_ms_per_game_made": turns["cpu_s"]["servers_ms_per_game_made"],
            "latency_ms": {k: turns["latency_ms"][k] for k in ("p50", "p99", "max")},
            "load_average": [
                turns["machine"]["load_average_before"],
                turns["machine"]["load_average_after"],
            ],
            "errors": turns["errors"],
            "what": f"before the run, on servers and a database of their own: a burst of "
            f"{burst} duels (every seat of every game submitting at once, 4 turns, "
            "dogfight bench --server --burst): the servers' and the database's CPU time "
            "over the turns played, the making of the games and their sockets apart "
            "(servers_ms_per_game_made)",
        },
        "errors": len(errors),
        "errors_by_phase": {
            "turn_cost": turns["errors"],
            **{name: len(phases.errors[name]) for name in Phases.NAMES},
        },
        "first_errors": errors[:5],
        "targets": {
            "latency_p99_ms": P99_TARGET_MS,
            "memory_ratio": RATIO_TARGET,
            "errors": 0,
        },
        "meets_targets": {
            "latency_p99_ms": open_latency["p99"] is not None
            and open_latency["p99"] <= P99_TARGET_MS,
            "memory_ratio": bool(ratios)
            and all(r is not None and r <= RATIO_TARGET for r in ratios),
            "errors": not errors,
        },
    }
    if turns["cpu_s"]["servers_ms_per_turn_played"]:
        report["capacity"] = capacity(
            turns["cpu_s"]["servers_ms_per_turn_played"],
            turns["cpu_s"]["database_ms_per_turn_played"],
            turns["cpu_s"]["servers_ms_per_game_made"],
            None if grown_kb is None else round(grown_kb, 2),
            None if stored is None else round(stored / 1024 / (waiting + phases.games_started), 2),
            got["cpu"].get("alone", {}).get("servers_ms_per_turn"),
        )
    return report
