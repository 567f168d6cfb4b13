"""A failed game's edges (issue 28, defect 6): the request whose input completes the step
the referee cannot resolve is told its input was stored and the game failed (202, not a
409 as if it had been refused), and the game's replay shows the steps up to the failure
and says it failed — right after the failure and after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import client, duel_situation, headers, seat_url, straights_plan

from dogfight.rules.engine import resolve_or_ask, resolve_phase
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play import games as games_module

Json = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A database (an SQLite file, a PostgreSQL database: the stored input is committed
    on the event loop or at once) for games whose engine raises on every action phase of
    turn 2 and later: turn 1 is played, turn 2's first action phase fails."""

    def failing(real: Any) -> Any:
        def resolve(state: Any, *args: Any, **kw: Any) -> Any:
            if state.turn >= 2:
                raise IndexError("tuple index out of range")
            return real(state, *args, **kw)

        return resolve

    monkeypatch.setattr(games_module, "resolve_phase", failing(resolve_phase))
    monkeypatch.setattr(games_module, "resolve_or_ask", failing(resolve_or_ask))
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return sqlite_url(tmp_path / "g.sqlite")


def post_plans(c: Any, game: str, seat: tuple[str, str, str], turn: int, query: str = "") -> Any:
    sid, token, vid = seat
    return c.post(
        seat_url(game, sid, "plans") + query,
        headers=headers(token),
        json={"turn": turn, "plans": {vid: straights_plan()}},
    )


def duel_after_turn_one(c: Any) -> tuple[str, list[tuple[str, str, str]]]:
    """A duel of people whose turn 1 is played (far apart: nobody is in reach, the game
    goes on to turn 2); its id and seats (id, token, vehicle)."""
    made = c.post("/api/games", json={"situation": duel_situation(height=400, gap=300)}).json()
    game = made["game"]["id"]
    seats = [(s["id"], s["token"], s["vehicles"][0]) for s in made["seats"]]
    for seat in seats:
        assert post_plans(c, game, seat, 1).status_code == 200
    return game, seats


def replay(c: Any, game: str, seat: tuple[str, str, str]) -> Any:
    return c.get(seat_url(game, seat[0], "replay"), headers=headers(seat[1]))


# a plain plans request, the page's (its update), and one with a parameter the route ignores
@pytest.mark.parametrize("query", ["", "?answer=update", "?answer=update&unread=1"])
def test_the_post_that_completes_the_failing_turn_says_its_plan_was_stored(
    db: str, query: str
) -> None:
    with client(db) as c:
        game, seats = duel_after_turn_one(c)
        first = post_plans(c, game, seats[0], 2, query)
        assert first.status_code == 200, first.text
        last = post_plans(c, game, seats[1], 2, query)
        assert last.status_code == 202, last.text
        body = last.json()
        assert body["stored"] is True
        assert body["failed"] == {"turn": 2, "phase": 1, "error": "IndexError"}
        assert "turn 2 phase 1" in body["error"] and "tuple index" not in body["error"]
        assert body["field"] == "game_id"
        # the game is failed: every other request about it is refused with 409
        again = post_plans(c, game, seats[1], 2, query)
        assert again.status_code == 409 and "stored" not in again.json()
        assert c.get(f"/api/games/{game}").status_code == 409
    # the plan is stored indeed: both seats' plans of turn 2
    store = Store(db)
    record = store.load(game)
    store.close()
    assert record is not None
    assert sorted((turn, seat) for turn, seat, _ in record.plans if turn == 2) == sorted(
        (2, sid) for sid, _, _ in seats
    )


def test_a_seat_handed_to_a_computer_that_completes_the_failing_turn_is_told_it_was_stored(
    db: str,
) -> None:
    """The same for a seat's setting stored on its own (the computer player then plans
    the turn and its step fails): 202, ``stored``, the failure."""
    with client(db) as c:
        game, seats = duel_after_turn_one(c)
        assert post_plans(c, game, seats[0], 2).status_code == 200
        sid, token, _ = seats[1]
        handed = c.post(
            seat_url(game, sid, "computer"), headers=headers(token), json={"bot": "random"}
        )
        assert handed.status_code == 202, handed.text
        body = handed.json()
        assert body["stored"] is True
        assert body["failed"] == {"turn": 2, "phase": 1, "error": "IndexError"}
        assert c.get(f"/api/games/{game}").status_code == 409


def test_the_replay_of_a_failed_game_shows_the_steps_up_to_the_failure(
    db: str,
) -> None:
    with client(db) as c:
        game, seats = duel_after_turn_one(c)
        before = [replay(c, game, seat).json() for seat in seats]
        assert len(before[0]["frames"]) == 5  # the table as set up, turn 1's four steps
        assert "failed" not in before[0]
        for seat in seats:
            post_plans(c, game, seat, 2)
        assert c.get(f"/api/games/{game}").status_code == 409
        after = [replay(c, game, seat) for seat in seats]
    with client(db) as c:  # after a restart: the game is not in memory
        restarted = [replay(c, game, seat) for seat in seats]
        wrong = c.get(seat_url(game, seats[0][0], "replay"), headers=headers(seats[1][1]))
    for answers in (after, restarted):
        for seen, answer in zip(before, answers, strict=True):
            assert answer.status_code == 200, answer.text
            body = answer.json()
            # every step up to the failure, as the seat saw it: turn 1 as seen before,
            # the start of turn 2 (its plans revealed); and the failure said
            assert body["frames"][:5] == seen["frames"]
            assert [(f["turn"], f["phase"]) for f in body["frames"][5:]] == [(2, 0)]
            assert body["seat"] == seen["seat"]
            assert body["failed"] == {"turn": 2, "phase": 1, "error": "IndexError"}
            assert "turn 2 phase 1" in body["error"]
    # a seat's token is still asked for
    assert wrong.status_code in (401, 403), wrong.text
