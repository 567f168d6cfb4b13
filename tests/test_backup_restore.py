"""``dogfight backup`` / ``dogfight restore`` (issue 32, item 5): a game in progress,
backed up, restored into a fresh database and played there to the end with the seats'
own links; bad input (a missing file, one cut short, of another engine version, a game
already there) is one message, exit status 2, nothing written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_helpers import client, headers, seat_url, straights_plan
from sqlalchemy import create_engine, func, select

from dogfight.server.db.store import sqlite_url
from dogfight.server.db.tables import GAMES

Json = dict[str, Any]


def dogfight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args], capture_output=True, text=True, timeout=300
    )


def _games(db: Path) -> int:
    if not db.exists():
        return 0
    engine = create_engine(sqlite_url(db))
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(GAMES)).scalar_one())
    finally:
        engine.dispose()


def _plan_turn(c: Any, game: str, seats: list[Json]) -> bool:
    """Every seat still to plan this turn plans straight ahead; False once it is over."""
    for seat in seats:
        view = c.get(seat_url(game, seat["id"]), headers=headers(seat["token"])).json()
        stage = view["stage"]
        if stage["kind"] == "over":
            return False
        assert stage["kind"] == "planning", stage
        if stage["submitted"] or not stage["to_plan"]:
            continue
        plan = {"turn": stage["turn"], "plans": {v: straights_plan() for v in stage["to_plan"]}}
        answer = c.post(seat_url(game, seat["id"], "plans"), headers=headers(seat["token"]),
                        json=plan)  # fmt: skip
        assert answer.status_code == 200, answer.text
    return True


def _game_in_progress(db: Path) -> tuple[str, list[Json]]:
    """A duel one turn in, and another game beside it (not backed up)."""
    with client(db) as c:
        made = c.post("/api/games", json={"preset": "duel", "seed": 5, "analysis": True}).json()
        game, seats = made["game"]["id"], made["seats"]
        assert _plan_turn(c, game, seats)
        assert c.get(f"/api/games/{game}").json()["turn"] == 2
        c.post("/api/games", json={"preset": "duel"})
    return game, seats


def test_a_game_in_progress_is_restored_and_played_to_the_end(tmp_path: Path) -> None:
    game, seats = _game_in_progress(tmp_path / "a.sqlite")
    saved = tmp_path / "one.jsonl"
    done = dogfight(
        "backup", "--db", str(tmp_path / "a.sqlite"), "--out", str(saved), "--game", game
    )
    assert done.returncode == 0, done.stderr
    assert "1 game backed up" in done.stdout
    fresh = tmp_path / "b.sqlite"
    done = dogfight("restore", "--db", str(fresh), str(saved))
    assert done.returncode == 0, done.stderr
    assert _games(fresh) == 1
    with client(fresh) as c:
        summary = c.get(f"/api/games/{game}").json()
        assert summary["turn"] == 2
        for _ in range(60):
            if not _plan_turn(c, game, seats):
                break
        assert c.get(f"/api/games/{game}").json()["over"]
    # restoring it again: the game is there already, nothing is written twice
    again = dogfight("restore", "--db", str(fresh), str(saved))
    assert again.returncode == 2 and "already in" in again.stderr
    assert "Traceback" not in again.stderr and _games(fresh) == 1


def test_every_game_is_backed_up_without_game(tmp_path: Path) -> None:
    _game_in_progress(tmp_path / "a.sqlite")
    saved = tmp_path / "all.jsonl"
    done = dogfight("backup", "--db", str(tmp_path / "a.sqlite"), "--out", str(saved))
    assert done.returncode == 0 and "2 games backed up" in done.stdout
    assert dogfight("restore", "--db", str(tmp_path / "b.sqlite"), str(saved)).returncode == 0
    assert _games(tmp_path / "b.sqlite") == 2


def test_bad_backups_are_refused_whole(tmp_path: Path) -> None:
    game, _ = _game_in_progress(tmp_path / "a.sqlite")
    saved = tmp_path / "one.jsonl"
    assert (
        dogfight("backup", "--db", str(tmp_path / "a.sqlite"), "--out", str(saved)).returncode == 0
    )
    lines = saved.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    half_line = tmp_path / "half.jsonl"
    half_line.write_text("\n".join(lines)[: len(saved.read_text()) - 30])
    other = tmp_path / "other.jsonl"
    header = json.loads(lines[0])
    other.write_text(
        "\n".join([json.dumps({**header, "engine": header["engine"] + 1}), *lines[1:]])
    )
    cases = {
        tmp_path / "missing.jsonl": "cannot be read",
        cut: "cut short",
        half_line: "cut short",
        other: "another engine version",
    }
    target = tmp_path / "b.sqlite"
    for path, said in cases.items():
        done = dogfight("restore", "--db", str(target), str(path))
        assert done.returncode == 2, (path, done.stdout, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert _games(target) == 0
    missing = dogfight("backup", "--db", str(tmp_path / "a.sqlite"), "--out",
                       str(tmp_path / "x.jsonl"), "--game", "nosuch")  # fmt: skip
    assert missing.returncode == 2 and "no such game" in missing.stderr
    assert not (tmp_path / "x.jsonl").exists() and game
