"""Seeded games between random-plan airplanes."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState
from dogfight.situation.format import Situation, build, parse_situation


def duel_situation(
    first: str = "sopwith-camel",
    second: str = "albatros-d5a",
    width: float = 90.0,
    height: float = 90.0,
) -> Situation:
    """Two airplanes facing each other from opposite edges of the table."""
    data: dict[str, Any] = {
        "table": {"width": width, "height": height},
        "vehicles": [
            {
                "id": "allied",
                "type": first,
                "side": "allies",
                "pose": {"x": width / 2, "y": 8.0, "heading": 90.0},
            },
            {
                "id": "central",
                "type": second,
                "side": "central",
                "pose": {"x": width / 2, "y": height - 8.0, "heading": 270.0},
            },
        ],
    }
    return parse_situation(data, "duel")


def melee_situation(count: int, width: float = 90.0, height: float = 90.0) -> Situation:
    """``count`` airplanes, half a side each, in two facing lines (for the benchmark)."""
    types = ["spad-xiii", "sopwith-camel", "nieuport-17", "fokker-dr1", "albatros-d5a"]
    vehicles: list[dict[str, Any]] = []
    per_row = (count + 1) // 2
    for i in range(count):
        row = i % 2
        column = i // 2
        x = width * (column + 0.5) / per_row
        vehicles.append(
            {
                "id": f"p{i:02d}",
                "type": types[i % len(types)],
                "side": "allies" if row == 0 else "central",
                "pose": {
                    "x": x,
                    "y": height * 0.35 if row == 0 else height * 0.65,
                    "heading": 90.0 if row == 0 else 270.0,
                },
            }
        )
    return parse_situation({"table": {"width": width, "height": height}, "vehicles": vehicles})


def tripods_situation(width: float = 90.0, height: float = 90.0) -> Situation:
    """Two tripods against four airplanes (the benchmark's mixed table, after 000's
    First Contact variant)."""
    vehicles: list[dict[str, Any]] = [
        {
            "id": "t1",
            "type": "mk1-locust",
            "side": "martians",
            "pose": {"x": width * 0.35, "y": height * 0.7, "heading": 270.0},
        },
        {
            "id": "t2",
            "type": "mk2-scarab",
            "side": "martians",
            "pose": {"x": width * 0.65, "y": height * 0.7, "heading": 270.0},
        },
    ]
    types = ["nieuport-17", "sopwith-camel", "spad-xiii", "nieuport-11"]
    for i, kind in enumerate(types):
        vehicles.append(
            {
                "id": f"p{i}",
                "type": kind,
                "side": "earth",
                "pose": {"x": width * (i + 1) / 5, "y": height * 0.3, "heading": 90.0},
            }
        )
    data = {"table": {"width": width, "height": height}, "vehicles": vehicles}
    return parse_situation(data, "tripods")


def tripod_situation(
    tripod: str, planes: Sequence[str], width: float = 90.0, height: float = 90.0
) -> Situation:
    """One tripod against airplanes, 000's basic rules (the batch's tripod matchups): the
    tripod at the north facing south, the airplanes spread along the south flying north."""
    vehicles: list[dict[str, Any]] = [
        {
            "id": "tripod",
            "type": tripod,
            "side": "martians",
            "pose": {"x": width / 2, "y": height * 0.7, "heading": 270.0},
        }
    ]
    for i, kind in enumerate(planes):
        vehicles.append(
            {
                "id": f"p{i}",
                "type": kind,
                "side": "earth",
                "pose": {
                    "x": width * (i + 1) / (len(planes) + 1),
                    "y": height * 0.3,
                    "heading": 90.0,
                },
            }
        )
    data = {"table": {"width": width, "height": height}, "vehicles": vehicles}
    return parse_situation(data, f"{tripod} vs {', '.join(planes)}")


@functools.cache
def _default_duel() -> Situation:
    """:func:`duel_situation` with its defaults, read once (``random_game`` never changes
    it)."""
    return duel_situation()


@dataclass
class Playout:
    """A finished (or turn-capped) random game."""

    start: GameState
    state: GameState
    events: list[Event]
    plans: list[dict[str, list[str]]]


def random_game(
    catalog: Catalog, seed: int, situation: Situation | None = None, max_turns: int = 30
) -> Playout:
    """Play random legal plans until one side is gone or ``max_turns`` turns are played.

    The plans come from a generator seeded by (seed, "plans"), the engine's chance from
    :func:`step_rng`, so the same seed replays the same game.
    """
    start = build(situation or _default_duel(), catalog, seed)
    state = start
    planner = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1])))
    events: list[Event] = []
    plans_log: list[dict[str, list[str]]] = []
    while not state.over and state.turn <= max_turns:
        plans = random_plans(state, planner)
        plans_log.append({k: list(p.cards) for k, p in plans.items()})
        state, more = start_turn(state, plans)
        events.extend(more)
        while not state.over:
            state, more = resolve_phase(state, step_rng(seed, state.turn, state.phase + 1))
            events.extend(more)
            if state.phase == 0:
                break
    return Playout(start, state, events, plans_log)


def replay(
    catalog: Catalog, seed: int, situation: Situation, plans: list[dict[str, list[str]]]
) -> tuple[GameState, list[Event]]:
    """Replay a game from its situation, seed and recorded plans (one dict per turn)."""
    state = build(situation, catalog, seed)
    events: list[Event] = []
    for turn_plans in plans:
        if state.over:
            break
        state, more = start_turn(
            state, {vid: Plan(cards=tuple(cards)) for vid, cards in turn_plans.items()}
        )
        events.extend(more)
        while not state.over:
            state, more = resolve_phase(state, step_rng(seed, state.turn, state.phase + 1))
            events.extend(more)
            if state.phase == 0:
                break
    return state, events
