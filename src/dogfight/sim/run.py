"""Whole games between bots, one bot per side, for any situation or scenario.

Each turn every side's bot plans from its own seat's observation
(``bot.plan_turn(observe(state, seat), state.rules, seat, rng)``); at the start of each
movement step a side with a tripod in play may place its tripods' action tokens
(``phase_actions``, asked of no other side, as the server asks it); the engine
resolves each phase with :func:`dogfight.rules.chance.step_rng`. A game's chance comes
from one :class:`numpy.random.SeedSequence`: its integer seed shuffles the decks and
drives the engine, and one child sequence per side feeds that side's bot, so a game
replays exactly whatever else runs beside it.

When the engine refuses a bot's plan (a bot cannot see everything that restricts its
plans, see :mod:`dogfight.bots.view`), the referee replaces that vehicle's plan with a
legal one and counts it in :attr:`GameResult.refused`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from dogfight.bots.base import Bot, make
from dogfight.bots.decide import decide
from dogfight.catalog.loader import Catalog
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.engine import may_ask, pending_decisions, resolve_phase, start_turn
from dogfight.rules.events import DamageDrawn, Eliminated, Event, TurnStarted
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.victory import scores
from dogfight.situation.format import Situation, build
from dogfight.situation.scenarios import scenario_situation

MAX_TURNS = 30


@dataclass(frozen=True)
class GameResult:
    """One finished (or turn-capped) game, as plain data."""

    index: int
    seed: int
    """The game's integer seed (decks and engine chance)."""
    winner: str | None
    over: bool
    """False when the turn cap stopped the game."""
    turns: int
    phases: int
    damage: dict[str, int] = field(default_factory=dict)
    """Damage points by source (``"<vehicle> <weapon>"``, ``"fire"``...)."""
    eliminated: dict[str, str] = field(default_factory=dict)
    """vehicle -> why it left the game."""
    refused: int = 0
    """Plans or action tokens the engine refused and the referee replaced."""
    stopped: str | None = None
    """Why the game had to stop early: no legal plan exists for some vehicle (the
    engine's message), else None."""
    points: dict[str, int] = field(default_factory=dict)
    """Match points per side (002's match scoring as the ruleset's ``match_scoring``
    switch gives it, missions included); a game stopped unfinished scores as it stands."""
    missions: dict[str, str] = field(default_factory=dict)
    """mission id -> the airplane that accomplished it (002's bombing and photographs)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(**data)


def game_seeds(seed: int, games: int) -> list[np.random.SeedSequence]:
    """One child sequence per game, spawned from the run's seed."""
    return np.random.SeedSequence(seed).spawn(games)


def _int_seed(sequence: np.random.SeedSequence) -> int:
    return int(sequence.generate_state(1, dtype=np.uint32)[0])


def _bot_rng(sequence: np.random.SeedSequence, k: int) -> np.random.Generator:
    child = np.random.SeedSequence(sequence.entropy, spawn_key=(*sequence.spawn_key, k))
    return np.random.Generator(np.random.PCG64(child))


# --- one game ------------------------------------------------------------------------------------


def sides_of(state: GameState) -> list[str]:
    sides = set(state.sides()) | {v.side for v in state.reserves.values()}
    if state.scenario is not None:
        sides |= {s.name for s in state.scenario.sides}
    return sorted(sides)


def _legal_replacement(state: GameState, vid: str) -> Plan:
    """The referee's stand-in for a refused plan: the first legal plan (it sees the
    whole state, including what restricts the vehicle's plans)."""
    from dogfight.bots.threats import best_tier
    from dogfight.bots.tripod_moves import tripod_sequences
    from dogfight.bots.view import airplane_sequences, card_table, fly

    vehicle = state.vehicles[vid]
    rules = state.rules
    if vehicle.clock == ONE_PHASE:
        from dogfight.bots.ww2_airplanes import random_ww2_plan

        return random_ww2_plan(state, vehicle, np.random.default_rng(0))
    if vehicle.tripod is not None:
        deck = rules.tripod_deck_of(vehicle.type)
        seqs, _ = tripod_sequences(state, vehicle)
        return Plan(cards=tuple(deck.cards[int(i)].id for i in seqs[0]))
    deck_a = rules.deck_of(vehicle.type)
    seqs = airplane_sequences(state, vehicle)
    flights = fly(vehicle.pose, card_table(deck_a), seqs, rules.base_length)
    row = seqs[int(np.flatnonzero(best_tier(rules, flights))[0])]
    return Plan(cards=tuple(deck_a.cards[int(i)].id for i in row))


def start_refereed(state: GameState, plans: dict[str, Plan]) -> tuple[GameState, list[Event], int]:
    """Start the turn; a refused plan is replaced by a legal one (counted)."""
    refused = 0
    for _ in range(len(plans) + 2):
        try:
            new, events = start_turn(state, plans)
            return new, events, refused
        except IllegalPlanError as exc:
            culprit = str(exc).split(":", 1)[0]
            if culprit not in plans or refused > len(plans):
                raise
            plans = {**plans, culprit: _legal_replacement(state, culprit)}
            refused += 1
    raise IllegalPlanError("no legal plans could be found")


def play_game(
    situation: Situation,
    catalog: Catalog,
    bots: Mapping[str, str],
    sequence: np.random.SeedSequence,
    index: int = 0,
    max_turns: int = MAX_TURNS,
    events_out: list[Event] | None = None,
    made: Mapping[str, Bot] | None = None,
) -> GameResult:
    """Play one game between bots (``side -> bot name``; sides not named play ``hard``
    airplanes or the ``martian`` tripods; ``made``: sides whose bot is given, made for
    this game, e.g. the learned bot with weights in training)."""
    seed = _int_seed(sequence)
    state = build(situation, catalog, seed)
    sides = sides_of(state)
    players: dict[str, Bot] = {}
    rngs: dict[str, np.random.Generator] = {}
    for k, side in enumerate(sides):
        given = (made or {}).get(side)
        players[side] = given or make(bots.get(side) or default_bot(state, side))
        rngs[side] = _bot_rng(sequence, k)
    events: list[Event] = []
    refused = 0
    stopped: str | None = None
    seats: dict[str, frozenset[str]] = {}
    tripods: dict[str, list[str]] = {}
    seated = 0
    between = False
    while not state.over and state.turn <= max_turns and stopped is None:
        while not state.over:
            if len(state.vehicles) != seated:
                # vehicles only ever join the table (reinforcements): the seats change then
                seated = len(state.vehicles)
                seats = {side: side_seat(state, side) for side in sides}
                tripods = {
                    side: found
                    for side, seat in seats.items()
                    if (found := [v for v in sorted(seat) if state.vehicles[v].tripod is not None])
                }
                # only WW2 airplanes plan between the action phases of a turn (001)
                between = any(v.clock == ONE_PHASE for v in state.vehicles.values())
            if state.phase == 0 or (between and state.awaiting_plans()):
                # a planning phase: before a turn every vehicle, before the second and third
                # action phases of a Martian turn the WW2 airplanes (001)
                due = set(state.planning_due())
                plans: dict[str, Plan] = {}
                for side in sides:
                    seat = seats[side]
                    if not due & seat:
                        continue
                    proposed = players[side].plan_turn(
                        observe(state, seat), state.rules, seat, rngs[side]
                    )
                    plans.update({v: p for v, p in proposed.items() if v in seat and v in due})
                try:
                    state, more, bad = start_refereed(state, plans)
                except IllegalPlanError as exc:
                    # no legal plan for some vehicle (since ruling SR10 a damaged tripod
                    # has one; kept for rules a user's data or switches may make)
                    stopped = str(exc)
                    break
                refused += bad
                events.extend(more)
            phase = state.phase + 1
            actions: dict[str, Action | None] = {}
            cards: dict[str, str] = {}
            # only tripods take action tokens or play cards at a movement step (the server
            # asks the same seats): other seats are not shown the table here
            for side, own in tripods.items():
                seat = seats[side]
                if not any(state.vehicles[v].in_play for v in own):
                    continue
                acts, drawn = players[side].phase_actions(
                    observe(state, seat), state.rules, seat, phase, rngs[side]
                )
                actions.update({v: a for v, a in acts.items() if v in seat})
                cards.update({v: c for v, c in drawn.items() if v in seat})
            rng_seed = step_rng(seed, state.turn, phase)
            answers: dict[str, tuple[str, ...]] = {}
            if may_ask(state, phase):
                try:
                    answers = _decisions(state, phase, seed, actions, cards, players, sides, rngs)
                except IllegalPlanError:
                    answers = {}
            try:
                state, more = resolve_phase(
                    state, rng_seed, actions or None, cards=cards or None, answers=answers
                )
            except IllegalPlanError:
                if not actions:
                    raise
                refused += 1
                state, more = resolve_phase(
                    state, step_rng(seed, state.turn, phase), None, cards=cards or None
                )
            events.extend(more)
            if state.phase == 0:
                break
    if events_out is not None:
        events_out.extend(events)
    return summarize_game(index, seed, state, events, refused, stopped)


def _decisions(
    state: GameState,
    phase: int,
    seed: int,
    actions: dict[str, Action | None],
    cards: dict[str, str],
    players: Mapping[str, Bot],
    sides: list[str],
    rngs: Mapping[str, np.random.Generator],
) -> dict[str, tuple[str, ...]]:
    """The bots answer the phase's engine decisions (a reorder after tailing, a tripod's
    direction at the reveal, a bomber's pick); the caller asks only when a rule could make
    one (:func:`~dogfight.rules.engine.may_ask`), so other games cost nothing more."""
    answers: dict[str, tuple[str, ...]] = {}
    for _ in range(6):
        pending = pending_decisions(
            state,
            step_rng(seed, state.turn, phase),
            actions or None,
            cards=cards or None,
            answers=answers,
        )
        if not pending:
            break
        for side in sides:
            seat = side_seat(state, side)
            theirs = [d for d in pending if d.vehicle in seat]
            if theirs:
                answers.update(
                    decide(
                        players[side],
                        observe(state, seat, theirs),
                        state.rules,
                        seat,
                        theirs,
                        rngs[side],
                    )
                )
        answers.update({d.id: d.default for d in pending if d.id not in answers})
    return answers


def default_bot(state: GameState, side: str) -> str:
    """``automated-tripod`` for a side whose tripods the scenario automates (001's solo
    play), ``martian`` for another side with tripods, else ``hard``."""
    from dogfight.bots import load_all
    from dogfight.bots.base import REGISTRY

    load_all()
    vehicles = [*state.vehicles.values(), *state.reserves.values()]
    if not any(v.side == side and v.tripod is not None for v in vehicles):
        return "hard"
    if state.scenario is not None and "automated-tripod" in REGISTRY:
        automated = {v.id for v in state.scenario.vehicles if getattr(v, "automated", False)}
        if any(v.side == side and v.id in automated for v in vehicles):
            return "automated-tripod"
    return "martian"


def summarize_game(
    index: int,
    seed: int,
    state: GameState,
    events: list[Event],
    refused: int,
    stopped: str | None = None,
) -> GameResult:
    damage: dict[str, int] = {}
    eliminated: dict[str, str] = {}
    turns = 0
    for event in events:
        if isinstance(event, DamageDrawn):
            damage[event.source] = damage.get(event.source, 0) + event.points
        elif isinstance(event, Eliminated):
            eliminated[event.vehicle] = event.reason
        elif isinstance(event, TurnStarted):
            turns += 1
    return GameResult(
        index=index,
        seed=seed,
        winner=state.winner,
        over=state.over,
        turns=turns,
        phases=state.phases_played,
        damage=dict(sorted(damage.items())),
        eliminated=dict(sorted(eliminated.items())),
        refused=refused,
        stopped=stopped,
        points=scores(state),
        missions={m: t.done_by for m, t in sorted(state.targets.items()) if t.done_by},
    )


def play_games(
    situation: Situation,
    catalog: Catalog,
    bots: Mapping[str, str],
    seed: int,
    indices: list[int],
    games: int,
    max_turns: int = MAX_TURNS,
    vary: bool = False,
) -> list[GameResult]:
    """Games ``indices`` of a run of ``games`` seeded by ``seed`` (each game's seed is
    the same whichever process plays it). With ``vary`` (a scenario without a situation
    file), each game's setup is redrawn from its own seed."""
    seeds = game_seeds(seed, games)
    out: list[GameResult] = []
    for i in indices:
        sit = situation
        if vary and situation.scenario is not None:
            setup = np.random.Generator(np.random.PCG64(setup_sequence(seeds[i])))
            sit = scenario_situation(catalog, situation.scenario, setup)
        out.append(play_game(sit, catalog, bots, seeds[i], i, max_turns))
    return out


def setup_sequence(sequence: np.random.SeedSequence) -> np.random.SeedSequence:
    return np.random.SeedSequence(sequence.entropy, spawn_key=(*sequence.spawn_key, 99))
