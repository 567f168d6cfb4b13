"""Decision answers in a situation (``"decisions": {"tailing:spad@1.1": [...]}``): a
referee rules a reorder after tailing (002) with ``adjudicate``; a reorder by a plane
that is not tailing, or one that adds or drops a card, is refused with the rule quoted
(exit 2, nothing written; 422 on the web, no game stored).

002: "Tailing player may **reorder** their three planned maneuvers." / "Tailed reveals
**second card**, tailing player may reorder remaining two."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run
from server_helpers import client
from test_cli import assert_clean_refusal, dogfight

from dogfight.errors import DataError
from dogfight.rules.events import CardsReordered, Revealed

Json = dict[str, Any]


def tailing(decisions: Json | None = None, turns: int = 1) -> Json:
    """A SPAD 30 cm behind another, both flying east (002: the rear one tails)."""
    straights = {"cards": ["1", "2", "3"]}
    sit: Json = {
        "ruleset": "wow",
        "table": {"width": 300, "height": 100},
        "vehicles": [
            {
                "id": "spad",
                "type": "spad-xiii",
                "side": "allies",
                "pose": {"x": 30, "y": 50},
                "plans": [straights] * turns,
            },
            {
                "id": "prey",
                "type": "spad-xiii",
                "side": "central",
                "pose": {"x": 60, "y": 50},
                "plans": [{"cards": ["2", "3", "1"]}] * turns,
            },
        ],
    }
    if decisions is not None:
        sit["decisions"] = decisions
    return sit


def flown(events: list[Any], vehicle: str) -> list[str]:
    return [e.card for e in events if isinstance(e, Revealed) and e.vehicle == vehicle]


def test_a_situation_rules_a_reorder_across_two_maneuvers() -> None:
    _, plain = run(tailing())
    assert flown(plain, "spad") == ["1", "2", "3"]
    _, events = run(tailing({"tailing:spad@1.1": ["3", "1", "2"], "tailing:spad@1.2": ["2", "1"]}))
    assert flown(events, "spad") == ["3", "2", "1"]
    assert [e.cards for e in events if isinstance(e, CardsReordered)] == [
        ("3", "1", "2"),
        ("2", "1"),
    ]


@pytest.mark.parametrize(
    ("decisions", "needles"),
    [
        # the tailed plane is not tailing: it cannot reorder
        ({"tailing:prey@1.1": ["3", "2", "1"]}, ["decisions.tailing:prey@1.1", "not tailing"]),
        # a card dropped, a card added, a card twice
        ({"tailing:spad@1.1": ["3", "1"]}, ["decisions.tailing:spad@1.1", "none added"]),
        ({"tailing:spad@1.1": ["3", "1", "2", "4"]}, ["decisions.tailing:spad@1.1"]),
        ({"tailing:spad@1.2": ["2", "2"]}, ["decisions.tailing:spad@1.2", "none added"]),
        # a turn the situation never plans
        ({"tailing:spad@2.1": ["1", "2", "3"]}, ["decisions.tailing:spad@2.1", "no such decision"]),
    ],
)
def test_a_bad_reorder_is_refused_with_the_rule(decisions: Json, needles: list[str]) -> None:
    with pytest.raises(DataError) as refused:
        run(tailing(decisions))
    text = str(refused.value)
    for needle in needles:
        assert needle in text
    assert "002" in text


def test_a_malformed_decision_id_is_refused() -> None:
    with pytest.raises(DataError, match="decisions"):
        run(tailing({"spad reorders": ["1", "2", "3"]}))


def test_adjudicate_refuses_a_bad_reorder_with_exit_2_and_nothing_written(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tailing({"tailing:spad@1.1": ["3", "1", "2"]})))
    out = tmp_path / "ruling.json"
    result = dogfight("adjudicate", str(good), "-o", str(out))
    assert result.returncode == 0, result.stderr
    ruling = json.loads(out.read_text())
    reordered = [e for e in ruling["events"] if e["kind"] == "cards_reordered"]
    assert reordered and reordered[0]["cards"] == ["3", "1", "2"]
    # as the tailed side, the reorder and the shown card are hidden
    hidden = dogfight("adjudicate", str(good), "--as", "central")
    assert hidden.returncode == 0, hidden.stderr
    kinds = {e["kind"] for e in json.loads(hidden.stdout)["events"]}
    assert "tailing" in kinds
    assert not kinds & {"cards_reordered", "tailed_card_shown"}

    for name, decisions, needle in (
        ("not-tailing", {"tailing:prey@1.1": ["3", "2", "1"]}, "not tailing"),
        ("dropped", {"tailing:spad@1.1": ["3", "1"]}, "none added or dropped"),
    ):
        bad = tmp_path / f"{name}.json"
        bad.write_text(json.dumps(tailing(decisions)))
        out = tmp_path / f"{name}-ruling.json"
        result = dogfight("adjudicate", str(bad), "-o", str(out))
        assert_clean_refusal(result, str(bad), needle, "002")
        assert not out.exists(), "no half-written output"


def test_the_schema_describes_decisions() -> None:
    result = dogfight("schema", "situation")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    decisions = schema["properties"]["decisions"]
    assert "tailing" in decisions["description"]
    assert "kind:vehicle@turn.phase" in json.dumps(decisions)


def test_a_game_setup_with_decision_answers_is_refused(tmp_path: Path) -> None:
    """On the web each seat answers its own decisions at the table: a setup carrying
    answers is refused (422), and no game is stored."""
    sit = tailing({"tailing:spad@1.1": ["3", "1", "2"]})
    for v in sit["vehicles"]:
        v.pop("plans")
    with client(tmp_path / "games.sqlite") as c:
        refused = c.post("/api/games", json={"situation": sit})
        assert refused.status_code == 422
        body = refused.json()
        assert body["field"] == "situation.decisions"
        assert "its own decisions" in body["error"]
        assert c.get("/api/games").json()["games"] == []
