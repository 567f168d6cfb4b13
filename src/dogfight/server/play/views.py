"""What leaves a live game for a seat: the public summary, the seat's page (table as the
seat sees it, stage, its own plans, steps in words), the replay and the ghosts of a
draft. Built only from :func:`dogfight.rules.observation.observe` and ``visible_events``
(its ``redactions``) for the seat's vehicles: the seed, other seats' plans and damage
never leave here. Each part is put in JSON once (:mod:`dogfight.output.encoding`, kept
in the game's :class:`~dogfight.server.play.viewcache.ViewCache`) and put as it is in
every message that sends it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from dogfight import ENGINE_VERSION
from dogfight.errors import DogfightError
from dogfight.output.encoding import Raw, decode, raw, text
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.decisions import for_seat
from dogfight.rules.events import GameOver
from dogfight.rules.foresight import Ghost, ghosts, warnings
from dogfight.rules.observation import (
    observe,
    redactions,
    visible_events,
)
from dogfight.rules.plans import Plan, plan_problems
from dogfight.rules.state import GameState
from dogfight.rules.tripods import planned_cards
from dogfight.server.db.records import Json, Seat, Step, event_json, pose_json
from dogfight.server.errors import ApiError
from dogfight.server.play import turn_clock
from dogfight.server.shapes import (
    SeatPart,
    SeatTable,
    Stage,
    StepView,
    Summary,
    SummarySeat,
    TargetsStage,
)
from dogfight.words.briefing import briefing, ending
from dogfight.words.narration import ending as words

if TYPE_CHECKING:
    from dogfight.server.play.games import LiveGame


def public_view(state: GameState, vids: frozenset[str]) -> SeatTable:
    """The table as the seat playing ``vids`` sees it (:func:`observe`, a
    :class:`~dogfight.rules.observation.TableView`) and the rules' switches."""
    view = observe(state, vids)
    view["switches"] = _switches(state)
    return cast(SeatTable, view)


_SWITCHES: dict[int, tuple[object, Json]] = {}
"""By a rules object's id, the object (held, so the id is not reused) and its switches'
dump (pydantic's dump of the switches cost as much as the rest of a seat's table)."""


def _switches(state: GameState) -> Json:
    rules = state.rules
    known = _SWITCHES.get(id(rules))
    if known is None or known[0] is not rules:
        if len(_SWITCHES) > 256:
            _SWITCHES.clear()
        known = _SWITCHES[id(rules)] = (rules, rules.switches.model_dump(mode="json"))
    return known[1]


_SUMMARY = ("summary", "")
"""The summary's key among a version's parts."""


def summary(game: LiveGame) -> Json:
    """What anyone may know about the game (no seed, no plans, no damage): its part
    (:func:`_summary_part`, what the pages are sent) read back."""
    out: Json = decode(_summary_part(game))
    return out


def _waiting_for(game: LiveGame) -> list[str]:
    """``game.waiting_for()``, worked out once per version of the game for the summary
    and every seat's stage (each a fresh list: the parts are separate values)."""
    return list(game.view_cache.value(game.version, "waiting_for", game.waiting_for))


def step_view(game: LiveGame, index: int, vids: frozenset[str]) -> StepView:
    """Step ``index`` (0-based) as the seat playing ``vids`` saw it."""
    step = game.steps[index]
    events = [event_json(e, step.state) for e in visible_events(step.events, vids)]
    return _step_json(index, step, events)


def _steps(game: LiveGame, since: int, total: int, vids: frozenset[str]) -> list[Raw]:
    """Steps ``since`` to ``total`` (0-based, ``total`` excluded) as the seat playing
    ``vids`` saw them, each put in JSON: a step no seat sees apart (no secret event) is
    looked up in one table by its index, the same for every seat; the others are
    :func:`_step_part`'s. (A view is sent a few steps: looking each up with a call and a
    key made for it was a tenth of the cost of a view's message.)"""
    shared = game.view_cache.steps
    parts = []
    for index in range(since, total):
        part = shared.get(index)
        parts.append(_step_part(game, index, vids) if part is None else part)
    return parts


def _step_part(game: LiveGame, index: int, vids: frozenset[str]) -> Raw:
    """:func:`step_view` put in JSON, made once per step and seat — once per step for all
    seats when none of its events is secret (every seat then sees it alike, kept in
    ``ViewCache.steps``). In a step with a secret event, every event is put in words
    whole once for every seat (``ViewCache.whole_events``), and each seat's step is
    those, but the events it does not see whole (:func:`redactions`: another seat's
    secrets) replaced by their redacted copies, or left out."""
    cache = game.view_cache
    own = cache.seat_steps.get((index, vids))
    if own is not None:
        return own
    step = game.steps[index]
    state = step.state
    whole = cache.whole_events.get(index)
    if whole is None:
        whole = [
            event_json(e, state, encoded)
            for e, encoded in zip(step.events, step.encode(), strict=True)
        ]
        if not any(e.secret_for is not None for e in step.events):
            # the same step for every seat
            part = cache.steps[index] = raw(_step_json(index, step, whole))
            return part
        cache.whole_events[index] = whole
    shown = list(whole)
    # from the last, so that an event left out does not move the ones still to replace
    for i, public in reversed(redactions(step.events, vids)):
        if public is None:
            del shown[i]
        else:
            shown[i] = event_json(public, state)
    part = cache.seat_steps[(index, vids)] = raw(_step_json(index, step, shown))
    return part


def _step_json(index: int, step: Step, events: list[Json]) -> StepView:
    return {"index": index + 1, "turn": step.turn, "phase": step.phase, "events": events}


def seat_view(game: LiveGame, seat_id: str, since: int = 0) -> Json:
    """Everything the seat's page shows: the table as the seat sees it, the stage
    (plan, choose targets, wait, over), its own submitted plans, and the steps after
    ``since`` (0: all) with their events in words."""
    view: Json = decode(seat_view_json(game, seat_id, since))
    return view


def seat_view_json(game: LiveGame, seat_id: str, since: int = 0) -> str:
    """:func:`seat_view` as JSON text, made of the parts put in JSON already (once per
    version of the game, :func:`_seat_parts`) and of its steps (once per step and
    seat)."""
    vids, summary, seat, state, brief, end, stage = _seat_parts(game, seat_id)
    total = len(game.steps)
    if since > total:
        since = total
    elif since < 0:
        since = 0
    message = {
        "type": "view",
        "game": summary,
        "seat": seat,
        "state": state,
        "briefing": brief,
        "ending": end,
        "stage": stage,
        "since": since,
        "steps": _steps(game, since, total, vids),
        "steps_total": total,
    }
    return text(message)


def seat_update_json(game: LiveGame, seat_id: str) -> str:
    """The parts of the seat's view that change while the table and the steps do not
    (a plan or an answer is in, others are awaited): ``{"type": "update", "game",
    "seat", "stage", "steps_total"}``, a page's view with these parts replaced is its
    whole view. Made of the same parts as :func:`seat_view_json` (an update is sent
    while the table is the one last sent whole: its parts are at hand)."""
    _, summary, seat, _, _, _, stage = _seat_parts(game, seat_id)
    message = {
        "type": "update",
        "game": summary,
        "seat": seat,
        "stage": stage,
        "steps_total": len(game.steps),
    }
    return text(message)


def _summary_part(game: LiveGame) -> Raw:
    """The summary put in JSON at the game's version (made once per version), made from
    values kept across versions — what never changes in the game, and each seat's
    entry but whether it is awaited."""
    return game.view_cache.part(game.version, _SUMMARY, _summary, game)


def _summary(game: LiveGame) -> Summary:
    cache = game.view_cache
    state = game.state
    nxt = game.next_step()
    waiting = _waiting_for(game)
    seats: list[SummarySeat] = []
    for s in sorted(game.seats.values(), key=lambda s: s.position):
        vids = game.seat_vehicles(s.id)
        key = (_SUMMARY, s.id, s.label, s.side, vids, s.bot)
        entry: SeatPart = cache.kept(key, _seat, s, vids, False)
        seats.append({**entry, "waiting": s.id in waiting})
    out: Summary = {
        "id": game.id,
        "title": game.title,
        "created": game.created,
        "engine": ENGINE_VERSION,
        "scenario": game.setup.get("scenario"),
        "turn": state.turn,
        "phase": state.phase,
        "over": state.over,
        "winner": state.winner,
        "stage": "over" if nxt is None else ("planning" if nxt[1] == 0 else "targets"),
        "steps": len(game.steps),
        "analysis": game.analysis,
        "waiting_for": waiting,
        "seats": seats,
    }
    clock = turn_clock.shown(game)
    if clock is not None:
        out["clock"] = clock
    if game.analysis:
        out["seed"] = game.seed
    if state.over:
        over = next(
            (e for step in reversed(game.steps) for e in step.events if isinstance(e, GameOver)),
            None,
        )
        out["result"] = (
            None if over is None else {**over.to_json(), "heading": words(over)["heading"]}
        )
    return out


def _stage_part(game: LiveGame, seat_id: str, vids: frozenset[str]) -> Raw:
    """The seat's stage put in JSON at the game's version (made once per version)."""
    return game.view_cache.part(game.version, ("stage", seat_id), _stage, game, seat_id, vids)


_Parts = tuple[frozenset[str], Raw, Raw, Raw, Raw, Raw, Raw]
"""A seat's vehicles and its view's parts put in JSON: the summary, the seat, the table
as it sees it, the briefing, the ending and its stage."""


def _seat_parts(game: LiveGame, seat_id: str) -> _Parts:
    """The seat's vehicles and the texts of its view's parts at the game's version, put
    together once per version and seat: a seat is most often built two messages at one
    version (its answer to its plan and the message to its page), and looking up each
    part anew cost as much as the second message's whole text."""
    cache = game.view_cache
    return cache.value(game.version, ("seat parts", seat_id), _make_seat_parts, game, seat_id)


def _make_seat_parts(game: LiveGame, seat_id: str) -> _Parts:
    """:func:`_seat_parts` made from the cached parts (the table, the briefing and the
    ending once per state, the seat as long as it is the same, the summary and the
    stage once per version)."""
    cache = game.view_cache
    vids = game.seat_vehicles(seat_id)
    state = game.state
    return (
        vids,
        _summary_part(game),
        cache.seat(game.seats[seat_id], vids, _seat),
        cache.of_state(state, ("state", vids), public_view, state, vids),
        cache.of_state(state, "briefing", briefing, state),
        cache.of_state(state, "ending", ending, state),
        _stage_part(game, seat_id, vids),
    )


def _seat(seat: Seat, vids: frozenset[str], auto_fire: bool = True) -> SeatPart:
    """A seat as its own view shows it; without ``auto_fire``, its entry in the summary
    (but whether it is awaited)."""
    out: SeatPart = {
        "id": seat.id,
        "label": seat.label,
        "side": seat.side,
        "vehicles": sorted(vids),
        "computer": seat.bot,
    }
    if auto_fire:
        out["auto_fire"] = seat.auto_fire
    return out


def _stage(game: LiveGame, seat_id: str, vids: frozenset[str]) -> Stage:
    """What the seat is asked to do now: plan (a turn's, or an Earthling turn's), choose
    targets and answer its decisions, or nothing (over); and who is awaited."""
    nxt = game.next_step()
    waiting = _waiting_for(game)
    stage: Stage
    if nxt is None:
        stage = {"kind": "over", "waiting_for": waiting}
    elif nxt[1] == 0:
        state = game.state
        turn = nxt[0]
        mine = game.plans.get(turn, {}).get(seat_id)
        stage = {
            "kind": "planning",
            "turn": turn,
            "to_plan": sorted(v for v in vids if v in state.vehicles and state.vehicles[v].in_play),
            "submitted": mine is not None,
            "my_plans": None if mine is None else {k: p.to_json() for k, p in mine.items()},
            "waiting_for": waiting,
        }
    elif game._earthling_due(*nxt):
        turn, phase = nxt
        mine_due = game._earthling_due(turn, phase).get(seat_id, [])
        given = game.answers.get((turn, -phase), {}).get(seat_id)
        stage = {
            "kind": "planning",
            "turn": turn,
            "phase": phase,
            "earthling": True,
            "to_plan": sorted(mine_due or (given.plans if given else [])),
            "submitted": not mine_due,
            "my_plans": None if given is None else {k: p.to_json() for k, p in given.plans.items()},
            "waiting_for": waiting,
        }
    else:
        turn, phase = nxt
        asked, preview = game.questions()
        answered = seat_id in game.answers.get((turn, phase), {})
        targets: TargetsStage = {
            "kind": "targets",
            "turn": turn,
            "phase": phase,
            "questions": [q.to_json() for q in asked.get(seat_id, [])] if not answered else [],
            "answered": answered,
            # engine decisions (a reorder after tailing...): this seat's own only
            "decisions": [d.to_json() for d in for_seat(game.pending(), vids)],
            "waiting_for": waiting,
        }
        if preview is not None:
            p_state, p_events = preview
            targets["preview"] = {
                "state": public_view(p_state, vids),
                "events": [event_json(e, p_state) for e in visible_events(p_events, vids)],
            }
        stage = targets
    return stage


def replay(game: LiveGame, seat_id: str) -> Json:
    """Every step as the seat saw it: frame 0 is the table as set up; a failed game's
    replay says the failure (``error``, ``failed``: as a refusal's)."""
    vids = game.seat_vehicles(seat_id)
    frames: list[Json] = [
        {
            "index": 0,
            "turn": 1,
            "phase": 0,
            "state": public_view(game.initial, vids),
            "events": [],
        }
    ]
    for i, step in enumerate(game.steps):
        frames.append({**step_view(game, i, vids), "state": public_view(step.state, vids)})
    out = {"game": summary(game), "seat": seat_id, "frames": frames}
    if game.failure is not None:
        # the steps up to the failure (dogfight.server.play.failed_games), and the failure
        out["error"] = game.failure.public()
        out["failed"] = game.failure.public_json()
    return out


def check_draft(game: LiveGame, seat_id: str, drafts: Mapping[str, Any]) -> Json:
    """For cards being chosen: the flight restrictions they break (with the rule),
    where each card and the whole sequence takes the vehicle (ghosts), and — once the
    plan is complete — whether the engine would refuse it and why."""
    state = game.state
    vids = game.seat_vehicles(seat_id)
    out: Json = {}
    foreseen: dict[str, list[Ghost]] = {}
    for vid, draft in drafts.items():
        vehicle = state.vehicles.get(vid)
        if vid not in vids or vehicle is None or not vehicle.in_play:
            raise ApiError(422, f"{vid!r} is not a vehicle of this seat in play", f"plans.{vid}")
        if not isinstance(draft, dict) or not isinstance(draft.get("cards", []), list):
            raise ApiError(422, "a draft is an object with a 'cards' list", f"plans.{vid}")
        cards = [str(c) for c in draft.get("cards", [])]
        if len(cards) > 3:
            raise ApiError(422, "at most 3 cards", f"plans.{vid}.cards")
        entry: Json = {"problems": [], "ghosts": [], "warnings": [], "refusal": None}
        try:
            # only a WW2 airplane's ghost flies at a speed marker (any other refuses one)
            given = draft.get("speeds", []) if vehicle.clock == ONE_PHASE else []
            speeds = [int(s) for s in given if isinstance(s, int)]
            foreseen[vid] = ghosts(state, vehicle, cards, speeds)
            # as printed (001), where a card takes the base is not shown while planning
            measured = state.rules.switches.previews == "on"
            entry["ghosts"] = [ghost_json(g, measured) for g in foreseen[vid]]
            if vehicle.tripod is None:
                deck = state.rules.deck_of(vehicle.type)
                entry["problems"] = [
                    {"index": p.index, "card": p.card, "rule": p.rule, "text": p.text}
                    for p in plan_problems(
                        vehicle.previous,
                        [deck.card(c) for c in cards],
                        state.rules.restrictions,
                    )
                ]
            needed = planned_cards(state, vehicle) if vehicle.tripod is not None else 3
            if vehicle.clock == ONE_PHASE:
                needed = 1  # a WW2 airplane's Earthling turn (001)
            if len(cards) == needed:
                plan = Plan.model_validate(draft)
                game.check_seat_plans(seat_id, {vid: plan})
        except DogfightError as exc:
            entry["refusal"] = str(exc)
        except ValidationError as exc:
            entry["refusal"] = exc.errors()[0]["msg"]
        out[vid] = entry
    for vid, found in warnings(state, foreseen).items():
        out[vid]["warnings"] = [w.to_json() for w in found]
    return out


def ghost_json(ghost: Ghost, measured: bool = True) -> Json:
    """A card of a draft for the page: what is flown and why, and (``measured``) where
    it takes the base."""
    if ghost.pose is None or not measured:
        return {"card": ghost.card, "flown": ghost.flown, "note": ghost.note}
    return {
        "card": ghost.card,
        "flown": ghost.flown,
        "note": ghost.note,
        "phase": ghost.phase,
        "pose": pose_json(ghost.pose),
        "path": [[round(x, 3), round(y, 3)] for x, y in ghost.path],
    }


NO_SEAT: frozenset[str] = frozenset()
"""The vehicles of no seat: what every seat sees in common (a spectator's view)."""


def watched(game: LiveGame, delay: int) -> int:
    """How many steps a spectator sees: all of them live (``delay`` 0); one turn behind
    (1), the steps of turn N once turn N+1 is resolved (the game's turn is N+2 or
    later), or all once the game is over (or failed)."""
    total = len(game.steps)
    if not delay or game.state.over or game.failure is not None:
        return total
    seen = 0
    while seen < total and game.steps[seen].turn < game.state.turn - delay:
        seen += 1
    return seen


def watch_view_json(game: LiveGame, since: int, delay: int) -> str:
    """A spectator's view as JSON text: the summary, the table as no seat sees it (every
    seat's secret hidden: :func:`observe` and :func:`redactions` for no vehicle) after
    the last step it may see (:func:`watched`), and its steps after ``since``."""
    total = watched(game, delay)
    since = min(max(since, 0), total)
    state = game.steps[total - 1].state if total else game.initial
    message = {
        "type": "watch",
        "game": _summary_part(game),
        "delay": delay,
        "state": public_view(state, NO_SEAT),
        "since": since,
        "steps": _steps(game, since, total, NO_SEAT),
        "steps_total": total,
    }
    return text(message)
