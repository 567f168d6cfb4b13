"""Skills used when the player chooses (issue 30 item 4). 000: "One pilot has the Itchy
Trigger Finger skill (once every 5 phases, the pilot shoots first); another pilot has the
Sniper skill (once every 5 phases, the pilot draws two damage cards, chooses one to give
to the opponent, reshuffles the other one)." Once every 5 phases limits how often, it
does not spend the skill at the first chance: when a skill is ready and would apply in the
firing step, the pilot's seat alone is asked ``skill:<pilot>@turn.phase``, ``use`` or
``keep``; unanswered, ``use`` (as before)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import _catalog, of, plain, run
from test_scenarios import ACE_RESISTANCE, aces

from dogfight.bots.decide import use_skill
from dogfight.catalog.models import Skill
from dogfight.errors import DataError
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision, for_seat
from dogfight.rules.engine import may_ask, pending_decisions, start_turn
from dogfight.rules.events import DamageDrawn, Eliminated, Fired, SkillUsed
from dogfight.rules.plans import Plan
from dogfight.rules.skill_choice import KEEP, KIND, RULES, USE
from dogfight.situation.format import build, parse_situation

Json = dict[str, Any]
ID = "skill:p@1.1"


def facing(skill: Skill, decisions: Json | None = None, e_damage: int = ACE_RESISTANCE - 2) -> Json:
    """ "p" (with ``skill``) and "e" face to face at long range after phase 1's straights,
    both firing; a 2 and a 3 on top of the B deck ("e" is two points from going down)."""
    sit = aces(skill, plain("B", 2, 3), e_damage=e_damage)
    sit["vehicles"][1]["pose"] = {"x": 60.0, "y": 45.0, "heading": 180.0}
    if decisions is not None:
        sit["decisions"] = decisions
    return sit


def asked(skill: Skill) -> Decision:
    sit = facing(skill)
    plans = {v["id"]: Plan.model_validate(v.pop("plans")[0]) for v in sit["vehicles"]}
    state, _ = start_turn(build(parse_situation(sit), _catalog(), 0), plans)
    assert may_ask(state, 1)
    (d,) = pending_decisions(state, step_rng(0, 1, 1))
    return d


@pytest.mark.parametrize("skill", [Skill.ITCHY_TRIGGER_FINGER, Skill.SNIPER])
def test_the_pilot_is_asked_when_the_skill_would_apply(skill: Skill) -> None:
    d = asked(skill)
    assert (d.id, d.kind, d.vehicle, d.options, d.default) == (ID, KIND, "p", (USE, KEEP), (USE,))
    assert d.rule == RULES[skill] and "once every 5 phases" in d.rule
    assert d.shown["skill"] == skill.value and d.shown["target"] == "e"
    assert for_seat([d], frozenset({"e"})) == []  # the other seat is not asked


def test_itchy_trigger_finger_used_shoots_first() -> None:
    """000: "once every 5 phases, the pilot shoots first": used (the default), "p"'s shot
    eliminates "e" before it fires."""
    for decisions in (None, {ID: [USE]}):
        state, events = run(facing(Skill.ITCHY_TRIGGER_FINGER, decisions), phases=1)
        assert [e.firer for e in of(events, Fired)] == ["p"]
        assert [e.vehicle for e in of(events, SkillUsed)] == ["p"]
        assert state.vehicles["p"].skill_used == {Skill.ITCHY_TRIGGER_FINGER: 1}


def test_itchy_trigger_finger_kept_for_later() -> None:
    """Kept: "p" fires with everyone else ("e" fires back) and the skill stays ready."""
    state, events = run(facing(Skill.ITCHY_TRIGGER_FINGER, {ID: [KEEP]}), phases=1)
    assert sorted(e.firer for e in of(events, Fired)) == ["e", "p"]
    assert of(events, SkillUsed) == []
    assert [e.vehicle for e in of(events, Eliminated)] == ["e"]
    assert state.vehicles["p"].skill_used == {}


def test_the_sniper_kept_draws_one_card() -> None:
    """Kept: the Sniper's long-range shot draws its one card, no pair to choose from."""
    state, events = run(facing(Skill.SNIPER, {ID: [KEEP]}), phases=1)
    assert of(events, SkillUsed) == []
    drawn = [e.cards for e in of(events, DamageDrawn) if e.vehicle == "e"]
    assert drawn == [("B3",)]  # "e" drew the 2 firing at "p"; one card, no pair
    assert state.vehicles["p"].skill_used == {}
    _, used = run(facing(Skill.SNIPER), phases=1)
    assert [e.vehicle for e in of(used, SkillUsed)] == ["p"]


@pytest.mark.parametrize(
    ("decisions", "why"),
    [
        ({ID: ["maybe"]}, "not among"),
        ({ID: [USE, KEEP]}, "1 different choice"),
        ({"skill:e@1.1": [USE]}, "no such decision"),  # "e" has no skill
        ({ID: [USE], "skill:p@1.2": [USE]}, "no such decision"),  # used: not ready in phase 2
    ],
)
def test_bad_answers_are_refused(decisions: Json, why: str) -> None:
    with pytest.raises(DataError, match=why):
        run(facing(Skill.ITCHY_TRIGGER_FINGER, decisions, e_damage=0), phases=2)


def test_the_bot_uses_a_skill_when_it_counts() -> None:
    """Itchy: used when an enemy's guns reach the pilot; the Sniper: on a short-range shot;
    otherwise kept."""
    itchy = asked(Skill.ITCHY_TRIGGER_FINGER)
    assert itchy.shown["threatened"] is True and itchy.shown["range"] == "long"
    assert use_skill(itchy) == (USE,)
    calm = dataclasses.replace(itchy, shown={**itchy.shown, "threatened": False})
    assert use_skill(calm) == (KEEP,)
    sniper = asked(Skill.SNIPER)
    assert use_skill(sniper) == (KEEP,)  # a long-range shot
    assert use_skill(dataclasses.replace(sniper, shown={**sniper.shown, "range": "short"})) == (
        USE,
    )


def test_terminal_play_asks_use_or_keep() -> None:
    from dogfight.cli.terminal_play import _human_decision

    d = asked(Skill.ITCHY_TRIGGER_FINGER)
    sit = facing(Skill.ITCHY_TRIGGER_FINGER)
    state = build(parse_situation(sit), _catalog(), 0)
    said: list[str] = []
    typed = iter(["later", KEEP])
    assert _human_decision(state, d, lambda _p: next(typed), said.append) == (KEEP,)
    assert any("itchy trigger finger is ready" in line for line in said)
    assert any("not among" in line for line in said)
    assert _human_decision(state, d, lambda _p: "", said.append) == (USE,)
