"""Tripods in WW2 (001, "TRIPODS IN WW2"): the two clocks, planning one card and a speed
marker per Earthling turn, the WW2 approximation (docs/ww2.md), damage counters, tripods
doubled, and the scenarios Alsace Again! and London's Burning.

Tables are laid out by hand: the Locust "t" stands at the top of the table facing down
(heading 270), the WW2 airplanes start at the bottom facing up (heading 90).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import Json, of

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import TripodSymbol
from dogfight.errors import DataError, IllegalPlanError
from dogfight.geometry.maneuver import apply_card
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import (
    DamageDrawn,
    EarthlingTurnStarted,
    Event,
    FlameCounter,
    Moved,
    ObjectiveReached,
    Recharged,
    ScenarioWon,
    SpeedRevealed,
    Toppled,
    TurnStarted,
)
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.ww2 import scale
from dogfight.sim.run import play_game
from dogfight.situation.format import build, parse_situation
from dogfight.situation.ruling import adjudicate
from dogfight.situation.scenarios import scenario_situation

CATALOG = load_catalog()
WW2 = ["bf-109e", "ju-87-stuka", "yak-1", "re-2001", "spitfire-mk1", "hurricane"]


def _tripod_cards(symbol: TripodSymbol) -> list[str]:
    deck = CATALOG.tripod_decks[CATALOG.tripods["mk1-locust"].maneuver_deck]
    return [c.id for c in deck.cards if c.symbol is symbol and not c.energy]


MOVE = _tripod_cards(TripodSymbol.MOVE)
STAND = _tripod_cards(TripodSymbol.STAND)
STRAIGHT = CATALOG.maneuver_decks[CATALOG.airplane("bf-109e").maneuver_deck].straight


def table(**extra: Any) -> Json:
    sit: Json = {
        "ruleset": "ww2",
        "vehicles": [
            {
                "id": "t",
                "type": "mk1-locust",
                "side": "martians",
                "pose": {"x": 45.0, "y": 80.0, "heading": 270.0},
            },
            {
                "id": "p",
                "type": "bf-109e",
                "side": "earth",
                "pose": {"x": 10.0, "y": 10.0, "heading": 90.0},
            },
        ],
    }
    sit.update(extra)
    return sit


def state(sit: Json | None = None, seed: int = 0) -> GameState:
    return build(parse_situation(sit or table()), CATALOG, seed)


def earthling(card: str = STRAIGHT, speed: int = 3, **extra: Any) -> Plan:
    return Plan(cards=(card,), speeds=(speed,), **extra)


def martian(*cards: str) -> Plan:
    return Plan(cards=cards)


def phase(s: GameState) -> tuple[GameState, list[Event]]:
    return resolve_phase(s, step_rng(0, s.turn, s.phase + 1))


# --- 001: "THE MARTIAN GAME TURN AND THE EARTHLING GAME TURN" / "PLANNING" ---------------


def test_first_planning_phase_martians_plan_three_cards_earthlings_one_with_a_speed() -> None:
    """001: "In the first planning phase, Martian players choose and plan three cards from
    their maneuver decks, while Earthling players choose one maneuver card with a speed
    marker." """
    s = state()
    new, events = start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling()})
    assert [type(e) for e in events] == [TurnStarted, EarthlingTurnStarted]
    assert new.vehicles["p"].plan is not None and new.vehicles["p"].plan.cards == (STRAIGHT,)
    with pytest.raises(IllegalPlanError, match="one maneuver card per Earthling turn"):
        start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": martian(*["1", "2", "3"])})
    with pytest.raises(IllegalPlanError, match="speed marker"):
        start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": Plan(cards=(STRAIGHT,))})


def test_second_and_third_planning_phases_earthlings_only_choose_a_new_card() -> None:
    """001: "In the second and third planning phases, Martian players only choose their
    actions, while Earthling players choose one new maneuver card with a speed marker."
    """
    s, _ = start_turn(state(), {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling()})
    for p in (1, 2):
        s, _ = phase(s)
        assert s.phase == p and s.planning_due() == ["p"] and s.awaiting_plans()
        with pytest.raises(IllegalPlanError, match="planning phase"):
            phase(s)  # the Earthling turn is not planned yet
        with pytest.raises(IllegalPlanError, match="Martian players only choose their actions"):
            start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling()})
        s, events = start_turn(s, {"p": earthling(speed=2 + p)})
        assert events == [EarthlingTurnStarted(p + 1)]
        # the Martians choose only their action at the start of the movement step
        s_acted, _ = resolve_phase(
            s, step_rng(0, s.turn, s.phase + 1), {"t": Action(token="recharge")}
        )
        assert (s_acted.turn, s_acted.phase) == ((1, 2) if p == 1 else (2, 0))
    s, _ = phase(s)
    assert s.phase == 0 and s.turn == 2
    assert s.vehicles["p"].plan is None


def test_three_earthling_turns_make_one_martian_turn() -> None:
    """001: "Three consecutive Earthling game turns are equivalent to a Martian game turn." """
    s, events = start_turn(state(), {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling()})
    turns = [e.earthling_turn for e in of(events, EarthlingTurnStarted)]
    for _ in range(2):
        s, _ = phase(s)
        s, more = start_turn(s, {"p": earthling()})
        turns += [e.earthling_turn for e in of(more, EarthlingTurnStarted)]
    s, _ = phase(s)
    s, more = start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling()})
    turns += [e.earthling_turn for e in of(more, EarthlingTurnStarted)]
    assert turns == [1, 2, 3, 4]
    assert of(more, TurnStarted) == [TurnStarted(2)]


def test_a_tripod_rule_turn_is_the_martian_turn() -> None:
    """001: "The rule from Tripods & Triplanes "Each turn, each Martian player MUST always
    plan at least one maneuver that is either a stationary maneuver or a running
    maneuver." refers to a Martian game turn (with three action phases)." Three movement
    cards topple the tripod at the third action phase; a stationary card in the third
    satisfies the rule although the first two Earthling turns had none."""

    def play(cards: tuple[str, str, str]) -> list[Event]:
        s, events = start_turn(state(), {"t": martian(*cards), "p": earthling()})
        for p in range(3):
            s, more = phase(s)
            events += more
            if p < 2:
                s, more = start_turn(s, {"p": earthling()})
                events += more
        return events

    toppled = of(play((MOVE[0], MOVE[1], MOVE[2])), Toppled)
    assert len(toppled) == 1 and toppled[0].vehicle == "t"
    assert of(play((MOVE[0], MOVE[1], STAND[0])), Toppled) == []


def test_a_ww2_rule_turn_is_the_earthling_turn_flames() -> None:
    """001: "The rule from WW2 Wings of Glory "Each turn, before revealing his maneuver,
    the player removes a flame counter and takes an A damage counter." refers to an
    Earthling game turn (with one action phase)." A burning WW2 airplane loses one flame
    counter and takes one A counter (WW2 counters) in each of the three action phases."""
    sit = table()
    sit["vehicles"][1]["pose"] = {"x": 60.0, "y": 25.0, "heading": 90.0}
    s = state(sit)
    s.vehicles["p"].status["fire"] = 3
    s, events = start_turn(s, {"t": martian(STAND[0], STAND[1], MOVE[0]), "p": earthling("4")})
    for p in range(3):
        s, more = phase(s)
        events += more
        if p < 2 and not s.over:
            s, more = start_turn(s, {"p": earthling(CATALOG.maneuver_decks["A"].cards[3].id)})
            events += more
    flames = of(events, FlameCounter)
    assert [f.left for f in flames] == [2, 1, 0]
    fire = [d for d in of(events, DamageDrawn) if d.source == "fire"]
    assert len(fire) == 3 and {d.deck for d in fire} == {"ww2-A"}


# --- the WW2 approximation (docs/ww2.md) -----------------------------------------------


def test_a_speed_the_airplane_cannot_fly_is_refused() -> None:
    """docs/ww2.md: "an airplane flies only the speed markers its data lists"."""
    s = state()
    fastest = max(CATALOG.airplane("bf-109e").speeds)
    with pytest.raises(IllegalPlanError, match=r"speed \d+ is not one .* may fly"):
        start_turn(s, {"t": martian(MOVE[0], STAND[0], MOVE[1]), "p": earthling(speed=fastest + 1)})


@pytest.mark.parametrize("speed", [2, 3, 4, 5])
def test_speed_scales_the_cards_arrow(speed: int) -> None:
    """docs/ww2.md: the card's arrow is scaled by speed / card_speed, its heading change
    kept: at card_speed the card moves as printed."""
    s, _ = start_turn(
        state(), {"t": martian(STAND[0], STAND[1], MOVE[0]), "p": earthling("5", speed)}
    )
    start = s.vehicles["p"].pose
    s, events = phase(s)
    card = CATALOG.maneuver_decks["A"].card("5")
    expected = apply_card(start, scale(card, speed, 3), s.rules.base_length)
    moved = next(e for e in of(events, Moved) if e.vehicle == "p")
    assert moved.end.x == pytest.approx(expected.x) and moved.end.y == pytest.approx(expected.y)
    assert moved.end.heading == pytest.approx(expected.heading)
    assert of(events, SpeedRevealed) == [SpeedRevealed("p", 1, speed)]
    if speed == 3:
        assert expected == apply_card(start, card, s.rules.base_length)
    nose_arrow = math.hypot(scale(card, speed, 3).forward, scale(card, speed, 3).left)
    assert nose_arrow == pytest.approx(math.hypot(card.forward, card.left) * speed / 3)


def test_every_ww2_type_001_names_is_in_the_catalog_as_an_approximation() -> None:
    """001 names the Bf.109E, Ju-87 Stuka, Yak-1, Re.2001, Spitfire Mk.I/II, Hurricane."""
    for type_id in WW2:
        plane = CATALOG.airplane(type_id)
        assert plane.era == "ww2" and plane.speeds
        assert plane.note.startswith("Approximation made for dogfight")


@pytest.mark.parametrize("deck", ["ww2-A", "ww2-B", "ww2-C", "ww2-D", "ww2-Z", "inv-A", "inv-B"])
def test_counter_sets_match_their_own_documentation(deck: str) -> None:
    """Each counter set's note states its size, average and Energy icons: the data must
    say what its documentation says, and call itself an approximation."""
    counters = CATALOG.damage_decks[deck]
    assert counters.counters and "approximation" in counters.note
    found = re.search(r"(\d+) counters, average value ([\d.]+)", counters.note)
    assert found is not None
    total = sum(c.count for c in counters.cards)
    points = sum(c.value * c.count for c in counters.cards)
    assert int(found.group(1)) == total
    assert float(found.group(2)) == pytest.approx(points / total, abs=0.005)
    energy = re.search(r"(\d+) with the Energy icon", counters.note)
    assert energy is not None
    assert int(energy.group(1)) == sum(c.count for c in counters.cards if c.energy)


# --- tripods against WW2 airplanes ------------------------------------------------------


def test_tripod_resistance_and_recharge_level_are_doubled() -> None:
    """001: "When playing against WW2 airplanes, double the resistance and the recharge
    level values of the tripods." (the ww2 ruleset's tripod_factor)."""
    locust = CATALOG.tripods["mk1-locust"]
    s = state(table(objectives=[{"id": "o", "x": 45.0, "y": 80.0}]))
    assert s.vehicles["t"].resistance == 2 * locust.damage
    assert s.rules.recharge_level("mk1-locust") == 2 * locust.recharge_level
    s.vehicles["t"].tripod.energy = 0  # type: ignore[union-attr]
    s, _ = start_turn(s, {"t": martian(STAND[0], MOVE[0], STAND[1]), "p": earthling()})
    s, events = resolve_phase(s, step_rng(0, 1, 1), {"t": Action(token="recharge", objective="o")})
    gained = of(events, Recharged)[0].gained
    assert gained == min(2 * locust.recharge_level, locust.energy)
    wog = build(
        parse_situation({**table(), "ruleset": "wog", "vehicles": table()["vehicles"][:1]}),
        CATALOG,
        0,
    )
    assert wog.vehicles["t"].resistance == locust.damage


def _shooting_table() -> Json:
    """The Bf.109E ends its straight 10 cm behind the Locust's rear (an unprotected side)."""
    return table(
        vehicles=[
            {
                "id": "t",
                "type": "mk1-locust",
                "side": "martians",
                "pose": {"x": 45.0, "y": 60.0, "heading": 90.0},
            },
            {
                "id": "p",
                "type": "bf-109e",
                "side": "earth",
                "pose": {"x": 45.0, "y": 30.0, "heading": 90.0},
            },
        ]
    )


def test_wwii_airplanes_damage_tripods_with_invasion_counters() -> None:
    """001: "To handle the damage inflicted to the tripods by WW2 airplanes, use the
    damage counters included in the Invasion set." """
    s, _ = start_turn(
        state(_shooting_table()),
        {"t": martian(STAND[0], STAND[1], MOVE[0]), "p": earthling("3", 2)},
    )
    s, events = phase(s)
    drawn = [d for d in of(events, DamageDrawn) if d.vehicle == "t"]
    assert drawn and {d.deck for d in drawn} == {"inv-A"}


def test_heat_rays_damage_wwii_airplanes_with_ww2_counters() -> None:
    """001: "use ... normal WW2 Wings of Glory rules and components to handle the
    airplanes": a heat-ray's damage is drawn from the WW2 counters of the tripod's
    firepower letter."""
    sit = table(
        vehicles=[
            {
                "id": "t",
                "type": "mk1-locust",
                "side": "martians",
                "pose": {"x": 45.0, "y": 60.0, "heading": 270.0},
            },
            {
                "id": "p",
                "type": "bf-109e",
                "side": "earth",
                "pose": {"x": 45.0, "y": 30.0, "heading": 90.0},
            },
        ]
    )
    s, _ = start_turn(
        state(sit),
        {
            "t": martian(STAND[0], STAND[1], MOVE[0]),
            "p": earthling("3", 2, fire=("none", "none", "none")),
        },
    )
    s, events = resolve_phase(
        s, step_rng(0, 1, 1), {"t": Action(token="heat_ray", projector="front")}
    )
    drawn = [d for d in of(events, DamageDrawn) if d.vehicle == "p"]
    assert drawn and {d.deck for d in drawn} == {"ww2-" + CATALOG.tripods["mk1-locust"].firepower}


# --- bad input: eras ----------------------------------------------------------------------


def test_a_ww2_airplane_in_a_ww1_ruleset_is_refused_without_the_switch() -> None:
    """001: "These additional rules allow you to play ... using WW2 airplanes rather than
    WW1 ones"."""
    with pytest.raises(DataError, match="WW2 airplane: it flies in the ww2 ruleset"):
        state(table(ruleset="wog"))
    mixed = state(table(ruleset="wog", switches={"mixed_eras": True}))
    assert mixed.vehicles["p"].clock == "one_phase"


def test_a_ww1_airplane_in_the_ww2_ruleset_is_refused_without_the_switch() -> None:
    sit = table()
    sit["vehicles"][1]["type"] = "spad-xiii"
    with pytest.raises(DataError, match="WW1 airplane"):
        state(sit)
    sit["switches"] = {"mixed_eras": True}
    assert state(sit).vehicles["p"].clock == "three_phases"


# --- situations ------------------------------------------------------------------------------


def test_adjudicate_reads_one_plan_per_earthling_turn() -> None:
    """A WW2 airplane's written plans are one per Earthling turn: three to a Martian turn."""
    sit = table()
    sit["vehicles"][0]["plans"] = [{"cards": [STAND[0], MOVE[0], STAND[1]]}]
    sit["vehicles"][1]["plans"] = [{"cards": [STRAIGHT], "speeds": [s]} for s in (2, 3, 4)]
    final, events = adjudicate(parse_situation(sit), CATALOG)
    assert [e.speed for e in of(events, SpeedRevealed)] == [2, 3, 4]
    assert final.turn == 2 and final.phase == 0


# --- scenarios -------------------------------------------------------------------------------


def test_londons_burning_table_and_objectives_in_airplane_rulers() -> None:
    """001: "Playing Area: Length: 140 cm. Width: 90 cm." / "Five objective templates at no
    more than one ruler from the center of the playing area, and at no less than one ruler
    from each other." (001: "refer to the airplane ruler for the distances")."""
    spec = CATALOG.scenarios["londons-burning"]
    ruler = CATALOG.constants.ruler.length
    assert (spec.table.width, spec.table.height) == (140.0, 90.0)
    assert spec.objectives is not None and spec.objectives.count == 5
    assert spec.objectives.max_from_centre == ruler and spec.objectives.min_apart == ruler
    sit = scenario_situation(CATALOG, "londons-burning").model_dump(mode="json", exclude_none=True)
    sit["objectives"][0]["x"] = 70.0 + 0.5 * ruler
    sit["objectives"][0]["y"] = 45.0 + 0.9 * ruler
    with pytest.raises(DataError, match="from the centre"):
        build(parse_situation(sit), CATALOG, 0)


def test_alsace_again_forces_and_variant() -> None:
    """001: "One Messerschmitt Bf.109E and one Junkers Ju-87 Stuka" / "Variants: Use two
    airplanes chosen between Yakovlev Yak-1 and Reggiane Re.2001"."""
    s = build(scenario_situation(CATALOG, "alsace-again"), CATALOG, 0)
    assert sorted(v.type for v in s.vehicles.values()) == ["bf-109e", "ju-87-stuka", "mk1-locust"]
    sit = scenario_situation(CATALOG, "alsace-again-variant").model_dump(
        mode="json", exclude_none=True
    )
    sit["vehicles"][1]["type"] = "bf-109e"
    with pytest.raises(DataError, match="allows: yak-1, re-2001"):
        build(parse_situation(sit), CATALOG, 0)


def test_alsace_again_martian_wins_reaching_all_objectives_and_leaving_by_the_earthling_side() -> (
    None
):
    """001: "The Martian player wins if the tripod reaches all three objective templates
    and exits the playing area from the Earthling side"."""
    sit = scenario_situation(CATALOG, "alsace-again").model_dump(mode="json", exclude_none=True)
    s = build(parse_situation(sit), CATALOG, 0)
    first = next(iter(s.objectives.values()))
    locust = s.vehicles["locust"]
    locust.pose = locust.pose.__class__(first.x, first.y, 270.0)
    plans = {
        "locust": martian(STAND[0], STAND[1], MOVE[0]),
        "messerschmitt": earthling(speed=2, fire=("none", "none", "none")),
        "stuka": earthling("2", 1, fire=("none", "none", "none")),
    }
    s, _ = start_turn(s, plans)
    s, events = phase(s)
    assert ObjectiveReached(first.id, "locust") in events
    for o in s.objectives.values():
        o.reached = True
    # the Locust walks off across the Earthling (south) edge
    s.vehicles["locust"].pose = locust.pose.__class__(45.0, 2.0, 270.0)
    s, _ = start_turn(s, {"messerschmitt": plans["messerschmitt"], "stuka": plans["stuka"]})
    s, _ = phase(s)
    s, _ = start_turn(s, {"messerschmitt": plans["messerschmitt"], "stuka": plans["stuka"]})
    s, events = phase(s)
    won = of(events, ScenarioWon)
    assert s.over and s.winner == "martians" and won and "reaches all three" in won[0].condition


def test_londons_burning_needs_both_tripods_to_exit() -> None:
    """001: "The Martian player wins if the tripod reaches all five objective templates and
    both tripods exit the playing area from the Earthling side"."""
    from dogfight.rules.scenario import verdict

    s = build(scenario_situation(CATALOG, "londons-burning"), CATALOG, 0)
    for o in s.objectives.values():
        o.reached = True
    s.vehicles["scarab"].eliminated, s.vehicles["scarab"].exit_edge = "left_area", "south"
    assert verdict(s) is None
    s.vehicles["cuttlefish"].eliminated, s.vehicles["cuttlefish"].exit_edge = "left_area", "south"
    win = verdict(s)
    assert win is not None and win.side == "martians"


@pytest.mark.parametrize("scenario", ["alsace-again", "alsace-again-variant", "londons-burning"])
def test_bots_play_the_ww2_scenarios_to_the_end(scenario: str) -> None:
    """Both scenarios played to the end by the bots: the hard WW2 airplanes against the
    Martian bot, the engine judging the victory."""
    sit = scenario_situation(CATALOG, scenario)
    result = play_game(sit, CATALOG, {}, np.random.SeedSequence(3), max_turns=30)
    assert result.over and result.stopped is None
    assert result.refused == 0


# --- bad input at the command line --------------------------------------------------------


def test_adjudicate_refuses_an_era_mismatch_and_a_bad_speed_with_exit_2(tmp_path: Path) -> None:
    """Bad input: one message naming the rule, exit status 2, no output file written."""
    from test_cli import assert_clean_refusal, dogfight

    wrong_era = tmp_path / "era.json"
    wrong_era.write_text(json.dumps(table(ruleset="wog")))
    out = tmp_path / "out.json"
    result = dogfight("adjudicate", str(wrong_era), "-o", str(out))
    assert_clean_refusal(result, "WW2 airplane", "001")
    assert not out.exists()
    sit = table()
    sit["vehicles"][0]["plans"] = [{"cards": [STAND[0], MOVE[0], STAND[1]]}]
    sit["vehicles"][1]["plans"] = [{"cards": [STRAIGHT], "speeds": [9]}] * 3
    fast = tmp_path / "fast.json"
    fast.write_text(json.dumps(sit))
    result = dogfight("adjudicate", str(fast), "-o", str(out))
    assert_clean_refusal(result, "speed 9")
    assert not out.exists()


def test_render_shows_each_moves_speed_marker_and_the_scaled_path() -> None:
    """The drawing labels a WW2 airplane's card with its speed and draws the path of the
    card as flown at that speed (it ends where the airplane ended)."""
    from dogfight.render.svg import render_svg

    sit = json.loads((Path(__file__).parent.parent / "examples/ww2-locust-bf109.json").read_text())
    final, events = adjudicate(parse_situation(sit), CATALOG)
    svg = render_svg(final, events)
    assert "card 2 speed 4" in svg and "at speed 4" in svg
    from dogfight.render.context import _Context, _move_shapes
    from dogfight.render.labels import _Labels
    from dogfight.render.markup import _Frame

    frame = _Frame(final.rules.table_height)
    ctx = _Context(final, frame, {}, _Labels(frame))
    for move in (e for e in of(events, Moved) if e.vehicle == "p"):
        _, path = _move_shapes(ctx, move, final.vehicles["p"])
        assert path[-1][0] == pytest.approx(move.end.x, abs=0.05)
        assert path[-1][1] == pytest.approx(move.end.y, abs=0.05)


def test_terminal_play_asks_a_card_and_a_speed_each_earthling_turn() -> None:
    """In the terminal, the Earthling player plans one card and a speed marker per
    Earthling turn (001); a speed the airplane cannot fly is refused and asked again."""
    from dogfight.cli.terminal_play import play_in_terminal

    answers = iter(["2 9", "2 2"] + ["5 3", "4 2"] * 40 + ["q"] * 5)
    out: list[str] = []
    play_in_terminal(
        scenario_situation(CATALOG, "alsace-again"),
        CATALOG,
        "earth",
        "martian",
        seed=1,
        input_fn=lambda _: next(answers),
        output_fn=out.append,
        max_turns=1,
    )
    text = "\n".join(out)
    assert "refused: " in text and "speed 9 is not one" in text
    assert "Earthling turn: planning phase 2" in text and "planning phase 3" in text
    assert "flies at speed 2." in text
