"""A tripod's action token chosen at the start of each action phase, a decision of its
seat (000, 001; :mod:`dogfight.rules.action_tokens`).

000: "At the start of each Movement step, all Tripod players may choose an Action token
and place it face up in the space of the tripod's console corresponding to the first
planned maneuver"; "During the second action phase, all Tripod players may choose to play
an Action token on the second planned maneuver card." 001: "in each movement phase each
tripod's player must choose their action card in secret and place it face down"; "A tripod
player can place a blank card to pretend he is executing an action when he is not."
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import Json, of, run, situation
from test_cli import assert_clean_refusal, dogfight
from test_rules_tripods import (
    SCARAB,
    STANDS,
    STEPS,
    STILL_PLAN,
    X0,
    Y0,
    along,
    arriving,
    cards,
    planned,
    ray,
    tplan,
    tripod,
)
from test_tripod_reveal import SEP

from dogfight.bots.base import make
from dogfight.bots.decide import decide
from dogfight.errors import IllegalPlanError
from dogfight.geometry.hexbase import Side
from dogfight.rules.action_tokens import (
    GREEN_RULE,
    KIND,
    RULE_FACE_DOWN,
    RULE_FACE_UP,
    STOP_RULE,
)
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import may_ask, pending_decisions, resolve_phase
from dogfight.rules.events import (
    ActionCardRevealed,
    ActionTokenPlaced,
    HeatRay,
    Recharged,
)
from dogfight.rules.observation import observe, visible_events
from dogfight.rules.state import GameState

Answers = dict[str, list[str]]
STANDARD = {"standard_rules": True}
NONE = {"action_token:t@1.1": ["none"]}


def against_a_plane(actions: list[Json | None] | None = None, **switches: bool) -> Json:
    """The Mk I standing still all turn (000: open tokens), an airplane landing off its
    front-left projector in phase 1."""
    x, y = along(Side.FRONT_LEFT, 10.0)
    plans = [tplan(*STILL_PLAN, actions=actions or [None, None, None])]
    return situation(
        tripod(plans=plans), arriving("p", x, y, 150.0), switches=dict(switches) or None
    )


def tripod_duel() -> Json:
    """An Earth Locust and a Martian Locust (001: two factions with tripods: secret action
    cards), both standing still."""
    earth = tripod("e", X0, Y0, 90.0, side="earth", pilot="human")
    mars = tripod("m", X0, Y0 + SEP, 330.0)
    return situation(earth, mars)


def ask(state: GameState, answers: Answers, phase: int = 1) -> list[Decision]:
    return pending_decisions(state, step_rng(0, state.turn, phase), answers=answers)


def resolve(state: GameState, answers: Answers) -> tuple[GameState, list]:  # type: ignore[type-arg]
    return resolve_phase(state, step_rng(0, state.turn, state.phase + 1), answers=answers)


def test_000_the_token_is_asked_at_the_start_of_the_phase_and_placed_face_up() -> None:
    """000: "At the start of each Movement step, all Tripod players may choose an Action
    token and place it face up": the tripod's seat is asked, its options every legal token
    with its parameters; once placed the token is public, in the airplane seat's events
    before the cards are revealed."""
    state = planned(against_a_plane())
    [d] = ask(state, {})
    assert (d.kind, d.vehicle, d.id, d.rule) == (KIND, "t", "action_token:t@1.1", RULE_FACE_UP)
    assert d.shown["face"] == "up" and d.default == ("none",)
    assert {"none", "heat_ray:front-left", "heat_ray:front-left@p", "recharge"} <= set(d.options)
    assert "change_facing:+1" in d.options and "blank" not in d.options
    _new, events = resolve(state, {d.id: ["heat_ray:front-left"]})
    [placed] = of(events, ActionTokenPlaced)
    seen = visible_events(events, frozenset({"p"}))
    assert placed in seen and placed.action == "heat_ray:front-left" and not placed.face_down
    kinds = [e.kind for e in seen]
    assert kinds.index("action_token_placed") < kinds.index("revealed")
    [shot] = of(events, HeatRay)
    assert (shot.projector, shot.target) == ("front-left", "p")
    assert observe(state, frozenset({"p"}), [d])["decisions"] == []  # the seat's own only


def test_000_the_second_phase_token_is_chosen_after_the_first_phase_resolved() -> None:
    """000: "During the second action phase, all Tripod players may choose to play an
    Action token on the second planned maneuver card": asked with the table as phase 1
    left it — the heat-ray that fired is cooling down, so it is not offered (and refused,
    the rule quoted), a recharge is."""
    state = planned(against_a_plane())
    [first] = ask(state, {})
    state, _ = resolve(state, {first.id: ["heat_ray:front-left"]})
    [second] = ask(state, {}, phase=2)
    assert second.id == "action_token:t@1.2" and second.shown["card"] == STILL_PLAN[1]
    assert not [o for o in second.options if o.startswith("heat_ray")]
    with pytest.raises(IllegalPlanError, match="recovering"):
        resolve(state, {second.id: ["heat_ray:front"]})
    state, events = resolve(state, {second.id: ["recharge"]})
    assert [e.vehicle for e in of(events, Recharged)] == ["t"]


def test_000_a_green_token_on_a_moving_card_is_refused_with_the_rule() -> None:
    """000: "A Tripod player can place a green Action token (Change Facing, Recharge,
    Destroy Objective) only when the planned card is a standing still card." Not offered on
    a walking card; answered anyway, refused with the rule, nothing resolved."""
    sit = situation(tripod(plans=[tplan(STEPS[0], *STANDS[:2])]))
    state = planned(sit)
    [d] = ask(state, {})
    assert "recharge" not in d.options and "change_facing:+1" not in d.options
    assert "heat_ray:front" in d.options
    with pytest.raises(IllegalPlanError) as refused:
        resolve(state, {d.id: ["recharge"]})
    assert GREEN_RULE in str(refused.value)
    with pytest.raises(IllegalPlanError, match="no such decision"):
        resolve(state, {"action_token:p@1.1": ["none"]})


def test_001_the_card_is_face_down_until_its_initiative_reveal() -> None:
    """001: "each tripod's player must choose their action card in secret and place it
    face down"; then "tripod players show them one at a time, according to the initiative
    values". The other seat learns a card was placed, not which, until the reveal."""
    state = planned(tripod_duel())
    decisions = ask(state, {})
    assert sorted(d.vehicle for d in decisions) == ["e", "m"]
    for d in decisions:
        assert d.rule == RULE_FACE_DOWN and d.shown["face"] == "down"
    asked_m = observe(state, frozenset({"m"}), decisions)["decisions"]
    assert [d["vehicle"] for d in asked_m] == ["m"]
    answers = {"action_token:e@1.1": ["recharge"], "action_token:m@1.1": ["blank"]}
    _new, events = resolve(state, answers)
    seen = visible_events(events, frozenset({"m"}))
    earth = [e for e in seen if isinstance(e, ActionTokenPlaced) and e.vehicle == "e"]
    assert earth == [ActionTokenPlaced("e", 1, "", True)]  # face down
    own = [e for e in seen if isinstance(e, ActionTokenPlaced) and e.vehicle == "m"]
    assert own == [ActionTokenPlaced("m", 1, "blank", True)]
    shown = [e for e in seen if isinstance(e, ActionCardRevealed)]
    assert {e.vehicle: e.token for e in shown} == {"e": "recharge", "m": "blank"}
    assert seen.index(earth[0]) < seen.index(shown[0])


def test_the_blank_card_only_with_secret_action_cards() -> None:
    """001: "A tripod player can place a blank card to pretend he is executing an action
    when he is not": offered where action cards are secret, refused with open tokens."""
    [secret, _] = ask(planned(tripod_duel()), {})
    assert "blank" in secret.options
    state = planned(against_a_plane())
    [open_token] = ask(state, {})
    assert "blank" not in open_token.options
    with pytest.raises(IllegalPlanError, match="blank action card"):
        resolve(state, {open_token.id: ["blank"]})


def test_the_house_rule_keeps_the_tokens_written_in_the_plan() -> None:
    """``actions_at_planning``: nothing is asked, the plan's token is placed as before."""
    sit = against_a_plane([ray("front-left"), None, None], actions_at_planning=True)
    state = planned(sit)
    assert ask(state, {}) == []
    _new, events = resolve(state, {})
    assert of(events, ActionTokenPlaced) == []
    [shot] = of(events, HeatRay)
    assert (shot.projector, shot.target) == ("front-left", "p")


def test_unanswered_the_token_written_in_the_plan_is_the_default() -> None:
    """Adjudicated (nobody asked) the plan's token is the decision's default."""
    _state, events = run(against_a_plane([ray("front-left"), None, None]), phases=1)
    [placed] = of(events, ActionTokenPlaced)
    assert placed.action == "heat_ray:front-left"
    assert [e.target for e in of(events, HeatRay)] == ["p"]


def test_a_situation_answers_the_token() -> None:
    """A situation places a token with ``decisions`` (the decision's id)."""
    sit = against_a_plane()
    sit["decisions"] = {"action_token:t@1.1": ["heat_ray:front-left"]}
    _state, events = run(sit, phases=1)
    assert [e.target for e in of(events, HeatRay)] == ["p"]


@pytest.mark.parametrize("bot", ["martian", "random", "hard"])
def test_a_bot_makes_a_real_choice(bot: str) -> None:
    """Asked with nothing planned, a bot fires the projector facing the airplane in reach
    (not the default, no token)."""
    state = planned(against_a_plane())
    assert may_ask(state, 1)
    [d] = ask(state, {})
    seat = frozenset({"t"})
    got = decide(
        make(bot), observe(state, seat, [d]), state.rules, seat, [d], np.random.default_rng(0)
    )
    assert got[d.id] == ("heat_ray:front-left",)


def test_terminal_play_asks_the_token_at_the_prompt() -> None:
    """Terminal play shows the card and the options; an illegal token is refused with the
    rule and asked again; Enter keeps the default."""
    from dogfight.cli.terminal_play import _human_decision

    sit = situation(tripod(plans=[tplan(STEPS[0], *STANDS[:2])]))
    state = planned(sit)
    [d] = ask(state, {})
    said: list[str] = []
    typed = iter(["recharge", "heat_ray:front"])
    assert _human_decision(state, d, lambda _p: next(typed), said.append) == ("heat_ray:front",)
    assert any("face up" in line for line in said)
    assert any(GREEN_RULE in line for line in said)
    assert _human_decision(state, d, lambda _p: "", said.append) == ("none",)


def test_001_no_card_at_all_is_seen_by_every_seat() -> None:
    """001: the blank card exists "to pretend he is executing an action when he is not":
    a console space left empty is seen by all, so placing nothing is public."""
    state = planned(tripod_duel())
    answers = {"action_token:e@1.1": ["none"], "action_token:m@1.1": ["blank"]}
    _new, events = resolve(state, answers)
    seen = visible_events(events, frozenset({"m"}))
    placed = [e for e in seen if isinstance(e, ActionTokenPlaced) and e.vehicle == "e"]
    assert placed == [ActionTokenPlaced("e", 1, "none", False)]


def test_the_heat_ray_target_named_after_movement_goes_on_the_token_chosen() -> None:
    """000: "Each tripod can fire at a single target each round, choosing one if there are
    several possible targets": the target named once the table knows who the ray reaches
    (a table's question after movement) goes on the heat-ray token chosen at the start of
    the phase; with no heat-ray chosen it is refused."""
    state = planned(against_a_plane())
    rng = step_rng(0, 1, 1)
    token = {"action_token:t@1.1": ["heat_ray:front-left"]}
    _new, events = resolve_phase(state, rng, fire={"t": {"heat_ray": "p"}}, answers=token)
    assert [(e.projector, e.target) for e in of(events, HeatRay)] == [("front-left", "p")]
    with pytest.raises(IllegalPlanError, match="no heat-ray this phase"):
        resolve_phase(
            state, step_rng(0, 1, 1), fire={"t": {"heat_ray": "p"}}, answers={**token, **NONE}
        )


def test_adjudicate_refuses_an_illegal_token_with_the_rule(tmp_path: Path) -> None:
    """A situation answering a green token on a walking card: exit 2, 000's rule quoted,
    no output written."""
    sit = situation(tripod(plans=[tplan(STEPS[0], *STANDS[:2])]))
    sit["decisions"] = {"action_token:t@1.1": ["recharge"]}
    path, out = tmp_path / "bad.json", tmp_path / "out.json"
    path.write_text(json.dumps(sit))
    result = dogfight("adjudicate", str(path), "-o", str(out))
    assert_clean_refusal(result, str(path), GREEN_RULE)
    assert not out.exists()


def test_a_stop_card_takes_no_token() -> None:
    """000: "A Tripod player is not allowed to place an Action token if the planned card
    has the [STOP] icon": no token is offered; one sent is refused, the rule quoted."""
    stop = cards(SCARAB, stop=True, energy=False)[0]
    stands = cards(SCARAB, "stand")
    state = planned(situation(tripod(model=SCARAB, plans=[tplan(stop, *stands[:2])])))
    [d] = ask(state, {})
    assert d.options == ("none",)
    with pytest.raises(IllegalPlanError) as refused:
        resolve(state, {d.id: ["heat_ray:front"]})
    assert STOP_RULE in str(refused.value)


def test_a_wounded_pilot_fires_no_token_while_walking() -> None:
    """000 (Standard Rules): "A wounded tripod pilot cannot choose a firing Action token
    (Heat-ray or Black Smoke) in combination with a movement maneuver." """
    sit = situation(tripod(plans=[tplan(STEPS[0], *STANDS[:2])]), switches=STANDARD)
    state = planned(sit)
    state.vehicles["t"].status["wounded"] = True
    [d] = ask(state, {})
    assert not [o for o in d.options if o.startswith(("heat_ray", "black_smoke"))]
    with pytest.raises(IllegalPlanError, match="wounded tripod pilot cannot choose"):
        resolve(state, {d.id: ["heat_ray:front"]})
