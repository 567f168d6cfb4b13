"""Tailing (002, "Tailing") and the decision it asks: the tailing seat alone sees the
tailed plane's next card and may reorder its own remaining cards.

002: "At turn start, check if tailing is possible: Ruler connects center of rear plane to
center of front plane." ... "Tailed player reveals first maneuver card to tailing player."
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import card_id, of, plane, situation, state_of, straights

from dogfight.batch.bridge import from_states
from dogfight.batch.tailing import rulers as batch_rulers
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import pending_decisions, resolve_phase, start_turn
from dogfight.rules.events import CardsReordered, TailedCardShown, Tailing
from dogfight.rules.observation import observe, visible_events
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState
from dogfight.rules.tailing import tailed_by, why_not

TYPE = "spad-xiii"


def _cards() -> tuple[str, str, str]:
    s = straights(TYPE)
    return (s[0], s[1], card_id(TYPE, "left"))


def _planned(sit: dict[str, Any], plans: dict[str, tuple[str, ...]]) -> GameState:
    state = state_of(sit)
    state, _ = start_turn(state, {vid: Plan(cards=cards) for vid, cards in plans.items()})
    return state


def duel(
    ruleset: str = "wow", tailer_at: tuple[float, float, float] = (30.0, 50.0, 0.0), **extra: Any
) -> dict[str, Any]:
    x, y, h = tailer_at
    return situation(
        plane("hunter", TYPE, "allies", x, y, h, plans=[]),
        plane("prey", TYPE, "central", 60.0, 50.0, 0.0, plans=[]),
        *extra.pop("more", ()),
        ruleset=ruleset,
        table=(300.0, 100.0),
        **extra,
    )


PREY = (straights(TYPE)[1], straights(TYPE)[0], card_id(TYPE, "right"))


def _phase(state: GameState, answers: dict[str, Any] | None = None) -> tuple[GameState, list[Any]]:
    return resolve_phase(state, step_rng(0, state.turn, state.phase + 1), answers=answers)


def test_tailing_asks_the_tailer_with_the_tailed_card() -> None:
    """002: "Tailed player reveals first maneuver card to tailing player." / "Tailing
    player may reorder their three planned maneuvers." """
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    asked = pending_decisions(state, step_rng(0, 1, 1))
    assert [d.kind for d in asked] == ["tailing"]
    decision = asked[0]
    assert decision.vehicle == "hunter"
    assert decision.mode == "order"
    assert decision.options == _cards()
    assert decision.shown == {"tailed": [{"vehicle": "prey", "phase": 1, "card": PREY[0]}]}
    # Only the tailing seat sees the decision (and so the card) in its observation.
    assert observe(state, {"hunter"}, asked)["decisions"] == [decision.to_json()]
    assert observe(state, {"prey"}, asked)["decisions"] == []


def test_tailing_reorder_across_two_maneuvers_is_seen_by_the_tailer_only() -> None:
    """002: "After first move, if tailing still valid: Tailed reveals second card, tailing
    player may reorder remaining two." """
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    first = pending_decisions(state, step_rng(0, 1, 1))[0]
    new_order = (_cards()[1], _cards()[0], _cards()[2])
    # Answering resumes the phase: nothing else is pending.
    assert pending_decisions(state, step_rng(0, 1, 1), answers={first.id: new_order}) == []
    state, events = _phase(state, {first.id: new_order})
    assert state.vehicles["hunter"].plan is not None
    assert state.vehicles["hunter"].plan.cards == new_order
    assert of(events, CardsReordered) == [CardsReordered("hunter", 1, new_order)]
    shown = of(events, TailedCardShown)
    assert shown == [TailedCardShown("hunter", "prey", 1, PREY[0])]
    assert of(visible_events(events, {"hunter"}), TailedCardShown) == shown
    assert of(visible_events(events, {"prey"}), TailedCardShown) == []
    assert of(visible_events(events, {"prey"}), CardsReordered) == []
    assert of(visible_events(events, {"prey"}), Tailing) == [Tailing("hunter", "prey", 1)]
    # Before the second maneuver: the remaining two cards.
    second = pending_decisions(state, step_rng(0, 1, 2))
    assert len(second) == 1
    assert second[0].options == new_order[1:]
    assert second[0].shown["tailed"][0]["card"] == PREY[1]
    state, events = _phase(state, {second[0].id: (new_order[2], new_order[1])})
    assert state.vehicles["hunter"].plan is not None
    assert state.vehicles["hunter"].plan.cards == (new_order[0], new_order[2], new_order[1])
    # Not before the third.
    assert pending_decisions(state, step_rng(0, 1, 3)) == []


def test_tailing_without_an_answer_keeps_the_order() -> None:
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    state, events = _phase(state)
    assert of(events, Tailing) == [Tailing("hunter", "prey", 1)]
    assert of(events, CardsReordered) == []
    assert state.vehicles["hunter"].plan is not None
    assert state.vehicles["hunter"].plan.cards == _cards()


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(lambda c: (c[0], c[1]), id="drops a card"),
        pytest.param(lambda c: (c[0], c[1], c[2], straights(TYPE)[2]), id="adds a card"),
        pytest.param(lambda c: (c[0], c[0], c[2]), id="a card twice"),
    ],
)
def test_a_reorder_that_adds_or_drops_a_card_is_refused(answer: Any) -> None:
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    decision = pending_decisions(state, step_rng(0, 1, 1))[0]
    with pytest.raises(IllegalPlanError, match="reorder"):
        _phase(state, {decision.id: answer(_cards())})


def test_a_reorder_by_a_plane_that_is_not_tailing_is_refused() -> None:
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    fake = Decision("tailing", "prey", 1, 1, "order", PREY, PREY, "")
    with pytest.raises(IllegalPlanError, match="no such decision"):
        _phase(state, {fake.id: PREY})


def test_no_tailing_in_wog_unless_switched_on() -> None:
    state = _planned(duel("wog"), {"hunter": _cards(), "prey": PREY})
    assert pending_decisions(state, step_rng(0, 1, 1)) == []
    on = _planned(duel("wog", switches={"tailing": True}), {"hunter": _cards(), "prey": PREY})
    assert len(pending_decisions(on, step_rng(0, 1, 1))) == 1


def test_tailing_needs_front_side_to_rear_side() -> None:
    """002: the ruler passes through the tailing plane's front side and the tailed plane's
    rear side (docs/rulings.md W1): a plane alongside, or facing the other, does not
    tail."""
    abeam = _planned(duel(tailer_at=(60.0, 20.0, 90.0)), {"hunter": _cards(), "prey": PREY})
    assert pending_decisions(abeam, step_rng(0, 1, 1)) == []
    head_on = _planned(duel(tailer_at=(100.0, 50.0, 180.0)), {"hunter": _cards(), "prey": PREY})
    assert pending_decisions(head_on, step_rng(0, 1, 1)) == []


def test_a_plane_in_between_stops_tailing() -> None:
    """002: "No other plane in between." """
    sit = duel(more=[plane("wing", TYPE, "allies", 45.0, 50.0, 90.0, plans=[])])
    cards = _cards()
    state = _planned(sit, {"hunter": cards, "prey": PREY, "wing": cards})
    assert pending_decisions(state, step_rng(0, 1, 1)) == []


def test_smoke_trail_forbids_tailing() -> None:
    """002: smoke trail: "cannot perform **tailing**" """
    state = _planned(duel(), {"hunter": _cards(), "prey": PREY})
    state.vehicles["hunter"].status["smoke"] = 2
    assert pending_decisions(state, step_rng(0, 1, 1)) == []


def test_tailing_before_the_second_maneuver_needs_it_at_the_start_of_the_turn() -> None:
    """002: "Only valid if position existed at start of turn." The prey starts alongside;
    after the first move the hunter is right behind it, but no tailing is offered."""
    sit = duel(tailer_at=(60.0, 20.0, 90.0))
    state = _planned(sit, {"hunter": _cards(), "prey": PREY})
    state, _ = _phase(state)
    state.vehicles["hunter"].pose = state.vehicles["prey"].pose.moved(-30.0, 0.0, 0.0)
    assert pending_decisions(state, step_rng(0, 1, 2)) == []


def test_terminal_play_asks_the_tailing_player() -> None:
    """Terminal play: the tailing player is shown the tailed card and asked for the new
    order of its remaining cards; a reorder that drops a card is refused with the rule."""
    from conftest import _catalog

    from dogfight.cli.terminal_play import play_in_terminal
    from dogfight.situation.format import parse_situation

    sit = duel()
    orders = iter(["1 2", "3 1 2", "2 1"])

    def answer(prompt: str) -> str:
        if "new order" in prompt:
            return next(orders, "")
        return "1 2 3"

    lines: list[str] = []
    play_in_terminal(parse_situation(sit), _catalog(), "allies", "easy", 0, answer, lines.append, 1)
    text = "\n".join(lines)
    assert "hunter is tailing prey: it shows you its card for phase 1" in text
    assert "002" in text  # the refused reorder quotes the rule
    assert "hunter reorders its cards from phase 1: 3, 1, 2 (secret)." in lines
    assert "hunter reorders its cards from phase 2: 2, 1 (secret)." in lines


def test_simulated_bots_answer_tailing() -> None:
    """`simulate` plays through the tailing decision, the bots answering it."""
    import numpy as np
    from conftest import _catalog

    from dogfight.sim.run import play_game
    from dogfight.situation.format import parse_situation

    events: list[Any] = []
    play_game(
        parse_situation(duel()),
        _catalog(),
        {"allies": "easy", "central": "easy"},
        np.random.SeedSequence(4),
        max_turns=1,
        events_out=events,
    )
    assert [e.phase for e in of(events, Tailing)][:1] == [1]


RULER = 30.0  # cm, the catalog's Earth ruler (constants.toml)


@pytest.mark.parametrize(("rulers", "tails"), [(1.5, False), (0.9, True), (1.0, True)])
def test_tailing_reaches_one_ruler(rulers: float, tails: bool) -> None:
    """002: "Ruler connects center of rear plane to center of front plane": one ruler,
    so a plane 1.5 rulers behind an enemy does not tail it, one 0.9 ruler behind does
    (docs/rulings.md W7) — in the referee and in the batched engine alike."""
    assert state_of(duel()).rules.ruler == RULER
    state = _planned(
        duel(tailer_at=(60.0 - rulers * RULER, 50.0, 0.0)), {"hunter": _cards(), "prey": PREY}
    )
    asked = pending_decisions(state, step_rng(0, 1, 1))
    assert [d.vehicle for d in asked] == (["hunter"] if tails else [])
    assert tailed_by(state) == ({"hunter": ("prey",)} if tails else {})
    if not tails:
        hunter, prey = state.vehicles["hunter"], state.vehicles["prey"]
        assert (
            why_not(state, hunter, prey)
            == "the centres are 45.0 cm apart, beyond the ruler (30 cm)"
        )
    batch = from_states([state])
    assert bool(batch_rulers(batch, np.ones(1, dtype=np.bool_))[0].any()) is tails
