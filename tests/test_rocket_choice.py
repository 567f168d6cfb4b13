"""Guns or rockets, chosen in the firing step (issue 30 item 2). 000: "After all vehicles
have moved, all airplanes can fire"; "An airplane carrying rockets may fire its machine
guns or its rockets, but not both in the same phase." The choice and the number of
counters are a decision of the airplane's seat alone (``rockets:<vehicle>@turn.phase``),
asked once everything has moved; the plan's ``rockets`` is only its default."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import HOLD, of, plan, plane, situation
from test_rules_standard import LAUNCH, R_CRUISE, STANDARD, Game, rocket_game
from test_rules_tripods import land

from dogfight.bots.decide import decide, guns_or_rockets
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import may_ask, pending_decisions, resolve_phase
from dogfight.rules.events import Event, Fired, RocketsLaunched
from dogfight.rules.rockets import GUNS, KIND, RULE

ID = "rockets:p@1.1"
TRIPOD = {"action_token:t@1.1": ["none"]}  # the Locust standing still places no token


def at_launch(game: Game) -> None:
    land(game.state, "p", *LAUNCH)


def asked(game: Game, answers: dict[str, list[str]] | None = None) -> list[Decision]:
    at_launch(game)
    return pending_decisions(game.state, step_rng(0, 1, 1), answers={**TRIPOD, **(answers or {})})


def resolved(game: Game, answers: dict[str, list[str]]) -> list[Event]:
    at_launch(game)
    _, events = resolve_phase(game.state, step_rng(0, 1, 1), answers={**TRIPOD, **answers})
    return list(events)


def test_the_seat_is_asked_guns_or_rockets_after_movement() -> None:
    """000: "After all vehicles have moved, all airplanes can fire": the choice is asked
    in the firing step, with the target the guns reach once everything has moved."""
    game = rocket_game(rockets=(0, 0, 0))
    assert may_ask(game.state, 1)
    (d,) = asked(game)
    assert (d.id, d.kind, d.vehicle, d.rule) == (ID, KIND, "p", RULE)
    assert d.options == ("guns", "rockets:1", "rockets:2")
    assert d.default == (GUNS,)  # the plan launches none
    assert d.shown["target"] == "t" and d.shown["rockets"] == 2


def test_the_plans_rockets_are_only_the_default() -> None:
    (d,) = asked(rocket_game(rockets=(2, 0, 0)))
    assert d.default == ("rockets:2",)


@pytest.mark.parametrize(
    ("answer", "launched", "fired"), [("guns", [], 1), ("rockets:1", [1], 0), ("rockets:2", [2], 0)]
)
def test_guns_or_rockets_not_both(answer: str, launched: list[int], fired: int) -> None:
    """000: "An airplane carrying rockets may fire its machine guns or its rockets, but
    not both in the same phase.\""""
    events = resolved(rocket_game(rockets=(2, 0, 0)), {ID: [answer]})
    assert [e.count for e in of(events, RocketsLaunched)] == launched
    assert len([e for e in of(events, Fired) if e.firer == "p"]) == fired


def test_only_the_counters_left() -> None:
    """000: "spend one or two Rocket counters": one counter left offers one; three
    counters, or two with one left, are refused with the rule quoted."""
    game = rocket_game(rockets=(1, 0, 0), counters=1)
    (d,) = asked(game)
    assert d.options == ("guns", "rockets:1")
    for bad in ("rockets:2", "rockets:3"):
        with pytest.raises(IllegalPlanError, match="one or two Rocket counters"):
            asked(game, {ID: [bad]})


def test_an_answer_for_a_plane_without_rockets_or_another_phase_is_refused() -> None:
    game = rocket_game(rockets=(0, 0, 0))
    with pytest.raises(IllegalPlanError, match="no such decision"):
        resolved(game, {"rockets:t@1.1": ["guns"]})
    with pytest.raises(IllegalPlanError, match="no such decision"):
        resolved(game, {ID: ["guns"], "rockets:p@1.2": ["guns"]})


def test_without_the_standard_rules_nothing_is_asked() -> None:
    game = rocket_game(rockets=(0, 0, 0), standard=False)
    assert asked(game) == []


def test_the_bot_launches_before_a_straight_or_stall() -> None:
    """The bot's choice: its rockets hit only after "a stall or a straight" (000), so it
    launches all it may when its following maneuver is one, else fires its guns."""
    game = rocket_game(rockets=(0, 0, 0))
    (d,) = asked(game)
    assert d.shown["following"] == "straight"
    assert guns_or_rockets(d) == ("rockets:2",)
    turning = dataclasses.replace(d, shown={**d.shown, "following": "left"})
    assert guns_or_rockets(turning) == (GUNS,)
    answers = decide(object(), {"vehicles": []}, game.state.rules, frozenset({"p"}), [d], None)  # type: ignore[arg-type]
    assert answers == {ID: ("rockets:2",)}


def test_terminal_play_asks_guns_or_rockets_at_the_prompt() -> None:
    """Terminal play shows the target and the counters left; three counters are refused
    with the rule and asked again; Enter keeps the default."""
    from dogfight.cli.terminal_play import _human_decision

    game = rocket_game(rockets=(0, 0, 0))
    (d,) = asked(game)
    said: list[str] = []
    typed = iter(["rockets:3", "rockets:1"])
    assert _human_decision(game.state, d, lambda _p: next(typed), said.append) == ("rockets:1",)
    assert any("2 Rocket counters left" in line for line in said)
    assert any("one or two Rocket counters" in line for line in said)
    assert _human_decision(game.state, d, lambda _p: "", said.append) == (GUNS,)


def rocket_duel() -> dict[str, Any]:
    """A rocket-armed Nieuport "p" behind a Spad "e" (Standard Rules): after phase 1's
    straights "e" is in its front guns' reach."""
    return situation(
        plane(
            "p",
            "nieuport-17",
            "earth",
            20.0,
            45.0,
            0.0,
            rockets=2,
            plans=[plan(*R_CRUISE, fire=["auto"] * 3)],
        ),
        plane(
            "e", "spad-vii", "huns", 45.0, 45.0, 0.0, plans=[plan("1", "2", "3", fire=list(HOLD))]
        ),
        switches=STANDARD,
    )


def test_the_browser_api_asks_the_rocketeer_alone(tmp_path: Path) -> None:
    """Over HTTP: the rocketeer's seat is asked after movement; the other seat neither sees
    the decision nor may answer it; three counters, an answer for the next phase or a
    second answer are refused (4xx, the rule quoted) and nothing is stored."""
    from server_helpers import client, headers, seat_url
    from test_server_action_tokens import _game, _plan

    with client(tmp_path / "games.sqlite") as c:
        game, seats, plans = _game(c, rocket_duel())
        (p_id, p_tok), (e_id, e_tok) = seats["earth"], seats["huns"]

        def view(sid: str, tok: str) -> dict[str, Any]:
            body: dict[str, Any] = c.get(seat_url(game, sid), headers=headers(tok)).json()
            return body

        def answer(sid: str, tok: str, answers: dict[str, Any], phase: int = 1) -> Any:
            return c.post(
                seat_url(game, sid, "decisions"),
                headers=headers(tok),
                json={"turn": 1, "phase": phase, "answers": answers},
            )

        _plan(c, game, [(p_id, p_tok, "p"), (e_id, e_tok, "e")], plans)
        [d] = view(p_id, p_tok)["stage"]["decisions"]
        assert (d["id"], d["shown"]["target"]) == (ID, "e")
        assert view(e_id, e_tok)["stage"]["decisions"] == []
        assert "rockets:p" not in str(view(e_id, e_tok)["stage"])
        assert answer(e_id, e_tok, {ID: ["guns"]}).status_code == 409
        three = answer(p_id, p_tok, {ID: ["rockets:3"]})
        assert three.status_code == 422 and "one or two Rocket counters" in three.json()["error"]
        assert answer(p_id, p_tok, {"rockets:p@1.2": ["guns"]}, 2).status_code == 409
        assert view(p_id, p_tok)["stage"]["decisions"] == [d]  # nothing stored
        assert answer(p_id, p_tok, {ID: ["rockets:1"]}).status_code == 200
        assert answer(p_id, p_tok, {ID: ["rockets:1"]}).status_code == 409
        events = [e for s in view(e_id, e_tok)["steps"] for e in s["events"]]
        launched = [e for e in events if e["kind"] == "rockets_launched"]
        assert [(x["firer"], x["target"], x["count"]) for x in launched] == [("p", "e", 1)]
