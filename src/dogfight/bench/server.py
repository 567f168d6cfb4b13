"""``dogfight bench --server``: the browser game's server under many concurrent games.

Real ``dogfight serve`` processes run on 127.0.0.1 (one on a fresh SQLite file, or
several on one PostgreSQL database: a throwaway cluster unless ``--db`` names one);
scripted clients play airplane duels over the same HTTP and WebSocket API the page uses,
every game at once. For each turn the latency is the time from sending the turn's last
plan to every seat of that game having received the result over its WebSocket. With
several processes each seat's socket is on one process and its plans go to another (as
behind a load balancer), so every result crosses processes through PostgreSQL's
NOTIFY. Errors are refused requests, lost connections and results that never came (60
s). The servers' memory (resident and peak) and CPU time are read from /proc.

The scripted clients are one light process sharing the machine with the servers: one
asyncio loop (uvloop when installed), each seat with its own keep-alive HTTP/1.1
connection (a few lines over asyncio streams: a general client's connection pool costs
more than the server it measures, and grows with the square of the connections) and its
WebSocket (:mod:`dogfight.bench.ws_client`, for the same reason). The connection is
opened as a tab opens it, by loading the game's page (``GET /play/<game>``) when the
game is made: a seat's first plan, as a browser's, goes over a connection already open
(before, a burst's first turn also timed 400 connections being opened at once). Their CPU time is
reported beside the servers', so a reader can see whether the clients were the
bottleneck.

Scenarios and targets (issues 13 and 16): 500 games with thinking time on one process
(p99 ≤ 500 ms); bursts, every seat of 50 or of 200 games submitting at the same moment,
turn after turn (p99 ≤ 100 ms, ≤ 300 ms); 500 games on two processes sharing PostgreSQL
(p99 ≤ 300 ms); 0 errors everywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import platform
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
import numpy as np

from dogfight.bench.ws_client import WebSocket

Json = dict[str, Any]
T = TypeVar("T")

THINK = (0.2, 2.0)
"""Seconds a scripted player waits before sending each plan (uniform): the games run at
once, their players do not all click in the same millisecond."""

RAMP = 5.0
"""With thinking time, games arrive over this many seconds (not all in one instant)."""

RESULT_TIMEOUT = 60.0


def camel_cards() -> list[str]:
    """The Sopwith Camel's maneuver cards but climb and dive: any three distinct ones are
    a legal plan for either airplane of a duel (the scripted players draw from them)."""
    from dogfight.catalog import load_catalog

    catalog = load_catalog()
    deck = catalog.maneuver_decks[catalog.airplanes["sopwith-camel"].maneuver_deck]
    return [c.id for c in deck.cards if c.symbol.value not in ("climb", "dive")]


def target_p99(games: int, burst: bool, processes: int) -> float:
    """The p99 latency target (ms) of a scenario."""
    if burst:
        return 100.0 if games <= 50 else 300.0
    return 300.0 if processes > 1 else 500.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _memory_mb(pid: int, unique: bool = False) -> dict[str, float]:
    """Resident and peak resident memory of a process (Linux), in MB; with ``unique``
    also its unique set (``uss_mb``: the pages only this process maps, private clean and
    dirty, from ``smaps_rollup``: what ending it would give back, its shared libraries
    left out; reading it walks the process's page tables, a few milliseconds)."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                name, value = line.split(":", 1)
                out["rss_mb" if name == "VmRSS" else "peak_rss_mb"] = round(
                    int(value.split()[0]) / 1024, 1
                )
    if unique:
        with contextlib.suppress(OSError):
            private = sum(
                int(line.split()[1])
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
                if line.startswith(("Private_Clean:", "Private_Dirty:"))
            )
            out["uss_mb"] = round(private / 1024, 1)
    return out


def _cpu_s(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class HttpError(Exception):
    """A refused request (4xx, 5xx) or a broken connection."""


class Http:
    """One keep-alive HTTP/1.1 connection to a server, as a browser tab holds: requests
    one after the other, a JSON body in and out. Opened again when the server closed it
    or after :data:`IDLE` seconds unused (well before ``dogfight serve`` closes an idle
    connection, ``KEEP_ALIVE``: a request must not cross the server's closing). An answer
    that has not come in :data:`RESULT_TIMEOUT` seconds is an error (never a wait for
    ever)."""

    IDLE = 20.0

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0
        self.sent = 0.0
        """When the last request was written to the connection (``time.perf_counter``):
        a turn's latency counts from its plans' writing, as a tab's would, not from when
        this one process, standing in for every tab, got round to them."""

    async def request(
        self,
        method: str,
        path: str,
        body: Json | None = None,
        token: str | None = None,
        *,
        page: bool = False,
    ) -> Json:
        """One request; its JSON answer (``page``: an HTML page, read and not parsed)."""
        if self.writer is not None and time.monotonic() - self.used > self.IDLE:
            self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            + (f"X-Seat-Token: {token}\r\n" if token else "")
            + "\r\n"
        )
        try:
            self.sent = time.perf_counter()
            self.writer.write(head.encode() + data)
            async with asyncio.timeout(RESULT_TIMEOUT):
                head_read = await self.reader.readuntil(b"\r\n\r\n")
            lines = head_read.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            length, close = 0, False
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "connection" and value.strip().lower() == "close":
                    close = True
            payload = await self.reader.readexactly(length)
        except TimeoutError:
            self.close()
            raise HttpError(f"{method} {path}: no answer in {RESULT_TIMEOUT:g} s") from None
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__}: {exc}") from None
        self.used = time.monotonic()
        if close:
            self.close()
        if status >= 400:
            raise HttpError(f"{method} {path}: {status} {payload[:120]!r}")
        out: Json = json.loads(payload) if payload and not page else {}
        return out

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Seat:
    def __init__(
        self, game: str, seat: str, token: str, vehicle: str, home: str, post_to: str
    ) -> None:
        self.game, self.seat, self.token, self.vehicle = game, seat, token, vehicle
        self.home = home
        """The process its socket is connected to."""
        self.http = Http(post_to)
        """Its connection to the process its plans go to."""
        self.turn_seen = 1
        self.over = False
        self.dropped = False
        """Its socket was closed before the game's end (an error, told at once)."""
        self.changed = asyncio.Event()


async def _listen(url: str, seat: Seat, connected: asyncio.Event) -> None:
    # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation that
    # comes as the connection opens, and the stopped seat then listened for ever
    async with asyncio.timeout(RESULT_TIMEOUT):
        ws = await WebSocket.connect(url)
    try:
        await ws.send(json.dumps({"seat": seat.seat, "token": seat.token, "since": 0}))
        while (raw := await ws.recv()) is not None:
            view = json.loads(raw)
            if view.get("type") != "view":
                continue
            connected.set()
            stage = view["stage"]
            seat.over = stage["kind"] == "over"
            if stage["kind"] == "planning":
                seat.turn_seen = stage["turn"]
            seat.changed.set()
            if seat.over:
                await ws.close_handshake()
                return
        seat.dropped = True
        seat.changed.set()
    finally:
        ws.close()


class SocketDropped(Exception):
    """A seat's WebSocket was closed by the server before the game's end."""


async def _wait(seat: Seat, turn: int) -> None:
    while not (seat.over or seat.turn_seen > turn):
        if seat.dropped:
            raise SocketDropped(f"game {seat.game}, seat {seat.seat}: socket closed at turn {turn}")
        seat.changed.clear()
        await seat.changed.wait()


class Game:
    """One scripted duel: two seats, sockets on one process, plans sent to the next."""

    def __init__(
        self, index: int, bases: list[str], cards: list[str], body: Json | None = None
    ) -> None:
        self.index = index
        self.bases = bases
        self.cards = cards
        self.body = body or {"preset": "duel"}
        """What its ``POST /api/games`` sends."""
        self.rng = np.random.default_rng(index)
        self.seats: list[Seat] = []
        self.listeners: list[asyncio.Task[None]] = []
        self.latencies: list[float] = []
        self.errors: list[str] = []

    @property
    def over(self) -> bool:
        return any(s.over for s in self.seats) or bool(self.errors)

    async def start(self) -> None:
        base = self.bases[self.index % len(self.bases)]
        maker = Http(base)
        try:
            made = await maker.request("POST", "/api/games", self.body)
        finally:
            maker.close()
        game = made["game"]["id"]
        for j, s in enumerate(made["seats"]):
            home = self.bases[(self.index + j) % len(self.bases)]
            # the plans go to another process than the seat's socket (when there are several)
            post_to = self.bases[(self.bases.index(home) + 1) % len(self.bases)]
            self.seats.append(Seat(game, s["id"], s["token"], s["vehicles"][0], home, post_to))
        # each seat's tab loads the game's page over the connection its plans then use
        # (a browser's keep-alive connection: the first plan does not open one)
        await asyncio.gather(
            *(s.http.request("GET", f"/play/{game}", page=True) for s in self.seats)
        )
        connected = [asyncio.Event() for _ in self.seats]
        for seat, ready in zip(self.seats, connected, strict=True):
            url = seat.home.replace("http://", "ws://") + f"/api/games/{game}/ws"
            self.listeners.append(asyncio.create_task(_listen(url, seat, ready)))
        async with asyncio.timeout(RESULT_TIMEOUT):
            await asyncio.gather(*(e.wait() for e in connected))

    async def _send(self, seat: Seat, turn: int) -> None:
        plan = {"cards": [str(c) for c in self.rng.choice(self.cards, size=3, replace=False)]}
        await seat.http.request(
            "POST",
            f"/api/games/{seat.game}/seats/{seat.seat}/plans?answer=update",
            {"turn": turn, "plans": {seat.vehicle: plan}},
            seat.token,
        )

    async def turn(self, turn: int, think: tuple[float, float]) -> None:
        """Play one turn: with thinking time the seats send one after the other, else
        all at once. Records the latency, or the error."""
        if self.over:
            return
        try:
            if think == (0.0, 0.0):
                await asyncio.gather(*(self._send(s, turn) for s in self.seats))
            else:
                for seat in self.seats:
                    await asyncio.sleep(float(self.rng.uniform(*think)))
                    await self._send(seat, turn)
            # from the writing of the turn's last plan (in a burst both are written in
            # one pass of the clients' loop)
            began = max(seat.http.sent for seat in self.seats)
            async with asyncio.timeout(RESULT_TIMEOUT):
                await asyncio.gather(*(_wait(s, turn) for s in self.seats))
            self.latencies.append(time.perf_counter() - began)
        except Exception as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}"[:200])

    async def stop(self) -> None:
        for seat in self.seats:
            seat.http.close()
        for task in self.listeners:
            task.cancel()
        await asyncio.gather(*self.listeners, return_exceptions=True)


async def _run_games(
    bases: list[str],
    games: int,
    turns: int,
    cards: list[str],
    think: tuple[float, float],
    ready: Callable[[], None] = lambda: None,
) -> list[Game]:
    """Play the games; in a burst ``ready()`` is called once every game is made, just
    before the first turn."""
    played = [Game(i, bases, cards) for i in range(games)]
    burst = think == (0.0, 0.0)

    async def arrive(game: Game) -> None:
        if not burst:
            await asyncio.sleep(float(game.rng.uniform(0, RAMP)))
        try:
            await game.start()
        except Exception as exc:
            game.errors.append(f"start: {type(exc).__name__}: {exc}"[:200])

    async def play(game: Game) -> None:
        await arrive(game)
        for turn in range(1, turns + 1):
            await game.turn(turn, think)

    try:
        if burst:
            # every game ready, then each turn every seat of every game at once
            await asyncio.gather(*(arrive(g) for g in played))
            ready()
            for turn in range(1, turns + 1):
                await asyncio.gather(*(g.turn(turn, think) for g in played))
        else:
            await asyncio.gather(*(play(g) for g in played))
    finally:
        await asyncio.gather(*(g.stop() for g in played))
    return played


def _play(
    bases: list[str],
    games: int,
    turns: int,
    cards: list[str],
    think: tuple[float, float],
    ready: Callable[[], None] = lambda: None,
) -> list[Game]:
    """Play the games on the clients' event loop (:func:`client_loop`)."""
    return client_loop(_run_games(bases, games, turns, cards, think, ready))


def client_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the clients' coroutine ``main`` on their event loop: uvloop when installed
    (as the servers' is), with Python's cycle collector off while the games are played
    (see :func:`_no_collector`)."""
    with _no_collector():
        try:
            import uvloop
        except ImportError:
            return asyncio.run(main)
        return uvloop.run(main)


@contextlib.contextmanager
def _no_collector() -> Iterator[None]:
    """Python's cycle collector off in the clients' process while they play (garbage in
    reference cycles is collected after). On: as 500 games' seats, sockets and
    connections piled up, its full collections walked every one of them, each holding up
    every seat's reading for 0.1 to 1.3 s (measured under load), which the latency
    counted as the servers' — most of them in the seconds the games were being made.
    The garbage is left to the collector's next turn, not collected in the timing."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextlib.contextmanager
def _servers(
    db: str,
    processes: int,
    floor: bool = False,
    env: dict[str, str] | None = None,
    start_s: float = 120.0,
    wrap: Callable[[list[str]], list[str]] | None = None,
    args: Sequence[str] = (),
) -> Iterator[tuple[list[str], list[subprocess.Popen[bytes]]]]:
    """``processes`` ``dogfight serve`` processes on ``db`` (with ``floor``: the canned
    server of :mod:`dogfight.bench.floor` instead), with ``env`` added to their
    environment and ``args`` to their command, each given ``start_s`` seconds to answer;
    their base URLs. ``wrap`` makes each server's command
    (:meth:`dogfight.bench.callgrind.Callgrind.command`)."""
    ports = [_free_port() for _ in range(processes)]
    serve = [
        *(sys.executable, "-m", "dogfight", "serve", "--db", db, "--host", "127.0.0.1"),
        *args,
        *("--games-per-minute", "0", "--port"),
    ]
    started = [
        subprocess.Popen(
            (wrap or list)(
                [sys.executable, "-m", "dogfight.bench.floor", str(port)]
                if floor
                else [*serve, str(port)]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=None if env is None else {**os.environ, **env},
        )
        for port in ports
    ]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        deadline = time.monotonic() + start_s
        for base, process in zip(bases, started, strict=True):
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("a benchmark server did not start")
                time.sleep(0.1)
        yield bases, started
    finally:
        for process in started:
            process.terminate()
        for process in started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            if process.poll() is None:
                process.kill()


@contextlib.contextmanager
def _database(
    processes: int, db: str | None
) -> Iterator[tuple[str, str, Callable[[], float] | None]]:
    """The database URL, what it is, and how to read the CPU time of the database
    server when it is the benchmark's own (None: in the servers, or not ours): ``db``,
    else a fresh SQLite file (one process) or a throwaway PostgreSQL cluster (several)."""
    if db is not None:
        yield db, "given", None
        return
    if processes == 1:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite'}", "sqlite", None
        return
    from dogfight.bench.pgcluster import Cluster

    cluster = Cluster()
    try:
        yield cluster.new_database(), "postgresql (throwaway cluster)", cluster.cpu_s
    finally:
        cluster.stop()


def run(
    games: int = 500,
    turns: int = 4,
    think: tuple[float, float] = THINK,
    processes: int = 1,
    db: str | None = None,
    floor: bool = False,
    instructions: bool = False,
    serve_args: Sequence[str] = (),
) -> dict[str, Any]:
    """Serve, play ``games`` duels at once for up to ``turns`` turns, report latencies
    (``think``: each player's pause before a plan; (0, 0): a burst, every seat of every
    game at once, turn after turn). ``floor``: against the canned server of
    :mod:`dogfight.bench.floor` (one process, no database): what the harness alone costs.
    ``instructions`` (a burst): the servers run under callgrind
    (:mod:`dogfight.bench.callgrind`), which counts the instructions they execute while
    the turns are played (``instructions``); their latencies and CPU times are then
    callgrind's, fifty times slower, and say nothing. ``serve_args``: added to each
    server's command (``--log-format json``...)."""
    cards = camel_cards()
    counter = None
    if instructions:
        from dogfight.bench.callgrind import Callgrind

        counter = Callgrind()
    with (
        _database(1 if floor else processes, db) as (url, kind, database_cpu),
        _servers(
            url,
            1 if floor else processes,
            floor,
            start_s=900.0 if counter else 120.0,
            wrap=None if counter is None else counter.command,
            args=serve_args,
        ) as (bases, procs),
    ):
        idle = [_memory_mb(p.pid) for p in procs]
        load_before = [round(x, 2) for x in os.getloadavg()]
        database_before = database_cpu() if database_cpu else 0.0
        servers_before = [_cpu_s(p.pid) for p in procs]
        clients_before = _own_cpu_s()
        servers_ready: list[float] = []
        database_ready: list[float] = []

        def ready() -> None:
            servers_ready.extend(_cpu_s(p.pid) for p in procs)
            if database_cpu:
                database_ready.append(database_cpu())
            if counter is not None:
                for process in procs:
                    counter.zero(process.pid)

        began = time.perf_counter()
        played = _play(bases, games, turns, cards, think, ready)
        elapsed = time.perf_counter() - began
        clients_cpu = _own_cpu_s() - clients_before
        servers_after = [_cpu_s(p.pid) for p in procs]
        servers_cpu = [a - b for a, b in zip(servers_after, servers_before, strict=True)]
        database_after = database_cpu() if database_cpu else None
        database_used = None if database_after is None else database_after - database_before
        loaded = [_memory_mb(p.pid) for p in procs]
        counted = None
        if counter is not None:
            try:
                counted = [counter.dump(p.pid) for p in procs] if servers_ready else None
            finally:
                counter.close()
    ms = sorted(x * 1000 for g in played for x in g.latencies)
    errors = [e for g in played for e in g.errors]
    p99 = float(np.percentile(ms, 99)) if ms else 0.0
    burst = think == (0.0, 0.0)
    target = target_p99(games, burst, processes)
    report: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "load_average_before": load_before,
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        },
        "scenario": {
            "games": games,
            "processes": 1 if floor else processes,
            "database": "none (the canned floor server, dogfight.bench.floor)" if floor else kind,
            "burst": burst,
            "floor": floor,
            "think_time_s": list(think),
        },
        "turns_measured": len(ms),
        "wall_s": round(elapsed, 2),
        "latency_ms": {
            "p50": round(statistics.median(ms), 2) if ms else None,
            "p99": round(p99, 2),
            "max": round(ms[-1], 2) if ms else None,
            "what": "per game and turn: from sending the turn's last plan (in a burst: "
            "from sending both at once) to every seat of the game having the turn's result "
            "(the view of the next turn, or of the end) on its WebSocket",
        },
        "cpu_s": {
            "servers": [round(c, 2) for c in servers_cpu],
            "clients": round(clients_cpu, 2),
            "database": None if database_used is None else round(database_used, 2),
            "database_ms_per_turn": round(1000 * database_used / len(ms), 2)
            if ms and database_used is not None
            else None,
            "database_ms_per_turn_played": round(
                1000 * (database_after - database_ready[0]) / len(ms), 2
            )
            if ms and database_after is not None and database_ready
            else None,
            "servers_ms_per_turn": round(1000 * sum(servers_cpu) / len(ms), 2) if ms else None,
            "servers_ms_per_turn_played": round(
                1000 * (sum(servers_after) - sum(servers_ready)) / len(ms), 2
            )
            if ms and servers_ready
            else None,
            "servers_ms_per_game_made": round(
                1000 * (sum(servers_ready) - sum(servers_before)) / games, 2
            )
            if servers_ready
            else None,
            "what": "CPU time during the games (creating them included); the clients are "
            "one process on the same machine; per turn: the servers' CPU time over the turns "
            "measured (what the games cost the servers, whatever else the machine was doing); "
            "in a burst, where every game is made before the first turn, also split into the "
            "turns alone (per turn played) and the making of the games and their sockets "
            "(per game made); database: the throwaway PostgreSQL cluster's processes "
            "(every backend), on the same CPUs, not counted in the servers' figures (per "
            "turn played: the turns alone, as the servers')",
        },
        "errors": len(errors),
        "first_errors": errors[:5],
        "server_memory_mb": [{"idle": i, "after": a} for i, a in zip(idle, loaded, strict=True)],
        "targets": {"latency_p99_ms": target, "errors": 0},
        "meets_targets": {
            "latency_p99_ms": bool(ms) and p99 <= target,
            "errors": not errors,
        },
    }
    if counter is not None:
        report["instructions"] = {
            "servers": counted,
            "servers_per_turn_played": round(sum(counted) / len(ms)) if counted and ms else None,
            "what": "instructions (Ir) the servers executed while the turns were played "
            "(every thread; the making of the games left out), counted by valgrind's "
            "callgrind, over the turns measured; the run's latencies and CPU times are "
            "callgrind's (about fifty times slower) and say nothing",
        }
    return report


def repeated(runs: int, **scenario: Any) -> dict[str, Any]:
    """``runs`` runs of :func:`run` on ``scenario``, one after the other, judged on the
    median of their p99s: the issue's targets are this machine's medians, and on a shared
    machine one burst's p99 moves by a third from one run to the next. Every run's
    report is kept whole (``each``); one run is reported as :func:`run` reports it."""
    reports = [run(**scenario) for _ in range(runs)]
    if runs == 1:
        return reports[0]
    p99s = [r["latency_ms"]["p99"] for r in reports]
    median = statistics.median(p99s)
    target = reports[0]["targets"]["latency_p99_ms"]
    cpu = [r["cpu_s"]["servers_ms_per_turn_played"] for r in reports]
    return {
        "scenario": reports[0]["scenario"],
        "runs": runs,
        "latency_p99_ms": {
            "median": round(median, 2),
            "each": p99s,
            "what": "each run's p99 (see each[].latency_ms), and their median",
        },
        "servers_cpu_ms_per_turn_played": {
            "median": statistics.median(cpu) if None not in cpu else None,
            "each": cpu,
            "what": "each run's cpu_s.servers_ms_per_turn_played, and their median",
        },
        "errors": sum(r["errors"] for r in reports),
        "targets": reports[0]["targets"],
        "meets_targets": {
            "latency_p99_ms": median <= target and all(r["turns_measured"] for r in reports),
            "errors": all(r["errors"] == 0 for r in reports),
        },
        "each": reports,
    }
