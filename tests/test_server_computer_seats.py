"""Computer seats (issue 33 item 3): why one chose its plan, logged once the turn is
over, never before, and stored so that a reopened game shows it; a seat whose computer
player cannot be made (its data unreadable) refused with the seat and the reason, no
game made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bot_helpers import register_for_test
from server_helpers import client, headers, seat_url, straights_plan

from dogfight.bots.base import Bot
from dogfight.errors import DataError

Json = dict[str, Any]


def _explained(view: Json) -> list[Json]:
    return [e for s in view["steps"] for e in s["events"] if e["kind"] == "plan_explained"]


def _duel_against(c: Any, bot: str) -> tuple[str, str, str]:
    made = c.post("/api/games", json={"preset": "duel", "computer": {"central": bot}}).json()
    allies = next(s for s in made["seats"] if s["label"] == "allies")
    return made["game"]["id"], allies["id"], allies["token"]


def test_the_why_of_a_computer_seat_is_logged_once_the_turn_is_over(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        game, seat, token = _duel_against(c, "hard")
        before = c.get(seat_url(game, seat), headers=headers(token))
        # the bot has planned; nothing of its plan or its reasons shows yet
        assert before.json()["stage"]["kind"] == "planning"
        assert _explained(before.json()) == []
        assert "plan_explained" not in before.text and "value" not in before.text
        posted = c.post(
            seat_url(game, seat, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        assert posted.status_code == 200, posted.text
        view = c.get(seat_url(game, seat), headers=headers(token)).json()
        # a game may end in its first turn (each server game draws its own seed): its
        # stage is then "over", with no turn
        assert view["game"]["over"] or view["stage"]["turn"] == 2
        [why] = _explained(view)
        assert why["vehicle"] == "albatros" and why["turn"] == 1 and why["bot"] == "hard"
        assert len(why["plans"]) == 3
        assert why["text"].startswith("Why albatros flew ")
        assert len(why["why"]) == 3 and why["why"][0].endswith(f"{why['plans'][0][1]:.2f}")
        # logged in the step that ended the turn, after the cards it flew were revealed
        last = next(s for s in view["steps"] if why in s["events"])
        assert (last["turn"], last["phase"]) == (1, 3)
        flown = [
            e["card"]
            for s in view["steps"]
            for e in s["events"]
            if e["kind"] == "revealed" and e["vehicle"] == "albatros"
        ]
        assert flown == why["plans"][0][0]
    with client(tmp_path / "games.sqlite") as again:
        reopened = again.get(seat_url(game, seat), headers=headers(token)).json()
        assert _explained(reopened) == [why]


def test_a_bot_that_cannot_explain_itself_logs_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        game, seat, token = _duel_against(c, "random")
        c.post(
            seat_url(game, seat, "plans"),
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        )
        view = c.get(seat_url(game, seat), headers=headers(token)).json()
        assert view["steps"] and _explained(view) == []


# --- a computer player that cannot be made -----------------------------------------------


def _unreadable() -> Bot:
    """A bot whose data file cannot be read (as a learned bot with truncated weights)."""
    raise DataError("weights.npz", "shape", (3, 4), "expected weights of shape (5, 6)")


@pytest.fixture(name="unreadable")
def unreadable_fixture(monkeypatch: pytest.MonkeyPatch) -> str:
    return register_for_test(monkeypatch, "unreadable", _unreadable)


def test_a_computer_seat_whose_bot_cannot_be_made_is_refused(
    tmp_path: Path, unreadable: str
) -> None:
    with client(tmp_path / "games.sqlite") as c:
        # offered with the others (the lobby lists every registered bot that flies a seat)
        catalog = c.get("/api/catalog").json()
        assert unreadable in catalog["bots"] and catalog["bot_flies"][unreadable] == ["airplane"]
        listed = c.get("/api/games").json()["games"]
        answer = c.post("/api/games", json={"preset": "duel", "computer": {"central": unreadable}})
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["field"] == "computer.central"
        assert "central" in body["error"] and "weights.npz" in body["error"]
        assert "expected weights of shape (5, 6)" in body["error"]
        assert c.get("/api/games").json()["games"] == listed  # no game made
        # nor is a seat of a game handed to it
        made = c.post("/api/games", json={"preset": "duel"}).json()
        allies = next(s for s in made["seats"] if s["label"] == "allies")
        handed = c.post(
            seat_url(made["game"]["id"], allies["id"], "computer"),
            headers=headers(allies["token"]),
            json={"bot": unreadable},
        )
        assert handed.status_code == 422, handed.text
        assert handed.json()["field"] == "bot" and "weights.npz" in handed.json()["error"]


def test_a_learned_seat_whose_weights_cannot_be_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33, bad input: "the server refuses a `learned` seat with a 4xx when the file
    cannot be read, and the game is not created" — the real learned bot, its weights file
    (``DOGFIGHT_LEARNED_WEIGHTS``) truncated."""
    truncated = tmp_path / "weights.json"
    truncated.write_text('{"engine_version": ', encoding="utf-8")
    with client(tmp_path / "games.sqlite") as c:
        assert "learned" in c.get("/api/catalog").json()["bots"]
        made = c.post("/api/games", json={"preset": "duel", "computer": {"central": "learned"}})
        assert made.status_code == 201, made.text  # the shipped weights play
        listed = c.get("/api/games").json()["games"]
        monkeypatch.setenv("DOGFIGHT_LEARNED_WEIGHTS", str(truncated))
        answer = c.post("/api/games", json={"preset": "duel", "computer": {"central": "learned"}})
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "computer.central"
        assert str(truncated) in answer.json()["error"]
        assert c.get("/api/games").json()["games"] == listed  # no game made
