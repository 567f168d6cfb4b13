"""The turn clock (issue 32 item 3): in a game made with a 24-hour clock, a seat that has
not planned when the clock runs out is handed to its computer player, which plans that
turn; the server's log says so; the seat takes its seat back. The clock reads an
injected time source: the test moves it a day on, it does not wait a day."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import duel_situation, straights_plan

from dogfight.server.db import clock_rows
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clock_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, Clock]]:
    monkeypatch.setenv("DOGFIGHT_CLOCK_TICK", "0.05")
    clock = Clock()
    limits = Limits(allowed_hosts=("testserver",))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", limits=limits, now=clock)
    with TestClient(app) as client:
        yield client, clock


def _game(client: TestClient, hours: int) -> tuple[str, list[Json]]:
    made = _made(client, hours)
    return made["game"]["id"], made["seats"]


def _made(client: TestClient, hours: int) -> Json:
    situation = duel_situation(width=400, height=400, gap=0)
    for plane, x in zip(situation["vehicles"], (40, 360), strict=True):
        plane["pose"] = {"x": x, "y": 20, "heading": 90}
    made = client.post("/api/games", json={"situation": situation, "clock": hours})
    assert made.status_code == 201, made.text
    out: Json = made.json()
    return out


def _view(client: TestClient, game: str, seat: Json) -> Json:
    got = client.get(
        f"/api/games/{game}/seats/{seat['id']}", headers={"X-Seat-Token": seat["token"]}
    )
    assert got.status_code == 200, got.text
    out: Json = got.json()
    return out


def _plan(client: TestClient, game: str, seat: Json) -> None:
    stage = _view(client, game, seat)["stage"]
    body = {"turn": stage["turn"], "plans": {v: straights_plan() for v in stage["to_plan"]}}
    sent = client.post(
        f"/api/games/{game}/seats/{seat['id']}/plans",
        json=body,
        headers={"X-Seat-Token": seat["token"]},
    )
    assert sent.status_code == 200, sent.text


def _until(what: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "never came"
        time.sleep(0.05)


def test_when_the_clock_runs_out_the_computer_plans_and_the_seat_takes_it_back(
    clock_client: tuple[TestClient, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    client, clock = clock_client
    game, (a, b) = _game(client, 24)
    _plan(client, game, a)
    clock.offset = 23 * 3600  # not yet: b still has an hour
    time.sleep(0.3)  # several looks of the clock (every 0.05 s): none hands b over
    assert _view(client, game, b)["seat"]["computer"] is None
    with caplog.at_level(logging.WARNING, logger="dogfight.clock"):
        clock.offset = 24 * 3600 + 1
        _until(lambda: _view(client, game, b)["stage"].get("turn") == 2)
    view = _view(client, game, b)
    assert view["seat"]["computer"] is not None  # its computer player planned turn 1
    assert any("turn clock ran out for seat central in turn 1" in r.message for r in caplog.records)
    back = client.post(
        f"/api/games/{game}/seats/{b['id']}/computer",
        json={"bot": None},
        headers={"X-Seat-Token": b["token"]},
    )
    assert back.status_code == 200, back.text
    assert _view(client, game, b)["seat"]["computer"] is None


def test_a_game_without_a_clock_waits(clock_client: tuple[TestClient, Clock]) -> None:
    client, clock = clock_client
    game, (a, b) = _game(client, 0)
    _plan(client, game, a)
    clock.offset = 1000 * 3600
    time.sleep(0.3)
    assert _view(client, game, b)["seat"]["computer"] is None
    assert _view(client, game, b)["stage"]["turn"] == 1


def test_a_clock_of_other_hours_is_refused(clock_client: tuple[TestClient, Clock]) -> None:
    client, _ = clock_client
    got = client.post("/api/games", json={"preset": "duel", "clock": 12})
    assert got.status_code == 422 and got.json()["field"] == "clock", got.text


def _ends(summary: Json) -> float:
    return datetime.fromisoformat(summary["clock"]["ends"].replace("Z", "+00:00")).timestamp()


def test_the_summary_shows_the_clock_and_when_the_turn_runs_out(
    clock_client: tuple[TestClient, Clock],
) -> None:
    client, _ = clock_client
    before = int(time.time())
    game, (a, b) = _game(client, 48)
    summary = client.get(f"/api/games/{game}").json()
    assert summary["clock"]["hours"] == 48
    assert summary["clock"]["ends"].endswith("Z")
    assert before + 48 * 3600 <= _ends(summary) <= time.time() + 48 * 3600
    assert _view(client, game, a)["game"]["clock"] == summary["clock"]
    first = _ends(summary)
    _plan(client, game, a)
    _plan(client, game, b)
    _until(lambda: _view(client, game, a)["stage"].get("turn") == 2)
    later = client.get(f"/api/games/{game}").json()["clock"]
    assert later["hours"] == 48 and _ends({"clock": later}) >= first  # from turn 2's start


def test_a_game_without_a_clock_shows_none(clock_client: tuple[TestClient, Clock]) -> None:
    client, _ = clock_client
    game, _ = _game(client, 0)
    assert "clock" not in client.get(f"/api/games/{game}").json()


def test_a_rematch_keeps_the_clock(clock_client: tuple[TestClient, Clock]) -> None:
    client, _ = clock_client
    sit = duel_situation()
    for v in sit["vehicles"]:  # both fly off the north edge: over at the first phase
        v["pose"] = {"x": v["pose"]["x"], "y": 86.0, "heading": 90.0}
    made = client.post("/api/games", json={"situation": sit, "clock": 24}).json()
    game = made["game"]["id"]
    for seat in made["seats"]:
        _plan(client, game, seat)
    assert client.get(f"/api/games/{game}").json()["over"] is True
    first = made["seats"][0]
    again = client.post(
        f"/api/games/{game}/seats/{first['id']}/rematch", headers={"X-Seat-Token": first["token"]}
    )
    assert again.status_code == 201, again.text
    assert again.json()["game"]["clock"]["hours"] == 24


def test_the_games_log_says_the_clock_ran_out_for_every_seat_and_spectator(
    clock_client: tuple[TestClient, Clock],
) -> None:
    client, clock = clock_client
    made = _made(client, 24)
    game, (a, b) = made["game"]["id"], made["seats"]
    assert client.get(f"/api/games/{game}").json()["clock"]["ran_out"] == []
    _plan(client, game, a)
    clock.offset = 24 * 3600 + 1
    _until(lambda: _view(client, game, b)["stage"].get("turn") == 2)
    said = (
        "Turn 1: central's turn clock ran out; the easy computer player plans for this "
        "seat (its player takes the seat back from the seat tools)"
    )
    note = {"turn": 1, "seat": "central", "text": said}
    assert client.get(f"/api/games/{game}").json()["clock"]["ran_out"] == [note]
    for seat in (a, b):  # in every seat's view (from the stored row: after any reload)
        assert _view(client, game, seat)["game"]["clock"]["ran_out"] == [note]
    token = made["watch_link"].split("#token=")[1]
    watched = client.get(f"/api/games/{game}/watch", headers={"X-Watch-Token": token})
    assert watched.status_code == 200, watched.text
    assert watched.json()["game"]["clock"]["ran_out"] == [note]


def test_of_two_processes_handing_a_seat_over_the_first_wins(
    clock_client: tuple[TestClient, Clock], tmp_path: Path
) -> None:
    """The hand-over is stored once per game, turn and seat: a second process storing
    the same is told it was stored first elsewhere (and hands nothing over)."""
    client, _ = clock_client
    game, _ = _game(client, 24)
    store = Store(sqlite_url(tmp_path / "g.sqlite"))  # the server's database
    try:
        assert clock_rows.ran_out(store, game, 1, "allies", "easy", 1.0)
        assert not clock_rows.ran_out(store, game, 1, "allies", "aggressive", 2.0)
        assert clock_rows.outs_of(store, game) == [(1, "allies", "easy")]
    finally:
        store.close()
