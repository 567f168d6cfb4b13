"""Wings of War as the reference manual (002) and the Chinese basic rules (003) print it:
the planning counters, 003's steep rule, 003's blocking rule and 002's blind spot.
Each test quotes the rule it pins."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import HOLD, card_id, deck_of, of, plan, plane, run, situation, straights
from test_rules_airplanes import flyer, held, illegal

from dogfight.catalog.models import Symbol
from dogfight.rules.events import Fired, HeldFire

SPAD = "spad-xiii"
DECK = deck_of(SPAD)
STEEP = card_id(DECK, Symbol.STEEP)
IMMELMANN = card_id(DECK, Symbol.IMMELMANN)
LEFT = card_id(DECK, Symbol.LEFT)
SLIP = card_id(DECK, Symbol.SIDESLIP)
S1, S2, S3 = straights(DECK)[:3]
BIG = (300.0, 300.0)


# --- 002: the reminder counters ---------------------------------------------------------


def test_002_immelmann_counter_lets_the_next_turn_open_with_an_immelmann() -> None:
    """002: "Immelmann performed → place Immelmann counter (allows next turn to start
    with straight or Immelmann)." """
    two_turns = (held(S1, S2, IMMELMANN), held(IMMELMANN, S1, S3))
    _, events = run(flyer(*two_turns, ruleset="wow", table=BIG))
    assert illegal(events) == []
    # Under 000 a straight must open the turn after an Immelmann.
    _, events = run(flyer(*two_turns, ruleset="wog", table=BIG))
    assert [(t, p, e.rule) for t, p, e in illegal(events)] == [(2, 1, "after_immelmann")]


def test_002_immelmann_counter_allows_only_a_straight_or_an_immelmann() -> None:
    """002: the Immelmann counter "allows next turn to start with straight or
    Immelmann": a turn is out of control."""
    _, events = run(flyer(held(S1, S2, IMMELMANN), held(LEFT, S1, S3), ruleset="wow", table=BIG))
    assert [(t, p, e.outcome) for t, p, e in illegal(events)] == [(2, 1, "eliminated")]


def test_002_straight_counter_lets_the_next_turn_open_with_an_immelmann() -> None:
    """002: "Straight maneuver → place straight counter (allows next turn to start with
    Immelmann)." """
    _, events = run(flyer(held(S1, LEFT, S2), held(IMMELMANN, S1, S3), ruleset="wow", table=BIG))
    assert illegal(events) == []


def test_002_immelmann_within_a_turn_still_needs_straights() -> None:
    """002: "Immelmann turn must be preceded and followed by a straight." """
    _, events = run(flyer(held(LEFT, IMMELMANN, S1), ruleset="wow", table=BIG))
    assert [(p, e.rule) for _, p, e in illegal(events)] == [(2, "immelmann_without_straight")]


# --- 003: the steep rule -------------------------------------------------------------------


def test_003_steep_after_a_sideslip_is_flown_as_a_straight() -> None:
    """003: "进行这动作前,玩家都必须先执行一次左徊旋、右徊旋或直线飞行(不包括英麦曼回旋)"
    (before a steep maneuver, a left turn, right turn or straight, not an Immelmann);
    "任何不可执行的动作即作直线飞行论" (an impossible maneuver is flown as a straight)."""
    _, events = run(flyer(held(SLIP, STEEP, S1), ruleset="wow-basic", table=BIG))
    found = [(p, e.rule, e.outcome) for _, p, e in illegal(events)]
    assert found == [(2, "steep_without_turn_or_straight", "flown as a straight")]
    # 000 forbids only "two steep cards in a row".
    _, events = run(flyer(held(SLIP, STEEP, S1), ruleset="wog", table=BIG))
    assert illegal(events) == []


@pytest.mark.parametrize("before", [LEFT, S1])
def test_003_steep_after_a_turn_or_a_straight_is_legal(before: str) -> None:
    """003: a steep card after "左徊旋、右徊旋或直线飞行" (a left or right turn or a
    straight)."""
    _, events = run(flyer(held(before, STEEP, S2), ruleset="wow-basic", table=BIG))
    assert illegal(events) == []


def test_003_steep_opening_a_turn_looks_at_the_last_card_of_the_turn_before() -> None:
    """003: "若这动作是这回合的第一个动作,则上回合的第三个动作必须是左徊旋、右徊旋或直线飞行"
    (as the first card of a turn, the previous turn's third must be a left turn, right
    turn or straight)."""
    _, events = run(flyer(held(S1, S2, SLIP), held(STEEP, S1, S3), ruleset="wow-basic", table=BIG))
    assert [(t, p) for t, p, _ in illegal(events)] == [(2, 1)]
    _, events = run(flyer(held(S1, SLIP, S2), held(STEEP, S1, S3), ruleset="wow-basic", table=BIG))
    assert illegal(events) == []


def test_003_steep_opening_the_game_needs_a_previous_card() -> None:
    """docs/rulings.md R6: with no card flown before it there was no turn or straight
    before it, so under 003 a steep card opening the game is flown as a straight, unless
    the situation gives the last card (the reminder)."""
    _, events = run(flyer(held(STEEP, S1, S2), ruleset="wow-basic", table=BIG))
    assert [(p, e.rule) for _, p, e in illegal(events)] == [(1, "steep_without_turn_or_straight")]
    given = flyer(held(STEEP, S1, S2), ruleset="wow-basic", table=BIG, previous={"symbol": "left"})
    _, events = run(given)
    assert illegal(events) == []


# --- 003: only a friendly plane between blocks -----------------------------------------------


def _screened(ruleset: str, blocker_side: str, target: str = "auto", **kw: Any) -> list[Fired]:
    sit = situation(
        plane("f", SPAD, "allies", 40, 45, 0, fire=(target, target, target)),
        plane("g", SPAD, blocker_side, 52, 45, 0, fire=HOLD),
        plane("t", SPAD, "central", 64, 45, 0, fire=HOLD),
        ruleset=ruleset,
        table=BIG,
        **kw,
    )
    _, events = run(sit, phases=1)
    return [f for f in of(events, Fired) if f.firer == "f"]


def test_003_only_a_friendly_plane_between_blocks() -> None:
    """003: "在飞机和目标间若有己方飞机,则不可向这目标开火" (a friendly plane between the
    airplane and its target: it cannot fire at that target)."""
    assert [f.target for f in _screened("wow-basic", "allies")] == []
    # An enemy in between does not block: "t" can be reached through it (the nearest,
    # "g", is the automatic choice, so name "t").
    sit_shots = _screened("wow-basic", "central", target="t")
    assert [f.target for f in sit_shots] == ["t"]


def test_003_blocking_switch_and_002_any_plane_blocks() -> None:
    """002 FAQ: "Firing blocked if path crosses any plane (friendly or enemy)." The enemy
    in between is the only target then; 003's rule is the switch ``blocking``."""
    assert [f.target for f in _screened("wow", "central", target="t")] == []
    blocked = _screened("wow-basic", "central", target="t", switches={"blocking": "any"})
    assert blocked == []


# --- 002: the rear gun's blind spot ----------------------------------------------------------


def _rear(ruleset: str, dx: float, dy: float, **kw: Any) -> tuple[list[Fired], list[HeldFire]]:
    """A Bristol flying east with an enemy ``dx`` behind and ``dy`` to the left of it."""
    enemy = "fokker-d7"
    bristol_deck = deck_of("bristol-f2b")
    s = straights(bristol_deck)
    cards = [*s, card_id(bristol_deck, Symbol.LEFT)][:3]
    sit = situation(
        plane("bristol", "bristol-f2b", "allies", 100, 100, 0, plans=[plan(*cards)]),
        plane("chaser", enemy, "central", 100 - dx, 100 + dy, 0, plans=[plan(*cards)], fire=HOLD),
        ruleset=ruleset,
        table=BIG,
        **kw,
    )
    _, events = run(sit, phases=1)
    rear = [f for f in of(events, Fired) if f.firer == "bristol" and f.weapon == "rear"]
    held_ = [h for h in of(events, HeldFire) if h.firer == "bristol" and h.weapon == "rear"]
    return rear, held_


def test_002_blind_spot_right_behind_the_tail() -> None:
    """002: "Rear gun of two-seaters cannot fire if target is directly behind tail." /
    "If ruler touches target with first half and passes through rear side of two-seater
    → firing blocked." """
    fired, _ = _rear("wow", 10.0, 0.0)
    assert fired == []
    fired, _ = _rear("wog", 10.0, 0.0)
    assert [f.target for f in fired] == ["chaser"]
    fired, _ = _rear("wog", 10.0, 0.0, switches={"blind_spot": True})
    assert fired == []


def test_002_blind_spot_is_only_the_first_half() -> None:
    """002: only when the ruler "touches target with first half": at long range the rear
    gun fires."""
    fired, _ = _rear("wow", 24.0, 0.0)
    assert [(f.target, f.range) for f in fired] == [("chaser", "long")]


def test_002_blind_spot_is_only_through_the_rear_side() -> None:
    """002: the ruler must pass "through rear side of two-seater": a target in the rear
    arc off to the side (the ruler leaves through a long side) is fired at."""
    fired, _ = _rear("wow", 4.0, 7.0)
    assert [(f.target, f.range) for f in fired] == [("chaser", "short")]
