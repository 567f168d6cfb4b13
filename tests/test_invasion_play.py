"""001's Invasion where players meet it: terminal play with a bomber and with captured
tripods, the Martian bot against tripods, the bench phase, and simulate on the two
Invasion scenarios."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from conftest import default_plans

from dogfight.bench.invasion import invasion_phase_times
from dogfight.bots.base import make
from dogfight.catalog.loader import load_catalog
from dogfight.cli.terminal_play import play_in_terminal
from dogfight.rules.events import Event
from dogfight.rules.observation import observe, side_seat
from dogfight.sim.run import game_seeds, play_game
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation

CATALOG = load_catalog()


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines
    while True:
        yield "q"


def test_terminal_bomber_drops_its_loads() -> None:
    """001: "After action cards are chosen and before revealing any maneuvers, each
    bomber's player can decide to drop one or more loads of bombs." -- the terminal asks
    each bomber its drop in each phase (camel first, then caproni), not with its plan."""
    situation = scenario_situation(CATALOG, "bombers-over-the-tripods")
    answers = scripted(
        [
            " ".join(default_plans("sopwith-camel")[0]["cards"]),
            " ".join(default_plans("caproni-ca3")[0]["cards"]),
            "1",  # phase 1: camel
            "1",  # phase 1: caproni
            "1",  # phase 2: caproni (the camel has no load left)
        ]
    )
    out: list[str] = []
    state = play_in_terminal(
        situation, CATALOG, "earth", "martian", 3, lambda _: next(answers), out.append
    )
    text = "\n".join(out)
    assert "caproni drops 1 load of bombs" in text
    assert "camel drops 1 load of bombs" in text
    assert "bomb card" in text
    assert state.vehicles["camel"].bombs == 0


def test_martian_bot_fires_at_enemy_tripods() -> None:
    """001: "When a heat-ray projector fires against another tripod" -- the Martian bot
    plays either side's tripods and aims its heat-rays at the enemy tripods."""
    situation = scenario_situation(CATALOG, "captured-tripods")
    result = play_game(situation, CATALOG, {}, game_seeds(5, 1)[0], max_turns=8)
    assert result.turns >= 1
    events: list[Event] = []
    play_game(situation, CATALOG, {}, game_seeds(5, 1)[0], max_turns=8, events_out=events)
    targets = {getattr(e, "target", None) for e in events if e.kind == "heat_ray"}
    assert targets & {"earth-locust", "earth-scarab", "martian-locust", "martian-scarab"}


def test_bombers_aim_their_drops() -> None:
    """The hard bot flying a bomber drops its loads when its bomb card would fall on a
    tripod (it aims by eye: where the tripods stand when it plans)."""
    situation = scenario_situation(CATALOG, "bombers-over-the-tripods")
    events: list[Event] = []
    play_game(situation, CATALOG, {}, game_seeds(2, 1)[0], max_turns=10, events_out=events)
    assert any(e.kind == "bombs_dropped" for e in events)


def test_bench_invasion_phase_runs() -> None:
    """The bench phase: two tripods a side and two bombers dropping in phase 1 (timing is
    `dogfight bench`'s business; here only that it resolves)."""
    assert len(invasion_phase_times(CATALOG, 2)) == 2


def test_bench_invasion_phase_is_what_its_name_says() -> None:
    """The timed phase has two tripods of each side and two bombers, all in play, the
    bombers dropping: both bomb cards are laid, every tripod fires its heat-ray (at a
    tripod or at the falling bombs) and the bombs that survive land."""
    from dogfight.bench.invasion import invasion_situation
    from dogfight.rules.chance import step_rng
    from dogfight.rules.engine import resolve_phase, start_turn
    from dogfight.rules.plans import Plan
    from dogfight.situation.format import parse_situation

    situation = parse_situation(invasion_situation(CATALOG), "bench")
    plans = {v.id: Plan.model_validate(v.plans[0]) for v in situation.vehicles}
    state, _ = start_turn(build(situation, CATALOG, 0), plans)
    playing = state.in_play()
    tripods = [v.side for v in playing if v.tripod is not None]
    assert sorted(tripods) == ["earth", "earth", "martians", "martians"]
    assert sorted(v.id for v in playing if v.bombs) == ["camel", "caproni"]
    for seed in range(3):
        _, events = resolve_phase(state, step_rng(seed, 1, 1))
        kinds = [e.kind for e in events]
        assert kinds.count("bombs_dropped") == 2 and kinds.count("bomb_card_placed") == 2
        assert kinds.count("heat_ray") == 4
        assert "bombs_landed" in kinds


def test_observation_shows_loads_pilots_and_secret_cards() -> None:
    situation = scenario_situation(CATALOG, "captured-tripods")
    state = build(situation, CATALOG, 0)
    view = observe(state, side_seat(state, "martians"))
    assert view["action_cards"] is True
    pilots = {v["id"]: v.get("pilot") for v in view["vehicles"]}
    assert pilots["earth-locust"] == "human" and pilots["martian-locust"] == "martian"
    bot = make("martian")
    plans = bot.plan_turn(view, state.rules, side_seat(state, "martians"), np.random.default_rng(0))
    assert set(plans) == {"martian-locust", "martian-scarab"}


def test_pettingzoo_bombers_are_agents() -> None:
    """The PettingZoo environment plays 001's bombing scenario: the bombers are the agents
    (their drops aimed as the bots aim them)."""
    from dogfight.research.pettingzoo_env import parallel_env

    env = parallel_env(situation="bombers-over-the-tripods", side="earth", max_turns=3)
    env.reset(seed=1)
    assert sorted(env.agents) == ["camel", "caproni"]
    while env.agents:
        env.step({a: None for a in env.agents})
    assert env.state_.turn >= 2
