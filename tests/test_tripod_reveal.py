"""The direction placed at the reveal of secret action cards (001, "Tripods vs. Tripods"):
"When it's time to act, the player controlling a tripod shows its action card and, if
required, places the action token to specify its facing change or fire direction."

Each revealing tripod whose card needs a direction is asked a decision of its own seat,
in initiative order, shown the cards revealed before it; the default is the direction
written with the card (docs/rulings.md V2).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Json, of, plane, run, situation
from test_rules_tripods import STILL_PLAN, X0, Y0, facing, planned, ray, tplan, tripod
from test_rules_versus import still_cards

from dogfight.bots.decide import decide
from dogfight.bots.direction import face_nearest
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import pending_decisions, resolve_phase
from dogfight.rules.events import ActionCardRevealed, FacingChanged, HeatRay
from dogfight.rules.observation import observe
from dogfight.rules.tripod_reveal import KIND, RULE

SEP = 20.0

AT_PLANNING = {"actions_at_planning": True}
"""These cards are written in the plans (the house rule): the reveal is what is tested."""


def duel(m_action: Json, e_action: Json | None = None) -> Json:
    """An Earth Locust with a human pilot (initiative 3) facing north at (X0, Y0) and a
    Martian Locust (initiative 2) 20 cm north of it, turned so that its front-right
    projector points at the Earth tripod and its front-left one away from it."""
    earth = tripod(
        "e",
        X0,
        Y0,
        90.0,
        side="earth",
        pilot="human",
        plans=[tplan(*STILL_PLAN, actions=[e_action or ray("front"), None, None])],
    )
    mars = tripod(
        "m", X0, Y0 + SEP, 330.0, plans=[tplan(*STILL_PLAN, actions=[m_action, None, None])]
    )
    return situation(earth, mars, switches=AT_PLANNING)


def pending(sit: Json, answers: dict[str, list[str]]) -> list[Decision]:
    return pending_decisions(planned(sit), step_rng(0, 1, 1), answers=answers)


def test_a_later_tripod_turns_its_ray_after_seeing_the_earlier_reveal() -> None:
    """001: "tripod players show them one at a time, according to the initiative values"
    and "When it's time to act, the player controlling a tripod shows its action card and,
    if required, places the action token to specify its facing change or fire direction."
    The Earth Locust (initiative 3) shows its heat-ray card first and places its token;
    only then is the Martian Locust (2) asked, seeing that card, and it turns its ray
    from the front-left projector written in its plan to the front-right one, at the
    Earth tripod."""
    sit = duel(ray("front-left"))
    [first] = pending(sit, {})
    assert (first.kind, first.vehicle, first.rule) == (KIND, "e", RULE)
    assert first.options == ("front", "front-left", "front-right")
    assert first.default == ("front",) and first.shown["revealed"] == []
    answers = {first.id: ["front"]}
    [second] = pending(sit, answers)
    assert second.vehicle == "m" and second.default == ("front-left",)
    assert second.shown["revealed"] == [
        {"vehicle": "e", "card": "heat_ray", "detail": "front", "order": 1}
    ]
    answers[second.id] = ["front-right"]
    assert pending(sit, answers) == []
    _state, events = resolve_phase(planned(sit), step_rng(0, 1, 1), answers=answers)
    shown = {e.vehicle: e.detail for e in of(events, ActionCardRevealed)}
    assert shown == {"e": "front", "m": "front-right"}
    shots = {e.firer: (e.projector, e.target) for e in of(events, HeatRay)}
    assert shots["m"] == ("front-right", "e")


def test_unanswered_the_direction_written_with_the_card_is_placed() -> None:
    """Without an answer (simulate, adjudicate) the token goes where the plan wrote it:
    the front-left ray reaches nothing."""
    _state, events = run(duel(ray("front-left")), phases=1)
    shots = {e.firer: (e.projector, e.target) for e in of(events, HeatRay)}
    assert shots["m"] == ("front-left", None)


def test_a_situation_answers_the_direction() -> None:
    """A situation places the token with ``decisions`` (the decision's id)."""
    sit = duel(ray("front-left"))
    sit["decisions"] = {"action_direction:m@1.1": ["front-right"]}
    _state, events = run(sit, phases=1)
    shots = {e.firer: (e.projector, e.target) for e in of(events, HeatRay)}
    assert shots["m"] == ("front-right", "e")


def test_a_change_of_facing_is_placed_either_way_within_the_limit() -> None:
    """A change of facing card asks how many sides and which way, up to the model's limit
    (the Locust: 2 sides); the answer turns the base."""
    sit = duel(facing(1))
    answers: dict[str, list[str]] = {"action_direction:e@1.1": ["front"]}
    [turn] = pending(sit, answers)
    assert turn.options == ("+1", "-1", "+2", "-2") and turn.default == ("+1",)
    assert turn.shown["card"] == "change_facing"
    answers[turn.id] = ["-2"]
    state, events = resolve_phase(planned(sit), step_rng(0, 1, 1), answers=answers)
    [turned] = [e for e in of(events, FacingChanged) if e.vehicle == "m"]
    assert turned.sides == -2
    assert round(state.vehicles["m"].pose.heading) == 210


def test_no_direction_to_place_no_decision() -> None:
    """A card with one possible direction (the Scarab's single projector), a blank card,
    or open action tokens (000: no secret cards against airplanes alone) asks nothing."""
    scarab = tripod(
        "s",
        X0,
        Y0,
        model="mk2-scarab",
        side="earth",
        pilot="human",
        plans=[tplan(*still_cards("mk2-scarab"), actions=[ray("front"), None, None])],
    )
    mars = tripod(
        "m", X0, Y0 + SEP, 270.0, plans=[tplan(*STILL_PLAN, actions=[{"token": "blank"}] * 3)]
    )
    assert pending(situation(scarab, mars, switches=AT_PLANNING), {}) == []
    alone = situation(
        tripod("m", plans=[tplan(*STILL_PLAN, actions=[ray("front"), None, None])]),
        plane("p", "spad-vii", "earth", 10.0, 10.0),
        switches=AT_PLANNING,
    )
    assert pending(alone, {}) == []


def test_only_the_revealing_seat_sees_the_decision() -> None:
    """A decision is seen by its own seat only: the other seat's observation carries none
    of it (neither the decision nor the direction written in the plan)."""
    sit = duel(ray("front-left"))
    state = planned(sit)
    decisions = pending(sit, {"action_direction:e@1.1": ["front"]})
    mine = observe(state, frozenset({"m"}), decisions)
    theirs = observe(state, frozenset({"e"}), decisions)
    assert [d["id"] for d in mine["decisions"]] == ["action_direction:m@1.1"]
    assert theirs["decisions"] == []
    assert "front-left" not in repr(theirs)


def test_the_bot_turns_to_the_projector_facing_the_nearest_enemy() -> None:
    """The computer player places its token towards the nearest enemy where the table
    stands at the reveal: the Martian Locust's front-right projector, at the Earth tripod;
    a change of facing turns its front to it (330 -> 270 degrees: one side right)."""
    sit = duel(ray("front-left"))
    state = planned(sit)
    [d] = pending(sit, {"action_direction:e@1.1": ["front"]})
    seat = frozenset({"m"})
    assert face_nearest(observe(state, seat, [d]), d) == ("front-right",)
    answers = decide(object(), observe(state, seat, [d]), state.rules, seat, [d], step_rng(0, 1, 1))
    assert answers == {d.id: ("front-right",)}
    turn_sit = duel(facing(2))
    [t] = pending(turn_sit, {"action_direction:e@1.1": ["front"]})
    assert face_nearest(observe(planned(turn_sit), seat, [t]), t) == ("-1",)


def test_refused_direction_quotes_the_rule() -> None:
    """An answer outside the card's directions is refused with 001's sentence."""
    sit = duel(ray("front-left"))
    answers: dict[str, Any] = {"action_direction:e@1.1": ["rear"]}
    with pytest.raises(IllegalPlanError, match="places the action token"):
        resolve_phase(planned(sit), step_rng(0, 1, 1), answers=answers)


def test_terminal_play_asks_the_direction_at_the_prompt() -> None:
    """Terminal play shows the cards revealed before and asks the projector (Enter keeps
    the written one; a bad answer is refused with the rule and asked again)."""
    from dogfight.cli.terminal_play import _human_decision

    sit = duel(ray("front-left"))
    [d] = pending(sit, {"action_direction:e@1.1": ["front"]})
    said: list[str] = []
    typed = iter(["rear", "front-right"])
    got = _human_decision(planned(sit), d, lambda _prompt: next(typed), said.append)
    assert got == ("front-right",)
    assert "  #1: e showed a heat ray card (front)." in said
    assert any("places the action token" in line for line in said)
    assert _human_decision(planned(sit), d, lambda _prompt: "", said.append) == ("front-left",)
