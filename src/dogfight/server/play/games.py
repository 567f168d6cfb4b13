"""Games on the pure rules core: seats, plans, phase answers, resolution and what each
seat may see.

A :class:`LiveGame` is rebuilt from its stored record by replaying every step through
the engine (the same inputs and ``step_rng(seed, turn, phase)`` give the same events), so
a server killed at any moment resumes exactly. :meth:`LiveGame.advance` resolves every
step whose inputs are all in, commits the new steps in one transaction, and stops where a
seat must act: plan the next turn, or choose a target when a weapon has several.

Everything sent to a seat goes through :func:`dogfight.server.play.views.seat_view` (or
``replay``), built from :func:`dogfight.rules.observation.observe` and
``visible_events`` for that seat's vehicles only: the seed, other seats' plans and damage
never leave the server any other way. A person's seat acts through
:mod:`dogfight.server.play.seat_actions`, computer seats through
:mod:`dogfight.server.play.computer_seats`; :mod:`dogfight.server.play.service` holds every game.
Who is who (a seat by its token, the vehicles each seat plays) is answered by its base,
:class:`dogfight.server.play.game_seats.GameSeats`.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from dogfight.bots.base import why_events
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import (
    Outcome,
    check_plans,
    preview_targets,
    resolve_or_ask,
    resolve_phase,
    start_turn,
)
from dogfight.rules.events import Event, TripodDecision
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.server.db import status
from dogfight.server.db.game_rows import Batch, GameRecord, plans_text
from dogfight.server.db.records import Answer, Question, Seat, Step
from dogfight.server.db.status import Failure
from dogfight.server.db.store import Conflict, Stale, Store
from dogfight.server.errors import ApiError, GameFailed, StepError
from dogfight.server.play import computer_seats
from dogfight.server.play.crashes import CRASH_AT, crash_point
from dogfight.server.play.game_seats import GameSeats
from dogfight.server.play.viewcache import ViewCache
from dogfight.server.play.workers import bot_budget
from dogfight.situation.format import build, parse_situation

_NONE: Mapping[Any, Any] = MappingProxyType({})
"""No inputs (read only: shared by every look-up)."""

LIGHT_VEHICLES = 4
"""Vehicles in a game whose work runs on the event loop (a duel, two against two)."""

R = TypeVar("R")


class LiveGame(GameSeats):
    """One game in memory: its seats, inputs and the states after every step."""

    def __init__(
        self,
        record: GameRecord,
        catalog: Catalog,
        store: Store,
        budget: float | None = None,
        analysis: bool | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.lock = threading.RLock()
        self.version = 0
        self.budget = bot_budget() if budget is None else budget
        """Seconds a computer player may think per step (then its random fallback)."""
        self._bots: dict[str, Any] = {}
        self._unsaved = Batch()
        self._bots_acted = False
        self._heavy = False
        if analysis is None:
            flags = record.flags
            analysis = status.is_analysis(store, record.id) if flags is None else flags[0]
        self.analysis = analysis
        """An open analysis game: its creator chose the seed, which is public."""
        self._load(record)

    # --- loading ---------------------------------------------------------------------

    def _load(self, record: GameRecord, catch_up: bool = False) -> None:
        """Rebuild the game from its record (``catch_up``: only resolve the steps stored
        after the ones held); :class:`StepError` names the step whose stored input or
        replay the engine refused."""
        self.failure: Failure | None = None
        self._forget_seats()
        self._due_of: tuple[Any, list[str]] = (None, [])
        self._next_of: tuple[Any, tuple[int, int] | None] = (None, None)
        self.view_cache = ViewCache()
        """The seats' views, built once per version (:mod:`dogfight.server.play.views`)."""
        self._at = (0, 0)
        self._refused(self._take if catch_up else self._replay, record)
        self.marks = record.marks
        """How far the game's rows were read (:meth:`reload` reads only newer ones)."""
        self._unstored = False
        """Whether memory may hold what a failed commit did not store (inputs, steps):
        then the next :meth:`reload` reads the whole game."""

    def _refused(self, work: Callable[[GameRecord], R], record: GameRecord) -> R:
        """``work(record)``; :class:`StepError` for the step (``self._at``) whose stored
        input or resolution the engine refused."""
        try:
            return work(record)
        except StepError:
            raise
        except SQLAlchemyError:
            raise
        except Exception as exc:
            raise StepError(*self._at, exc) from exc

    def _replay(self, record: GameRecord) -> None:
        self.id = record.id
        self.title = record.title
        self.created = record.created
        self.seed = record.seed
        self.setup = record.setup
        self.initial = build(parse_situation(record.setup, "setup"), self.catalog, record.seed)
        self.steps: list[Step] = []
        self.state: GameState = self.initial
        """Where the game stands: the state after the last step (the initial state before
        any), kept with the steps (:meth:`_add_step`): read a hundred times a turn."""
        self.diverged: list[tuple[int, int]] = []
        self._take(record)

    def _take(self, record: GameRecord) -> None:
        """Take the record's seats and inputs, and resolve the stored steps after the
        ones held (they must be a prefix of the stored ones)."""
        self.revision = record.revision
        self.seats: dict[str, Seat] = _seats_of(record)
        self.plans: dict[int, dict[str, dict[str, Plan]]] = {}
        self.answers: dict[tuple[int, int], dict[str, Answer]] = {}
        self.decided: dict[tuple[int, int], dict[str, tuple[str, ...]]] = {}
        self._take_inputs(record)
        self._resolve_stored(record.steps[len(self.steps) :])

    def _take_inputs(self, record: GameRecord) -> None:
        """Take the record's plans, answers and decisions not held yet (one of a seat
        for a turn or phase, one per decision: a row held is the same row, read again);
        the caches of the pending phase are dropped."""
        for turn, seat, plans in record.plans:
            given = self.plans.setdefault(turn, {})
            if seat not in given:
                self._at = (turn, 0)
                given[seat] = {vid: Plan.model_validate(p) for vid, p in plans.items()}
        for turn, phase, seat, answer in record.answers:
            answers = self.answers.setdefault((turn, phase), {})
            if seat not in answers:
                self._at = (turn, phase)
                answers[seat] = Answer.from_json(answer)
        for turn, phase, _seat, decision, chosen in record.decisions:
            decided = self.decided.setdefault((turn, phase), {})
            if decision not in decided:
                decided[decision] = tuple(chosen)
        self._pending: tuple[tuple[int, int], tuple[Any, ...], GameState, Outcome] | None
        self._pending = None
        """The last action phase run by :meth:`_outcome`: (turn, phase), its inputs, the
        state it was run from and what it gave."""
        self._started: tuple[GameState, dict[str, Plan], tuple[GameState, list[Event]]] | None
        self._started = None
        """A turn's start worked out when its last plan was checked (from that state,
        with those plans), taken by :meth:`_resolve` instead of starting it again."""
        self._questions: dict[tuple[int, int], tuple[dict[str, list[Question]], Any]] = {}
        self._at = (0, 0)

    def _resolve_stored(self, stored_steps: Sequence[tuple[int, int, list[Any] | str]]) -> None:
        """Resolve here the stored steps that follow the ones held, in order, and
        compare each step's events with those stored (a JSON list, or its text: parsed
        here, not by the driver). Comparing the texts instead would need every event's
        text, which the pages need only for the events a seat may see."""
        for turn, phase, stored in stored_steps:
            self._at = (turn, phase)
            expected = self.next_step()
            if expected != (turn, phase):
                raise RuntimeError(
                    f"game {self.id}: stored step {(turn, phase)} where {expected} was due"
                )
            new, events = self._resolve(turn, phase)
            step = Step(turn, phase, events, new)
            if step.encode() != (json.loads(stored) if isinstance(stored, str) else stored):
                # a different engine version: the replayed state is used, the stored log
                # is what was seen; `dogfight export` names the step
                self.diverged.append((turn, phase))
            self._add_step(step)

    def _merge(self, record: GameRecord, seats_read: bool = True) -> bool:
        """Take the rows stored since those read (``Store.load_since``, or a
        notification's: ``seats_read`` False, the seats are not in it): the new seats'
        settings and inputs, and the new steps, resolved here. False, nothing taken, when
        the new steps do not follow the ones held."""
        held = {(s.turn, s.phase) for s in self.steps}
        steps = [row for row in record.steps if (row[0], row[1]) not in held]
        if steps and (steps[0][0], steps[0][1]) != self.next_step():
            return False
        self._at = (0, 0)
        seats = _seats_of(record) if seats_read else self.seats
        if seats != self.seats:
            self.seats = seats
        self.revision = record.revision
        self._take_inputs(record)
        self._resolve_stored(steps)
        self.marks = record.marks
        return True

    def reload(self, full: bool = False, notice: tuple[int, str] | None = None) -> None:
        """Catch up with the database (another process wrote to the game): the rows
        stored since those read, and the new steps resolved here. ``notice``: the
        revision a notification announced and the rows it carried (``Store.noticed``);
        when that revision is the next one here, they are the rows stored since those
        held and nothing is read. The whole game is read again with ``full``, when
        memory may hold what was not stored (a commit that failed or lost to another
        process's: the inputs in it, its steps), or when the game failed here."""
        if not (full or self._unstored or self._unsaved or self.failure is not None):
            delta = None
            if notice is not None and notice[0] == self.revision + 1:
                delta = self.store.noticed(self.id, notice[0], notice[1], self.marks)
            seats_read = delta is None
            if delta is None:
                delta = self.store.load_since(self.id, self.marks)
            if delta is None:
                raise ApiError(404, f"no game {self.id!r}", "game_id")
            try:
                merged = self._refused(lambda record: self._merge(record, seats_read), delta)
            except StepError as exc:
                self.fail(exc.turn, exc.phase, exc.cause)
            if merged:
                self.version += 1
                return
        record = self.store.load(self.id)
        if record is None:
            raise ApiError(404, f"no game {self.id!r}", "game_id")
        held = [(s.turn, s.phase) for s in self.steps]
        catch_up = [(t, p) for t, p, _ in record.steps[: len(held)]] == held
        try:
            self._load(record, catch_up)
        except StepError as exc:
            self.fail(exc.turn, exc.phase, exc.cause)
        self.version += 1

    def fail(self, turn: int, phase: int, cause: BaseException, stored: bool = False) -> NoReturn:
        """Mark the game failed at (turn, phase) and refuse the request (409); ``stored``:
        the request's own input was committed with the steps before (202, it says so)."""
        self.failure = status.mark_failed(self.store, self.id, turn, phase, cause)
        self.version += 1
        raise GameFailed(self.failure, stored)

    @property
    def unsaved(self) -> bool:
        """Whether the game holds inputs (computer players', a person's being stored)
        not written yet: it may not leave memory (:mod:`dogfight.server.play.service`)."""
        return bool(self._unsaved)

    @property
    def light(self) -> bool:
        """Whether the game's work is cheap enough to run on the event loop
        (:mod:`dogfight.server.play.workers`): people only (a computer player thinks for up
        to its budget), at most :data:`LIGHT_VEHICLES` vehicles, a database in a local
        file (a round trip to PostgreSQL would hold up the loop: there the threads wait
        for it), and no piece of its work ever took too long."""
        return (
            not self._heavy
            and not self.store.notifies  # SQLite: no round trip to a database server
            and len(self.initial.vehicles) + len(self.initial.reserves) <= LIGHT_VEHICLES
            and not any(s.bot for s in self.seats.values())
        )

    @light.setter
    def light(self, value: bool) -> None:
        self._heavy = not value

    def _add_step(self, step: Step) -> None:
        """A step resolved here follows the others: the game stands at its state."""
        self.steps.append(step)
        self.state = step.state

    # --- the sequence of steps -------------------------------------------------------

    def next_step(self) -> tuple[int, int] | None:
        """(turn, phase) of the next step to resolve: phase 0 starts a turn. Worked out
        once per state (asked a score of times a turn, by the game and by every view): it
        follows from the state and from the last step, the one that led to it."""
        state = self.state
        known = self._next_of
        if known[0] is state:
            return known[1]
        nxt: tuple[int, int] | None
        if state.over:
            nxt = None
        elif state.phase == 0:
            last = self.steps[-1] if self.steps else None
            started = last is not None and (last.turn, last.phase) == (state.turn, 0)
            nxt = (state.turn, 1 if started else 0)
        else:
            nxt = (state.turn, state.phase + 1)
        self._next_of = (state, nxt)
        return nxt

    def _merged_plans(self, turn: int) -> dict[str, Plan]:
        state = self.state
        return {
            vid: plan
            for seat_plans in self.plans.get(turn, {}).values()
            for vid, plan in seat_plans.items()
            if vid in state.vehicles and state.vehicles[vid].in_play
        }

    def _phase_inputs(
        self, turn: int, phase: int
    ) -> tuple[dict[str, Action | None] | None, dict[str, dict[str, str]], dict[str, str] | None]:
        """The actions, fire choices and cards the seats' answers give phase ``phase``."""
        given = self.answers.get((turn, phase))
        if not given:
            return None, {}, None  # most phases: nobody answered anything
        actions: dict[str, Action | None] = {}
        fire: dict[str, dict[str, str]] = {}
        cards: dict[str, str] = {}
        for answer in given.values():
            actions.update(answer.actions)
            cards.update(answer.cards)
            for vid, choices in answer.fire.items():
                fire.setdefault(vid, {}).update(choices)
        return actions or None, fire, cards or None

    def _earthling_due(self, turn: int, phase: int) -> dict[str, list[str]]:
        """Before action phase ``phase`` (2 or 3) of a turn with WW2 airplanes: each seat
        whose airplanes must still plan this Earthling turn (001), with those airplanes."""
        state = self.state
        if phase < 2 or state.phase != phase - 1:
            return {}
        given = self.answers.get((turn, -phase), {})
        out: dict[str, list[str]] = {}
        for vid in self._planning_due(state):
            owner = self.owner(vid)
            if owner is not None and owner.id not in given:
                out.setdefault(owner.id, []).append(vid)
        return out

    def _planning_due(self, state: GameState) -> list[str]:
        """``state.planning_due()`` of a state of the game's (not to be changed), worked
        out once per state: asked before every action phase's look-ups (a dozen a turn)."""
        known = self._due_of
        if known[0] is not state:
            known = self._due_of = (state, state.planning_due())
        return known[1]

    def _planned(self, turn: int, phase: int) -> tuple[GameState, list[Event]]:
        """The state with this Earthling turn's plans down (the state itself when no WW2
        airplane plans before this phase)."""
        state = self.state
        if phase < 2 or not self._planning_due(state):
            return state, []
        plans = {
            vid: plan
            for answer in self.answers.get((turn, -phase), {}).values()
            for vid, plan in answer.plans.items()
        }
        return start_turn(state, plans)

    def _resolve(self, turn: int, phase: int) -> tuple[GameState, list[Event]]:
        """The next step, (turn, phase), resolved: its state and events."""
        state = self.state
        if phase == 0:
            merged = self._merged_plans(turn)
            started, self._started = self._started, None
            if started is not None and started[0] is state and started[1] == merged:
                return started[2]  # the very start the last plan was checked with
            return start_turn(state, merged)
        state, planned = self._planned(turn, phase)
        outcome = self._outcome()  # the pending phase's: this one
        if outcome is not None and not outcome.decisions:
            new, events = outcome.result()
        else:
            actions, fire, cards = self._phase_inputs(turn, phase)
            new, events = resolve_phase(
                state,
                step_rng(self.seed, turn, phase),
                actions,
                fire,
                cards,
                answers=self.decided.get((turn, phase)),
            )
        if planned:
            events = [*planned, *events]
        decisions = [
            TripodDecision(**{k: v for k, v in d.items() if k != "kind"})
            for answer in self.answers.get((turn, phase), _NONE).values()
            for d in answer.decisions
        ]
        if decisions:
            at = next((i + 1 for i, e in enumerate(events) if e.kind == "phase_started"), 0)
            events = [*events[:at], *decisions, *events[at:]]
        if new.over or new.turn != turn:  # the turn is over: its plans are public
            events = [*events, *self._explained(turn)]
        return new, events

    def _explained(self, turn: int) -> list[Event]:
        """Why the computer seats chose their plans of ``turn`` (their answers of phase 0),
        seat by seat, vehicle by vehicle."""
        given = self.answers.get((turn, 0), _NONE)
        out: list[Event] = []
        for seat in sorted(self.seats.values(), key=lambda s: s.position):
            answer = given.get(seat.id)
            if answer is None:
                continue
            out.extend(why_events(turn, answer.bot or "computer", answer.why))
        return out

    def questions(self) -> tuple[dict[str, list[Question]], Any]:
        """For the pending action phase: each human seat's weapons that could fire at
        several targets (the seat not on auto-fire), and the preview (state and events
        of the movement) the seats see while they choose. Whether a weapon was planned
        'auto' does not matter: asking only those would tell every seat (``waiting_for``)
        what another seat's plan said before anything is fired."""
        nxt = self.next_step()
        if nxt is None or nxt[1] == 0:
            return {}, None
        return self._asked(nxt)

    def _asked(self, nxt: tuple[int, int]) -> tuple[dict[str, list[Question]], Any]:
        """:meth:`questions`, the next step ``nxt`` (an action phase) known."""
        cached = self._questions.get(nxt)
        if cached is not None:
            return cached
        if self._earthling_due(*nxt):
            return {}, None  # the WW2 airplanes plan first; nothing cached meanwhile
        if self.pending():
            return {}, None
        return self._targets_asked(nxt)

    def _targets_asked(self, nxt: tuple[int, int]) -> tuple[dict[str, list[Question]], Any]:
        """:meth:`_asked` once it is known that no WW2 airplane plans before ``nxt`` and
        no decision is pending (:meth:`_awaited` has just checked both: they are not
        checked twice): the questions, worked out once and cached."""
        cached = self._questions.get(nxt)
        if cached is not None:
            return cached
        turn, phase = nxt
        state, _ = self._planned(turn, phase)
        if not self._could_ask(phase, state):
            self._questions[nxt] = ({}, None)
            return {}, None
        actions, _, cards = self._phase_inputs(turn, phase)
        rng = step_rng(self.seed, turn, phase)
        decided = self.decided.get(nxt)
        targets = preview_targets(state, rng, actions, cards, decided)
        asked: dict[str, list[Question]] = {}
        for vid, weapons in targets.items():
            vehicle = state.vehicles[vid]
            owner = self.owner(vid)
            if vehicle.plan is None or owner is None or owner.bot or owner.auto_fire:
                continue
            for weapon, options in sorted(weapons.items()):
                if len(options) >= 2:
                    planned = vehicle.plan.choice(weapon, phase)
                    asked.setdefault(owner.id, []).append(
                        Question(vid, weapon, tuple(options), planned)
                    )
        preview = None
        if asked:
            preview = resolve_phase(
                state,
                step_rng(self.seed, turn, phase),
                actions,
                cards=cards,
                stop_before_firing=True,
                answers=decided,
            )
        result = (asked, preview)
        self._questions[nxt] = result
        return result

    def pending(self) -> list[Decision]:
        """The engine decisions the pending action phase waits for (a reorder after
        tailing...), given the answers so far: asked before any target question."""
        outcome = self._outcome()
        return [] if outcome is None else outcome.decisions

    def _outcome(self) -> Outcome | None:
        """The pending action phase run with the inputs so far: the decisions it waits
        for, or its resolution (kept, and used by :meth:`_resolve` while the inputs are
        the same: the phase is run once, not once to ask and again to resolve).

        The kept outcome is looked for first: the state it was worked out from, still
        the game's, is the last step's, so the pending step is the same one, and with
        the same inputs no WW2 airplane plans before it (what :meth:`_earthling_due`
        reads are the state and those inputs): a dozen look-ups a turn find it without
        working out the next step again."""
        state = self.state
        kept = self._pending
        if kept is not None and kept[2] is state and kept[1] == self._given(*kept[0]):
            return kept[3]
        nxt = self.next_step()
        if nxt is None or nxt[1] == 0:
            return None
        turn, phase = nxt
        if self._earthling_due(turn, phase):
            return None  # the WW2 airplanes plan their Earthling turn first (001)
        inputs = self._inputs_of(turn, phase)
        actions, fire, cards = self._phase_inputs(turn, phase)
        outcome = resolve_or_ask(
            self._planned(turn, phase)[0],
            step_rng(self.seed, turn, phase),
            actions,
            fire,
            cards,
            self.decided.get(nxt, {}),
        )
        self._pending = (nxt, inputs, state, outcome)
        return outcome

    def _inputs_of(self, turn: int, phase: int) -> tuple[Any, ...]:
        """Everything given to action phase ``phase`` so far (compared, not hashed): a
        copy, kept with the outcome worked out from it. Nothing given is the shared
        empty mapping, not a copy of it (most phases have no answers: copying an empty
        read-only mapping cost more than the rest of a look-up)."""
        answers, earthling, decided = self._given(turn, phase)
        return (
            dict(answers) if answers else _NONE,
            dict(earthling) if earthling else _NONE,
            dict(decided) if decided else _NONE,
        )

    def _given(self, turn: int, phase: int) -> tuple[Any, ...]:
        """What :meth:`_inputs_of` copies, as it is now: compared with a kept copy
        without copying it (the outcome is looked up a dozen times a turn)."""
        return (
            self.answers.get((turn, phase), _NONE),
            self.answers.get((turn, -phase), _NONE),
            self.decided.get((turn, phase), _NONE),
        )

    def _decider(self, decision: Decision) -> Seat | None:
        """The seat that answers a decision: the one playing its vehicle."""
        return self.owner(decision.vehicle)

    def _could_ask(self, phase: int, state: GameState) -> bool:
        """Whether any person could be asked for a target this phase (else the preview
        of the movement is not worth computing): an airplane of a seat not on auto-fire
        and at least two enemies in play. The enemies are counted first: in a duel no
        airplane has two (with fewer than three vehicles in play, none is counted), and no
        seat is looked up."""
        playing = state.in_play()
        if len(playing) < 3:
            return False
        per_side: dict[str, int] = {}
        for vehicle in playing:
            per_side[vehicle.side] = per_side.get(vehicle.side, 0) + 1
        for vehicle in playing:
            if vehicle.plan is None or vehicle.tripod is not None:
                continue
            if len(playing) - per_side[vehicle.side] < 2:
                continue
            owner = self.owner(vehicle.id)
            if owner is not None and not owner.bot and not owner.auto_fire:
                return True
        return False

    def waiting_for(self) -> list[str]:
        """The seats of people the game waits for (to plan, or to choose targets).
        Computer players are never waited for: they act as soon as the game advances.
        A failed game (its replay's) waits for nobody: its next step is never resolved."""
        nxt = self.next_step()
        return [] if nxt is None or self.failure is not None else self._awaited(nxt)

    def _awaited(self, nxt: tuple[int, int]) -> list[str]:
        """:meth:`waiting_for`, the next step ``nxt`` known."""
        turn, phase = nxt
        if phase == 0:
            done = self.plans.get(turn, _NONE)
            return [s.id for s in self.seats_to_plan() if not s.bot and s.id not in done]
        due = self._earthling_due(turn, phase)
        if due:
            return [sid for sid in due if not self.seats[sid].bot]
        pend = self.pending()
        if pend:
            seats = {s.id for s in (self._decider(d) for d in pend) if s and not s.bot}
            return sorted(seats, key=lambda sid: self.seats[sid].position)
        asked, _ = self._targets_asked(nxt)
        answered = self.answers.get((turn, phase), {})
        return [sid for sid in asked if sid not in answered]

    def _missing_plans(self, turn: int) -> list[str]:
        """Every seat (person or computer) with a vehicle in play and no plans for ``turn``."""
        done = self.plans.get(turn, _NONE)
        return [s.id for s in self.seats_to_plan() if s.id not in done]

    # --- computer players ------------------------------------------------------------

    def _trial(self, turn: int, phase: int) -> GameState:
        """The state a phase's inputs are checked on: with this Earthling turn's plans down,
        or, while some are missing, with the WW2 airplanes still to plan set aside."""
        if not self._earthling_due(turn, phase):
            return self._planned(turn, phase)[0]
        trial = self.state.copy()
        for vid in trial.planning_due():
            trial.vehicles[vid].eliminated = "(set aside)"
        return trial

    # --- resolution ------------------------------------------------------------------

    def advance(self, limit: int = 40, own: bool = False) -> bool:
        """Resolve every step whose inputs are all in (computer seats answer on the way),
        at most ``limit`` of them; the new steps are committed together, with the inputs
        that led to them. Returns whether anything changed. If the engine raises on a
        step, the steps before it are kept, the game is marked failed and
        :class:`GameFailed` raised: nothing about the failed step is stored but the mark.
        ``own``: the batch holds a person's input (:meth:`_store_own`), whose refusal by
        the database is raised, not swallowed."""
        with self.lock:
            if self.failure is not None:
                raise GameFailed(self.failure)
            changed = False
            pending: list[Step] = []
            resolved = 0
            while resolved < limit:
                nxt = self.next_step()
                if nxt is None:
                    break
                try:
                    step = self._advance_one(nxt, pending)
                except (ApiError, SQLAlchemyError):
                    # nothing of this call is stored: back to what is (no step held in
                    # memory that the database lacks, no input never acknowledged)
                    with contextlib.suppress(Exception):
                        self.reload(full=True)
                    raise
                except Exception as exc:
                    self._commit(pending, own)
                    self.fail(*nxt, exc, stored=own)
                if step is None:
                    changed = changed or self._bots_acted
                    break
                self._add_step(step)
                pending.append(step)
                resolved += 1
                changed = True
            # computer players' inputs change what the seats see (who is awaited) even
            # when no step could be resolved: a new version, so no view is reused
            changed = changed or bool(self._unsaved)
            self._commit(pending, own)
            if changed:
                self.version += 1
            return changed

    def more_to_do(self) -> bool:
        """Whether :meth:`advance` would resolve a step now: the next step waits for
        nobody but computer players (who act on the way)."""
        with self.lock:
            if self.failure is not None or self.next_step() is None:
                return False
            return not self.waiting_for()

    def _advance_one(self, nxt: tuple[int, int], pending: list[Step]) -> Step | None:
        """Computer seats give their inputs to step ``nxt``; the step resolved, or None
        when a person must act first."""
        turn, phase = nxt
        self._bots_acted = False
        if phase == 0:
            # the computer seats without plans plan; a person without plans is waited
            # for (what waiting_for says of a planning step, found on the way)
            awaited = False
            for seat in self.seats_to_plan():
                if seat.id in self.plans.get(turn, _NONE):
                    continue
                if not seat.bot:
                    awaited = True
                    continue
                plans = computer_seats.bot_plans(self, seat, turn)
                self._unsaved.plans.append((turn, seat.id, plans_text(plans)))
                self.plans.setdefault(turn, {})[seat.id] = plans
                self._bots_acted = True
            if awaited:
                return None
        else:
            if any(s.bot for s in self.seats.values()):
                computer_seats.bot_earthling_plans(self, turn, phase)
                computer_seats.bot_phase_inputs(self, turn, phase)
            computer_seats.bot_decisions(self, turn, phase)
            if self._awaited(nxt):
                return None
        new, events = self._resolve(turn, phase)
        return Step(turn, phase, events, new)

    def _commit(self, pending: list[Step], own: bool = False) -> None:
        """Store the steps resolved since the last commit with the inputs that led to
        them (computer players', and with ``own`` a person's), in one transaction. If
        another process stored any of them first, reload what it stored; with ``own``
        the refusal is raised too (:class:`Conflict`: the person's input was already
        stored; :class:`Stale`: the game moved on, nothing written — the caller retries)."""
        batch, self._unsaved = self._unsaved, Batch()
        batch.steps = [(s.turn, s.phase, s.stored()) for s in pending]
        if not batch:
            return
        rows = batch.steps
        batch.over = bool(pending) and pending[-1].state.over
        pending.clear()
        try:
            self.store.add_batch(self.id, batch, self.revision)
        except Stale:
            self._unstored = True
            if own:
                raise  # seat_actions.fresh_game reloads and checks the request again
            self.reload()
            return
        except Conflict:
            self._unstored = True
            self.reload()
            if own:
                raise
            return
        except BaseException:
            self._unstored = True
            if own:
                # nothing was written: forget the input held in memory (not acknowledged)
                with contextlib.suppress(Exception):
                    self.reload()
            raise
        self.revision += 1
        if CRASH_AT is not None:
            for turn, phase, _ in rows:
                crash_point(f"after-step-{turn}-{phase}", self.store)

    def _store_own(self, refused: str, field: str) -> None:
        """Commit a person's input — already put in the batch and held in memory — in
        one transaction with every step it lets be resolved (and computer players'
        inputs on the way): so a turn's last plan and the turn's steps are stored
        together, or neither is. Once this returns the input is stored (the request may
        be acknowledged); 409 when another process stored this seat's input first."""
        self.version += 1
        try:
            self.advance(own=True)
        except Conflict:
            raise ApiError(409, refused, field) from None

    # --- seat actions ----------------------------------------------------------------

    def check_seat_plans(self, seat_id: str, plans: Mapping[str, Plan]) -> None:
        """Refuse (IllegalPlanError/DataError) plans the engine would refuse, checking
        only this seat's vehicles: the others as if set aside (``check_plans`` alone, on
        the game's state: nothing is copied, a seat's plans are checked at every submit
        and every draft)."""
        check_plans(self.state, plans, alone=True)


def _seats_of(record: GameRecord) -> dict[str, Seat]:
    """The record's seats by id, copies: the game changes a seat's computer player and
    automatic fire, the record stays as it was read."""
    return {s.id: replace(s, vehicles=list(s.vehicles)) for s in record.seats}
