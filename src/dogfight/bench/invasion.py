"""Time a phase of 001's Invasion rules: two tripods a side firing at each other and two
bombers dropping their bombs on them (target: 1 ms median)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.plans import Plan
from dogfight.situation.format import build, parse_situation


def _quiet(catalog: Catalog, model: str) -> list[str]:
    """Three stationary or running cards (standing still first) of a tripod's deck."""
    deck = catalog.tripod_decks[catalog.tripods[model].maneuver_deck]
    order = {"stand": 0, "reverse": 1, "run": 2}
    quiet = sorted(
        (c for c in deck.cards if c.symbol.value in order and not c.energy),
        key=lambda c: order[c.symbol.value],
    )
    return [c.id for c in quiet[:3]]


def invasion_situation(catalog: Catalog) -> dict[str, Any]:
    """Two captured tripods against a Locust and a Scarab, a Caproni and a Camel dropping
    all their loads on the Martians in phase 1 (001's bombing example, with two Earth
    tripods added)."""

    def tripod(
        vid: str, model: str, x: float, y: float, heading: float, side: str
    ) -> dict[str, Any]:
        ray = {"token": "heat_ray", "projector": "front", "target": "auto"}
        entry: dict[str, Any] = {
            "id": vid,
            "type": model,
            "side": side,
            "pose": {"x": x, "y": y, "heading": heading},
            "plans": [{"cards": _quiet(catalog, model), "actions": [ray, None, None]}],
        }
        if side == "earth":
            entry["pilot"] = "human"
        return entry

    def bomber(vid: str, model: str, dot_y: float, loads: int) -> dict[str, Any]:
        deck = catalog.maneuver_decks[catalog.airplane(model).maneuver_deck]
        straight = deck.card(deck.straight)
        length = catalog.constants.airplane_base.length
        # end so that the straight in front puts the dot at x = 45; start one straight back
        end_x = 45.0 - straight.forward - length / 2.0
        start_x = end_x - straight.forward - length
        others = [c.id for c in deck.cards if c.symbol.value == "straight" and c.id != straight.id]
        sideslip = [c.id for c in deck.cards if c.symbol.value in ("left", "right")]
        cards = [straight.id, *(others + sideslip)[:2]]
        return {
            "id": vid,
            "type": model,
            "side": "earth",
            "bombs": loads,
            "pose": {"x": start_x, "y": dot_y, "heading": 0.0},
            "plans": [{"cards": cards, "fire": ["none"] * 3, "drop": [loads, 0, 0]}],
        }

    return {
        "vehicles": [
            tripod("locust", "mk1-locust", 45.0, 55.0, 270.0, "martians"),
            tripod("scarab", "mk2-scarab", 45.0, 45.0, 270.0, "martians"),
            tripod("earth-locust", "mk1-locust", 24.0, 55.0, 0.0, "earth"),
            tripod("earth-scarab", "mk2-scarab", 68.0, 45.0, 180.0, "earth"),
            bomber("caproni", "caproni-ca3", 48.0, 2),
            bomber("camel", "sopwith-camel", 38.0, 1),
        ]
    }


def invasion_phase_times(catalog: Catalog, samples: int, seed: int = 0) -> list[float]:
    """Seconds taken by phase 1 of :func:`invasion_situation` over ``samples`` seeds, in
    CPU time of this process like every other phase figure (the machine is shared)."""
    situation = parse_situation(invasion_situation(catalog), "bench")
    plans = {v.id: Plan.model_validate(v.plans[0]) for v in situation.vehicles}
    times: list[float] = []
    # The resolver never changes the state it is given: one planned state, many seeds.
    state, _ = start_turn(build(situation, catalog, seed), plans)
    for i in range(samples):
        rng = step_rng(seed + i, 1, 1)
        began = time.process_time()
        resolve_phase(state, rng)
        times.append(time.process_time() - began)
    return times


def invasion_phase_median_us(catalog: Catalog, quick: bool = False) -> float:
    """The median phase, in microseconds (target: 1000)."""
    times = invasion_phase_times(catalog, 40 if quick else 300)
    return round(statistics.median(times) * 1e6, 1)
