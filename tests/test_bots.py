"""Computer players: strength against random play, staying on the table, seeing only
their observation, determinism, and the Martian's respect of the tripod rules."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dogfight.bots.base import REGISTRY, make
from dogfight.bots.view import StatusTracker, rebuild
from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import Symbol, TripodSymbol
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.rules.engine import allowed_symbols
from dogfight.rules.events import ActionWasted, EnergyChanged, IllegalManeuver, TurnStarted
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.plans import Flown, plan_problems
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation
from dogfight.sim.parallel import RunSpec, run
from dogfight.sim.run import game_seeds, play_game
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import scenario_situation

GAMES = 200
MAX_TURNS = 8


def _duels(bot: str) -> list[dict[str, Any]]:
    spec = RunSpec(
        situation=duel_situation().model_dump(mode="json", exclude_defaults=True),
        bots={"allies": bot, "central": "random"},
        seed=2024,
        games=GAMES,
        max_turns=MAX_TURNS,
    )
    return run(spec, workers=2)


def _wins(results: list[dict[str, Any]]) -> int:
    """Games the allies won; draws and games stopped by the turn cap are not wins."""
    return sum(1 for g in results if g["over"] and g["winner"] == "allies")


def test_bots_are_registered() -> None:
    make("random")
    assert {"random", "easy", "hard", "martian"} <= set(REGISTRY)


def test_hard_bot_beats_random_bot() -> None:
    results = _duels("hard")
    assert len(results) == GAMES
    assert _wins(results) >= 0.8 * GAMES
    assert sum(g["refused"] for g in results) == 0


def test_easy_bot_beats_random_bot() -> None:
    results = _duels("easy")
    assert _wins(results) >= 0.6 * GAMES
    assert sum(g["refused"] for g in results) == 0


# --- never off the table when a plan stays on it ------------------------------------------


def _edge_pose(edge: int, depth: float, along: float) -> tuple[float, float]:
    """A point ``depth`` cm in from one of the four edges of the 90 cm table."""
    size = 90.0
    return [
        (depth, along * size),
        (size - depth, along * size),
        (along * size, depth),
        (along * size, size - depth),
    ][edge]


def _table(
    catalog: Catalog, x: float, y: float, heading: float, previous: str | None, kind: str
) -> GameState:
    me: dict[str, Any] = {
        "id": "me",
        "type": kind,
        "side": "allies",
        "pose": {"x": x, "y": y, "heading": heading},
    }
    if previous is not None:
        me["previous"] = {"symbol": previous}
    enemy = {
        "id": "enemy",
        "type": "albatros-d5a",
        "side": "central",
        "pose": {"x": 45.0, "y": 45.0, "heading": (heading + 137.0) % 360.0},
    }
    return build(parse_situation({"vehicles": [me, enemy]}), catalog, 0)


def _on_table(poses: list[Pose], margin: float = 0.0) -> bool:
    return all(margin <= p.x <= 90.0 - margin and margin <= p.y <= 90.0 - margin for p in poses)


def _flown(state: GameState, vid: str, card_ids: tuple[str, ...]) -> list[Pose]:
    vehicle = state.vehicles[vid]
    deck = state.rules.deck_of(vehicle.type)
    pose = vehicle.pose
    out = []
    for card_id in card_ids:
        pose = apply_card(pose, deck.card(card_id), state.rules.base_length)
        out.append(pose)
    return out


def _safe_plan_exists(state: GameState, vid: str) -> bool:
    """Some legal plan keeps the centre on the table after every card (by a hair)."""
    vehicle = state.vehicles[vid]
    deck = state.rules.deck_of(vehicle.type)
    usable = [c for c in deck.cards if c.symbol in allowed_symbols(state)]
    for cards in itertools.permutations(usable, 3):
        if plan_problems(vehicle.previous, list(cards)):
            continue
        pose = vehicle.pose
        poses = []
        for card in cards:
            pose = apply_card(pose, card, state.rules.base_length)
            poses.append(pose)
        if _on_table(poses, 1e-6):
            return True
    return False


@pytest.mark.parametrize("bot", ["random", "easy", "hard"])
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    edge=st.integers(0, 3),
    depth=st.floats(0.2, 14.0),
    along=st.floats(0.0, 1.0),
    heading=st.floats(0.0, 359.9),
    previous=st.sampled_from([None, "straight", "steep", "immelmann", "left"]),
    kind=st.sampled_from(["sopwith-camel", "spad-xiii", "caproni-ca3", "fokker-dr1"]),
    seed=st.integers(0, 2**16),
)
def test_bots_never_fly_off_when_a_safe_plan_exists(
    catalog: Catalog,
    bot: str,
    edge: int,
    depth: float,
    along: float,
    heading: float,
    previous: str | None,
    kind: str,
    seed: int,
) -> None:
    x, y = _edge_pose(edge, depth, along)
    state = _table(catalog, x, y, heading, previous, kind)
    assume(_safe_plan_exists(state, "me"))
    seat = side_seat(state, "allies")
    plans = make(bot).plan_turn(
        observe(state, seat), state.rules, seat, np.random.default_rng(seed)
    )
    poses = _flown(state, "me", plans["me"].cards)
    assert _on_table(poses), (plans["me"].cards, [p.point for p in poses])
    deck = state.rules.deck_of(kind)
    assert not plan_problems(
        state.vehicles["me"].previous, [deck.card(c) for c in plans["me"].cards]
    )


# --- observations only, determinism -------------------------------------------------------


def _spark(catalog: Catalog, hidden: int) -> GameState:
    data = {
        "scenario": "a-spark-of-hope",
        "objectives": [
            {"id": "farm", "x": 30, "y": 30},
            {"id": "mill", "x": 60, "y": 30},
            {"id": "church", "x": 30, "y": 60},
            {"id": "bridge", "x": 60, "y": 60},
        ],
        "vehicles": [
            {"id": "locust", "pose": {"x": 45, "y": 84, "heading": 270}, "damage": hidden},
            {
                "id": "nieuport",
                "type": "nieuport-17",
                "pose": {"x": 40, "y": 8, "heading": 90},
                "damage": hidden // 2,
            },
        ],
    }
    state = build(parse_situation(data), catalog, 0)
    # mid-game: the two close enough to matter
    state.vehicles["locust"].pose = Pose(45.0, 70.0, 250.0)
    state.vehicles["nieuport"].pose = Pose(40.0, 40.0, 80.0)
    return state


@pytest.mark.parametrize(
    "bot,side", [("hard", "earth"), ("easy", "earth"), ("martian", "martians")]
)
def test_bots_see_only_their_observation(catalog: Catalog, bot: str, side: str) -> None:
    """An enemy's hidden damage changes nothing in a bot's plans."""
    plans = []
    for hidden in (0, 9):
        state = _spark(catalog, hidden)
        seat = side_seat(state, side)
        plans.append(
            make(bot).plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(5))
        )
    assert plans[0] == plans[1]


@pytest.mark.parametrize("bot", ["random", "easy", "hard"])
def test_bots_are_deterministic_for_a_seed(catalog: Catalog, bot: str) -> None:
    state = build(duel_situation(), catalog, 0)
    seat = side_seat(state, "allies")
    obs = observe(state, seat)
    first = make(bot).plan_turn(obs, state.rules, seat, np.random.default_rng(11))
    again = make(bot).plan_turn(obs, state.rules, seat, np.random.default_rng(11))
    assert first == again


def test_a_seeded_game_replays_exactly(catalog: Catalog) -> None:
    situation = scenario_situation(catalog, "a-spark-of-hope")
    seed = game_seeds(9, 1)[0]
    bots = {"earth": "hard", "martians": "martian"}
    assert play_game(situation, catalog, bots, seed) == play_game(situation, catalog, bots, seed)


def test_rebuilt_state_hides_enemy_damage(catalog: Catalog) -> None:
    state = _spark(catalog, 9)
    seat = side_seat(state, "earth")
    view = rebuild(observe(state, seat), state.rules, seat)
    assert view.vehicles["locust"].damage == 0
    assert view.vehicles["nieuport"].damage == 4
    assert view.vehicles["locust"].tripod is not None
    assert view.vehicles["locust"].tripod.energy == state.vehicles["locust"].tripod.energy  # type: ignore[union-attr]


# --- what a bot must infer about its own damage -------------------------------------------------


def _observation(turn: int, phase: int, cards: list[str]) -> dict[str, Any]:
    return {
        "turn": turn,
        "phase": phase,
        "vehicles": [{"id": "me", "damage_cards": cards}],
    }


def test_status_tracker_infers_the_standard_rules_restrictions(catalog: Catalog) -> None:
    state = build(
        parse_situation(
            {
                "switches": {"standard_rules": True},
                "vehicles": [
                    {"id": "me", "type": "sopwith-camel", "side": "a", "pose": {"x": 9, "y": 9}},
                ],
            }
        ),
        catalog,
        0,
    )
    rules = state.rules
    tracker = StatusTracker()
    seat = {"me"}
    tracker.update(_observation(2, 0, ["A:A1-rudl-gyro"]), seat)
    assert tracker.status("me", rules, 2, False) == {"rudder_left": 2}
    tracker.update(_observation(3, 0, ["A:A1-rudl-gyro", "A:A4-fire"]), seat)
    assert tracker.status("me", rules, 3, False) == {"fire": 3}
    tracker.update(_observation(4, 2, ["A:A1-rudl-gyro", "A:A4-fire", "A:A2-eng"]), seat)
    assert tracker.status("me", rules, 5, False) == {"engine": 1, "fire": 1}
    assert tracker.status("me", rules, 6, False) == {"engine": 1}


# --- the Martian ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    x=st.floats(12.0, 78.0),
    y=st.floats(12.0, 78.0),
    heading=st.sampled_from([0.0, 60.0, 90.0, 150.0, 270.0, 330.0]),
    energy=st.integers(0, 4),
    cooling=st.integers(0, 1),
    seed=st.integers(0, 1000),
)
def test_martian_plans_follow_the_tripod_rules(
    catalog: Catalog, x: float, y: float, heading: float, energy: int, cooling: int, seed: int
) -> None:
    data = {
        "scenario": "a-spark-of-hope",
        "objectives": [
            {"id": "farm", "x": 30, "y": 30},
            {"id": "mill", "x": 60, "y": 30},
            {"id": "church", "x": 30, "y": 60},
            {"id": "bridge", "x": 60, "y": 60},
        ],
        "vehicles": [
            {
                "id": "locust",
                "pose": {"x": 45, "y": 84, "heading": 270},
                "energy": energy,
                "cooling": cooling,
            },
            {"id": "nieuport", "type": "nieuport-17", "pose": {"x": 40, "y": 8, "heading": 90}},
        ],
    }
    state = build(parse_situation(data), catalog, 0)
    state.vehicles["locust"].pose = Pose(x, y, heading)
    seat = side_seat(state, "martians")
    plan = make("martian").plan_turn(
        observe(state, seat), state.rules, seat, np.random.default_rng(seed)
    )["locust"]
    deck = state.rules.tripod_deck_of("mk1-locust")
    cards = [deck.card(c) for c in plan.cards]
    assert len(cards) == 3 and len(set(plan.cards)) == 3
    assert any(c.symbol is not TripodSymbol.MOVE for c in cards)
    assert sum(c.energy for c in cards) <= energy
    for card, action in zip(cards, plan.actions, strict=True):
        if action is None:
            continue
        assert not card.stop
        if action.token in ("change_facing", "recharge", "destroy_objective"):
            assert card.symbol is TripodSymbol.STAND
    rays = [a for a in plan.actions if a is not None and a.token == "heat_ray"]
    assert len(rays) <= max(0, energy - 1) or energy == 0


def _illegal(events: list[Any]) -> list[IllegalManeuver]:
    return [e for e in events if isinstance(e, IllegalManeuver)]


def _drained_this_turn(events: list[Any], illegal: IllegalManeuver) -> set[str]:
    """Tripods that hits drained of Energy earlier in the turn of ``illegal``: their
    energy card was paid for when planned ("circuits hit", "protected hit by ...")."""
    at = next(i for i, e in enumerate(events) if e is illegal)
    start = max((i for i, e in enumerate(events[:at]) if isinstance(e, TurnStarted)), default=0)
    return {
        e.vehicle
        for e in events[start:at]
        if isinstance(e, EnergyChanged)
        and e.change < 0
        and "hit" in e.reason
        and illegal.rule == "energy_card_without_energy"
    }


def test_martian_games_waste_no_token_and_topple_no_tripod(catalog: Catalog) -> None:
    situation = scenario_situation(catalog, "a-spark-of-hope")
    for seed in game_seeds(4, 3):
        events: list[Any] = []
        result = play_game(
            situation, catalog, {"earth": "hard", "martians": "martian"}, seed, events_out=events
        )
        assert result.refused == 0
        assert not [e for e in _illegal(events) if e.vehicle not in _drained_this_turn(events, e)]
        wasted = [e for e in events if isinstance(e, ActionWasted)]
        assert not [e for e in wasted if "Stop" in e.reason or "green" in e.reason]


def test_martian_drains_objectives_against_a_random_pilot(catalog: Catalog) -> None:
    """Unhindered, the tripod drains three objectives and leaves by the Earth edge."""
    situation = scenario_situation(catalog, "a-spark-of-hope")
    results = [
        play_game(situation, catalog, {"earth": "random", "martians": "martian"}, seed, i)
        for i, seed in enumerate(game_seeds(8, 6))
    ]
    assert sum(r.winner == "martians" for r in results) >= 4


def test_previous_maneuver_restricts_the_bots(catalog: Catalog) -> None:
    """After an Immelmann every bot opens with a straight (000)."""
    state = _table(catalog, 45.0, 45.0, 0.0, "immelmann", "sopwith-camel")
    assert state.vehicles["me"].previous == Flown(Symbol.IMMELMANN, False)
    seat = side_seat(state, "allies")
    deck = state.rules.deck_of("sopwith-camel")
    for bot in ("random", "easy", "hard"):
        plan = make(bot).plan_turn(
            observe(state, seat), state.rules, seat, np.random.default_rng(1)
        )["me"]
        assert deck.card(plan.cards[0]).symbol is Symbol.STRAIGHT


# --- a human against a bot on the terminal ---------------------------------------------------


def test_terminal_play_against_a_bot(catalog: Catalog) -> None:
    from dogfight.cli.terminal_play import play_in_terminal

    answers = iter(["1 2", "1 1 2", "1 2 99", "1 2 3", *(["4 2 9", "5 1 8"] * 20)])
    lines: list[str] = []
    state = play_in_terminal(
        duel_situation(), catalog, "allies", "easy", 3, lambda _: next(answers), lines.append, 5
    )
    text = "\n".join(lines)
    assert "give 3 different card ids" in text
    assert "not in maneuver deck" in text
    assert "Turn 1: plans are down." in text
    assert "allied flies card 1" in text
    # the human's seat never sees the bot's secret damage cards
    assert "central draws" not in text
    assert state.over or state.turn == 6


def test_terminal_play_as_the_martians_and_quit(catalog: Catalog) -> None:
    from dogfight.cli.terminal_play import play_in_terminal

    # the cards, then the token at the start of each phase (000: "At the start of each
    # Movement step, all Tripod players may choose an Action token")
    answers = iter(["11 1 2", "recharge", "heat_ray:front", "", "q"])
    lines: list[str] = []
    situation = scenario_situation(catalog, "a-spark-of-hope")
    state = play_in_terminal(
        situation, catalog, "martians", "hard", 1, lambda _: next(answers), lines.append
    )
    assert "Game left unfinished." in lines
    assert state.turn == 2 or state.over
    assert any("locust reveals card 11" in line for line in lines)
    assert "locust chooses its action token, face up: recharge." in lines


def test_terminal_play_warns_and_asks_before_a_plan_off_the_table(catalog: Catalog) -> None:
    """The browser's warnings in the terminal: a plan that leaves the table is warned
    with its phase and needs a yes; 'n' asks for the cards again. Fire choices follow a
    '/'."""
    from dogfight.cli.terminal_play import play_in_terminal
    from dogfight.situation.format import parse_situation

    data = duel_situation().model_dump(mode="json", exclude_defaults=True)
    for vehicle in data["vehicles"]:
        if vehicle["side"] == "allies":
            vehicle["pose"]["y"] = data.get("table", {}).get("height", 90.0) - 12.0
    situation = parse_situation(data)
    answers = iter(["1 2 3", "n", "4 5 10 / none auto nobody", "4 5 10 / none auto", "y", "q"])
    lines: list[str] = []
    play_in_terminal(situation, catalog, "allies", "easy", 3, lambda _: next(answers), lines.append)
    text = "\n".join(lines)
    assert "beyond the north edge: it leaves the table" in text
    assert "auto, none or an enemy" in text
    assert "enemy central" in text
    assert "Turn 1: plans are down." in text
