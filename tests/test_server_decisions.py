"""Engine decisions through the browser API: tailing (002) across two maneuvers, the
tailed card visible to the tailing seat only, and bad reorders refused with the rule and
nothing stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server_helpers import client, headers, seat_url
from test_server_secrets import walk

Json = dict[str, Any]


def tailing_situation() -> Json:
    """002: a SPAD 30 cm behind an Albatros, both flying east: the SPAD tails."""
    return {
        "ruleset": "wow",
        "table": {"width": 300, "height": 100},
        "vehicles": [
            {"id": "spad", "type": "spad-xiii", "side": "allies", "pose": {"x": 30, "y": 50}},
            {"id": "albatros", "type": "spad-xiii", "side": "central", "pose": {"x": 60, "y": 50}},
        ],
    }


SECRET_KINDS = {"tailed_card_shown", "cards_reordered"}


def _secrets(body: Any) -> list[Json]:
    return [n for n in walk(body) if n.get("kind") in SECRET_KINDS or "shown" in n]


def test_tailing_reorder_through_the_api(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        made = c.post(
            "/api/games", json={"situation": tailing_situation(), "seed": 3, "analysis": True}
        ).json()
        game = made["game"]["id"]
        seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
        (a_id, a_tok), (c_id, c_tok) = seats["allies"], seats["central"]

        def view(sid: str, tok: str) -> Json:
            body: Json = c.get(seat_url(game, sid), headers=headers(tok)).json()
            return body

        def decide(sid: str, tok: str, phase: int, answers: Json) -> Any:
            return c.post(
                seat_url(game, sid, "decisions"),
                headers=headers(tok),
                json={"turn": 1, "phase": phase, "answers": answers},
            )

        for sid, tok, vid, cards in (
            (a_id, a_tok, "spad", ["1", "2", "3"]),
            (c_id, c_tok, "albatros", ["2", "3", "1"]),
        ):
            posted = c.post(
                seat_url(game, sid, "plans"),
                headers=headers(tok),
                json={"turn": 1, "plans": {vid: {"cards": cards}}},
            )
            assert posted.status_code == 200, posted.text

        hunter = view(a_id, a_tok)
        prey = view(c_id, c_tok)
        [decision] = hunter["stage"]["decisions"]
        assert decision["kind"] == "tailing"
        assert decision["shown"] == {"tailed": [{"vehicle": "albatros", "phase": 1, "card": "2"}]}
        assert hunter["stage"]["waiting_for"] == [a_id]
        assert prey["stage"]["decisions"] == []
        assert _secrets(prey) == []

        # The tailed seat cannot reorder: 409 with the rule, nothing stored.
        refused = decide(c_id, c_tok, 1, {decision["id"].replace("spad", "albatros"): ["2"]})
        assert refused.status_code == 409
        assert "not tailing" in refused.json()["error"]
        assert "002" in refused.json()["error"]
        # A reorder that drops or adds a card: 422, nothing stored.
        for bad in (["1", "2"], ["1", "2", "3", "4"], ["1", "1", "3"]):
            refused = decide(a_id, a_tok, 1, {decision["id"]: bad})
            assert refused.status_code == 422, refused.text
            assert "002" in refused.json()["error"]
        assert view(a_id, a_tok)["stage"]["decisions"] == [decision]

        done = decide(a_id, a_tok, 1, {decision["id"]: ["3", "2", "1"]})
        assert done.status_code == 200, done.text
        # The phase resolved; before the second maneuver the SPAD is asked again.
        hunter = view(a_id, a_tok)
        [second] = hunter["stage"]["decisions"]
        assert second["phase"] == 2
        assert second["options"] == ["2", "1"]
        assert second["shown"]["tailed"][0]["card"] == "3"
        assert decide(a_id, a_tok, 2, {second["id"]: ["1", "2"]}).status_code == 200

        hunter = view(a_id, a_tok)
        prey = view(c_id, c_tok)
        revealed = [
            e["card"]
            for step in hunter["steps"]
            for e in step["events"]
            if e["kind"] == "revealed" and e["vehicle"] == "spad"
        ]
        assert revealed[:2] == ["3", "1"]
        shown = [e for s in hunter["steps"] for e in s["events"] if e["kind"] in SECRET_KINDS]
        assert [e["kind"] for e in shown] == [
            "tailed_card_shown",
            "cards_reordered",
            "tailed_card_shown",
            "cards_reordered",
        ]
        assert _secrets(prey) == []
        replay = c.get(seat_url(game, c_id, "replay"), headers=headers(c_tok)).json()
        assert _secrets(replay) == []
        assert "tailing" in json.dumps(prey["steps"])  # the public part: who tails whom

        # Stored: a fresh app on the same file replays the same game.
    with client(tmp_path / "games.sqlite") as c2:
        again = c2.get(seat_url(game, a_id), headers=headers(a_tok)).json()
        assert again["steps_total"] == hunter["steps_total"]
        assert again["stage"] == hunter["stage"]


def test_a_computer_tailer_answers_its_own_decision(tmp_path: Path) -> None:
    """A bot seat that tails reorders by itself: the game never waits for it."""
    with client(tmp_path / "games.sqlite") as c:
        made = c.post(
            "/api/games",
            json={
                "situation": tailing_situation(),
                "seed": 3,
                "analysis": True,
                "computer": {"allies": "hard"},
            },
        ).json()
        game = made["game"]["id"]
        [(c_id, c_tok)] = [(s["id"], s["token"]) for s in made["seats"] if s["label"] == "central"]
        posted = c.post(
            seat_url(game, c_id, "plans"),
            headers=headers(c_tok),
            json={"turn": 1, "plans": {"albatros": {"cards": ["2", "3", "1"]}}},
        )
        assert posted.status_code == 200, posted.text
        prey = c.get(seat_url(game, c_id), headers=headers(c_tok)).json()
        assert prey["stage"]["kind"] == "planning" and prey["stage"]["turn"] == 2
        kinds = [e["kind"] for s in prey["steps"] for e in s["events"]]
        assert "tailing" in kinds
        assert _secrets(prey) == []
