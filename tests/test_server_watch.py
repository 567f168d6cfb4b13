"""Spectators (issue 32 item 4): a game's watch link shows the table and the steps as no
seat sees them — no plan, no secret damage, no seed — live over a WebSocket or one turn
behind, within a per-game limit of open sockets; a wrong token or delay is refused."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import default_plans
from server_helpers import Json, headers, seat_url, straights_plan
from starlette.websockets import WebSocketDisconnect
from test_browser_secrets import SECRETS, secrets_situation
from test_server_api import make, seat

from dogfight.server.db import spectator_rows
from dogfight.server.play.spectators import LEASE
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _client(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(
        create_app(
            f"sqlite:///{tmp_path / 'games.sqlite'}",
            limits=Limits(allowed_hosts=("testserver",), **limits),
        )
    )


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path) as c:
        yield c


def watch_token(made: Json) -> str:
    link: str = made["watch_link"]
    assert link.startswith(f"/watch/{made['game']['id']}#token=")
    return link.split("#token=", 1)[1]


def plan(c: TestClient, made: Json, label: str, turn: int, plans: Json) -> None:
    sid, token = seat(made, label)
    got = c.post(
        seat_url(made["game"]["id"], sid, "plans"),
        headers=headers(token),
        json={"turn": turn, "plans": plans},
    )
    assert got.status_code < 300, got.text


def watch(c: TestClient, made: Json, token: str | None = None) -> Any:
    return c.get(
        f"/api/games/{made['game']['id']}/watch",
        headers={"X-Watch-Token": token or watch_token(made)},
    )


def test_a_spectator_receives_no_seats_secret(app_client: TestClient) -> None:
    made = make(app_client, situation=secrets_situation())
    game = made["game"]["id"]
    frames: list[str] = []
    turn1 = default_plans("bristol-f2b")[0]
    with app_client.websocket_connect(f"/api/games/{game}/watch/ws") as ws:
        ws.send_json({"token": watch_token(made), "since": 0})
        frames.append(ws.receive_text())
        plan(app_client, made, "allies", 1, {"bristol": turn1})
        frames.append(ws.receive_text())  # who is awaited changed
        plan(app_client, made, "central", 1, {"chaser": default_plans("fokker-d7")[0]})
        frames.append(ws.receive_text())
        # a plan of turn 2 in, not yet revealed
        plan(app_client, made, "allies", 2, {"bristol": default_plans("bristol-f2b")[0]})
        ws.send_text("ping")
        while '"pong"' not in (text := ws.receive_text()):
            frames.append(text)
    frames.append(watch(app_client, made).text)
    owner_sid, owner_token = seat(made, "allies")
    owner = app_client.get(seat_url(game, owner_sid, ""), headers=headers(owner_token)).text
    assert any(secret in owner for secret in SECRETS)  # the secrets exist
    last = app_client.get(f"/api/games/{game}/watch", headers={"X-Watch-Token": watch_token(made)})
    assert last.json()["steps_total"] > 0  # the spectator saw the turn flown
    for text in frames:
        for secret in SECRETS:
            assert secret not in text, (secret, text[:300])
        assert owner_token not in text and "seed" not in text
        assert '"plans"' not in text and '"submitted"' not in text


def test_wrong_token_and_bad_delay_are_refused(app_client: TestClient) -> None:
    made = make(app_client, preset="duel")
    wrong = watch(app_client, made, "not-the-token")
    assert wrong.status_code == 403 and wrong.json() == {
        "error": "wrong watch token",
        "field": "token",
    }
    missing = app_client.get("/api/games/nope/watch", headers={"X-Watch-Token": "x"})
    assert missing.status_code == 404 and missing.json()["field"] == "game_id"
    bad = app_client.post("/api/games", json={"preset": "duel", "watch_delay": 2})
    assert bad.status_code == 422 and bad.json()["field"] == "watch_delay", bad.text
    with app_client.websocket_connect(f"/api/games/{made['game']['id']}/watch/ws") as ws:
        ws.send_json({"token": "not-the-token"})
        assert ws.receive_json()["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_one_turn_behind(app_client: TestClient) -> None:
    # a chosen seed (an open analysis game): nobody is shot down in two turns
    live = make(app_client, preset="duel", seed=7, analysis=True)
    late = make(app_client, preset="duel", seed=7, analysis=True, watch_delay=1)
    for turn in (1, 2):
        for made in (live, late):
            plan(app_client, made, "allies", turn, {"camel": straights_plan()})
            plan(app_client, made, "central", turn, {"albatros": straights_plan()})
        shown_live = watch(app_client, live).json()
        shown_late = watch(app_client, late).json()
        assert shown_live["steps_total"] == 4 * turn
        # turn N shown once turn N+1 is resolved
        assert shown_late["steps_total"] == 4 * (turn - 1)
        assert {s["turn"] for s in shown_late["steps"]} == set(range(1, turn))
        assert shown_late["delay"] == 1


def test_spectators_beyond_the_limit_are_refused(tmp_path: Path) -> None:
    with _client(tmp_path, max_spectators=1) as c:
        made = make(c, preset="duel")
        url = f"/api/games/{made['game']['id']}/watch/ws"
        with c.websocket_connect(url) as first:
            first.send_json({"token": watch_token(made)})
            assert first.receive_json()["type"] == "watch"
            with c.websocket_connect(url) as second:
                second.send_json({"token": watch_token(made)})
                refusal = second.receive_json()
                assert refusal["status"] == 429 and "at most 1 spectator may" in refusal["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_json()
                assert closed.value.code == 4429
        # the first one gone, another may watch
        with c.websocket_connect(url) as third:
            third.send_json({"token": watch_token(made)})
            assert third.receive_json()["type"] == "watch"


def test_the_limit_counts_the_spectators_of_every_process(tmp_path: Path) -> None:
    """Two server processes on one database (here two apps on one file): a game's
    spectators in the one count against its limit in the other; a process killed
    without a goodbye stops counting when its lease runs out."""
    now = [1000.0]
    database = f"sqlite:///{tmp_path / 'games.sqlite'}"

    def app() -> TestClient:
        limits = Limits(allowed_hosts=("testserver",), max_spectators=2)
        return TestClient(create_app(database, limits=limits, now=lambda: now[0]))

    with app() as one, app() as other:
        made = make(one, preset="duel")
        url = f"/api/games/{made['game']['id']}/watch/ws"
        hello = {"token": watch_token(made)}
        with one.websocket_connect(url) as first, other.websocket_connect(url) as second:
            for socket in (first, second):
                socket.send_json(hello)
                assert socket.receive_json()["type"] == "watch"
            for client in (one, other):
                with client.websocket_connect(url) as third:
                    third.send_json(hello)
                    refusal = third.receive_json()
                    assert refusal["status"] == 429, refusal
                    assert refusal["error"] == "at most 2 spectators may watch this game at once"
    with app() as one:
        # a process killed with a spectator open: no goodbye, its count stays until its
        # lease runs out
        store = one.app.state.store  # type: ignore[attr-defined]
        game = made["game"]["id"]
        assert spectator_rows.admit(store, game, "killed", 2, now[0] - LEASE / 2, LEASE)
        with one.websocket_connect(url) as again:
            again.send_json(hello)
            assert again.receive_json()["type"] == "watch"  # the others said goodbye
            with one.websocket_connect(url) as more:
                more.send_json(hello)
                assert more.receive_json()["status"] == 429  # the dead one still counts
            now[0] += LEASE / 2 + 1  # its lease ran out (not the living one's)
            with one.websocket_connect(url) as more:
                more.send_json(hello)
                assert more.receive_json()["type"] == "watch"
                with one.websocket_connect(url) as third:
                    third.send_json(hello)
                    assert third.receive_json()["status"] == 429


def test_the_spectators_limit_from_the_option_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dogfight.cli.web import _limits

    monkeypatch.setenv("DOGFIGHT_MAX_SPECTATORS", "5")
    assert Limits.from_env().max_spectators == 5
    assert _limits("127.0.0.1", max_spectators=2).max_spectators == 2  # serve --max-spectators


def test_a_spectator_admitted_but_not_joined_counts_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator whose first view cannot be queued after it was admitted does not keep
    its place against the limit (else the game could be watched by nobody)."""
    from dogfight.server.web.ws import Hub

    queue = Hub.queue
    failures = [RuntimeError("the first view could not be built")]

    def failing(self: Hub, game: Any, connection: Any) -> None:
        if failures:
            raise failures.pop()
        queue(self, game, connection)

    monkeypatch.setattr(Hub, "queue", failing)
    with _client(tmp_path, max_spectators=1) as c:
        made = make(c, preset="duel")
        url = f"/api/games/{made['game']['id']}/watch/ws"
        with pytest.raises(Exception), c.websocket_connect(url) as first:  # noqa: B017
            first.send_json({"token": watch_token(made)})
            first.receive_json()
        with c.websocket_connect(url) as second:
            second.send_json({"token": watch_token(made)})
            assert second.receive_json()["type"] == "watch"
