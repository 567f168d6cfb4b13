"""Turn-a-day reminders (issue 32 item 3): a real ``dogfight serve`` sends each seat that
gave an e-mail address (to a local SMTP server, aiosmtpd) or a webhook URL (to a local
HTTP receiver) one message per turn the game waits for it, with the seat's own link and
no secret of the game; not twice after a restart; a failing webhook is tried again with
back-off, then given up, and the turn goes on. Bad addresses are refused naming the field."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import Server, duel_situation, free_port, straights_plan

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]
PUBLIC = "https://club.example.org"


class Mailbox:
    """aiosmtpd's handler: keeps every message's recipients and text body."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], str]] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content)
        body = mail.get_payload(decode=True)
        assert isinstance(body, bytes)
        self.mails.append((list(envelope.rcpt_tos), body.decode()))
        return "250 OK"


class Hooks:
    """A webhook receiver: ``/ok`` answers 204, ``/fail`` 500; both keep the JSON."""

    def __init__(self) -> None:
        self.got: dict[str, list[Json]] = {"/ok": [], "/fail": []}
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                hooks.got.setdefault(self.path, []).append(body)
                self.send_response(204 if self.path == "/ok" else 500)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    receiver = Hooks()
    try:
        yield receiver
    finally:
        receiver.server.shutdown()


def _env(port: int, backoff: str = "0.05") -> dict[str, str]:
    return {
        "DOGFIGHT_SMTP_HOST": "127.0.0.1",
        "DOGFIGHT_SMTP_PORT": str(port),
        "DOGFIGHT_SMTP_FROM": "referee@club.example.org",
        "DOGFIGHT_REMINDER_BACKOFF": backoff,
    }


ARGS = ["--public-url", PUBLIC, "--allow-private-webhooks"]


def _until(what: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "never came"
        time.sleep(0.05)


def _seats(base: str) -> tuple[str, list[Json]]:
    """A game of two seats whose airplanes fly side by side, far apart, for turns."""
    situation = duel_situation(width=400, height=400, gap=0)
    for plane, x in zip(situation["vehicles"], (40, 360), strict=True):
        plane["pose"] = {"x": x, "y": 20, "heading": 90}
    made = httpx.post(base + "/api/games", json={"situation": situation}, timeout=20).json()
    return made["game"]["id"], made["seats"]


def _put(base: str, game: str, seat: Json, body: Json) -> httpx.Response:
    return httpx.put(
        f"{base}/api/games/{game}/seats/{seat['id']}/reminder",
        json=body,
        headers={"X-Seat-Token": seat["token"]},
        timeout=20,
    )


def _plan(base: str, game: str, seat: Json) -> Json:
    """Plan the seat's turn (straight ahead); the seat's view after it."""
    url = f"{base}/api/games/{game}/seats/{seat['id']}"
    token = {"X-Seat-Token": seat["token"]}
    stage = httpx.get(url, headers=token, timeout=20).json()["stage"]
    assert stage["kind"] == "planning" and stage["to_plan"], stage
    body = {"turn": stage["turn"], "plans": {v: straights_plan() for v in stage["to_plan"]}}
    sent = httpx.post(url + "/plans", json=body, headers=token, timeout=20)
    assert sent.status_code == 200, sent.text
    return dict(httpx.get(url, headers=token, timeout=20).json())


def test_one_reminder_per_turn_with_the_seats_own_link(
    tmp_path: Path, smtp: tuple[Mailbox, int], hooks: Hooks
) -> None:
    box, port = smtp
    db = tmp_path / "games.sqlite"
    server = Server(db, _env(port), ARGS)
    try:
        game, (a, b) = _seats(server.base)
        assert _put(server.base, game, a, {"email": "alice@club.example.org"}).status_code == 200
        assert _put(server.base, game, b, {"webhook": hooks.base + "/ok"}).status_code == 200
        _plan(server.base, game, a)  # the game now waits for b only, in turn 1
        _until(lambda: len(hooks.got["/ok"]) == 1)
        _plan(server.base, game, b)  # turn 1 resolved: turn 2 waits for both
        _until(lambda: len(hooks.got["/ok"]) == 2 and len(box.mails) == 1)
        # the operator's counters (/metrics, read from the machine itself)
        exposed = httpx.get(server.base + "/metrics").text
        assert 'dogfight_reminders_sent_total{channel="webhook"} 2.0' in exposed, exposed
        assert 'dogfight_reminders_sent_total{channel="email"} 1.0' in exposed
        server.kill()
        server = Server(db, _env(port), ARGS)  # a restart: what was sent is remembered
        _plan(server.base, game, a)  # turn 2 waits for b, reminded already
        after = _plan(server.base, game, b)
        assert after["stage"]["turn"] == 3, after["stage"]
        _until(lambda: len(hooks.got["/ok"]) == 3 and len(box.mails) == 2)
    finally:
        server.kill()
    a_link = f"{PUBLIC}/play/{game}#seat={a['id']}&token={a['token']}"
    b_link = f"{PUBLIC}/play/{game}#seat={b['id']}&token={b['token']}"
    assert a["link"] == a_link and b["link"] == b_link  # the links the game's answer gave
    hooked = hooks.got["/ok"]
    assert [h["content"] for h in hooked] == [h["text"] for h in hooked]  # Discord, Slack
    assert ["turn 1" in h["text"] for h in hooked] == [True, False, False]
    assert ["turn 2" in h["text"] for h in hooked] == [False, True, False]
    assert ["turn 3" in h["text"] for h in hooked] == [False, False, True]
    assert [to for to, _ in box.mails] == [["alice@club.example.org"]] * 2
    assert ["turn 2" in m for _, m in box.mails] == [True, False]
    assert ["turn 3" in m for _, m in box.mails] == [False, True]
    for hook in hooked:
        assert b_link in hook["text"] and a["token"] not in hook["text"]
        assert set(hook) == {"content", "text"}
    for _, mail in box.mails:
        assert a_link in mail and b["token"] not in mail
    for text in [h["text"] for h in hooked] + [m for _, m in box.mails]:
        assert "cards" not in text and "plans" not in text and "seed" not in text


def test_two_processes_on_postgres_send_one_reminder_a_turn(
    pg_url: str,  # noqa: F811
    smtp: tuple[Mailbox, int],
    hooks: Hooks,
) -> None:
    """Each process that makes the game wait for b notices it: the one that resolved the
    turn, then the other when a plans; the claim in the database lets one send."""
    _, port = smtp
    one, two = Server(pg_url, _env(port), ARGS), Server(pg_url, _env(port), ARGS)
    try:
        game, (a, b) = _seats(one.base)
        assert _put(two.base, game, b, {"webhook": hooks.base + "/ok"}).status_code == 200
        for turn in (1, 2, 3):
            if turn > 1:
                _plan(two.base, game, b)  # b on the second: the turn resolved there
            _plan(one.base, game, a)  # a on the first, which now sees the game wait for b
        _plan(two.base, game, b)  # turn 3 resolved on the second: turn 4 waits for both
        _until(lambda: sum("turn 4" in h["text"] for h in hooks.got["/ok"]) == 1)
        _plan(one.base, game, a)  # the first now sees turn 4 wait for b: claimed already
        view = _plan(two.base, game, b)
        assert view["stage"]["turn"] == 5, view["stage"]
        _until(lambda: sum("turn 5" in h["text"] for h in hooks.got["/ok"]) == 1)
    finally:
        one.kill()
        two.kill()
    turns = [int(h["text"].split("(turn ")[1].split(")")[0]) for h in hooks.got["/ok"]]
    assert sorted(turns) == [1, 2, 3, 4, 5], turns


def test_a_failing_webhook_is_retried_then_given_up_without_holding_the_turn(
    tmp_path: Path, smtp: tuple[Mailbox, int], hooks: Hooks
) -> None:
    _, port = smtp
    server = Server(tmp_path / "games.sqlite", _env(port, backoff="0.3"), ARGS)
    try:
        game, (a, b) = _seats(server.base)
        assert _put(server.base, game, b, {"webhook": hooks.base + "/fail"}).status_code == 200
        _plan(server.base, game, a)
        after = _plan(server.base, game, b)  # while the reminder is being tried again
        assert after["stage"]["turn"] == 2
        _until(lambda: sum("turn 1" in h["text"] for h in hooks.got["/fail"]) == 4)
        _until(lambda: sum("turn 2" in h["text"] for h in hooks.got["/fail"]) == 4)
        _until(lambda: len(_log(server)) and "turn 2 given up" in _log(server)[-1])
    finally:
        server.kill()
    assert len(hooks.got["/fail"]) == 8  # four tries a turn, then given up
    log = "".join(_log(server))
    assert "turn 1 given up after 4 tries" in log and "turn 1 (webhook) failed, try 3 of 4" in log
    assert "Traceback" not in log


def _log(server: Server) -> list[str]:
    """The server's output lines so far (read as they come: kept on the server)."""
    kept: list[str] = server.__dict__.setdefault("log_lines", [])
    out = server.process.stdout
    if out is not None and not out.closed:
        os.set_blocking(out.fileno(), False)
        while line := out.readline():
            kept.append(line)
    return kept


@pytest.fixture
def app_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    for name in ("HOST", "FROM"):
        monkeypatch.delenv(f"DOGFIGHT_SMTP_{name}", raising=False)
    monkeypatch.delenv("DOGFIGHT_ALLOW_PRIVATE_WEBHOOKS", raising=False)
    limits = Limits(allowed_hosts=("testserver",))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", limits=limits, public_url=PUBLIC)
    with TestClient(app) as client:
        yield client


def _refused(client: TestClient, seat: Json, game: str, body: Json) -> Json:
    got = client.put(
        f"/api/games/{game}/seats/{seat['id']}/reminder",
        json=body,
        headers={"X-Seat-Token": seat["token"]},
    )
    assert 400 <= got.status_code < 500, got.text
    out: Json = got.json()
    return {"status": got.status_code, **out}


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"email": "alice@club.example.org\r\nBcc: all@example.org"}, "email", "e-mail"),
        ({"email": "Alice <alice@club.example.org>"}, "email", "e-mail"),
        ({"email": "alice@club.example.org"}, "email", "DOGFIGHT_SMTP_HOST"),
        ({"webhook": "ftp://hooks.example.org/x"}, "webhook", "http"),
        ({"webhook": "http://127.0.0.1:9/hook"}, "webhook", "private or loopback"),
        ({"webhook": "http://10.1.2.3/hook"}, "webhook", "private or loopback"),
        ({"webhook": "http://[::1]/hook"}, "webhook", "private or loopback"),
        ({"webhook": "https://user:pw@hooks.example.org/x"}, "webhook", "http"),
        ({"email": "a@club.example.org", "webhook": "https://x.example.org"}, "webhook", "both"),
    ],
)
def test_a_bad_reminder_is_one_422_naming_the_field_and_nothing_is_stored(
    app_client: TestClient, body: Json, field: str, words: str
) -> None:
    made = app_client.post("/api/games", json={"preset": "duel"}).json()
    game, seat = made["game"]["id"], made["seats"][0]
    got = _refused(app_client, seat, game, body)
    assert got["status"] == 422 and got["field"] == field and words in got["error"], got
    kept = app_client.get(
        f"/api/games/{game}/seats/{seat['id']}/reminder", headers={"X-Seat-Token": seat["token"]}
    ).json()
    assert kept["email"] is None and kept["webhook"] is None
    assert (
        kept["offered"]["email"] is False and "DOGFIGHT_SMTP_HOST" in kept["offered"]["email_why"]
    )


def test_no_reminder_for_a_computer_seat_nor_with_a_wrong_token(app_client: TestClient) -> None:
    body = {"preset": "duel", "seats": None}
    made = app_client.post("/api/games", json=body).json()
    game, seat = made["game"]["id"], made["seats"][0]
    wrong = {**seat, "token": "not-the-token"}
    assert _refused(app_client, wrong, game, {"webhook": "https://x.example.org"})["status"] == 403
    to_bot = app_client.post(
        f"/api/games/{game}/seats/{seat['id']}/computer",
        json={"bot": "random"},
        headers={"X-Seat-Token": seat["token"]},
    )
    assert to_bot.status_code == 200, to_bot.text
    got = _refused(app_client, seat, game, {"webhook": "https://x.example.org"})
    assert got["status"] == 409 and got["field"] == "seat_id" and "computer" in got["error"]


def test_without_a_public_url_no_reminder_is_taken(tmp_path: Path) -> None:
    limits = Limits(allowed_hosts=("testserver",))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", limits=limits)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"preset": "duel"}).json()
        game, seat = made["game"]["id"], made["seats"][0]
        url = f"/api/games/{game}/seats/{seat['id']}/reminder"
        offered = client.get(url, headers={"X-Seat-Token": seat["token"]}).json()["offered"]
        assert offered["webhook"] is False and "--public-url" in offered["why"]
        got = _refused(client, seat, game, {"webhook": "https://hooks.example.org/x"})
        assert got["status"] == 409 and "--public-url" in got["error"], got
