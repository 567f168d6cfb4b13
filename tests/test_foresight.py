"""Warnings on a plan being chosen (``dogfight.rules.foresight``): a card that leaves
the table, lands on a friend, flies into black smoke, or lets an Automated Tripod walk
on unopposed — each with the phase it happens in."""

from __future__ import annotations

from conftest import deck_of, plane, situation, state_of, straight

from dogfight.rules.foresight import PlanWarning, ghosts, warnings
from dogfight.rules.state import Cloud, GameState

CAMEL = "sopwith-camel"


def _warn(
    state: GameState, drafts: dict[str, list[str]], automated: set[str] | None = None
) -> dict[str, list[PlanWarning]]:
    foreseen = {vid: ghosts(state, state.vehicles[vid], cards) for vid, cards in drafts.items()}
    return warnings(state, foreseen, automated or set())


def test_a_card_that_leaves_the_table_names_the_phase_and_how_far() -> None:
    # 000: the vehicle is out "if the center of its base is even partly outside"
    s = straight(deck_of(CAMEL))
    state = state_of(situation(plane("a", CAMEL, "allies", 45.0, 70.0, 90.0), table=(90, 90)))
    found = _warn(state, {"a": [s, s, s]})["a"]
    assert [w.kind for w in found] == ["leaves_table"]
    (w,) = found
    assert w.phase == 2 and w.index == 1
    assert w.distance is not None and w.distance > 0
    assert "north edge" in w.text and f"{w.distance:.1f} cm" in w.text
    # on the table: nothing to say
    assert _warn(state, {"a": [s]})["a"] == []


def test_two_friends_planned_onto_one_spot_are_warned_both() -> None:
    s = straight(deck_of(CAMEL))
    state = state_of(
        situation(
            plane("a", CAMEL, "allies", 30.0, 30.0, 0.0),
            plane("b", CAMEL, "allies", 31.0, 31.0, 0.0),
        )
    )
    found = _warn(state, {"a": [s], "b": [s]})
    assert [w.kind for w in found["a"]] == ["overlaps_friend"]
    assert "on top of b" in found["a"][0].text
    assert [w.kind for w in found["b"]] == ["overlaps_friend"]


def test_a_card_into_black_smoke_says_what_it_costs() -> None:
    s = straight(deck_of(CAMEL))
    state = state_of(situation(plane("a", CAMEL, "allies", 20.0, 45.0, 0.0), table=(120, 90)))
    state.clouds = [Cloud("c1", 34.0, 45.0, 4.0)]
    (w,) = _warn(state, {"a": [s]})["a"]
    assert w.kind == "black_smoke" and w.phase == 1
    assert "Z deck" in w.text


def test_flying_away_from_an_automated_tripod_is_warned() -> None:
    # 001: with no enemies "within a distance of one airplane ruler and a half" the
    # tripod walks on towards the Earthling side
    s = straight(deck_of(CAMEL))
    tripod = {
        "id": "locust",
        "type": "mk1-locust",
        "side": "martians",
        "pose": {"x": 45.0, "y": 70.0, "heading": 270.0},
    }
    state = state_of(
        situation(tripod, plane("a", CAMEL, "earth", 45.0, 45.0, 270.0), table=(90, 200))
    )
    # flying away (south): after some phase no airplane is nearby
    away = _warn(state, {"a": [s, s, s]}, {"locust"})["a"]
    assert any(w.kind == "tripod_unopposed" for w in away)
    # not automated: no such warning
    assert not any(w.kind == "tripod_unopposed" for w in _warn(state, {"a": [s, s, s]})["a"])
