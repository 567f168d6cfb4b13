"""Computer players at a live game: their plans, Earthling-turn plans, phase inputs and
answers to decisions, each within the bot budget; a bot that fails or runs over is
replaced by a random legal plan or the default, so the referee never stalls on a bot."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from dogfight.bots.base import explanation
from dogfight.bots.decide import decide
from dogfight.errors import DogfightError
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import resolve_phase
from dogfight.rules.observation import observe
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState
from dogfight.server.db.game_rows import Batch
from dogfight.server.db.records import Answer, Question, Seat
from dogfight.server.play.workers import OverBudget, within_budget


class LiveGame(Protocol):
    """What a computer seat needs of a live game (:class:`dogfight.server.play.games.LiveGame`
    is one): its seats and inputs, and the checks the people's inputs get too."""

    seats: dict[str, Seat]
    seed: int
    budget: float
    answers: dict[tuple[int, int], dict[str, Answer]]
    decided: dict[tuple[int, int], dict[str, tuple[str, ...]]]
    _bots: dict[str, Any]
    _bots_acted: bool
    _unsaved: Batch
    _questions: dict[tuple[int, int], tuple[dict[str, list[Question]], Any]]

    @property
    def state(self) -> GameState: ...

    def seat_vehicles(self, seat_id: str, state: GameState | None = None) -> frozenset[str]: ...

    def check_seat_plans(self, seat_id: str, plans: Mapping[str, Plan]) -> None: ...

    def pending(self) -> list[Decision]: ...

    def _decider(self, decision: Decision) -> Seat | None: ...

    def _earthling_due(self, turn: int, phase: int) -> dict[str, list[str]]: ...

    def _trial(self, turn: int, phase: int) -> GameState: ...


def seat_bot(game: LiveGame, seat: Seat) -> Any:
    from dogfight.bots.base import make

    assert seat.bot is not None
    bot = game._bots.get(seat.id)
    if bot is None or getattr(bot, "name", seat.bot) != seat.bot:
        bot = make(seat.bot)
        game._bots[seat.id] = bot
    return bot


def bot_rng(game: LiveGame, seat: Seat, turn: int, phase: int) -> np.random.Generator:
    """A computer seat's generator for a step. ``phase`` is negative for a WW2 airplane's
    Earthling plan before that phase (001): written as its 32-bit two's complement, as
    ``SeedSequence`` takes no negative number (it raised, and the game failed)."""
    return np.random.Generator(
        np.random.PCG64(
            np.random.SeedSequence([game.seed, turn, phase % 2**32, 1000 + seat.position])
        )
    )


def bot_plans(game: LiveGame, seat: Seat, turn: int) -> dict[str, Plan]:
    """A computer player's plans; a plan it gets wrong is replaced by a random legal
    one (the referee never stalls on a bot). Why it chose them, when it says
    (:func:`~dogfight.bots.base.explanation`), is stored as the seat's answer of phase
    0, logged once the turn is over."""
    from dogfight.bots.random_plans import random_legal_plan, random_tripod_plan

    state = game.state
    vids = game.seat_vehicles(seat.id)
    playing = sorted(v for v in vids if state.vehicles.get(v) and state.vehicles[v].in_play)
    rng = bot_rng(game, seat, turn, 0)
    plans: dict[str, Plan] = {}
    bot = seat_bot(game, seat)
    try:
        got = within_budget(
            lambda: bot.plan_turn(observe(state, vids), state.rules, vids, rng), game.budget
        )
        plans = {vid: got[vid] for vid in playing}
        game.check_seat_plans(seat.id, plans)
    except Exception as exc:  # a computer player's bug never stops the game
        if isinstance(exc, OverBudget):
            game._bots.pop(seat.id, None)  # it may still be thinking: a fresh one next
            rng = bot_rng(game, seat, turn, 0)
        plans = {}
        for vid in playing:
            vehicle = state.vehicles[vid]
            make_plan = random_tripod_plan if vehicle.tripod is not None else random_legal_plan
            plans[vid] = make_plan(state, vid, rng)
        return plans
    why = explanation(bot, plans)
    if why:
        answer = Answer(why=why, bot=seat.bot)
        game._unsaved.answers.append((turn, 0, seat.id, answer.to_json()))
        game.answers.setdefault((turn, 0), {})[seat.id] = answer
    return plans


def bot_earthling_plans(game: LiveGame, turn: int, phase: int) -> None:
    """Computer seats plan their WW2 airplanes' Earthling turn (001); a plan the
    engine refuses is replaced by a random legal one."""
    from dogfight.bots.random_plans import random_ww2_plan

    due = game._earthling_due(turn, phase)
    state = game.state
    for seat_id, vids in sorted(due.items()):
        seat = game.seats[seat_id]
        if not seat.bot:
            continue
        seen = game.seat_vehicles(seat_id)
        rng = bot_rng(game, seat, turn, -phase)
        try:
            got = seat_bot(game, seat).plan_turn(observe(state, seen), state.rules, seen, rng)
            plans = {vid: got[vid] for vid in vids}
            game.check_seat_plans(seat_id, plans)
        except Exception:  # a computer player's bug never stops the game
            plans = {vid: random_ww2_plan(state, vid, rng) for vid in vids}
        answer = Answer(plans=plans)
        game._unsaved.answers.append((turn, -phase, seat_id, answer.to_json()))
        game.answers.setdefault((turn, -phase), {})[seat_id] = answer
        game._bots_acted = True


def bot_phase_inputs(game: LiveGame, turn: int, phase: int) -> None:
    """Computer seats with tripods in play give their action tokens (and automated
    tripods' cards) for the phase; stored like any answer."""
    state = game.state
    given = game.answers.get((turn, phase), {})
    for seat in sorted(game.seats.values(), key=lambda s: s.position):
        if not seat.bot or seat.id in given:
            continue
        vids = game.seat_vehicles(seat.id)
        if not any(
            state.vehicles[v].tripod is not None and state.vehicles[v].in_play
            for v in vids
            if v in state.vehicles
        ):
            continue
        answer = Answer()
        bot = seat_bot(game, seat)

        def think(bot: Any = bot, vids: frozenset[str] = vids, seat: Seat = seat) -> Any:
            actions, cards = bot.phase_actions(
                observe(state, vids), state.rules, vids, phase, bot_rng(game, seat, turn, phase)
            )
            # Bots that explain themselves (the Automated Tripod) keep their
            # decisions, each able to give its TripodDecision event.
            decided = getattr(bot, "last_decisions", [])
            return actions, cards, [d.event().to_json() for d in decided]

        try:
            actions, cards, logged = within_budget(think, game.budget)
            answer = Answer(actions=dict(actions), cards=dict(cards), decisions=logged)
            resolve_phase(
                game._trial(turn, phase),
                step_rng(game.seed, turn, phase),
                answer.actions or None,
                cards=answer.cards or None,
                stop_before_firing=True,
            )
        except Exception as exc:  # a computer player's bug never stops the game
            if isinstance(exc, OverBudget):
                game._bots.pop(seat.id, None)
            answer = Answer()
        game._unsaved.answers.append((turn, phase, seat.id, answer.to_json()))
        game.answers.setdefault((turn, phase), {})[seat.id] = answer
        game._questions.pop((turn, phase), None)


def bot_decisions(game: LiveGame, turn: int, phase: int) -> None:
    """Computer seats (and vehicles no seat plays) answer the phase's decisions, until
    only people's are left; an answer a bot gets wrong is replaced by the default."""
    for _ in range(12):
        pend = game.pending()
        by_seat: dict[str | None, list[Decision]] = {}
        for d in pend:
            seat = game._decider(d)
            if seat is None or seat.bot:
                by_seat.setdefault(None if seat is None else seat.id, []).append(d)
        if not by_seat:
            return
        for seat_id, decisions in sorted(by_seat.items(), key=lambda kv: kv[0] or ""):
            state = game.state
            got: dict[str, tuple[str, ...]] = {}
            if seat_id is not None:
                seat = game.seats[seat_id]
                vids = game.seat_vehicles(seat_id)
                bot, seen = seat_bot(game, seat), observe(state, vids, decisions)
                rng = bot_rng(game, seat, turn, phase)
                try:
                    got = within_budget(
                        functools.partial(decide, bot, seen, state.rules, vids, decisions, rng),
                        game.budget,
                    )
                except (
                    DogfightError,
                    KeyError,
                    TypeError,
                    AttributeError,
                    ValueError,
                    OverBudget,
                ) as exc:
                    if isinstance(exc, OverBudget):
                        game._bots.pop(seat.id, None)
                    got = {}  # the defaults
            answers = {d.id: list(got.get(d.id, d.default)) for d in decisions}
            game._unsaved.decisions.append((turn, phase, seat_id or "-", answers))
            game.decided.setdefault((turn, phase), {}).update(
                {k: tuple(v) for k, v in answers.items()}
            )
            game._questions.pop((turn, phase), None)
