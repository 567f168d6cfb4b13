"""``dogfight bench --server``: the browser game's server under 50 concurrent games.

A real ``dogfight serve`` process runs on 127.0.0.1 with a fresh SQLite file; scripted
clients play airplane duels over the same HTTP and WebSocket API the page uses, every
game at once. For each turn the latency is the time from sending the turn's last plan
to every seat of that game having received the result over its WebSocket. The server's
memory (resident and peak) is read from /proc.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np

TARGETS = {"latency_p99_ms": 100.0}

Json = dict[str, Any]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _memory_mb(pid: int) -> dict[str, float]:
    """Resident and peak resident memory of a process (Linux), in MB."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                name, value = line.split(":", 1)
                out["rss_mb" if name == "VmRSS" else "peak_rss_mb"] = round(
                    int(value.split()[0]) / 1024, 1
                )
    return out


class Seat:
    def __init__(self, game: str, seat: str, token: str, vehicle: str) -> None:
        self.game, self.seat, self.token, self.vehicle = game, seat, token, vehicle
        self.turn_seen = 1
        self.over = False
        self.changed = asyncio.Event()


async def _listen(url: str, seat: Seat) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"seat": seat.seat, "token": seat.token, "since": 0}))
        async for raw in ws:
            view = json.loads(raw)
            if view.get("type") != "view":
                continue
            stage = view["stage"]
            seat.over = stage["kind"] == "over"
            if stage["kind"] == "planning":
                seat.turn_seen = stage["turn"]
            seat.changed.set()
            if seat.over:
                return


async def _wait(seat: Seat, turn: int) -> None:
    while not (seat.over or seat.turn_seen > turn):
        seat.changed.clear()
        await seat.changed.wait()


async def _play(
    client: httpx.AsyncClient,
    base: str,
    index: int,
    cards: list[str],
    turns: int,
    think: tuple[float, float],
) -> list[float]:
    made = (
        await client.post("/api/games", json={"preset": "duel", "seed": index, "analysis": True})
    ).json()
    game = made["game"]["id"]
    seats = [Seat(game, s["id"], s["token"], s["vehicles"][0]) for s in made["seats"]]
    ws_base = base.replace("http://", "ws://")
    listeners = [asyncio.create_task(_listen(f"{ws_base}/api/games/{game}/ws", s)) for s in seats]
    rng = np.random.default_rng(index)
    latencies: list[float] = []
    try:
        for turn in range(1, turns + 1):
            if any(s.over for s in seats):
                break
            for i, seat in enumerate(seats):
                plan = {"cards": [str(c) for c in rng.choice(cards, size=3, replace=False)]}
                last = i == len(seats) - 1
                # a player thinks before clicking "Submit" (0 for a burst test)
                await asyncio.sleep(float(rng.uniform(*think)))
                began = time.perf_counter()
                response = await client.post(
                    f"/api/games/{game}/seats/{seat.seat}/plans?since=1000000",
                    json={"turn": turn, "plans": {seat.vehicle: plan}},
                    headers={"X-Seat-Token": seat.token},
                )
                response.raise_for_status()
                if last:
                    await asyncio.gather(*(_wait(s, turn) for s in seats))
                    latencies.append(time.perf_counter() - began)
    finally:
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return latencies


async def _run_games(
    base: str, games: int, turns: int, cards: list[str], think: tuple[float, float]
) -> list[float]:
    limits = httpx.Limits(max_connections=4 * games, max_keepalive_connections=4 * games)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        results = await asyncio.gather(
            *(_play(client, base, i, cards, turns, think) for i in range(games))
        )
    return [x for r in results for x in r]


THINK = (0.2, 2.0)
"""Seconds a scripted player waits before sending each plan (uniform): the 50 games run
at once, their players do not all click in the same millisecond."""


def run(games: int = 50, turns: int = 4, think: tuple[float, float] = THINK) -> dict[str, Any]:
    """Serve, play ``games`` duels at once for up to ``turns`` turns, report latencies
    (``think``: each player's pause before a plan; (0, 0) sends every plan at once)."""
    from dogfight.catalog import load_catalog

    catalog = load_catalog()
    # the Camel's deck without climb and dive: any three distinct cards are a legal plan
    deck = catalog.maneuver_decks[catalog.airplanes["sopwith-camel"].maneuver_deck]
    cards = [c.id for c in deck.cards if c.symbol.value not in ("climb", "dive")]
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dogfight",
                "serve",
                "--db",
                str(db),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--games-per-minute",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the benchmark server did not start")
                time.sleep(0.05)
            idle = _memory_mb(process.pid)
            began = time.perf_counter()
            latencies = asyncio.run(_run_games(base, games, turns, cards, think))
            elapsed = time.perf_counter() - began
            loaded = _memory_mb(process.pid)
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            if process.poll() is None:
                process.kill()
    ms = sorted(x * 1000 for x in latencies)
    p99 = float(np.percentile(ms, 99)) if ms else 0.0
    return {
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
        },
        "games": games,
        "think_time_s": list(think),
        "turns_measured": len(ms),
        "wall_s": round(elapsed, 2),
        "latency_ms": {
            "p50": round(statistics.median(ms), 2) if ms else None,
            "p99": round(p99, 2),
            "max": round(ms[-1], 2) if ms else None,
            "what": "last plan sent -> every seat of the game has the result (WebSocket)",
        },
        "server_memory_mb": {"idle": idle, "after": loaded},
        "targets": TARGETS,
        "meets_targets": {"latency_p99_ms": p99 <= TARGETS["latency_p99_ms"]},
    }
