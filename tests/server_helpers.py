"""Helpers of the server tests: an app on a temporary SQLite file, seats, plans, and a
real ``dogfight serve`` process on a free port of 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from dogfight.bots.random_plans import random_legal_plan, random_tripod_plan
from dogfight.catalog import load_catalog
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.errors import ApiError
from dogfight.server.play import seat_actions
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.schemas import CreateGame
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]


def client(db: Path | str) -> TestClient:
    """A test client of a fresh app on ``db``: an SQLite file, or a database URL (use it
    as a context manager)."""
    limits = Limits(allowed_hosts=("testserver",))  # the test client's name for the server
    return TestClient(create_app(db if isinstance(db, str) else f"sqlite:///{db}", limits=limits))


def headers(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def seat_url(game: str, seat: str, what: str = "") -> str:
    return f"/api/games/{game}/seats/{seat}" + (f"/{what}" if what else "")


def duel_situation(width: float = 90.0, height: float = 90.0, gap: float = 70.0) -> Json:
    """A Camel and an Albatros flying at each other, ``gap`` cm apart."""
    y0 = (height - gap) / 2
    return {
        "table": {"width": width, "height": height},
        "vehicles": [
            {
                "id": "camel",
                "type": "sopwith-camel",
                "side": "allies",
                "pose": {"x": width / 2, "y": y0, "heading": 90},
            },
            {
                "id": "albatros",
                "type": "albatros-d5a",
                "side": "central",
                "pose": {"x": width / 2, "y": y0 + gap, "heading": 270},
            },
        ],
    }


def three_planes() -> Json:
    """Two Allied airplanes flying at one German: the German's guns get two targets."""
    return {
        "vehicles": [
            {
                "id": "spad",
                "type": "spad-xiii",
                "side": "allies",
                "pose": {"x": 40, "y": 20, "heading": 90},
            },
            {
                "id": "camel",
                "type": "sopwith-camel",
                "side": "allies",
                "pose": {"x": 50, "y": 20, "heading": 90},
            },
            {
                "id": "fokker",
                "type": "fokker-dr1",
                "side": "central",
                "pose": {"x": 45, "y": 55, "heading": 270},
            },
        ],
    }


def slowest_plan(catalog: Json, kind: str) -> Json:
    """A plan of the airplane type's shortest straights (topped up with turns when its
    deck has fewer than three): with :func:`three_planes` the German's guns have two
    targets after the first phase."""
    deck = catalog["maneuver_decks"][catalog["airplanes"][kind]["deck"]]
    straight = sorted(
        (c for c in deck["cards"] if c["symbol"] == "straight"), key=lambda c: c["forward"]
    )
    cards = [c["id"] for c in straight][:3]
    while len(cards) < 3:
        cards.append(
            next(
                c["id"]
                for c in deck["cards"]
                if c["id"] not in cards and c["symbol"] in ("left", "right")
            )
        )
    return {"cards": cards}


DECIMAL_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(-1e10, 1e10),
    st.floats(-1e-3, 1e-3),
    st.integers(-(10**12), 10**12).map(lambda n: n / 10**5),
    st.integers(-(10**9), 10**9).map(lambda n: n / 2**10),
    st.sampled_from([0.0, -0.0, 0.00005, -0.00005, 0.00015, 2.5e-05, 9999999999.99995]),
)
"""Floats for the writers of a number rounded to 1e-4 (the events' and the tables'):
any float, the sizes they write with four decimals, halfway cases and negative zero."""


def plan_random_turns(
    game: LiveGame, rng: np.random.Generator, turns: int, after: Callable[[LiveGame], None]
) -> None:
    """Up to ``turns`` turns of random legal plans from every awaited seat of ``game``
    (a tripod's from the tripods' maker), ``after(game)`` after each seat's submission;
    stops at a step that is not a planning one (targets to choose, the end)."""
    for _ in range(turns):
        nxt = game.next_step()
        waiting = game.waiting_for()
        if nxt is None or nxt[1] != 0 or not waiting:
            return
        for sid in waiting:
            state = game.state
            plans = {}
            for vid in sorted(game.seat_vehicles(sid)):
                vehicle = state.vehicles.get(vid)
                if vehicle is None or not vehicle.in_play:
                    continue
                make = random_tripod_plan if vehicle.tripod is not None else random_legal_plan
                plans[vid] = make(state, vid, rng).model_dump(mode="json")
            try:
                seat_actions.submit_plans(game, sid, nxt[0], plans, 0)
            except ApiError:
                continue
            after(game)


def straights_plan(fire: str = "auto") -> Json:
    return {"cards": ["1", "2", "3"], "fire": [fire, fire, fire]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``dogfight serve`` in a subprocess on 127.0.0.1 and a free port, or ``port`` (``db``:
    an SQLite file or a database URL; ``args``: more options of ``serve``)."""

    def __init__(
        self,
        db: Path | str,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
        port: int | None = None,
    ) -> None:
        self.db = db
        self.port = free_port() if port is None else port
        self.base = f"http://127.0.0.1:{self.port}"
        command = [
            sys.executable,
            "-m",
            "dogfight",
            "serve",
            "--db",
            str(db),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            *(args or []),
        ]
        self.process = subprocess.Popen(
            command,
            env={**os.environ, **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.banner: list[str] = []
        self.output: list[str] = []
        """Lines the process printed (stdout and stderr), read when it exited."""
        deadline = time.monotonic() + 120  # a loaded machine starts Python slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    "server exited: " + (self.process.stdout.read() if self.process.stdout else "")
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._read_output()

    def wait_exit(self, timeout: float = 20) -> int:
        code = self.process.wait(timeout=timeout)
        self._read_output()
        return code

    def _read_output(self) -> None:
        """Keep what the process printed (:attr:`output`), once it has exited."""
        if self.process.stdout and not self.process.stdout.closed:
            self.output = self.process.stdout.read().splitlines()
            self.process.stdout.close()


@contextlib.contextmanager
def serving(
    db: Path | str, env: dict[str, str] | None = None, args: list[str] | None = None
) -> Iterator[Server]:
    server = Server(db, env, args)
    try:
        yield server
    finally:
        server.kill()


def stored_duels(tmp_path: Path, count: int) -> tuple[Store, list[str], Path]:
    """A store on a fresh SQLite file with ``count`` duels made in it (their ids), and
    the file's path."""
    path = tmp_path / "games.sqlite"
    store = Store(sqlite_url(path))
    catalog = load_catalog()
    service = GameService(store, catalog)
    setup = presets(catalog)["duel"]["setup"]
    seats = seats_of(CreateGame(preset="duel"), table_of(setup, catalog))
    ids = [service.create(setup, "duel", seats, i, True)[0].id for i in range(count)]
    return store, ids, path
