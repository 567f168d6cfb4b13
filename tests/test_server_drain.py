"""SIGTERM drains a real ``dogfight serve`` (issue 32, item 5): it stops accepting,
finishes the requests in flight — every plan it acknowledged is in the database after —
tells the open WebSockets to reconnect (close code 1012, "service restart": the page
reconnects as after any close but 4400-4499) and exits 0."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import httpx
from server_helpers import Server, straights_plan
from sqlalchemy import create_engine, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dogfight.server.db.store import sqlite_url
from dogfight.server.db.tables import PlanRow

PLAYERS = 3
"""Threads posting plans at once."""

BEFORE = 12
"""Plans acknowledged (by all the threads) before SIGTERM is sent."""

Ack = tuple[str, int, str]
"""(game, turn, seat) of a plan answered 200."""


def _play(base: str, acked: list[Ack], enough: threading.Event, stop: threading.Event) -> None:
    """Post plans of duels of people, turn after turn, a new duel when one cannot go on,
    until the server stops answering."""
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            try:
                made = client.post("/api/games", json={"preset": "duel"})
                if made.status_code != 201:
                    return
                game = made.json()
                gid = game["game"]["id"]
                turn, going = 1, True
                while going:
                    for seat in game["seats"]:
                        plan = {"turn": turn, "plans": {seat["vehicles"][0]: straights_plan()}}
                        answer = client.post(
                            f"/api/games/{gid}/seats/{seat['id']}/plans?answer=update",
                            headers={"X-Seat-Token": seat["token"]},
                            json=plan,
                        )
                        if answer.status_code != 200:
                            going = False
                            break
                        acked.append((gid, turn, seat["id"]))
                        if len(acked) >= BEFORE:
                            enough.set()
                    turn += 1
            except httpx.HTTPError:
                return  # the server closed: draining or gone


def _watch(base: str, codes: list[int], opened: threading.Event) -> None:
    """Hold a seat's WebSocket open; note the code it is closed with."""
    made = httpx.post(base + "/api/games", json={"preset": "duel"}, timeout=30).json()
    seat = made["seats"][0]
    url = base.replace("http://", "ws://") + f"/api/games/{made['game']['id']}/ws"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"seat": seat["id"], "token": seat["token"], "since": 0}))
        ws.recv(timeout=30)
        opened.set()
        try:
            while True:
                ws.recv(timeout=60)
        except ConnectionClosed as closed:
            codes.append(closed.rcvd.code if closed.rcvd is not None else -1)


def test_sigterm_keeps_every_acknowledged_plan_and_closes_sockets_with_1012(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.sqlite"
    server = Server(db, args=["--games-per-minute", "0"])
    acked: list[Ack] = []
    codes: list[int] = []
    enough, stop, opened = threading.Event(), threading.Event(), threading.Event()
    watcher = threading.Thread(target=_watch, args=(server.base, codes, opened))
    players = [
        threading.Thread(target=_play, args=(server.base, acked, enough, stop))
        for _ in range(PLAYERS)
    ]
    try:
        watcher.start()
        assert opened.wait(60)
        for player in players:
            player.start()
        assert enough.wait(120), "no plans acknowledged"
        server.process.send_signal(signal.SIGTERM)
        code = server.wait_exit(60)
    finally:
        stop.set()
        if server.process.poll() is None:
            server.kill()
        for thread in (*players, watcher):
            thread.join(60)
    assert code == 0, "\n".join(server.output)
    assert codes == [1012]
    engine = create_engine(sqlite_url(db))
    with engine.connect() as connection:
        stored = set(connection.execute(select(PlanRow.game_id, PlanRow.turn, PlanRow.seat)))
    engine.dispose()
    missing = [ack for ack in acked if ack not in stored]
    assert len(acked) >= BEFORE and not missing
