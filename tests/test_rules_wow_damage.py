"""002's special damage in `wow` and 003's engine damage in `wow-basic`, and a two-seater
duel with its observer and its blind spot. Each test quotes the rule it pins."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    _catalog,
    card_id,
    deck_of,
    of,
    plain,
    plan,
    plane,
    run,
    situation,
    state_of,
    straights,
)

from dogfight.catalog.models import Special, Symbol
from dogfight.errors import IllegalPlanError
from dogfight.rules.engine import start_turn
from dogfight.rules.events import Eliminated, Fired, HeldFire, RearGunLost, SpecialDamage
from dogfight.rules.plans import Plan

BRISTOL = "bristol-f2b"  # deck F, fires B front and A rear
FOKKER = "fokker-d7"  # deck F, fires A
DECK = deck_of(BRISTOL)
BIG = (300.0, 300.0)


def special_card(letter: str, special: Special) -> str:
    """A card of damage deck ``letter`` whose only airplane special is ``special``."""
    for c in _catalog().damage_decks[letter].cards:
        if special in c.specials and not c.explosion and Special.JAMMED not in c.specials:
            return c.id
    raise LookupError(f"no {special} card in deck {letter}")


def tail_chase(ruleset: str, gap: float, stack: list[str], phases: int = 1, **kw: Any) -> Any:
    """A Bristol flying east with a Fokker ``gap`` cm behind it on the same line; both
    fly the same cards, so the gap stays."""
    sit = situation(
        plane("bristol", BRISTOL, "allies", 150, 150, 0),
        plane("chaser", FOKKER, "central", 150 - gap, 150, 0),
        ruleset=ruleset,
        table=BIG,
        damage_decks={"A": stack},
        **kw,
    )
    return run(sit, phases=phases)


def test_002_observer_incapacitated_loses_the_rear_gun() -> None:
    """002: "Observer incapacitated - two-seaters lose rear gun." The crew icon of the
    shipped cards is 002's observer icon (docs/rulings.md W4); it is secret (002: "Keep
    Secret Unless Noted")."""
    # Phase 1: the Bristol's rear gun (A) draws first ("bristol" < "chaser"), then the
    # Fokker's shot brings the observer card.
    stack = [*plain("A", 1), special_card("A", Special.WOUNDED_PILOT), *plain("A", 1, 1)]
    state, events = tail_chase("wow", 20.0, stack, phases=2)
    specials = of(events, SpecialDamage)
    assert [(s.vehicle, s.special, s.announced) for s in specials] == [
        ("bristol", "observer", False)
    ]
    assert state.vehicles["bristol"].status.get("observer") == 1
    rear = [(f.target, f.range) for f in of(events, Fired) if f.firer == "bristol"]
    assert rear == [("chaser", "long")]  # phase 1 only
    assert of(events, RearGunLost) == [RearGunLost("bristol", "rear", True)]
    assert [h for h in of(events, HeldFire) if h.firer == "bristol"] == []


def test_two_seater_duel_observer_and_blind_spot() -> None:
    """002: a two-seater fires its rear gun at a chaser at long range; once the chaser is
    right behind the tail at short range, "Rear gun of two-seaters cannot fire if target
    is directly behind tail", while the chaser keeps firing at it."""
    stack = plain("A", 1, 1, 1, 1, 1, 1)
    _, events = tail_chase("wow", 20.0, stack)
    assert [f.weapon for f in of(events, Fired) if f.firer == "bristol"] == ["rear"]
    _, events = tail_chase("wow", 10.0, stack)
    assert [f.firer for f in of(events, Fired)] == ["chaser"]
    _, events = tail_chase("wog", 10.0, stack)
    assert sorted(f.firer for f in of(events, Fired)) == ["bristol", "chaser"]


def _planned(
    ruleset: str,
    status: dict[str, int],
    cards: tuple[str, ...],
    switches: dict[str, Any] | None = None,
) -> None:
    """Turn 1's plans of a Bristol with ``status`` on its console (refused or not)."""
    sit = situation(
        plane("bristol", BRISTOL, "allies", 150, 150, 0, plans=[], status=status),
        plane("chaser", FOKKER, "central", 50, 50, 0, plans=[]),
        ruleset=ruleset,
        table=BIG,
        switches=switches,
    )
    state = state_of(sit)
    start_turn(state, {"bristol": Plan(cards=cards), "chaser": Plan(cards=_straightish())})


def _straightish() -> tuple[str, str, str]:
    s = straights(DECK)
    return (s[0], s[1], card_id(DECK, Symbol.SIDESLIP))


def test_002_engine_damaged_must_plan_a_stall() -> None:
    """002: "Engine damaged - must play one stall maneuver (◇ + short arrow) per turn." """
    with pytest.raises(IllegalPlanError, match="002"):
        _planned("wow", {"engine": 1}, _straightish())
    stall = card_id(DECK, Symbol.STALL)
    _planned("wow", {"engine": 1}, (_straightish()[0], stall, _straightish()[1]))


def test_002_second_engine_hit_is_an_explosion() -> None:
    """002: "Second engine hit = explosion." """
    engine = special_card("A", Special.ENGINE)
    stack = [*plain("A", 0), engine]
    state, events = tail_chase("wow", 20.0, stack)
    assert state.vehicles["bristol"].status.get("engine") == 1
    assert state.vehicles["bristol"].in_play
    # A second one: the Bristol already has engine damage (a situation may say so).
    sit = situation(
        plane(
            "bristol",
            BRISTOL,
            "allies",
            150,
            150,
            0,
            status={"engine": 1},
            plans=[plan(straights(DECK)[0], card_id(DECK, Symbol.STALL), straights(DECK)[1])],
        ),
        plane("chaser", FOKKER, "central", 130, 150, 0),
        ruleset="wow",
        table=BIG,
        damage_decks={"A": stack},
    )
    state, events = run(sit, phases=1)
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("bristol", "exploded")]
    # R33: the chaser's guns did it; the engine card is kept secret (002: "Special Damages
    # (Keep Secret Unless Noted)"), so it is not named
    assert of(events, Eliminated) == [
        Eliminated("bristol", "exploded", "chaser", "front", "A", None)
    ]


def test_002_rudder_jammed_forbids_that_turn_direction_next_turn() -> None:
    """002: "Rudder jammed - no left turns next turn." """
    left = card_id(DECK, Symbol.LEFT)
    with pytest.raises(IllegalPlanError, match="rudder"):
        _planned("wow", {"rudder_left": 1}, (left, *_straightish()[:2]))


def test_002_on_fire_may_still_fly_straight() -> None:
    """002: "On fire - discard one flame counter per turn, draw A-damage card (only
    damage/explosion counts). Smoke effect also applies." — no ban on straights (000's
    fire has one)."""
    _planned("wow", {"fire": 3}, _straightish())
    with pytest.raises(IllegalPlanError, match="000"):
        _planned("wog", {"fire": 3}, _straightish(), {"standard_rules": True})


def test_003_engine_damage_asks_a_steep_card_every_turn() -> None:
    """003: "两个齿轮 引擎机件受损,飞机每个回合都必须执行一次失速动作" (two gears: engine
    damaged, the airplane must fly a steep maneuver every turn)."""
    with pytest.raises(IllegalPlanError, match="003"):
        _planned("wow-basic", {"engine": 1}, _straightish())
    steep = card_id(DECK, Symbol.STEEP)
    _planned("wow-basic", {"engine": 1}, (_straightish()[0], steep, _straightish()[1]))


def test_003_engine_damage_is_the_only_special_of_wow_basic() -> None:
    """003: "两个齿轮 ... 再次机件受损则飞机坠毁" (a second engine damage and the airplane
    crashes); the other icons have no effect in `wow-basic`."""
    engine = special_card("A", Special.ENGINE)
    observer = special_card("A", Special.WOUNDED_PILOT)
    state, events = tail_chase("wow-basic", 20.0, [*plain("A", 0), observer], phases=1)
    assert of(events, SpecialDamage) == []
    state, events = tail_chase("wow-basic", 20.0, [*plain("A", 0), engine], phases=1)
    assert [(s.vehicle, s.special) for s in of(events, SpecialDamage)] == [("bristol", "engine")]
    assert state.vehicles["bristol"].status == {"engine": 1}
