"""Operations (issue 32, item 5): ``/metrics`` (Prometheus text) and the request log.

The metrics: games by state, turns resolved, request latency by route template (no game
id in a label), result latency, WebSocket connections, the reminders' counters; read by
the machine itself or a token's bearer only. The log: one line per request with its id
(a trusted proxy's ``X-Request-ID``, else a new one, returned as a header)."""

from __future__ import annotations

import json
import logging
import re
import warnings
from pathlib import Path

import httpx
import pytest
from server_helpers import free_port, headers, seat_url, serving, straights_plan

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits
from dogfight.server.web.request_log import JsonFormatter

LOCAL = ("127.0.0.1", 40000)
ELSEWHERE = ("203.0.113.5", 40000)


def _client(path: Path, where: tuple[str, int], token: str | None = None) -> TestClient:
    app = create_app(
        f"sqlite:///{path}", limits=Limits(allowed_hosts=("testserver",)), metrics_token=token
    )
    return TestClient(app, client=where)


def _sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition (0 when absent)."""
    shown = ",".join(f'{k}="{v}"' for k, v in labels.items())
    wanted = f"{name}{{{shown}}}" if labels else name
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        if key == wanted:
            return float(value)
    return 0.0


def _play_turn(c: TestClient) -> str:
    """A duel of people made and its first turn planned by both seats: the game's id."""
    duel = {"preset": "duel", "seed": 5, "analysis": True}  # turn 2 follows (not the end)
    made = c.post("/api/games", json=duel).json()
    game = made["game"]["id"]
    for seat in made["seats"]:
        plan = {"turn": 1, "plans": {seat["vehicles"][0]: straights_plan()}}
        answer = c.post(seat_url(game, seat["id"], "plans"), headers=headers(seat["token"]),
                        json=plan)  # fmt: skip
        assert answer.status_code == 200, answer.text
    return str(game)


def test_metrics_count_games_turns_requests_and_results(tmp_path: Path) -> None:
    with _client(tmp_path / "g.sqlite", LOCAL) as c:
        game = _play_turn(c)
        c.post("/api/games", json={"preset": "duel"})
        answer = c.get("/metrics")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain")
        text = answer.text
    assert _sample(text, "dogfight_games", state="in_play") == 2
    assert _sample(text, "dogfight_games", state="over") == 0
    assert _sample(text, "dogfight_games", state="failed") == 0
    assert _sample(text, "dogfight_turns_resolved_total") == 1
    plans = {"method": "POST", "route": "/api/games/{game_id}/seats/{seat_id}/plans"}
    assert _sample(text, "dogfight_request_seconds_count", **plans, status="2xx") == 2
    made = {"method": "POST", "route": "/api/games", "status": "2xx"}
    assert _sample(text, "dogfight_request_seconds_count", **made) == 2
    # the second plan resolved the turn: its answer went with the results
    assert _sample(text, "dogfight_result_seconds_count") == 1
    assert "dogfight_reminders_sent_total" in text or "dogfight_reminders_sent" in text
    assert "dogfight_reminders_failed" in text
    assert game not in text  # route templates, never a game's id


def test_metrics_count_the_open_websockets(tmp_path: Path) -> None:
    with _client(tmp_path / "g.sqlite", LOCAL) as c:
        made = c.post("/api/games", json={"preset": "duel"}).json()
        seat = made["seats"][0]
        with c.websocket_connect(f"/api/games/{made['game']['id']}/ws") as ws:
            ws.send_text(json.dumps({"seat": seat["id"], "token": seat["token"], "since": 0}))
            ws.receive_json()
            assert _sample(c.get("/metrics").text, "dogfight_websockets") == 1
        assert _sample(c.get("/metrics").text, "dogfight_websockets") == 0


def test_metrics_are_for_the_machine_itself_or_the_tokens_bearer(tmp_path: Path) -> None:
    with _client(tmp_path / "a.sqlite", ELSEWHERE) as c:
        refused = c.get("/metrics")
        assert refused.status_code == 404 and refused.json()["error"]
        assert c.get("/metrics", headers={"Authorization": "Bearer s3cret"}).status_code == 404
    with _client(tmp_path / "b.sqlite", ELSEWHERE, token="s3cret") as c:
        assert c.get("/metrics").status_code == 404
        assert c.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
        assert c.get("/metrics", headers={"Authorization": "Bearer s3cret"}).status_code == 200


def test_each_request_is_logged_once_with_its_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dogfight.requests")
    with _client(tmp_path / "g.sqlite", ELSEWHERE) as c:
        made = c.post("/api/games", json={"preset": "duel"})
        game = made.json()["game"]["id"]
        # a request id from a client that is no trusted proxy is not taken
        answer = c.get(f"/api/games/{game}", headers={"X-Request-ID": "forged-1"})
    given = answer.headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", given)
    lines = [r for r in caplog.records if r.name == "dogfight.requests"]
    assert len(lines) == 2
    fields = json.loads(JsonFormatter().format(lines[1]))
    assert fields["request_id"] == given
    assert fields["method"] == "GET" and fields["route"] == "/api/games/{game_id}"
    assert fields["status"] == 200 and fields["game"] == game
    assert fields["client"] == "203.0.113.5" and isinstance(fields["ms"], float)
    assert made.headers["x-request-id"] != given


def test_serve_logs_json_lines_with_a_trusted_proxys_request_id(tmp_path: Path) -> None:
    """Behind nginx (--trusted-proxy) the proxy's request id is taken and the client is
    the player; the process's own metrics port answers /metrics (docs/deploy.md)."""
    own = free_port()
    args = ["--log-format", "json", "--trusted-proxy", "127.0.0.1", "--metrics-port", str(own)]
    with serving(tmp_path / "g.sqlite", args=args) as server:
        sent = {"X-Request-ID": "proxy-42", "X-Forwarded-For": "198.51.100.7"}
        answer = httpx.get(server.base + "/api/games/nosuch", headers=sent, timeout=30)
        assert answer.status_code == 404
        assert answer.headers["x-request-id"] == "proxy-42"
        # through the proxy the client is the player, on no loopback: refused
        sent["X-Request-ID"] = "proxy-43"
        assert httpx.get(server.base + "/metrics", headers=sent, timeout=30).status_code == 404
        scraped = httpx.get(f"http://127.0.0.1:{own}/metrics", timeout=30)
        assert scraped.status_code == 200 and "dogfight_request_seconds" in scraped.text
        server.kill()
    logged = [json.loads(line) for line in server.output if line.startswith("{")]
    mine = [line for line in logged if line.get("request_id") == "proxy-42"]
    assert len(mine) == 1
    assert mine[0]["client"] == "198.51.100.7" and mine[0]["game"] == "nosuch"
    assert mine[0]["status"] == 404 and mine[0]["route"] == "/api/games/{game_id}"
