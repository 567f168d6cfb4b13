"""A seat's plans and target answers answered with its update (``?answer=update``,
docs/web.md): the parts of its view that a plan or an answer changes, the same texts the
view and the WebSocket carry, and the view itself left to the WebSocket. The page asks for
it; without ``answer`` the answer is still the whole view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import client, headers, seat_url, slowest_plan, straights_plan, three_planes

Json = dict[str, Any]

UPDATE_KEYS = {"type", "game", "seat", "stage", "steps_total"}


def _made(c: Any, **body: Any) -> tuple[str, dict[str, tuple[str, str]]]:
    made = c.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    out = made.json()
    return out["game"]["id"], {s["label"]: (s["id"], s["token"]) for s in out["seats"]}


def _is_update_of_view(answer: Json, view: Json) -> None:
    """``answer`` is an update, and the view read after it has the same parts."""
    assert set(answer) == UPDATE_KEYS and answer["type"] == "update"
    for part in ("game", "seat", "stage"):
        assert answer[part] == view[part], part
    assert answer["steps_total"] == view["steps_total"]


@pytest.mark.parametrize("query", ["answer=update", "since=3&answer=update", "answer=update&x=1"])
def test_plans_answered_with_the_seat_update(tmp_path: Path, query: str) -> None:
    with client(tmp_path / "g.sqlite") as c:
        game, seats = _made(c, preset="duel", seed=5, analysis=True)
        for label in ("allies", "central"):
            seat, token = seats[label]
            vid = c.get(seat_url(game, seat), headers=headers(token)).json()["seat"]["vehicles"][0]
            plan = {"turn": 1, "plans": {vid: straights_plan()}}
            answer = c.post(
                seat_url(game, seat, "plans") + "?" + query, headers=headers(token), json=plan
            )
            assert answer.status_code == 200, answer.text
            view = c.get(seat_url(game, seat), headers=headers(token)).json()
            _is_update_of_view(answer.json(), view)
        # the last plan resolved turn 1: the update says so, the steps come with the view
        assert answer.json()["steps_total"] == 4 and view["stage"]["turn"] == 2


def test_without_answer_the_plans_are_answered_with_the_view(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        game, seats = _made(c, preset="duel")
        seat, token = seats["allies"]
        answer = c.post(
            seat_url(game, seat, "plans") + "?since=0",
            headers=headers(token),
            json={"turn": 1, "plans": {"camel": straights_plan()}},
        ).json()
        assert answer["type"] == "view" and "state" in answer and "steps" in answer


def test_target_answers_answered_with_the_seat_update(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        game, seats = _made(c, situation=three_planes(), seed=2, analysis=True)
        cat = c.get("/api/catalog").json()
        (allies, ta), (central, tc) = seats["allies"], seats["central"]
        slow = {v: slowest_plan(cat, t) for v, t in (("spad", "spad-xiii"), ("camel",
                "sopwith-camel"), ("fokker", "fokker-dr1"))}  # fmt: skip
        for seat, token, vids in ((allies, ta, ("spad", "camel")), (central, tc, ("fokker",))):
            c.post(
                seat_url(game, seat, "plans") + "?answer=update",
                headers=headers(token),
                json={"turn": 1, "plans": {v: slow[v] for v in vids}},
            ).raise_for_status()
        stage = c.get(seat_url(game, central), headers=headers(tc)).json()["stage"]
        assert stage["kind"] == "targets", stage
        target = stage["questions"][0]["options"][0]
        answer = c.post(
            seat_url(game, central, "targets") + "?answer=update",
            headers=headers(tc),
            json={"turn": 1, "phase": 1, "fire": {"fokker": {"front": target}}},
        )
        assert answer.status_code == 200, answer.text
        view = c.get(seat_url(game, central), headers=headers(tc)).json()
        _is_update_of_view(answer.json(), view)
        assert answer.json()["steps_total"] > 1  # the phase resolved with the answer


@pytest.mark.parametrize("what", ["plans", "targets", "decisions"])
def test_an_unknown_answer_kind_is_refused_and_nothing_stored(tmp_path: Path, what: str) -> None:
    with client(tmp_path / "g.sqlite") as c:
        game, seats = _made(c, preset="duel")
        seat, token = seats["allies"]
        body = {"turn": 1, "plans": {"camel": straights_plan()}, "phase": 1, "fire": {},
                "answers": {}}  # fmt: skip
        answer = c.post(
            seat_url(game, seat, what) + "?answer=everything", headers=headers(token), json=body
        )
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "answer" and answer.json()["error"]
        stage = c.get(seat_url(game, seat), headers=headers(token)).json()["stage"]
        assert stage["kind"] == "planning" and not stage["submitted"]


def test_the_page_asks_for_the_update() -> None:
    page = (Path(__file__).parents[1] / "src/dogfight/server/static/table.js").read_text()
    for what in ("plans", "targets", "decisions"):
        assert f"/{what}?answer=update`" in page, what
    assert json.dumps("?since=") not in page
