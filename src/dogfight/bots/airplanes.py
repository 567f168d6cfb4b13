"""Computer players that treat each turn as simultaneous.

Every airplane of the seat scores each of its possible plans (all legal three-card
sequences, or a sample of them for the easy level) against a weighted set of plausible
plans of every enemy, phase by phase: the expected damage it deals (its arcs, the ruler
and half mark on whole bases, short range two cards, the aim bonus, jams, tripod armour)
less the expected damage it takes (guns, heat-rays), the rockets it can land, where it
stands at the end of the turn, and a prohibitive cost for leaving the table. A plan that
takes the airplane off the table at any phase (with a margin) is never chosen while one
that stays exists.

- ``random``: uniform legal plans, preferring those that stay on the table;
- ``easy``: a sample of its own plans against a few uniform enemy plans;
- ``hard``: every plan against a mixture of uniform enemy plans and the enemy's own best
  replies to a uniform guess of ours (one level of "what would he do"), coarse to fine:
  every plan first against five of those enemy poses measured between centre dots, then
  the best 160 against all of them on whole bases (as strong as scoring every plan
  against all: 76 wins to 73 in 160 duels); the enemy's best replies are sought the same
  way among 600 of its plans (as strong as among all of them: 262 wins to 279 in 575
  decided duels);
- ``martian``: a tripod player for two-player scenarios: walks to the objectives,
  recharges or destroys them as the scenario asks, leaves by the edge it must leave by,
  fires the heat-ray from the projector facing the nearest airplane.

The bots live here; what they compute lives beside them: :mod:`~dogfight.bots.threats`
(damage odds, bases as points, the model of the enemy's flights),
:mod:`~dogfight.bots.plane_planner` (scoring an airplane's plans),
:mod:`~dogfight.bots.tripod_planner` and :mod:`~dogfight.bots.tripod_moves` (the tripod's
plans), :mod:`~dogfight.bots.sampling` (the random bot's plans).

Bots see only their seat's observation (rebuilt with :mod:`dogfight.bots.view`) and the
rules; every random choice comes from the generator they are given.
"""

from __future__ import annotations

import math

import numpy as np

from dogfight.bots.base import Explanation, Observation, register
from dogfight.bots.heap import keep_heap_top
from dogfight.bots.invasion import aim_drops, nearest_enemy
from dogfight.bots.plane_choice import plan_airplane
from dogfight.bots.plane_planner import EASY, HARD, Level
from dogfight.bots.sampling import random_airplane_plan, random_seen_airplane_plan, random_tripod
from dogfight.bots.tripod_planner import facing_projector, plan_tripod, predict
from dogfight.bots.view import (
    StatusTracker,
    guess_scenario,
    rebuild,
)
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import phases_before_cards

# --- the bots ----------------------------------------------------------------------------


def _own(state: GameState, seat: frozenset[str]) -> list[Vehicle]:
    return sorted((v for v in state.in_play() if v.id in seat), key=lambda v: v.id)


def _due_views(observation: Observation, seat: frozenset[str]) -> list[Observation]:
    """The observation's entries of the seat's vehicles that plan in this planning phase
    (those of :func:`_due`), in id order."""
    if observation["over"]:
        return []
    phase = int(observation["phase"])
    due = set(observation["planning"])
    views = (
        v
        for v in observation["vehicles"]
        if v["id"] in seat and v["eliminated"] is None and (phase == 0 or v["id"] in due)
    )
    return sorted(views, key=lambda v: str(v["id"]))


def _due(state: GameState, seat: frozenset[str]) -> list[Vehicle]:
    """The seat's vehicles that plan in this planning phase (all of them before a turn;
    before the second and third action phases only WW2 airplanes, 001)."""
    due = set(state.planning_due())
    return [v for v in _own(state, seat) if v.id in due]


class _Observer:
    """What every bot here shares: a status tracker fed with each observation."""

    name = "bot"

    def __init__(self) -> None:
        self.tracker = StatusTracker()

    def _state(self, observation: Observation, rules: Rules, seat: frozenset[str]) -> GameState:
        # The tracker works out what the seat's special damage forbids from the cards it
        # saw; an observation that shows its vehicles' status tells it outright.
        if any("status" not in v for v in observation["vehicles"] if v["id"] in seat):
            self.tracker.update(observation, seat)
        return rebuild(observation, rules, seat, self.tracker)

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        self.tracker.update(observation, seat)
        return {}, {}


class RandomBot(_Observer):
    """Uniform random legal plans, staying on the table whenever some plan does."""

    name = "random"

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        from dogfight.bots.ww2_airplanes import random_ww2_plan

        plans: dict[str, Plan] = {}
        state: GameState | None = None
        for view in _due_views(observation, seat):
            vid = view["id"]
            # a WW1 airplane whose status the observation shows is drawn from its entry
            plan = None if "energy" in view else random_seen_airplane_plan(rules, view, rng)
            if plan is not None:
                plans[vid] = plan
                continue
            state = state or self._state(observation, rules, seat)
            vehicle = state.vehicles[vid]
            if vehicle.tripod is not None:
                plans[vid] = random_tripod(state, vehicle, rng)
            elif vehicle.clock == ONE_PHASE:
                plans[vid] = random_ww2_plan(state, vehicle, rng)
            else:
                plans[vid] = random_airplane_plan(state, vehicle, rng)
        return plans


class PlanningBot(_Observer):
    """Simultaneous-turn planning at a :class:`Level`; tripods (if the seat has any)
    are played as :class:`MartianBot` plays them."""

    def __init__(self, level: Level) -> None:
        super().__init__()
        keep_heap_top()  # the planner's numpy temporaries reuse the heap (bots/heap.py)
        self.level = level
        self.name = level.name
        self._why: Explanation = {}

    def explain(self) -> Explanation:
        """Its last turn's WW1 airplanes: their three best plans with their values
        (expected damage dealt less taken, the end position...; see
        :mod:`~dogfight.bots.plane_planner`); tripods and WW2 airplanes are not explained."""
        return {vid: list(ranked) for vid, ranked in self._why.items()}

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        from dogfight.bots.ww2_airplanes import plan_ww2_airplane

        state = self._state(observation, rules, seat)
        scenario = guess_scenario(observation, rules)
        plans: dict[str, Plan] = {}
        self._why = {}
        for vehicle in _due(state, seat):
            if vehicle.tripod is not None:
                plans[vehicle.id] = plan_tripod(state, vehicle, scenario, rng)
            elif vehicle.clock == ONE_PHASE:
                plans[vehicle.id] = plan_ww2_airplane(state, vehicle, self.level, rng)
            else:
                choice = plan_airplane(state, vehicle, self.level, rng)
                plans[vehicle.id] = aim_drops(state, vehicle, choice.plan)
                self._why[vehicle.id] = choice.ranked
        return plans


class EasyBot(PlanningBot):
    def __init__(self) -> None:
        super().__init__(EASY)


class HardBot(PlanningBot):
    def __init__(self) -> None:
        super().__init__(HARD)


class MartianBot(PlanningBot):
    """The tripod side of a two-player scenario.

    Plans the tripod's cards (000: at least one stationary or running card a turn, no
    energy card it cannot pay, none its damage forbids) towards the next objective to
    drain or destroy, standing still on it to use the green token, and once enough are
    done towards the edge the scenario says to leave by; never off the table elsewhere.
    Heat-rays go on cards without the Stop icon when the ray is ready and an airplane is
    likely in reach (keeping one Energy for the armour); a standing card with nothing to
    do recharges. At the start of each movement step the heat-ray token is turned to the
    projector facing the nearest airplane (or held back when no airplane is near).
    Airplanes of its seat, if any, are flown as the hard bot flies them.
    """

    def __init__(self) -> None:
        super().__init__(HARD)
        self.name = "martian"

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        state = self._state(observation, rules, seat)
        out: dict[str, Action | None] = {}
        for tripod in _own(state, seat):
            console = tripod.tripod
            plan = tripod.plan
            if console is None or plan is None or plan.automated:
                continue
            planned = plan.actions[phase - 1] if phase - 1 < len(plan.actions) else None
            if planned is None or planned.token != "heat_ray":
                continue
            plane = nearest_enemy(state, tripod)
            reach = rules.heat_ray_ruler(tripod.type).length + 12.0
            deck = rules.tripod_deck_of(tripod.type)
            offset = phases_before_cards(plan)
            owed = [
                deck.card(card).energy
                for i, card in enumerate(plan.cards)
                if offset + i + 1 >= phase
            ]
            now, later = (owed[0], sum(owed[1:])) if owed else (False, 0)
            card_now = deck.card(plan.cards[phase - 1 - offset]) if phase > offset else None
            wounded = rules.switches.standard_rules and bool(tripod.status.get("wounded"))
            spare = console.energy - int(now) - 1 - later - (1 if later else 0)
            if (
                plane is None
                or console.cooling > 0
                or spare < 0
                or (wounded and card_now is not None and card_now.moves)
                or math.dist(predict(plane), tripod.pose.point) > reach
            ):
                out[tripod.id] = None
                continue
            out[tripod.id] = Action(
                token="heat_ray",
                projector=facing_projector(rules, tripod.type, tripod.pose, plane),
            )
        return out, {}


register("random", RandomBot)
register("easy", EasyBot)
register("hard", HardBot)
register("martian", MartianBot)
