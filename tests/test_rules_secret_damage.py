"""Secrets of the damage cards (issue 30 item 5): an explosion that is only a number, and
the loss of an observer, reach the owner's seat only. Each test quotes its sentence."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import _catalog, explosion_card, of, plain, plane, run, situation

from dogfight.catalog.models import Explosion as ExplosionRule
from dogfight.rules.events import (
    DamageCardsTaken,
    DamageDrawn,
    Eliminated,
    Event,
    Explosion,
    HeldFire,
    RearGunLost,
)
from dogfight.rules.observation import observe, side_seat, visible_events
from dogfight.rules.state import GameState

BRISTOL = "bristol-f2b"  # a two-seater: front B, rear A
FOKKER = "fokker-d7"  # fires A
BIG = (300.0, 300.0)


def chase(
    ruleset: str, gap: float, stack: list[str], **bristol: Any
) -> tuple[GameState, list[Event]]:
    """A Bristol flying east, a Fokker ``gap`` cm behind it on the same line (in the
    Bristol's rear arc; the Fokker's guns on the Bristol): one phase."""
    sit = situation(
        plane("bristol", BRISTOL, "allies", 150, 150, 0, **bristol),
        plane("chaser", FOKKER, "central", 150 - gap, 150, 0),
        ruleset=ruleset,
        table=BIG,
        damage_decks={"A": stack},
    )
    return run(sit, phases=1)


def seen_by(state: GameState, side: str, events: list[Event]) -> list[Event]:
    return visible_events(events, side_seat(state, side))


@pytest.mark.parametrize("ruleset", ["wog", "ww2"])
def test_000_rulesets_count_an_explosion_as_half_the_allowance(ruleset: str) -> None:
    """000: "the target vehicle receives half of its original damage allowance (rounding
    up)": `wog` and `ww2` (001 plays the tripods by 000) read it so, and an explosion's
    secrecy follows that switch (:class:`Explosion`'s ``eliminates``)."""
    assert _catalog().rulesets[ruleset].switches.explosion is ExplosionRule.HALF_RESISTANCE


def test_000_an_explosion_is_a_number_like_any_other_card() -> None:
    """000: "If a damage card with the explosion (EXPLOSION SYMBOL) is drawn, the target
    vehicle receives half of its original damage allowance (rounding up)", and "The
    player looks secretly at the damage cards drawn": an explosion is a secret number,
    seen by its owner only."""
    boom = explosion_card("A")
    # the Bristol's rear gun draws first, then the Fokker's shot brings the explosion
    state, events = chase("wog", 20.0, [*plain("A", 1), boom])
    (explosion,) = of(events, Explosion)
    assert explosion == Explosion("bristol", boom, False)
    bristol = state.vehicles["bristol"]
    assert not bristol.eliminated and bristol.damage == -(-bristol.resistance // 2)
    owner = seen_by(state, "allies", events)
    assert of(owner, Explosion) == [explosion]
    other = seen_by(state, "central", events)
    assert of(other, Explosion) == []
    assert [e for e in other if "explosion" in str(e.to_json()).lower()] == []
    assert DamageCardsTaken("bristol", "A", 1, "chaser front") in other
    assert all(e.vehicle != "bristol" for e in of(other, DamageDrawn))


def test_000_an_explosion_that_eliminates_shows_the_elimination() -> None:
    """000: "When the total damage ... equals or exceeds the resistance of the vehicle
    ..., the vehicle is eliminated. The vehicle is removed from the game": the other seat
    sees the vehicle go (the game can be played on) and whose guns did it with an A card
    (R33), not the card that did it."""
    boom = explosion_card("A")
    resistance = _catalog().airplanes[BRISTOL].damage
    state, events = chase("wog", 20.0, [*plain("A", 1), boom], damage=resistance - 1)
    other = seen_by(state, "central", events)
    assert Eliminated("bristol", "shot_down", "chaser", "front", "A", None) in other
    assert boom not in str([e.to_json() for e in other])
    assert of(other, Explosion) == []
    view = observe(state, side_seat(state, "central"))
    (seen,) = [v for v in view["vehicles"] if v["id"] == "bristol"]
    assert seen["eliminated"] == "shot_down"


def test_002_an_explosion_is_revealed_and_eliminates() -> None:
    """002: "Reveal only if card has **explosion symbol** (immediate elimination)": in
    `wow` every seat sees it."""
    boom = explosion_card("A")
    state, events = chase("wow", 20.0, [*plain("A", 1), boom])
    explosion = Explosion("bristol", boom, True)
    for side in ("allies", "central"):
        seen = seen_by(state, side, events)
        assert of(seen, Explosion) == [explosion]
        assert Eliminated("bristol", "exploded", "chaser", "front", "A", boom) in seen


def test_002_an_observers_loss_is_kept_secret() -> None:
    """002: "Special Damages (Keep Secret Unless Noted)" and "Observer incapacitated -
    two-seaters lose rear gun": the Bristol's seat sees why its rear gun is silent, the
    other seat sees what a gun holding fire shows (the chaser is in reach)."""
    state, events = chase("wow", 20.0, plain("A", 1, 1), status={"observer": 1})
    lost = RearGunLost("bristol", "rear", True)
    assert of(seen_by(state, "allies", events), RearGunLost) == [lost]
    other = seen_by(state, "central", events)
    assert of(other, RearGunLost) == []
    assert [h for h in of(other, HeldFire) if h.firer == "bristol"] == [
        HeldFire("bristol", "rear", "holds fire")
    ]
    assert "observer" not in str([e.to_json() for e in other])


def test_002_an_observers_loss_with_nothing_in_reach_shows_nothing() -> None:
    """002: "Keep Secret Unless Noted": with nobody in the rear gun's reach a gun holding
    fire shows nothing, and neither does the lost observer."""
    state, events = chase("wow", 120.0, plain("A", 1, 1), status={"observer": 1})
    assert of(events, RearGunLost) == [RearGunLost("bristol", "rear", False)]
    other = seen_by(state, "central", events)
    assert [e for e in other if getattr(e, "firer", None) == "bristol"] == []
