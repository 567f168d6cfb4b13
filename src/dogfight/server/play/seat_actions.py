"""What a seat does to a live game: its plans (and a WW2 airplane's Earthling-turn
plans), its target choices, its answers to engine decisions, auto-fire and handing the
seat to a computer player.

Each action is checked whole against the game as it stands before anything is held:
refused (an :class:`~dogfight.server.errors.ApiError` naming the field) or stored with
every step it lets be resolved (:meth:`LiveGame._store_own`), in one transaction. The
rules of the sequence (which step is next, who is asked what) stay in
:mod:`dogfight.server.play.games`; this module only reads them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from pydantic import ValidationError

from dogfight.errors import DogfightError, UnusedFieldError
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import start_turn
from dogfight.rules.plans import AUTO, Plan
from dogfight.rules.tailing import RULE as TAILING_RULE
from dogfight.server.db.game_rows import plans_text
from dogfight.server.db.records import Answer
from dogfight.server.db.store import Stale
from dogfight.server.errors import ApiError, GameFailed
from dogfight.server.play.crashes import crash_point
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import check_flies, check_makes, kinds_of

P = ParamSpec("P")
R = TypeVar("R")


def fresh_game(
    method: Callable[Concatenate[LiveGame, P], R],
) -> Callable[Concatenate[LiveGame, P], R]:
    """A seat's change made on the game as stored: if another process changed the game
    since it was loaded here (:class:`Stale`, nothing written), catch up and try again
    (checking the request anew)."""

    @functools.wraps(method)
    def fresh(game: LiveGame, /, *args: P.args, **kwargs: P.kwargs) -> R:
        for _ in range(4):
            try:
                return method(game, *args, **kwargs)
            except Stale:
                with game.lock:
                    game.reload()
        raise ApiError(503, "the game is changing too fast here: try again", None)

    return fresh


def _check_last_plans(game: LiveGame, seat_id: str, turn: int, plans: Mapping[str, Plan]) -> None:
    """The turn's last plans: the whole turn must start (kept for :meth:`_resolve`).
    When it does, so would this seat's plans alone (every check of ``start_turn`` is
    of one vehicle's plan): they are checked alone only to name the fault when it
    does not, as for any seat."""
    state = game.state
    merged = {**game._merged_plans(turn), **plans}
    try:
        game._started = (state, merged, start_turn(state, merged))
    except DogfightError:
        game.check_seat_plans(seat_id, plans)
        raise


@fresh_game
def submit_plans(
    game: LiveGame, seat_id: str, turn: int, raw: Mapping[str, Any], phase: int = 0
) -> None:
    """Store a seat's plans for ``turn`` (all its vehicles in play), then advance;
    ``phase`` 2 or 3: its WW2 airplanes' plans of the Earthling turn before that
    action phase (001)."""
    if phase:
        _submit_earthling(game, seat_id, turn, phase, raw)
        return
    with game.lock:
        nxt = game.next_step()
        if nxt is None:
            raise ApiError(409, "the game is over", "turn")
        if nxt != (turn, 0):
            raise ApiError(409, f"turn {turn} is not being planned (now: turn {nxt[0]})", "turn")
        if seat_id in game.plans.get(turn, {}):
            raise ApiError(409, f"seat {seat_id} has already submitted turn {turn}", "plans")
        state = game.state
        mine = sorted(
            v
            for v in game.seat_vehicles(seat_id)
            if v in state.vehicles and state.vehicles[v].in_play
        )
        if not mine:
            raise ApiError(409, "this seat has no vehicle in play", "plans")
        plans = _read_plans(raw, mine, "is not a vehicle of this seat in play")
        last = not [s for s in game._missing_plans(turn) if s != seat_id]
        try:
            if last:
                _check_last_plans(game, seat_id, turn, plans)
            else:
                game.check_seat_plans(seat_id, plans)
        except DogfightError as exc:
            raise ApiError(422, str(exc), _plans_field(exc)) from None
        if last:
            crash_point("before-last-plan")
        game._unsaved.plans.append((turn, seat_id, plans_text(plans)))
        game.plans.setdefault(turn, {})[seat_id] = plans
        game._store_own(f"seat {seat_id} has already submitted turn {turn}", "plans")
        if last:
            crash_point("after-last-plan", game.store)


def _submit_earthling(
    game: LiveGame, seat_id: str, turn: int, phase: int, raw: Mapping[str, Any]
) -> None:
    with game.lock:
        if game.next_step() != (turn, phase):
            raise ApiError(409, f"turn {turn} phase {phase} is not being planned", "phase")
        due = game._earthling_due(turn, phase).get(seat_id)
        if not due:
            raise ApiError(
                409,
                f'this seat plans nothing before phase {phase}: 001: "In the second and '
                "third planning phases, Martian players only choose their actions, while "
                'Earthling players choose one new maneuver card with a speed marker."',
                "plans",
            )
        plans = _read_plans(raw, due, "does not plan now")
        try:
            game.check_seat_plans(seat_id, plans)
        except DogfightError as exc:
            raise ApiError(422, str(exc), _plans_field(exc)) from None
        answer = Answer(plans=plans)
        game._unsaved.answers.append((turn, -phase, seat_id, answer.to_json()))
        game.answers.setdefault((turn, -phase), {})[seat_id] = answer
        game._store_own("this seat has already planned", "plans")


@fresh_game
def submit_answer(
    game: LiveGame, seat_id: str, turn: int, phase: int, fire: Mapping[str, Mapping[str, str]]
) -> None:
    """Store a seat's target choices for the pending phase, then advance."""
    with game.lock:
        if game.next_step() != (turn, phase) or phase == 0:
            raise ApiError(
                409, f"no target choice is pending for turn {turn} phase {phase}", "phase"
            )
        asked, _ = game.questions()
        mine = asked.get(seat_id)
        if not mine:
            raise ApiError(409, "this seat has no target to choose now", "fire")
        if seat_id in game.answers.get((turn, phase), {}):
            raise ApiError(409, "this seat has already chosen its targets", "fire")
        answer: dict[str, dict[str, str]] = {}
        for q in mine:
            choice = fire.get(q.vehicle, {}).get(q.weapon, q.planned)
            if choice not in (*q.options, AUTO, "none", q.planned):
                raise ApiError(
                    422,
                    f"{q.vehicle} {q.weapon}: choose one of {', '.join(q.options)}, "
                    "'auto' or 'none'",
                    f"fire.{q.vehicle}.{q.weapon}",
                )
            answer.setdefault(q.vehicle, {})[q.weapon] = choice
        for vid, choices in fire.items():
            for weapon in choices:
                if not any(q.vehicle == vid and q.weapon == weapon for q in mine):
                    raise ApiError(422, f"no question about {vid} {weapon}", f"fire.{vid}.{weapon}")
        given = Answer(fire=answer)
        game._unsaved.answers.append((turn, phase, seat_id, given.to_json()))
        game.answers.setdefault((turn, phase), {})[seat_id] = given
        game._store_own("this seat has already chosen its targets", "fire")


@fresh_game
def submit_decisions(
    game: LiveGame, seat_id: str, turn: int, phase: int, answers: Mapping[str, list[str]]
) -> None:
    """Store a seat's answers to decisions of the pending phase (a reorder after
    tailing...), then advance. Refused, nothing stored, when the seat has no such
    decision pending or an answer breaks its rule."""
    with game.lock:
        if game.next_step() != (turn, phase) or phase == 0:
            raise ApiError(409, f"no decision is pending for turn {turn} phase {phase}", "phase")
        if not answers:
            raise ApiError(422, "give at least one answer (decision id -> choice)", "answers")
        mine: dict[str, Decision] = {}
        for d in game.pending():
            seat = game._decider(d)
            if seat is not None and seat.id == seat_id:
                mine[d.id] = d
        checked: dict[str, list[str]] = {}
        for did, given in answers.items():
            decision = mine.get(did)
            if decision is None:
                why = (
                    "this seat is not tailing now: only the tailing player reorders ("
                    + TAILING_RULE
                    + ")"
                    if did.startswith("tailing:")
                    else "this seat has no such decision pending"
                )
                raise ApiError(409, f"{did}: {why}", f"answers.{did}")
            try:
                checked[did] = list(decision.check(given))
            except DogfightError as exc:
                raise ApiError(422, str(exc), f"answers.{did}") from None
        game._unsaved.decisions.append((turn, phase, seat_id, checked))
        game.decided.setdefault((turn, phase), {}).update({k: tuple(v) for k, v in checked.items()})
        game._questions.pop((turn, phase), None)
        game._store_own("this decision was already answered", "answers")


@fresh_game
def set_auto_fire(game: LiveGame, seat_id: str, auto_fire: bool) -> None:
    with game.lock:
        game.store.update_seat(game.id, seat_id, game.revision, auto_fire=auto_fire)
        game.revision += 1
        game.seats[seat_id].auto_fire = auto_fire
        game._questions.clear()
        game.version += 1
        _advance_stored(game)


@fresh_game
def set_bot(game: LiveGame, seat_id: str, bot: str | None) -> None:
    """Hand the seat to a computer player (or back to a person with None)."""
    with game.lock:
        if bot is not None:
            seat = game.seats[seat_id]
            check_makes(bot, seat.label, "bot")
            vids = {*seat.vehicles, *game.seat_vehicles(seat_id)}
            check_flies(bot, seat.label, kinds_of(game.initial, vids), "bot")
        game.store.update_seat(game.id, seat_id, game.revision, bot=bot)
        game.revision += 1
        game.seats[seat_id].bot = bot
        game._bots.pop(seat_id, None)
        game._questions.clear()
        game.version += 1
        _advance_stored(game)


def _advance_stored(game: LiveGame) -> None:
    """Advance after a seat's setting was stored on its own: if a step it let be
    resolved fails, the request is told its change was stored (202, as a stored input's:
    ``GameFailed.stored``)."""
    try:
        game.advance()
    except GameFailed as exc:
        raise GameFailed(exc.failure, stored=True) from None


def _plans_field(exc: DogfightError) -> str:
    """The field a refused plan names: the vehicle's field it does not use
    (``plans.camel.speeds``), else the plans as a whole."""
    if isinstance(exc, UnusedFieldError):
        return f"plans.{exc.vehicle}.{exc.field}"
    return "plans"


def _read_plans(raw: Mapping[str, Any], wanted: Sequence[str], stranger: str) -> dict[str, Plan]:
    """A plan for each of ``wanted`` from a request's ``plans``: 422 for a vehicle not
    wanted (``stranger`` says why), a missing plan, or a plan that is not one."""
    for vid in raw:
        if vid not in wanted:
            raise ApiError(422, f"{vid!r} {stranger}; plan: {', '.join(wanted)}", f"plans.{vid}")
    plans: dict[str, Plan] = {}
    for vid in wanted:
        if vid not in raw:
            raise ApiError(422, f"missing the plan of {vid}", f"plans.{vid}")
        try:
            plans[vid] = Plan.model_validate(raw[vid])
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ApiError(
                422, f"{first['msg']}", f"plans.{vid}" + (f".{where}" if where else "")
            ) from None
    return plans
