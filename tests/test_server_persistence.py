"""Nothing lost: a real ``dogfight serve`` process is killed (SIGKILL, or by itself at a
chosen point) mid-turn and started again on the same database; every submitted plan and
resolved step is still there, the game goes on, and no step is ever stored twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Server, duel_situation, serving, straights_plan, three_planes

from dogfight.catalog import load_catalog
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seat_actions import submit_plans
from dogfight.server.play.service import GameService

Json = dict[str, Any]


def create(base: str, **body: Any) -> tuple[str, dict[str, tuple[str, str]]]:
    made = httpx.post(base + "/api/games", json=body, timeout=10).json()
    seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
    return made["game"]["id"], seats


def view(base: str, game: str, seat: tuple[str, str]) -> Json:
    response = httpx.get(
        f"{base}/api/games/{game}/seats/{seat[0]}", headers={"X-Seat-Token": seat[1]}, timeout=10
    )
    assert response.status_code == 200, response.text
    out: Json = response.json()
    return out


def submit(base: str, game: str, seat: tuple[str, str], turn: int, plans: Json) -> httpx.Response:
    return httpx.post(
        f"{base}/api/games/{game}/seats/{seat[0]}/plans",
        json={"turn": turn, "plans": plans},
        headers={"X-Seat-Token": seat[1]},
        timeout=10,
    )


def stored_steps(db: Path | str, game: str) -> list[tuple[int, int]]:
    store = Store(db if isinstance(db, str) else sqlite_url(db))
    try:
        return store.count_steps(game)
    finally:
        store.close()


def test_a_submitted_plan_survives_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as server:
        game, seats = create(server.base, preset="duel", seed=4, analysis=True)
        assert submit(server.base, game, seats["allies"], 1, {"camel": straights_plan()}).is_success
        server.kill()
    with serving(db) as server:
        again = view(server.base, game, seats["allies"])
        assert again["stage"]["submitted"] is True
        assert again["stage"]["my_plans"]["camel"]["cards"] == ["1", "2", "3"]
        assert again["stage"]["waiting_for"] == [seats["central"][0]]
        done = submit(server.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert done.is_success
        assert view(server.base, game, seats["central"])["steps_total"] == 4
    assert stored_steps(db, game) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def test_killed_right_after_the_last_plan_its_turn_is_stored(tmp_path: Path) -> None:
    """A turn's last plan is committed in one transaction with the steps it resolves:
    killed right after that commit (before the answer), both are stored."""
    db = tmp_path / "games.sqlite"
    server = Server(db, env={"DOGFIGHT_TEST_CRASH": "after-last-plan"})
    try:
        game, seats = create(server.base, preset="duel", seed=9, analysis=True)
        assert submit(server.base, game, seats["allies"], 1, {"camel": straights_plan()}).is_success
        with pytest.raises(httpx.HTTPError):
            submit(server.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert server.wait_exit() == 70
    finally:
        server.kill()
    assert stored_steps(db, game) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    with serving(db) as server:
        seen = view(server.base, game, seats["central"])
        assert seen["steps_total"] == 4 and seen["stage"]["turn"] == 2
        # the plan is stored once: submitting it again is refused
        again = submit(server.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert again.status_code == 409
    assert stored_steps(db, game) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def test_killed_before_the_last_plan_is_stored_nothing_of_it_is(tmp_path: Path) -> None:
    """Killed after the last plan was checked but before its transaction: neither the
    plan (never acknowledged) nor any step is stored; the first plan (acknowledged) is,
    and the seat plans again on the restarted server."""
    db = tmp_path / "games.sqlite"
    server = Server(db, env={"DOGFIGHT_TEST_CRASH": "before-last-plan"})
    try:
        game, seats = create(server.base, preset="duel", seed=9, analysis=True)
        assert submit(server.base, game, seats["allies"], 1, {"camel": straights_plan()}).is_success
        with pytest.raises(httpx.HTTPError):
            submit(server.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert server.wait_exit() == 70
    finally:
        server.kill()
    assert stored_steps(db, game) == []
    with serving(db) as server:
        seen = view(server.base, game, seats["central"])
        assert seen["steps_total"] == 0 and seen["stage"]["submitted"] is False
        assert view(server.base, game, seats["allies"])["stage"]["submitted"] is True
        done = submit(server.base, game, seats["central"], 1, {"albatros": straights_plan()})
        assert done.is_success
        assert view(server.base, game, seats["central"])["steps_total"] == 4
    assert stored_steps(db, game) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def _events(views: list[Json]) -> list[Json]:
    return [e for v in views for s in v["steps"] for e in s["events"]]


def _slow_plans(kind_of: dict[str, str]) -> dict[str, Json]:
    catalog = load_catalog()
    out: dict[str, Json] = {}
    for vid, kind in kind_of.items():
        deck = catalog.maneuver_decks[catalog.airplanes[kind].maneuver_deck]
        straights = sorted(
            (c for c in deck.cards if c.symbol.value == "straight"), key=lambda c: c.forward
        )
        cards = [c.id for c in straights][:3]
        for c in deck.cards:
            if len(cards) == 3:
                break
            if c.id not in cards and c.symbol.value in ("left", "right"):
                cards.append(c.id)
        out[vid] = {"cards": cards}
    return out


def _play_targets_game(
    base: str, kill: Server | None, db: Path | str, other: Server | None = None
) -> list[Json]:
    """Three airplanes, a target question in phase 1; with ``kill``, the server is killed
    while the question waits and a new one answers it (or ``other``, a second process
    already serving the same database). Returns the central seat's view."""
    game, seats = create(base, situation=three_planes(), seed=21, analysis=True)
    allies, central = seats["allies"], seats["central"]
    plans = _slow_plans({"spad": "spad-xiii", "camel": "sopwith-camel", "fokker": "fokker-dr1"})
    assert submit(base, game, allies, 1, {k: plans[k] for k in ("spad", "camel")}).is_success
    assert submit(base, game, central, 1, {"fokker": plans["fokker"]}).is_success
    waiting = view(base, game, central)
    assert waiting["stage"]["kind"] == "targets"
    question = waiting["stage"]["questions"][0]
    if kill is not None:
        kill.kill()
        assert stored_steps(db, game) == [(1, 0)]
        restarted = other or Server(db)
        base = restarted.base
    try:
        again = view(base, game, central)
        assert again["stage"]["questions"] == waiting["stage"]["questions"]
        far = question["options"][-1]
        answer = httpx.post(
            f"{base}/api/games/{game}/seats/{central[0]}/targets",
            json={"turn": 1, "phase": 1, "fire": {"fokker": {question["weapon"]: far}}},
            headers={"X-Seat-Token": central[1]},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        final = view(base, game, central)
        keys = stored_steps(db, game)
        assert len(keys) == len(set(keys))
        return _events([final])
    finally:
        if kill is not None:
            restarted.kill()


def test_killed_mid_turn_while_a_target_is_chosen(tmp_path: Path) -> None:
    """The same game with and without a kill between the phases gives the same events."""
    with serving(tmp_path / "a.sqlite") as server:
        calm = _play_targets_game(server.base, None, tmp_path / "a.sqlite")
    server = Server(tmp_path / "b.sqlite")
    try:
        killed = _play_targets_game(server.base, server, tmp_path / "b.sqlite")
    finally:
        server.kill()
    assert killed == calm
    assert any(e["kind"] == "fired" and e["firer"] == "fokker" for e in killed)


def test_a_step_is_never_resolved_twice(tmp_path: Path) -> None:
    """Two servers (two services on one database) hold the same game; both try to
    resolve the same turn: one commits, the other finds the steps stored and reloads."""
    db = tmp_path / "games.sqlite"
    catalog = load_catalog()
    store = Store(sqlite_url(db))
    service = GameService(store, catalog)
    game, tokens = service.create(
        duel_situation(),
        "duel",
        [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
        3,
    )
    del tokens
    store.add_plans(game.id, 1, "a", {"camel": straights_plan()})
    store.add_plans(game.id, 1, "b", {"albatros": straights_plan()})
    record = store.load(game.id)
    assert record is not None
    first = LiveGame(record, catalog, store)
    second = LiveGame(record, catalog, store)
    assert first.advance() and len(first.steps) == 4
    second.advance()
    assert len(second.steps) == 4
    assert [e.to_json() for s in second.steps for e in s.events] == [
        e.to_json() for s in first.steps for e in s.events
    ]
    assert store.count_steps(game.id) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    store.close()


def _a_played_turn(db: Path) -> tuple[Store, LiveGame]:
    """A stored duel (seed 5) whose first turn both seats planned (straights)."""
    store = Store(sqlite_url(db))
    service = GameService(store, load_catalog())
    game, _ = service.create(
        duel_situation(gap=40),
        "duel",
        [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
        5,
    )
    submit_plans(game, "a", 1, {"camel": straights_plan()})
    submit_plans(game, "b", 1, {"albatros": straights_plan()})
    return store, game


def test_export_writes_the_transcript_and_an_svg_of_a_step(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dogfight.cli.app import app

    db = tmp_path / "games.sqlite"
    store, game = _a_played_turn(db)
    store.close()
    out = tmp_path / "game.jsonl"
    svg = tmp_path / "step.svg"
    result = CliRunner().invoke(
        app, ["export", game.id, "--db", str(db), "-o", str(out), "--svg", str(svg), "--step", "2"]
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["seed"] == 5 and header["plans"]["1"]["a"]["camel"]["cards"] == ["1", "2", "3"]
    assert any(json.loads(line)["kind"] == "fired" for line in lines[1:])
    assert svg.read_text().startswith("<")
    bad = CliRunner().invoke(app, ["export", "nope", "--db", str(db), "-o", str(out)])
    assert bad.exit_code != 0


def test_export_names_the_steps_that_replay_differently_from_what_was_stored(
    tmp_path: Path,
) -> None:
    """A game stored by another engine version is replayed by this one: the replay is
    used, and ``export`` names every step whose stored events (what the players saw)
    differ from it, in its header and on the terminal."""
    from sqlalchemy import text
    from typer.testing import CliRunner

    from dogfight.cli.app import app

    db = tmp_path / "games.sqlite"
    store, game = _a_played_turn(db)
    out = tmp_path / "game.jsonl"
    result = CliRunner().invoke(app, ["export", game.id, "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "diverged" not in json.loads(out.read_text().splitlines()[0])
    with store.engine.begin() as connection:
        connection.execute(
            text("UPDATE steps SET events = '[]' WHERE game_id = :g AND turn = 1 AND phase = 2"),
            {"g": game.id},
        )
    store.close()
    result = CliRunner().invoke(app, ["export", game.id, "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text().splitlines()[0])["diverged"] == [[1, 2]]
    assert "turn 1 phase 2" in result.output


def test_a_database_from_before_revisions_is_upgraded(tmp_path: Path) -> None:
    """Games stored before writes were counted (no ``revision`` column, nor schema
    versions) still load and go on once upgraded (``dogfight db upgrade``): the column is
    added, at 0."""
    from sqlalchemy import text

    from dogfight.server.db import migrations

    db = tmp_path / "games.sqlite"
    store = Store(sqlite_url(db))
    game, _ = GameService(store, load_catalog()).create(
        duel_situation(),
        "duel",
        [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
        3,
    )
    with store.engine.begin() as connection:
        connection.execute(text("ALTER TABLE games DROP COLUMN revision"))
        connection.execute(text("DROP TABLE alembic_version"))
    migrations.upgrade(store.engine)
    store.close()
    store = Store(sqlite_url(db))
    try:
        service = GameService(store, load_catalog())
        again = service.get(game.id)
        assert again.revision == 0
        submit_plans(again, "a", 1, {"camel": straights_plan()})
        submit_plans(again, "b", 1, {"albatros": straights_plan()})
        assert store.count_steps(game.id) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    finally:
        store.close()
