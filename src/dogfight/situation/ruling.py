"""Ruling on a situation: ``dogfight adjudicate`` and ``render`` resolve its written
plans phase by phase (the decisions answered as it says, bombers' picks matched to the
cards drawn) or, in referee mode (``"move": false``), rule on the table as it stands.
A wrong plan or answer is a :class:`DataError` naming the situation's field."""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError, DogfightError, IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.clocks import ONE_PHASE, PHASES
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import pending_decisions, resolve_phase, start_turn
from dogfight.rules.events import Event
from dogfight.rules.plans import Plan
from dogfight.rules.standing import TableRuling, table_ruling
from dogfight.rules.state import GameState
from dogfight.rules.tailing import RULE as TAILING_RULE
from dogfight.situation.format import MAX_ASKED, BombPickIn, Situation, build


def _plan_phase(
    state: GameState,
    written: dict[str, tuple[list[Plan], int]],
    later: dict[str, list[Plan]],
    turn_index: int,
    events: list[Event],
    source: str,
) -> GameState:
    """One planning phase from the written plans: a plan per turn of each vehicle's clock
    (a WW2 airplane's list holds one per Earthling turn, three to a Martian turn)."""
    plans = {}
    for vid in state.planning_due():
        vehicle = state.vehicles[vid]
        if vid not in written:
            written[vid] = (later.get(vid, []), turn_index)
        own, first = written[vid]
        index = turn_index - first
        if vehicle.clock == ONE_PHASE:
            index = index * PHASES + state.phase
        if index >= len(own):
            where = f", phase {state.phase + 1}" if vehicle.clock == ONE_PHASE else ""
            raise DataError(
                source,
                f"vehicle {vid}.plans",
                len(own),
                f"needs a plan for turn {turn_index + 1}{where}: every vehicle in play plans "
                "each of its turns (a WW2 airplane one per Earthling turn)",
            )
        plans[vid] = own[index]
    try:
        state, more = start_turn(state, plans)
    except DogfightError as exc:
        raise DataError(source, f"plans of turn {turn_index + 1}", None, str(exc)) from None
    events.extend(more)
    return state


def _bomb_pick_decisions(
    state: GameState, seed: int, known: dict[str, tuple[str, ...]], source: str
) -> list[Decision]:
    """The coming phase's ``bomb_pick`` decisions: the phase is run up to them, the
    decisions asked before (a reorder after tailing, a direction at the reveal) answered
    as the situation says or by their defaults."""
    turn, phase = state.turn, state.phase + 1
    answers = dict(known)
    for _ in range(MAX_ASKED):
        try:
            decisions = pending_decisions(state, step_rng(seed, turn, phase), answers=answers)
        except IllegalPlanError as exc:
            raise _refused(exc, known, source) from None
        if not decisions or any(d.kind.startswith("bomb_pick") for d in decisions):
            return decisions
        answers.update({d.id: d.default for d in decisions})
    return []


def _pick_answers(
    state: GameState,
    seed: int,
    picks: list[BombPickIn],
    source: str,
    known: dict[str, tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """The situation's bombers' choices for the coming phase, as answers to its
    ``bomb_pick`` decisions (the cards named by id, matched to those drawn); ``known``
    answers the decisions asked before them."""
    turn, phase = state.turn, state.phase + 1
    wanted = [(i, p) for i, p in enumerate(picks) if (p.turn, p.phase) == (turn, phase)]
    if not wanted:
        return {}
    decisions = _bomb_pick_decisions(state, seed, known, source)
    answers: dict[str, tuple[str, ...]] = {}
    for i, pick in wanted:
        where = f"bomb_picks[{i}]"
        decision = next(
            (
                d
                for d in decisions
                if d.kind.startswith("bomb_pick")
                and d.vehicle == pick.bomber
                and (pick.target is None or d.shown.get("target") == pick.target)
            ),
            None,
        )
        if decision is None:
            raise DataError(
                source,
                where,
                pick.bomber,
                f"no bomb card's dot of it covers a tripod in turn {turn} phase {phase}",
            )
        labels: list[str] = []
        for card in pick.cards:
            label = next(
                (o for o in decision.options if o.split(":", 1)[1] == card and o not in labels),
                card if card in decision.options and card not in labels else None,
            )
            if label is None:
                raise DataError(
                    source,
                    f"{where}.cards",
                    card,
                    "the C cards drawn: " + ", ".join(decision.shown.get("drawn", [])),
                )
            labels.append(label)
        try:
            answers[decision.id] = decision.check(labels)
        except DogfightError as exc:
            raise DataError(source, f"{where}.cards", pick.cards, str(exc)) from None
    return answers


@dataclass(frozen=True, slots=True)
class Adjudication:
    """What ``dogfight adjudicate`` and ``dogfight render`` show of a situation: the state
    reached, the events on the way and, in referee mode (``"move": false``), the ruling on
    the table as it stands."""

    state: GameState
    events: list[Event]
    ruling: TableRuling | None = None


def judge(
    situation: Situation,
    catalog: Catalog,
    seed: int = 0,
    phases: int | None = None,
    source: str = "situation",
) -> Adjudication:
    """Adjudicate the situation: its planned turns, or in referee mode (``"move":
    false``) the ruling on the table as it stands (:mod:`dogfight.rules.standing`)."""
    if situation.move:
        return Adjudication(*adjudicate(situation, catalog, seed, phases, source))
    for i, v in enumerate(situation.vehicles):
        if v.plans:
            raise DataError(
                source,
                f"vehicles[{i}].plans",
                len(v.plans),
                'must be empty with "move": false (the vehicles stand where they are and '
                "only fire; no card is flown)",
            )
    for i, r in enumerate(situation.reinforcements):
        if r.plans:
            raise DataError(
                source,
                f"reinforcements[{i}].plans",
                len(r.plans),
                'must be empty with "move": false (no card is flown)',
            )
    for field in ("decisions", "bomb_picks"):
        if getattr(situation, field):
            raise DataError(
                source,
                field,
                len(getattr(situation, field)),
                'must be empty with "move": false (no phase is played, so no decision is asked)',
            )
    state = build(situation, catalog, seed, source)
    return Adjudication(state, [], table_ruling(state))


def adjudicate(
    situation: Situation,
    catalog: Catalog,
    seed: int = 0,
    phases: int | None = None,
    source: str = "situation",
) -> tuple[GameState, list[Event]]:
    """Resolve the situation's planned turns (or only the first ``phases`` phases)."""
    state = build(situation, catalog, seed, source)
    # A WW2 airplane writes one plan per Earthling turn, three to a Martian turn (001).
    turns = max(
        (
            -(-len(v.plans) // PHASES) if state.vehicles[v.id].clock == ONE_PHASE else len(v.plans)
            for v in situation.vehicles
        ),
        default=0,
    )
    limit = turns * PHASES if phases is None else phases
    events: list[Event] = []
    played = 0
    used: set[str] = set()
    # Each vehicle's plans and the turn its first plan is for (reinforcements: the turn
    # they enter).
    written: dict[str, tuple[list[Plan], int]] = {v.id: (v.plans, 0) for v in situation.vehicles}
    later = {r.id: r.plans for r in situation.reinforcements}
    for turn_index in range(turns):
        if state.over or played >= limit:
            break
        while True:
            if state.awaiting_plans():
                state = _plan_phase(state, written, later, turn_index, events, source)
            if played >= limit:
                break
            given = _given_answers(state, situation.decisions, source)
            answers = _pick_answers(state, seed, situation.bomb_picks, source, given)
            _answered_twice(situation.decisions, given, answers, source)
            answers.update(given)
            try:
                state, more = resolve_phase(
                    state, step_rng(seed, state.turn, state.phase + 1), answers=answers
                )
            except IllegalPlanError as exc:
                raise _refused(exc, given, source) from None
            used.update(given)
            events.extend(more)
            played += 1
            if state.over or state.phase == 0:
                break
    unused = sorted(set(situation.decisions) - used)
    if unused and phases is None:
        raise DataError(
            source,
            f"decisions.{unused[0]}",
            situation.decisions[unused[0]],
            "no such decision is asked in the turns the situation plans"
            + (f": {_NOT_TAILING}" if unused[0].startswith("tailing:") else ""),
        )
    return state, events


_NOT_TAILING = "only the tailing player reorders his cards (" + TAILING_RULE + ")"


def _given_answers(
    state: GameState, decisions: dict[str, list[str]], source: str
) -> dict[str, tuple[str, ...]]:
    """The situation's answers to decisions of the coming phase (ids ending
    ``@turn.phase``)."""
    suffix = f"@{state.turn}.{state.phase + 1}"
    return {k: tuple(v) for k, v in decisions.items() if k.endswith(suffix)}


def _answered_twice(
    decisions: dict[str, list[str]],
    given: dict[str, tuple[str, ...]],
    picks: dict[str, tuple[str, ...]],
    source: str,
) -> None:
    """An answer given twice (in ``decisions`` and as a bomb pick) is refused."""
    for key in given:
        if key in picks:
            raise DataError(
                source, f"decisions.{key}", decisions[key], "answered twice (also in bomb_picks)"
            )


def _refused(exc: IllegalPlanError, given: dict[str, tuple[str, ...]], source: str) -> DataError:
    """A situation's answer the engine refused, named by its field with the rule quoted:
    a decision nobody is asked (a reorder by a plane that is not tailing) or an answer
    that breaks its decision (a reorder that adds or drops a card)."""
    text = str(exc)

    def names(key: str) -> bool:
        kind, rest = key.split(":", 1)
        return key in text or text.startswith(f"{rest.split('@')[0]}: {kind}")

    key = next((k for k in sorted(given) if names(k)), None)
    if key is None:
        return DataError(source, "decisions", None, text)
    if key.startswith("tailing:") and "no such decision" in text:
        text = f"{key.split(':', 1)[1].split('@')[0]} is not tailing an enemy then: {_NOT_TAILING}"
    return DataError(source, f"decisions.{key}", list(given[key]), text)
