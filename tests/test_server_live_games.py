"""Issue 28, defect 3: a server keeps at most ``DOGFIGHT_LIVE_GAMES`` idle games in
memory (the least recently used leave it) and loads a game dropped again, the same game,
when it is asked for; a game in use stays; a summary read keeps no game in memory. (The
memory figure itself is ``dogfight bench --server``'s: no size is asserted here.)"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import client, headers, seat_url, stored_duels, straights_plan
from test_server_decisions import tailing_situation

from dogfight.server.play.service import DEFAULT_LIVE, GameService, live_games
from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

Json = dict[str, Any]


def _made(c: TestClient, **body: Any) -> tuple[str, dict[str, tuple[str, str]]]:
    made = c.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    seats = {s["label"]: (s["id"], s["token"]) for s in made.json()["seats"]}
    return made.json()["game"]["id"], seats


def _view(c: TestClient, game: str, seat: tuple[str, str]) -> Json:
    answer = c.get(seat_url(game, seat[0]), headers=headers(seat[1]))
    assert answer.status_code == 200, answer.text
    out: Json = answer.json()
    return out


def _post(c: TestClient, game: str, seat: tuple[str, str], what: str, body: Json) -> Json:
    answer = c.post(seat_url(game, seat[0], what), headers=headers(seat[1]), json=body)
    assert answer.status_code == 200, answer.text
    out: Json = answer.json()
    return out


def test_touching_ten_games_keeps_at_most_three(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        service.live = 3
        games = [_made(c, preset="duel") for _ in range(10)]
        assert len(service.games) <= 3
        for game, seats in games:
            _view(c, game, seats["allies"])
            assert game in service.games  # the one just asked for is held
            assert len(service.games) <= 3
        # the three most recently used
        assert list(service.games) == [game for game, _ in games[-3:]]


def test_a_game_dropped_comes_back_the_same(tmp_path: Path) -> None:
    """A game waiting for a decision (a tailing reorder) and a game with half its plans
    in, dropped from memory, read again: every seat's view is the same, and each goes on
    (the decision answered, the missing plan given) as if it had stayed."""
    with client(tmp_path / "games.sqlite") as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        service.live = 3
        tailing, tailers = _made(c, situation=tailing_situation(), seed=3, analysis=True)
        for seat, vid, cards in (
            ("allies", "spad", ["1", "2", "3"]),
            ("central", "albatros", ["2", "3", "1"]),
        ):
            _post(c, tailing, tailers[seat], "plans", {"turn": 1, "plans": {vid: {"cards": cards}}})
        half, duelists = _made(c, preset="duel")
        _post(
            c, half, duelists["allies"], "plans", {"turn": 1, "plans": {"camel": straights_plan()}}
        )
        before = {
            (game, label): _view(c, game, seat)
            for game, seats in ((tailing, tailers), (half, duelists))
            for label, seat in seats.items()
        }
        [decision] = before[(tailing, "allies")]["stage"]["decisions"]
        assert before[(half, "allies")]["stage"]["submitted"] is True
        for _ in range(4):
            _made(c, preset="duel")
        assert tailing not in service.games and half not in service.games
        after = {
            (game, label): _view(c, game, seat)
            for game, seats in ((tailing, tailers), (half, duelists))
            for label, seat in seats.items()
        }
        assert after == before
        # and they go on: the decision is answered, the missing plan resolves the turn
        for game in (tailing, half):
            service.games.pop(game)
        answers = {decision["id"]: ["3", "2", "1"]}
        decided = _post(
            c, tailing, tailers["allies"], "decisions", {"turn": 1, "phase": 1, "answers": answers}
        )
        assert decided["steps_total"] > before[(tailing, "allies")]["steps_total"]
        plans = {"albatros": straights_plan()}
        planned = _post(c, half, duelists["central"], "plans", {"turn": 1, "plans": plans})
        assert planned["steps_total"] == 4


def test_a_summary_read_keeps_no_game(tmp_path: Path) -> None:
    """The list and a game's summary read what is stored, or a copy of the game loaded
    for the request: no game is held for them (the games' own pages hold theirs)."""
    _, ids, path = stored_duels(tmp_path, 4)
    app = create_app(f"sqlite:///{path}", limits=Limits(allowed_hosts=("testserver",)))
    service: GameService = app.state.service
    service.live = 1
    with TestClient(app) as c:
        held = list(service.games)  # the games resumed at start, at most one kept
        assert len(held) <= 1
        listed = c.get("/api/games").json()["games"]
        assert sorted(g["id"] for g in listed) == sorted(ids)
        for game in ids:
            summary = c.get(f"/api/games/{game}")
            assert summary.status_code == 200, summary.text
            assert summary.json()["id"] == game
            assert list(service.games) == held


def test_a_game_in_use_stays(tmp_path: Path) -> None:
    """A game with a page connected (its WebSocket), or whose lock is held (a turn being
    resolved, a computer player thinking), is not dropped whatever the bound."""
    with client(tmp_path / "games.sqlite") as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        service.live = 1
        watched, seats = _made(c, preset="duel")
        busy, _ = _made(c, preset="duel")
        with c.websocket_connect(f"/api/games/{watched}/ws") as ws:
            sid, token = seats["allies"]
            ws.send_json({"seat": sid, "token": token, "since": 0})
            assert ws.receive_json()["type"] == "view"
            game = service.get(busy)  # loaded again: the page's game stays too
            assert watched in service.games
            held = threading.Event()
            done = threading.Event()

            def hold() -> None:
                with game.lock:
                    held.set()
                    done.wait(10)

            holder = threading.Thread(target=hold)
            holder.start()
            try:
                held.wait(10)
                for _ in range(3):
                    _made(c, preset="duel")
                assert watched in service.games and busy in service.games
            finally:
                done.set()
                holder.join()
            _made(c, preset="duel")
            assert busy not in service.games  # idle again: the least recently used
            assert watched in service.games


def test_the_bound_comes_from_the_environment(monkeypatch: Any) -> None:
    monkeypatch.setenv("DOGFIGHT_LIVE_GAMES", "7")
    assert live_games() == 7
    for bad in ("0", "-3", "many"):
        monkeypatch.setenv("DOGFIGHT_LIVE_GAMES", bad)
        assert live_games() == DEFAULT_LIVE
    monkeypatch.delenv("DOGFIGHT_LIVE_GAMES")
    assert live_games() == DEFAULT_LIVE


def test_a_server_starting_resumes_only_games_that_need_no_person(tmp_path: Path) -> None:
    """A server starting on thousands of stored games reads only those that may move
    without a person: a computer seat, or inputs stored after the last step (a server
    that stopped between them); a game waiting for its people is read when asked for."""
    with client(tmp_path / "g.sqlite") as c:
        waiting, _ = _made(c, preset="duel")
        half = c.post("/api/games", json={"preset": "duel"}).json()
        allies = next(s for s in half["seats"] if s["label"] == "allies")
        answer = c.post(
            seat_url(half["game"]["id"], allies["id"], "plans"),
            headers=headers(allies["token"]),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        assert answer.status_code == 200, answer.text
        bots = c.post(
            "/api/games", json={"preset": "duel", "computer": {"central": "random"}}
        ).json()["game"]["id"]
        store = c.app.state.service.store  # type: ignore[attr-defined]
        resumed = set(store.games_to_resume())
    assert half["game"]["id"] in resumed and bots in resumed
    assert waiting not in resumed


def test_a_game_loaded_does_not_walk_past_every_game_in_use(tmp_path: Path) -> None:
    """Issue 32, item 6: with more games in use than the bound (quiet sockets open), each
    game loaded walked past every one of them to find the idle game to drop. Now a walk
    puts the games in use it meets last and looks at ``WALK`` games at most, and the
    idle games still leave."""
    from dogfight.server.play.service import WALK

    limits = Limits(allowed_hosts=("testserver",), games_per_minute=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", limits=limits)) as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        service.live = 2
        used: set[str] = set()
        asked: list[str] = []
        was = service.in_use

        def in_use(game_id: str) -> bool:
            asked.append(game_id)
            return game_id in used or was(game_id)

        service.in_use = in_use
        for _ in range(3 * WALK):
            used.add(_made(c, preset="duel")[0])
        waiting = [_made(c, preset="duel") for _ in range(3 * WALK)]
        asked.clear()
        for game, seats in waiting:
            _view(c, game, seats["allies"])
        assert all(game in service.games for game in used)  # in use: never dropped
        # each load asked about WALK games at most, not about every game in use
        assert len(asked) <= WALK * len(waiting) < len(used) * len(waiting)
        held = [game for game, _ in waiting if game in service.games]
        # the idle games past the bound leave, later by a few loads at most
        assert len(held) <= 2 + len(used) // WALK + 1
