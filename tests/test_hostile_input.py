"""Hostile input: every finding of the independent test of the server (issue 16) fed in.

Bad input is refused where it enters with one message naming the field (4xx with a JSON
body, or exit status 2), nothing is stored and no other game is affected; when the
engine still raises on a step, that game alone is marked failed, answers 409 with the
reason, the server still starts, and ``dogfight doctor`` lists it and rolls it back.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from server_helpers import client, duel_situation, headers, seat_url, straights_plan

from dogfight.catalog.loader import load_catalog
from dogfight.rules.engine import resolve_or_ask, resolve_phase
from dogfight.rules.plans import Plan
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play import games as games_module
from dogfight.server.play.service import GameService

Json = dict[str, Any]


def dogfight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args], capture_output=True, text=True, timeout=120
    )


def raw_post(c: Any, url: str, body: object, **kw: Any) -> Any:
    """POST ``body`` serialised as Python does (NaN and Infinity written as such)."""
    return c.post(
        url,
        content=json.dumps(body, allow_nan=True),
        headers={"content-type": "application/json", **kw.pop("headers", {})},
        **kw,
    )


def refused(response: Any, status: int, field: str | None = None) -> Json:
    assert response.status_code == status, response.text
    body: Json = response.json()
    assert body["error"], body
    if field is not None:
        assert body["field"] == field, body
    return body


def make_duel(c: Any, **extra: Any) -> tuple[str, dict[str, tuple[str, str, str]]]:
    made = c.post("/api/games", json={"situation": duel_situation(), **extra}).json()
    seats = {s["label"]: (s["id"], s["token"], s["vehicles"][0]) for s in made["seats"]}
    return made["game"]["id"], seats


def plan_both(c: Any, game: str, seats: dict[str, tuple[str, str, str]], turn: int = 1) -> Any:
    response = None
    for sid, token, vid in seats.values():
        response = c.post(
            seat_url(game, sid, "plans"),
            headers=headers(token),
            json={"turn": turn, "plans": {vid: straights_plan()}},
        )
        assert response.status_code in (200, 202, 409), response.text
    return response


# --- plans: one validation wherever a plan enters ---------------------------------------

BAD_LISTS = [
    ("rockets", []),
    ("rockets", [0]),
    ("rockets", [0, 0]),
    ("rockets", [0, 0, 0, 0]),
    ("rockets", [3, 0, 0]),
    ("rockets", [-1, 0, 0]),
    ("fire", ["auto"]),
    ("rear_fire", ["auto", "auto"]),
    ("actions", [None]),
]


@pytest.mark.parametrize(("name", "value"), BAD_LISTS)
def test_a_plan_list_of_the_wrong_length_is_refused_and_the_game_goes_on(
    tmp_path: Path, name: str, value: list[Any]
) -> None:
    with client(tmp_path / "g.sqlite") as c:
        game, seats = make_duel(c)
        sid, token, vid = seats["allies"]
        bad = c.post(
            seat_url(game, sid, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {vid: {**straights_plan(), name: value}}},
        )
        assert refused(bad, 422)["field"].startswith(f"plans.{vid}.{name}")
        assert c.get(f"/api/games/{game}").json()["waiting_for"] == ["allies", "central"]
        plan_both(c, game, seats)
        summary = c.get(f"/api/games/{game}").json()
        assert summary["steps"] >= 4 or summary["over"], summary


@pytest.mark.parametrize(("name", "value"), BAD_LISTS)
def test_the_plan_model_refuses_the_same_lists_for_situations_and_bots(
    name: str, value: list[Any]
) -> None:
    with pytest.raises(ValidationError):
        Plan.model_validate({"cards": ["1", "2", "3"], name: value})


def test_adjudicate_refuses_a_situation_whose_plan_has_two_rocket_entries(tmp_path: Path) -> None:
    situation = duel_situation()
    for v in situation["vehicles"]:
        v["plans"] = [{"cards": ["1", "2", "3"], "rockets": [0, 0]}]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(situation))
    result = dogfight("adjudicate", str(path))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "rockets" in result.stderr


# --- numbers: finite, in bounds ---------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        (("vehicles", 0, "pose", "x"), float("nan"), "situation.vehicles[0].pose.x"),
        (("vehicles", 0, "pose", "y"), float("inf"), "situation.vehicles[0].pose.y"),
        (("vehicles", 0, "pose", "heading"), float("inf"), "situation.vehicles[0].pose.heading"),
        (("vehicles", 0, "pose", "heading"), float("-inf"), "situation.vehicles[0].pose.heading"),
        (("vehicles", 0, "pose", "heading"), 1e300, "situation.vehicles[0].pose.heading"),
        (("vehicles", 0, "pose", "x"), 1e12, "situation.vehicles[0].pose.x"),
        (("table", "width"), float("nan"), "situation.table.width"),
        (("table", "height"), 1e9, "situation.table.height"),
    ],
)
def test_non_finite_or_huge_numbers_in_a_setup_are_refused(
    tmp_path: Path, where: tuple[Any, ...], value: float, field: str
) -> None:
    situation: Any = duel_situation()
    node = situation
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with client(tmp_path / "g.sqlite") as c:
        refused(raw_post(c, "/api/games", {"situation": situation}), 422, field)
        assert c.get("/api/games").json()["games"] == []


def test_a_heading_of_1e400_in_the_json_text_is_a_4xx(tmp_path: Path) -> None:
    text = json.dumps({"situation": duel_situation()}).replace('"heading": 90', '"heading": 1e400')
    with client(tmp_path / "g.sqlite") as c:
        response = c.post("/api/games", content=text, headers={"content-type": "application/json"})
        refused(response, 422, "situation.vehicles[0].pose.heading")


def test_adjudicate_refuses_a_nan_pose_with_exit_2(tmp_path: Path) -> None:
    situation = duel_situation()
    situation["vehicles"][0]["pose"]["x"] = float("nan")
    for v in situation["vehicles"]:
        v["plans"] = [{"cards": ["1", "2", "3"]}]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(situation, allow_nan=True))
    result = dogfight("adjudicate", str(path))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "pose.x" in result.stderr


@pytest.mark.parametrize("depth", [200, 3000, 100_000])
def test_deep_nesting_is_a_4xx_never_a_traceback(tmp_path: Path, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    with client(tmp_path / "g.sqlite") as c:
        for body in (
            '{"situation": {"switches": ' + nested + "}}",
            '{"situation": ' + "{" * 0 + '{"vehicles": ' + nested + "}}",
            nested,
        ):
            response = c.post(
                "/api/games", content=body, headers={"content-type": "application/json"}
            )
            assert 400 <= response.status_code < 500, response.text[:300]
            assert response.json()["error"]


@pytest.mark.parametrize(
    "content",
    [("[" * 100_000).encode(), b'{"vehicles": ' + b"[" * 5000, b"\xff\xfe\x00 not text"],
    ids=["deep", "deep-unclosed", "not-utf8"],
)
@pytest.mark.parametrize("command", ["adjudicate", "render"])
def test_a_situation_file_nested_too_deep_or_not_text_is_exit_2(
    tmp_path: Path, content: bytes, command: str
) -> None:
    """Found by 'dogfight bench --fuzz 100000': a file of 100,000 '[' made adjudicate
    print a RecursionError traceback. One line naming the file, exit 2, nothing written."""
    path = tmp_path / "s.json"
    path.write_bytes(content)
    out = tmp_path / "out.svg"
    args = [command, str(path)] + (["-o", str(out)] if command == "render" else [])
    result = dogfight(*args)
    assert result.returncode == 2, result.stderr[-500:]
    assert "Traceback" not in result.stderr and str(path) in result.stderr
    assert not out.exists()


# --- a step that raises all the same -----------------------------------------------------


def poison_resolve_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine raises on any step of a game with a vehicle called 'poison' (the
    server resolves an action phase with ``resolve_or_ask``, or ``resolve_phase``)."""
    real = resolve_phase
    real_or_ask = resolve_or_ask

    def resolve(state: Any, *args: Any, **kw: Any) -> Any:
        if "poison" in state.vehicles:
            raise IndexError("tuple index out of range")
        return real(state, *args, **kw)

    def resolve_asking(state: Any, *args: Any, **kw: Any) -> Any:
        if "poison" in state.vehicles:
            raise IndexError("tuple index out of range")
        return real_or_ask(state, *args, **kw)

    monkeypatch.setattr(games_module, "resolve_phase", resolve)
    monkeypatch.setattr(games_module, "resolve_or_ask", resolve_asking)


def poisoned_situation() -> Json:
    situation = duel_situation()
    situation["vehicles"][0]["id"] = "poison"
    return situation


def test_a_step_that_raises_fails_only_its_game_and_doctor_rolls_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "g.sqlite"
    poison_resolve_phase(monkeypatch)
    with client(db) as c:
        bad = c.post("/api/games", json={"situation": poisoned_situation()}).json()
        bad_id = bad["game"]["id"]
        bad_seats = {s["label"]: (s["id"], s["token"], s["vehicles"][0]) for s in bad["seats"]}
        good_id, good_seats = make_duel(c)
        last = plan_both(c, bad_id, bad_seats)
        # the last plan is stored: the answer says so, and that the game failed (202)
        body = refused(last, 202, "game_id")
        assert body["stored"] is True and body["failed"]["turn"] == 1
        assert "turn 1 phase 1" in body["error"] and "IndexError" in body["error"]
        assert "tuple index" not in body["error"]  # the message stays with the operator
        refused(c.get(f"/api/games/{bad_id}"), 409, "game_id")
        sid, token, _ = bad_seats["allies"]
        refused(c.get(seat_url(bad_id, sid), headers=headers(token)), 409, "game_id")
        with c.websocket_connect(f"/api/games/{bad_id}/ws") as ws:
            ws.send_json({"seat": sid, "token": token})
            message = ws.receive_json()
            assert message["type"] == "error" and message["status"] == 409
        listed = {g["id"]: g["failed"] for g in c.get("/api/games").json()["games"]}
        assert listed == {bad_id: True, good_id: False}
        plan_both(c, good_id, good_seats)
        assert c.get(f"/api/games/{good_id}").json()["steps"] >= 4
    # a restart: start-up goes on, the failed game still answers 409
    with client(db) as c:
        refused(c.get(f"/api/games/{bad_id}"), 409, "game_id")
        assert c.get(f"/api/games/{good_id}").status_code == 200
    doctor = dogfight("doctor", "--db", str(db), "--json")
    assert doctor.returncode == 0, doctor.stderr
    failed = json.loads(doctor.stdout)["failed"]
    assert [(f["game"], f["turn"], f["phase"]) for f in failed] == [(bad_id, 1, 1)]
    assert "tuple index out of range" in failed[0]["error"]
    monkeypatch.undo()
    rolled = dogfight("doctor", "--db", str(db), "--rollback", bad_id)
    assert rolled.returncode == 0, rolled.stderr
    assert "turn 1" in rolled.stdout
    assert json.loads(dogfight("doctor", "--db", str(db), "--json").stdout) == {"failed": []}
    with client(db) as c:
        summary = c.get(f"/api/games/{bad_id}").json()
        assert (summary["turn"], summary["stage"], summary["steps"]) == (1, "planning", 0)
        plan_both(c, bad_id, bad_seats)
        assert c.get(f"/api/games/{bad_id}").json()["steps"] >= 4


def test_doctor_refuses_to_roll_back_a_game_that_did_not_fail(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    with client(db) as c:
        game, _ = make_duel(c)
    result = dogfight("doctor", "--db", str(db), "--rollback", game)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "not a failed game" in result.stderr
    assert "no failed game" in dogfight("doctor", "--db", str(db)).stdout


def test_a_poisoned_plan_stored_by_an_older_server_does_not_stop_the_start(
    tmp_path: Path,
) -> None:
    """What the independent test did: ``"rockets": []`` accepted and stored; the next
    start replays it. Now the game fails alone and the server starts."""
    db = tmp_path / "g.sqlite"
    with client(db) as c:
        game, seats = make_duel(c)
        other, _ = make_duel(c)
    store = Store(sqlite_url(db))
    for sid, _, vid in seats.values():
        store.add_plans(game, 1, sid, {vid: {**straights_plan(), "rockets": []}})
    store.close()
    with client(db) as c:  # resume_all() runs here
        body = refused(c.get(f"/api/games/{game}"), 409, "game_id")
        assert "turn 1 phase 0" in body["error"]
        assert c.get(f"/api/games/{other}").status_code == 200
    rolled = dogfight("doctor", "--db", str(db), "--rollback", game)
    assert rolled.returncode == 0, rolled.stderr
    with client(db) as c:
        plan_both(c, game, seats)
        assert c.get(f"/api/games/{game}").json()["steps"] >= 4


# --- computer players only ----------------------------------------------------------------


def test_a_game_of_computer_players_only_never_waits_for_them(tmp_path: Path) -> None:
    """It used to stop after 40 steps (one advance's limit): the bots' unplanned turn
    counted as someone to wait for, so nothing scheduled the next advance."""
    store = Store(sqlite_url(tmp_path / "g.sqlite"))
    service = GameService(store, load_catalog())
    game, _ = service.create(
        duel_setup_big(),
        "bots",
        [("allies", "allies", ["camel"], "random"), ("central", "central", ["albatros"], "random")],
        None,
    )
    assert game.waiting_for() == []
    assert game.more_to_do() or game.state.over
    while game.more_to_do():
        game.advance(limit=3)
    assert game.state.over
    store.close()


def duel_setup_big() -> Json:
    return duel_situation(width=300, height=300, gap=60)


def test_the_server_plays_a_computer_game_past_40_steps(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        made = c.post(
            "/api/games",
            json={
                "situation": duel_setup_big(),
                "computer": {"allies": "random", "central": "random"},
            },
        ).json()
        game = made["game"]["id"]
        deadline = time.monotonic() + 60
        summary = c.get(f"/api/games/{game}").json()
        while time.monotonic() < deadline and not summary["over"]:
            time.sleep(0.05)
            summary = c.get(f"/api/games/{game}").json()
        assert summary["over"], summary


def test_a_non_finite_number_is_never_printed_as_json() -> None:
    """The command line's JSON is strict: NaN would be a bug, refused with a message."""
    from dogfight.errors import DataError
    from dogfight.output.files import dumps

    assert json.loads(dumps({"x": 1.5})) == {"x": 1.5}
    for bad in (float("nan"), float("inf"), [float("-inf")]):
        with pytest.raises(DataError, match="not finite"):
            dumps({"x": bad})
