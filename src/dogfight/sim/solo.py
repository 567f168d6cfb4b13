"""Solo games (001): airplanes against an automated tripod.

:func:`play_solo` plays a seeded game of one of 001's solo scenarios (*A Lonely Invader*,
*Down from the Alps*) or of any scenario whose tripods the Automated Tripod rules play.
The tripod's seat is an :class:`~dogfight.bots.automated_tripod.AutomatedTripod`; the
airplanes plan with a bot of the Earth seat when one is given, else with random legal
plans (:func:`dogfight.bots.random_plans.random_legal_plan`).

Each action phase runs as on a table: at the start of the movement step the automated
tripod draws its card (and token); every vehicle moves (:func:`resolve_phase` with
``stop_before_firing``, nothing kept); the tripod is shown the table after movement and
decides whether it fires (001: "After all vehicles have moved, the tripod fires if ...");
the phase is then resolved for real from the same generator, so the movement is the same.
The tripod's decisions are logged as ``tripod_decision`` events right after the phase's
``phase_started`` event.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dogfight.bots.automated_tripod import AutomatedTripod, Decision, with_decisions
from dogfight.bots.base import Bot
from dogfight.bots.random_plans import SOLO_DRAWS, random_legal_plan
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.observation import observe, visible_events
from dogfight.rules.plans import Action, Plan
from dogfight.rules.scenario import edge_point, verdict
from dogfight.rules.state import GameState
from dogfight.situation.format import Situation, build, parse_situation

SOLO_SCENARIOS = ("a-lonely-invader", "down-from-the-alps")


def solo_situation(
    catalog: Catalog,
    scenario_id: str,
    airplanes: Sequence[str] = (),
    replacement: str | None = None,
) -> Situation:
    """The scenario's table set up as its text says: the automated tripod at the middle of
    its side, the airplanes spread along their line, the objectives on their layout.
    ``airplanes`` chooses the models of the scenario's airplanes in order (default: each
    one's first choice), ``replacement`` that of the reinforcement."""
    scenario = catalog.scenario(scenario_id, "solo")
    width, height = scenario.table.width, scenario.table.height
    probe = build(
        parse_situation(
            {
                "table": {"width": width, "height": height},
                "vehicles": [
                    {"id": "x", "type": "spad-xiii", "side": "x", "pose": {"x": 1, "y": 1}}
                ],
            }
        ),
        catalog,
        0,
    )
    facing = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}
    vehicles: list[dict[str, Any]] = []
    planes = [v for v in scenario.vehicles if not v.types or v.types[0] in catalog.airplanes]
    chosen = dict(zip([p.id for p in planes], airplanes, strict=False))
    for spec in scenario.vehicles:
        side = scenario.side(spec.side)
        assert side is not None
        depth = spec.depth if spec.depth is not None else scenario.edge_depth / 2.0
        group = [v for v in scenario.vehicles if v.side == spec.side]
        index = group.index(spec)
        across = 0.0
        if not spec.centred and len(group) > 1:
            across = width * ((index + 1) / (len(group) + 1) - 0.5)
        x, y = edge_point(probe, side.edge, across, depth)
        entry: dict[str, Any] = {
            "id": spec.id,
            "pose": {"x": round(x, 4), "y": round(y, 4), "heading": facing[side.edge]},
        }
        if spec.id in chosen:
            entry["type"] = chosen[spec.id]
        vehicles.append(entry)
    objectives: list[dict[str, Any]] = []
    rule = scenario.objectives
    if rule is not None and rule.layout:
        side = scenario.side(rule.placed_by)
        edge = side.edge if side is not None else "south"
        for i, (across, depth) in enumerate(rule.layout, start=1):
            x, y = edge_point(probe, edge, across, depth)
            objectives.append({"id": f"objective-{i}", "x": x, "y": y})
    reinforcements: list[dict[str, Any]] = []
    for spec in scenario.reinforcements:
        side = scenario.side(spec.side)
        assert side is not None
        x, y = edge_point(probe, side.edge, 0.0, scenario.edge_depth)
        entry = {"id": spec.id, "pose": {"x": x, "y": y, "heading": facing[side.edge]}}
        if replacement is not None:
            entry["type"] = replacement
        reinforcements.append(entry)
    data = {
        "scenario": scenario_id,
        "vehicles": vehicles,
        "objectives": objectives,
        "reinforcements": reinforcements,
    }
    return parse_situation(data, scenario_id)


@dataclass
class SoloGame:
    """A finished (or turn-capped) solo game."""

    start: GameState
    state: GameState
    events: list[Event]
    decisions: list[Decision]
    level: str | None
    """The victory's level (strategic, tactical, marginal) when the scenario grades it."""
    decision_ms: list[float] = field(default_factory=list)
    """Time taken by the tripod's decision in each phase (its card and token before
    movement plus its firing decision after it, observations included), ms."""

    @property
    def winner(self) -> str | None:
        return self.state.winner


def play_solo(
    catalog: Catalog,
    scenario_id: str,
    seed: int,
    airplanes: Sequence[str] = (),
    max_turns: int = 30,
    earth_bot: Bot | None = None,
    situation: Situation | None = None,
) -> SoloGame:
    """Play a seeded solo game: the scenario's automated tripods (every tripod when the
    scenario marks none) against airplanes planned by ``earth_bot`` or at random.

    The same scenario, seed and bots give the same game: the engine's chance comes from
    :func:`step_rng`, the tripod's draws from a generator seeded by (seed, 7), the random
    airplane plans from (seed, 1).
    """
    scenario = catalog.scenario(scenario_id, "solo")
    start = build(situation or solo_situation(catalog, scenario_id, airplanes), catalog, seed)
    automated = [v.id for v in scenario.vehicles if v.automated] or [
        v.id for v in start.vehicles.values() if v.tripod is not None
    ]
    tripod_side = start.vehicles[automated[0]].side
    earth = next((s for s in scenario.sides if s.name != tripod_side), None)
    bot = AutomatedTripod(earth=earth.edge if earth is not None else "south")
    seat = frozenset(automated)
    tripod_rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 7])))
    planner = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1])))
    state = start
    events: list[Event] = []
    decisions: list[Decision] = []
    timings: list[float] = []
    while not state.over and state.turn <= max_turns:
        rules = state.rules
        plans: dict[str, Plan] = bot.plan_turn(observe(state, seat), rules, seat, tripod_rng)
        earth_ids = frozenset(
            v.id for v in state.vehicles.values() if v.side != tripod_side
        ) | frozenset(v.id for v in state.reserves.values())
        if earth_bot is not None:
            plans.update(earth_bot.plan_turn(observe(state, earth_ids), rules, earth_ids, planner))
        for vehicle in sorted(state.in_play(), key=lambda v: v.id):
            if vehicle.tripod is None and vehicle.id not in plans:
                plans[vehicle.id] = random_legal_plan(state, vehicle.id, planner, SOLO_DRAWS)
        state, more = start_turn(state, plans)
        events.extend(more)
        while not state.over:
            turn, phase = state.turn, state.phase + 1
            began = time.perf_counter()
            actions, cards = bot.phase_actions(observe(state, seat), rules, seat, phase, tripod_rng)
            spent = time.perf_counter() - began
            facing: dict[str, Action | None] = {
                vid: a for vid, a in actions.items() if a is not None and a.token == "change_facing"
            }
            moved, _ = resolve_phase(
                state, step_rng(seed, turn, phase), facing, cards=cards, stop_before_firing=True
            )
            began = time.perf_counter()
            final = bot.fire_actions(observe(moved, seat), rules, seat, phase, tripod_rng)
            timings.append((spent + time.perf_counter() - began) * 1000.0)
            actions.update(final)
            state, more = resolve_phase(state, step_rng(seed, turn, phase), actions, cards=cards)
            phase_decisions = list(bot.last_decisions)
            decisions.extend(phase_decisions)
            events.extend(with_decisions(more, phase_decisions))
            bot.see(visible_events(more, seat))
            if state.phase == 0:
                break
    win = verdict(state) if state.over else None
    level = win.level if win is not None and win.side == state.winner else None
    return SoloGame(start, state, events, decisions, level, timings)
