"""The phase resolver: plans in, a new state and typed events out.

An action phase (000, "THE GAME TURN") is the list of named steps in
:mod:`dogfight.rules.steps`: the tripods' actions, reveal the cards, move every vehicle
simultaneously, clouds, remove vehicles whose centre left the area, then the firing
step, whose damage is all applied together at its end, recharge, victory and the end of
the turn. This module checks a phase can be resolved, copies the state and runs the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from dogfight.errors import IllegalPlanError
from dogfight.geometry.hexbase import Side
from dogfight.rules import action_tokens, firing, steps, tripods
from dogfight.rules.decisions import Answers, Asking, Decision, Paused
from dogfight.rules.events import (
    Event,
    PhaseStarted,
)
from dogfight.rules.phase import Phase
from dogfight.rules.plans import AUTO, HOLD, Action, Plan
from dogfight.rules.rays import RayScene
from dogfight.rules.state import BY_ID, GameState, Vehicle
from dogfight.rules.turns import allowed_symbols, check_plans, start_turn
from dogfight.rules.victory import SHOT_DOWN, scores

__all__ = [
    "SHOT_DOWN",
    "allowed_symbols",
    "check_plans",
    "may_ask",
    "pending_decisions",
    "play_turn",
    "preview_targets",
    "resolve_or_ask",
    "resolve_phase",
    "scores",
    "start_turn",
]


def _begin_phase(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None,
    fire: Mapping[str, Mapping[str, str]] | None,
    cards: Mapping[str, str] | None,
    asking: Asking | None = None,
) -> Phase:
    """Check the phase can be resolved and copy the state with this phase's overrides."""
    if state.over:
        raise IllegalPlanError("the game is over")
    if state.phase == 0:
        for v in state.vehicles.values():  # loops, not comprehensions, here: every phase
            if v.plan is None and v.eliminated is None:
                raise IllegalPlanError(f"turn {state.turn} has not been planned")
    if state.phase > 0 and state.planning_due():
        raise IllegalPlanError(
            f"planning phase {state.phase + 1} of turn {state.turn} awaits the plans of: "
            + ", ".join(state.planning_due())
        )
    new = state.copy()
    new.phase += 1
    new.phases_played += 1
    phase, number = new.phase, new.phases_played
    rays: dict[str, str] = {}
    for vid, choices in (fire or {}).items():
        vehicle = new.vehicles.get(vid)
        if vehicle is None or vehicle.plan is None or not vehicle.in_play:
            raise IllegalPlanError(f"{vid!r} is not an airplane in play with a plan")
        if vehicle.tripod is not None:
            rays[vid] = _ray_choice(vehicle, choices)
            continue
        weapons = {w for w, _ in new.rules.weapons(vehicle.type)}
        update: dict[str, tuple[str, ...]] = {}
        for weapon, choice in choices.items():
            if weapon not in weapons:
                raise IllegalPlanError(
                    f"{vid}: no {weapon!r} weapon; weapons: {', '.join(sorted(weapons))}"
                )
            target = new.vehicles.get(choice)
            if choice not in (AUTO, HOLD) and (target is None or target.side == vehicle.side):
                raise IllegalPlanError(
                    f"{vid}: fire choice {choice!r} must be 'auto', 'none' or an enemy id"
                )
            name = "fire" if weapon == "front" else "rear_fire"
            current = list(getattr(vehicle.plan, name))
            current[phase - 1] = choice
            update[name] = tuple(current)
        vehicle.plan = vehicle.plan.model_copy(update=update)
    new.phase_cards = {}
    for vid, card_id in (cards or {}).items():
        vehicle = new.vehicles.get(vid)
        if vehicle is None or vehicle.tripod is None or vehicle.plan is None:
            raise IllegalPlanError(f"{vid!r} is not a tripod in play")
        if not vehicle.plan.automated:
            raise IllegalPlanError(f"{vid}: its cards were planned; only automated tripods draw")
        new.rules.tripod_deck_of(vehicle.type).card(card_id)
        new.phase_cards[vid] = card_id
    in_play = new.in_play()
    for vehicle in in_play:
        if (
            vehicle.tripod is not None  # tested first: most vehicles are airplanes
            and vehicle.plan is not None
            and vehicle.plan.automated
            and not vehicle.tripod.toppled
            and vehicle.id not in new.phase_cards
        ):
            raise IllegalPlanError(
                f"{vehicle.id}: an automated tripod needs its card for phase {phase}"
            )
    movers = sorted(in_play, key=BY_ID)
    chosen: dict[str, Action | None] = {}
    for v in movers:
        if v.tripod is not None:
            chosen[v.id] = v.plan.actions[phase - 1] if v.plan is not None else None
    if actions is not None:
        for vid, action in actions.items():
            vehicle = new.vehicles.get(vid)
            if vehicle is None or vehicle.tripod is None or not vehicle.in_play:
                raise IllegalPlanError(f"{vid!r} is not a tripod in play: it has no action tokens")
            if action is not None:
                tripods.check_action(new, vehicle, action, phase)
        chosen.update(actions)
    aims: dict[str, str] = {}
    choosing: set[str] = set()
    if rays and action_tokens.asked(new):
        choosing = {v.id for v in action_tokens.choosers(new, phase)}
    for vid, aim in rays.items():
        if vid in choosing:
            aims[vid] = aim  # the token is chosen in the phase: aimed once it is
            continue
        planned = chosen.get(vid)
        if planned is None or planned.token != "heat_ray":
            raise IllegalPlanError(f"{vid}: no heat-ray this phase to aim at {aim!r}")
        aimed = planned.model_copy(update={"target": aim})
        tripods.check_action(new, new.vehicles[vid], aimed, phase)
        chosen[vid] = aimed
    started: list[Event] = [PhaseStarted(new.turn, phase)]
    return Phase(new, rng, phase, number, started, movers, chosen, set(rays), asking, aims)


def _ray_choice(vehicle: Vehicle, choices: Mapping[str, str]) -> str:
    """A tripod's heat-ray target chosen once it knows who its ruler reaches (000: "Each
    tripod can fire at a single target each round, choosing one if there are several
    possible targets"); firing is mandatory, so 'none' is refused."""
    if set(choices) != {"heat_ray"}:
        raise IllegalPlanError(f"{vehicle.id}: a tripod aims only its 'heat_ray'")
    target = choices["heat_ray"]
    if target == HOLD:
        raise IllegalPlanError(
            f'{vehicle.id}: the heat-ray cannot hold fire (000: "Firing is mandatory.")'
        )
    return target


def _heat_ray_choices(ph: Phase) -> dict[str, list[str]]:
    """After movement: the targets each tripod's committed heat-ray reaches, nearest first."""
    state = ph.state
    table = firing.table_of(state)
    out: dict[str, list[str]] = {}
    scene = RayScene(state, table.overlap, None, table.bases)
    for vid, action in sorted(ph.acts.heat_ray.items()):
        tripod = state.vehicles[vid]
        if not tripod.in_play or tripod.tripod is None or tripod.tripod.toppled:
            continue
        assert action.projector is not None
        opts = scene.options(tripod, Side.parse(action.projector))
        out[vid] = [o.target for o in opts]
    return out


def _check_aimed(ph: Phase) -> None:
    """A target named after movement must be one the ruler reaches: the table knows it
    then (000: "If a target is beyond a tripod's range it cannot be hit")."""
    if not ph.aimed:
        return
    reach = _heat_ray_choices(ph)
    for vid in sorted(ph.aimed):
        action = ph.chosen.get(vid)
        if action is None or vid not in reach:
            continue
        if action.target != AUTO and action.target not in reach[vid]:
            raise IllegalPlanError(
                f"{vid}: {action.target} is not reached by its {action.projector} heat-ray "
                "after movement (000: \"If a target is beyond a tripod's range it cannot be "
                f'hit"); it reaches: {", ".join(reach[vid]) or "nothing"}'
            )


def preview_targets(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    cards: Mapping[str, str] | None = None,
    answers: Answers | None = None,
) -> dict[str, dict[str, list[str]]]:
    """Who each airplane's weapons could fire at after this phase's movement, nearest
    first: what a table asks a player with several targets about before the firing step.
    Nothing is kept; the same generator later resolves the same movement."""
    ph = _begin_phase(state, rng, actions, None, cards, Asking(answers or {}))
    for step in steps.of_phase(ph.state)[0]:
        step(ph)
    result = ph.state
    table = firing.table_of(result)
    out: dict[str, dict[str, list[str]]] = {}
    for vehicle in sorted(result.in_play(), key=lambda v: v.id):
        if vehicle.tripod is not None:
            continue
        for weapon, _ in result.rules.weapons(vehicle.type):
            opts = [
                o.target for o in firing.options(result, table, vehicle, weapon, protection=False)
            ]
            out.setdefault(vehicle.id, {})[weapon] = opts
    for vid, targets in _heat_ray_choices(ph).items():
        out.setdefault(vid, {})["heat_ray"] = targets
    return out


def resolve_phase(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    fire: Mapping[str, Mapping[str, str]] | None = None,
    cards: Mapping[str, str] | None = None,
    stop_before_firing: bool = False,
    answers: Answers | None = None,
) -> tuple[GameState, list[Event]]:
    """Resolve the next action phase of a planned turn.

    ``actions`` are the tripods' action tokens for this phase, chosen in the open at the
    start of the movement step; when None, those written in the plans are used. ``fire``
    overrides this phase's firing choices (vehicle -> weapon -> 'auto', 'none' or a
    target; a tripod's ``heat_ray`` -> 'auto' or a target it reaches), as a table asks a
    player once it knows who can reach whom (:func:`preview_targets`). ``cards`` gives
    this phase's card of each automated tripod (its plan says ``automated``), chosen at
    the start of the movement step (001).
    ``answers`` answers this phase's decisions (:mod:`dogfight.rules.decisions`) by id;
    a decision without an answer takes its default. An answer to a decision no step
    asks is refused with :class:`IllegalPlanError`.
    """
    asking = Asking(answers or {})
    ph = _begin_phase(state, rng, actions, fire, cards, asking)
    movement, firing_steps = steps.of_phase(ph.state)
    for step in movement:
        step(ph)
    _check_aimed(ph)
    if not stop_before_firing:
        for step in firing_steps:
            step(ph)
        asking.check_all_used()
    return ph.state, ph.events


def may_ask(state: GameState, phase: int) -> bool:
    """Whether a step of the action phase ``phase`` could ask a seat a decision: 002's
    reorder after tailing (asked before the second and third maneuvers), a tripod's
    direction at the reveal of its secret action card, a bomber's pick of the cards its
    bombs drew, a Sniper's pick of the two cards it drew, a tripod's action token at the
    start of the phase, guns or rockets in the firing step, a skill used or kept. A
    caller resolving phases for computer players (``simulate``, PettingZoo) replays a
    phase to collect its decisions only when this says it could ask one."""
    if state.rules.switches.tailing and phase <= 2:
        return True
    if any(v.skills for v in state.in_play()):
        return True  # 000's skills are used when the pilot chooses; the Sniper picks a card
    if tripods.secret_action_cards(state):
        return True
    if state.rules.switches.standard_rules and any(v.rockets > 0 for v in state.in_play()):
        return True  # 000: "may fire its machine guns or its rockets" (the firing step)
    if action_tokens.asked(state) and any(
        v.tripod is not None and v.plan is not None and not v.plan.automated
        for v in state.in_play()
    ):
        return True  # each tripod's token (000: "may choose an Action token")
    return bool(state.bomb_cards) or any(v.bombs > 0 for v in state.in_play())


def pending_decisions(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    fire: Mapping[str, Mapping[str, str]] | None = None,
    cards: Mapping[str, str] | None = None,
    answers: Answers | None = None,
) -> list[Decision]:
    """The decisions the next phase waits for, given the answers so far (empty: it can be
    resolved). The phase runs from its start with the answers and stops at the first
    step that asks something unanswered; nothing is kept, and the same generator later
    resolves the same phase (:mod:`dogfight.rules.decisions`)."""
    return resolve_or_ask(state, rng, actions, fire, cards, answers).decisions


@dataclass(frozen=True)
class Outcome:
    """What :func:`resolve_or_ask` found: the decisions the phase waits for, or (none)
    what :func:`resolve_phase` gives with the same inputs — its state and events, or the
    :class:`IllegalPlanError` it raises."""

    decisions: list[Decision]
    resolved: tuple[GameState, list[Event]] | None = None
    refused: IllegalPlanError | None = None

    def result(self) -> tuple[GameState, list[Event]]:
        """The phase resolved (:func:`resolve_phase`'s answer, or its refusal raised)."""
        if self.refused is not None:
            raise self.refused
        assert self.resolved is not None, "the phase waits for decisions"
        return self.resolved


def resolve_or_ask(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    fire: Mapping[str, Mapping[str, str]] | None = None,
    cards: Mapping[str, str] | None = None,
    answers: Answers | None = None,
) -> Outcome:
    """:func:`pending_decisions` and, when it finds none, :func:`resolve_phase` in one
    run of the steps (a server asks whether a phase waits for anyone, then resolves it:
    the same steps, the same generator draws, once). The decisions are those
    :func:`pending_decisions` gives; the resolution is :func:`resolve_phase`'s, which
    checks the targets named in the open once the vehicles have moved."""
    asking = Asking(answers or {}, interactive=True)
    ph = _begin_phase(state, rng, actions, fire, cards, asking)
    movement, firing_steps = steps.of_phase(ph.state)
    refused: IllegalPlanError | None = None
    try:
        for step in movement:
            step(ph)
        try:
            _check_aimed(ph)
        except IllegalPlanError as exc:
            refused = exc  # resolve_phase stops here; pending_decisions goes on
        for step in firing_steps:
            step(ph)
    except Paused as paused:
        return Outcome(paused.decisions)
    asking.check_all_used()
    if refused is not None:
        return Outcome([], refused=refused)
    return Outcome([], resolved=(ph.state, ph.events))


def play_turn(
    state: GameState, plans: Mapping[str, Plan], rng_for: Callable[[int, int], np.random.Generator]
) -> tuple[GameState, list[Event]]:
    """Plan and resolve a whole turn; ``rng_for(turn, phase)`` gives each phase's generator."""
    state, events = start_turn(state, plans)
    while not state.over:
        state, more = resolve_phase(state, rng_for(state.turn, state.phase + 1))
        events.extend(more)
        if state.phase == 0:
            break
    return state, events
