"""What leaves a live game for a seat: the public summary, the seat's page (table as the
seat sees it, stage, its own plans, steps in words), the replay and the ghosts of a
draft. Built only from :func:`dogfight.rules.observation.observe` (the table's parts
written straight into their text by :mod:`dogfight.server.play.table_texts`) and
``visible_events`` (its ``redactions``) for the seat's vehicles: the seed, other seats'
plans and damage never leave here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from dogfight import ENGINE_VERSION
from dogfight.errors import DogfightError
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
from dogfight.server.db.records import Json, Seat, Step, event_json, event_text, pose_json
from dogfight.server.errors import ApiError
from dogfight.server.play.table_texts import (
    open_table_text,
    open_vehicle_text,
    own_vehicle_text,
    page_plans,
    rules_head_text,
    table_head_text,
)
from dogfight.server.play.viewcache import ViewCache, scalar_json, str_json, to_json
from dogfight.words.briefing import briefing, ending
from dogfight.words.narration import ending as words

if TYPE_CHECKING:
    from dogfight.server.play.games import LiveGame


def public_view(state: GameState, vids: frozenset[str]) -> Json:
    view = observe(state, vids)
    view["switches"] = state.rules.switches.model_dump(mode="json")
    return view


_RULES_TEXTS: dict[int, tuple[object, str, str]] = {}
"""By a rules object's id, the object (held, so the id is not reused) and the JSON texts
of what a seat's table shows of it at every state of a game: the table's head
(:func:`~dogfight.server.play.table_texts.rules_head_text`) and the switches."""


def public_view_json(state: GameState, vids: frozenset[str], cache: ViewCache | None = None) -> str:
    """:func:`public_view` as JSON text (the same text as ``to_json(public_view(...))``,
    a test holds it so), written from the parts of :func:`observe`: what the rules
    show, the same for every state of the game, put in JSON once per rules object; the
    parts every seat sees alike — the table's head, each vehicle's open part, what lies
    open on it — made once per state for all the seats in ``cache`` (the game's; by
    default one for this call), and each vehicle's own part once for the seat playing
    it (the table was most of a seat's page's cost of JSON, and each seat's was put in
    JSON whole); the parts written straight into their text
    (:mod:`dogfight.server.play.table_texts`)."""
    rules = state.rules
    known = _RULES_TEXTS.get(id(rules))
    if known is None or known[0] is not rules:
        if len(_RULES_TEXTS) > 256:
            _RULES_TEXTS.clear()
        switches = to_json(rules.switches.model_dump(mode="json"))
        known = _RULES_TEXTS[id(rules)] = (rules, rules_head_text(rules), switches)
    # each part looked up in the state's parts straight (a call per part cost as much
    # as putting the whole table together)
    parts = (ViewCache() if cache is None else cache).of(state)
    head = parts.get("table")
    if head is None:
        head = parts["table"] = table_head_text(state, known[1])
    rest = parts.get("open table")
    if rest is None:
        rest = parts["open table"] = open_table_text(state)
    vehicles = []
    for v in state.vehicles.values():
        vid = v.id
        text = parts.get(("open vehicle", vid))
        if text is None:
            text = parts[("open vehicle", vid)] = open_vehicle_text(state, v)
        if vid in vids:
            own = parts.get(("own vehicle", vid))
            if own is None:
                own = parts[("own vehicle", vid)] = own_vehicle_text(v)
            text = text[:-1] + "," + own[1:]
        vehicles.append(text)
    return "".join(
        (
            head, ',"vehicles":[', ",".join(vehicles), "],", rest,
            ',"decisions":[],"switches":', known[2], "}",
        )
    )  # fmt: skip


_SUMMARY = ("summary", "")
"""The summary's key among a version's parts."""


def summary(game: LiveGame) -> Json:
    """What anyone may know about the game (no seed, no plans, no damage): its text
    (:func:`_summary_text`, what the pages are sent) read back."""
    out: Json = json.loads(_summary_text(game))
    return out


def _waiting_for(game: LiveGame) -> list[str]:
    """``game.waiting_for()``, worked out once per version of the game for the summary
    and every seat's stage (each a fresh list: the parts are separate values)."""
    return list(game.view_cache.value(game.version, "waiting_for", game.waiting_for))


def _waiting_text(game: LiveGame) -> str:
    """:func:`_waiting_for` as JSON text, written once per version for the summary and
    every seat's stage."""
    return game.view_cache.text(game.version, "waiting_for", _waiting_json, game)


def _waiting_json(game: LiveGame) -> str:
    return "[" + ",".join([str_json(sid) for sid in _waiting_for(game)]) + "]"


def step_view(game: LiveGame, index: int, vids: frozenset[str]) -> Json:
    """Step ``index`` (0-based) as the seat playing ``vids`` saw it."""
    step = game.steps[index]
    return {
        "index": index + 1,
        "turn": step.turn,
        "phase": step.phase,
        "events": [event_json(e, step.state) for e in visible_events(step.events, vids)],
    }


def _steps_text(game: LiveGame, since: int, total: int, vids: frozenset[str]) -> str:
    """The texts of steps ``since`` to ``total`` (0-based, ``total`` excluded) as the
    seat playing ``vids`` saw them, joined by commas: a step no seat sees apart (no
    secret event) is looked up in one table by its index, the same for every seat; the
    others are :func:`_step_text`'s. (A view is sent a few steps: looking each up with
    a call and a key made for it was a tenth of the cost of a view's message.)"""
    shared = game.view_cache.steps
    texts = []
    for index in range(since, total):
        text = shared.get(index)
        texts.append(_step_text(game, index, vids) if text is None else text)
    return ",".join(texts)


def _step_text(game: LiveGame, index: int, vids: frozenset[str]) -> str:
    """:func:`step_view` as JSON text, made once per step and seat — once per step for
    all seats when none of its events is secret (every seat then sees it alike, kept in
    ``ViewCache.steps``). In a step with a secret event, every event is put in words
    whole once for every seat (``ViewCache.whole_events``), and each seat's text is
    those, but the events it does not see whole (:func:`redactions`: another seat's
    secrets) replaced by their redacted copies' texts, or left out."""
    cache = game.view_cache
    own = cache.seat_steps.get((index, vids))
    if own is not None:
        return own
    step = game.steps[index]
    state = step.state
    whole = cache.whole_events.get(index)
    if whole is None:
        whole = [
            event_text(e, state, None, t)
            for e, t in zip(step.events, step.encode_texts(), strict=True)
        ]
        if not any(e.secret_for is not None for e in step.events):
            # the same text for every seat
            text = cache.steps[index] = _step_json(index, step, whole)
            return text
        cache.whole_events[index] = whole
    shown = list(whole)
    # from the last, so that an event left out does not move the ones still to replace
    for i, public in reversed(redactions(step.events, vids)):
        if public is None:
            del shown[i]
        else:
            shown[i] = event_text(public, state)
    text = cache.seat_steps[(index, vids)] = _step_json(index, step, shown)
    return text


def _step_json(index: int, step: Step, events: list[str]) -> str:
    # the index, turn and phase are ints: str() writes them as the encoder does
    return "".join(
        (
            '{"index":', str(index + 1), ',"turn":', str(step.turn),
            ',"phase":', str(step.phase), ',"events":[', ",".join(events), "]}",
        )
    )  # fmt: skip


def seat_view(game: LiveGame, seat_id: str, since: int = 0) -> Json:
    """Everything the seat's page shows: the table as the seat sees it, the stage
    (plan, choose targets, wait, over), its own submitted plans, and the steps after
    ``since`` (0: all) with their events in words."""
    view: Json = json.loads(seat_view_json(game, seat_id, since))
    return view


def seat_view_json(game: LiveGame, seat_id: str, since: int = 0) -> str:
    """:func:`seat_view` as JSON text, put together from the cached texts of its parts
    (made once per version of the game, :func:`_seat_parts`) and of its steps (once per
    step and seat)."""
    vids, summary, seat, state, brief, end, stage = _seat_parts(game, seat_id)
    total = len(game.steps)
    if since > total:
        since = total
    elif since < 0:
        since = 0
    # one join (a chain of + copied the whole text again at every part)
    return "".join(
        (
            '{"type":"view","game":', summary, ',"seat":', seat, ',"state":', state,
            ',"briefing":', brief, ',"ending":', end, ',"stage":', stage,
            ',"since":', str(since), ',"steps":[', _steps_text(game, since, total, vids),
            '],"steps_total":', str(total), "}",
        )
    )  # fmt: skip


def seat_update_json(game: LiveGame, seat_id: str) -> str:
    """The parts of the seat's view that change while the table and the steps do not
    (a plan or an answer is in, others are awaited): ``{"type": "update", "game",
    "seat", "stage", "steps_total"}``, a page's view with these parts replaced is its
    whole view. Built from the same cached parts as :func:`seat_view_json` (an update
    is sent while the table is the one last sent whole: its text is at hand)."""
    _, summary, seat, _, _, _, stage = _seat_parts(game, seat_id)
    return "".join(
        (
            '{"type":"update","game":', summary, ',"seat":', seat, ',"stage":', stage,
            ',"steps_total":', str(len(game.steps)), "}",
        )
    )  # fmt: skip


def _summary_text(game: LiveGame) -> str:
    """The summary's JSON text at the game's version (made once per version), written
    from pieces kept across versions — what never changes in the game, and each seat's
    entry but whether it is awaited — instead of encoding the whole summary again at
    every version (its keys and the seats' fields were most of a seat's page's cost of
    JSON; a test holds it to the summary made whole)."""
    return game.view_cache.text(game.version, _SUMMARY, _summary_json, game)


def _summary_head(game: LiveGame) -> Json:
    """What a game's summary shows that never changes."""
    return {
        "id": game.id,
        "title": game.title,
        "created": game.created,
        "engine": ENGINE_VERSION,
        "scenario": game.setup.get("scenario"),
    }


def _summary_json(game: LiveGame) -> str:
    cache = game.view_cache
    state = game.state
    nxt = game.next_step()
    waiting = _waiting_for(game)
    head = cache.open_object(_SUMMARY, _summary_head, game)
    seats = []
    for s in sorted(game.seats.values(), key=lambda s: s.position):
        vids = game.seat_vehicles(s.id)
        key = (_SUMMARY, s.id, s.label, s.side, vids, s.bot)
        entry = cache.open_object(key, _seat, s, vids, False)
        seats.append(entry + (',"waiting":true}' if s.id in waiting else ',"waiting":false}'))
    stage = "over" if nxt is None else ("planning" if nxt[1] == 0 else "targets")
    parts = [
        head,
        ',"turn":', scalar_json(state.turn), ',"phase":', scalar_json(state.phase),
        ',"over":', scalar_json(state.over), ',"winner":', scalar_json(state.winner),
        ',"stage":"', stage, '","steps":', str(len(game.steps)),
        ',"analysis":', scalar_json(game.analysis),
        ',"waiting_for":', _waiting_text(game),
        ',"seats":[', ",".join(seats), "]",
    ]  # fmt: skip
    if game.analysis:
        parts += (',"seed":', scalar_json(game.seed))
    if state.over:
        over = next(
            (e for step in reversed(game.steps) for e in step.events if isinstance(e, GameOver)),
            None,
        )
        result = None if over is None else {**over.to_json(), "heading": words(over)["heading"]}
        parts += (',"result":', to_json(result))
    parts.append("}")
    return "".join(parts)


def _stage_text(game: LiveGame, seat_id: str, vids: frozenset[str]) -> str:
    """The seat's stage as JSON text at the game's version (made once per version)."""
    return game.view_cache.text(game.version, ("stage", seat_id), _stage_json, game, seat_id, vids)


_Parts = tuple[frozenset[str], str, str, str, str, str, str]
"""A seat's vehicles and the JSON texts of its view's parts: the summary, the seat, the
table as it sees it, the briefing, the ending and its stage."""


def _seat_parts(game: LiveGame, seat_id: str) -> _Parts:
    """The seat's vehicles and the texts of its view's parts at the game's version, put
    together once per version and seat: a seat is most often built two messages at one
    version (its answer to its plan and the message to its page), and looking up each
    part anew cost as much as the second message's whole text."""
    cache = game.view_cache
    return cache.value(game.version, ("seat parts", seat_id), _make_seat_parts, game, seat_id)


def _make_seat_parts(game: LiveGame, seat_id: str) -> _Parts:
    """:func:`_seat_parts` made from the cached texts of each part (the table, the
    briefing and the ending once per state, the seat as long as it is the same, the
    summary and the stage once per version)."""
    cache = game.view_cache
    vids = game.seat_vehicles(seat_id)
    state = game.state
    return (
        vids,
        _summary_text(game),
        cache.seat(game.seats[seat_id], vids, _seat),
        cache.of_state_text(state, ("state", vids), public_view_json, state, vids, cache),
        cache.of_state(state, "briefing", briefing, state),
        cache.of_state(state, "ending", ending, state),
        _stage_text(game, seat_id, vids),
    )


def _seat(seat: Seat, vids: frozenset[str], auto_fire: bool = True) -> Json:
    """A seat as its own view shows it; without ``auto_fire``, its entry in the summary
    (but whether it is awaited)."""
    out: Json = {"id": seat.id, "label": seat.label, "side": seat.side, "vehicles": sorted(vids)}
    if auto_fire:
        out["auto_fire"] = seat.auto_fire
    out["computer"] = seat.bot
    return out


def _stage_json(game: LiveGame, seat_id: str, vids: frozenset[str]) -> str:
    """What the seat is asked to do now (plan, choose targets, wait, nothing: over), as
    JSON text. The planning of a turn — the stage of every version of an airplane
    game — is written straight into its text (``{"kind": "planning", "turn", "to_plan":
    its vehicles in play, "submitted", "my_plans": its plans as submitted, or null,
    "waiting_for"}``; a test holds it to that dict put in JSON): made as a dict and
    encoded, it cost ~33k instructions, ~85k with a submitted plan's dump (~19k and
    ~29k written). Every other stage is made as a dict (:func:`_stage`) and encoded."""
    nxt = game.next_step()
    if nxt is None or nxt[1] != 0:
        return to_json(_stage(game, seat_id, vids, nxt))
    state = game.state
    turn = nxt[0]
    mine = game.plans.get(turn, {}).get(seat_id)
    to_plan = sorted(v for v in vids if v in state.vehicles and state.vehicles[v].in_play)
    return "".join(
        (
            '{"kind":"planning","turn":', scalar_json(turn),
            ',"to_plan":[', ",".join([str_json(v) for v in to_plan]),
            '],"submitted":', "false" if mine is None else "true",
            ',"my_plans":', "null" if mine is None else page_plans(mine),
            ',"waiting_for":', _waiting_text(game), "}",
        )
    )  # fmt: skip


def _stage(game: LiveGame, seat_id: str, vids: frozenset[str], nxt: tuple[int, int] | None) -> Json:
    """Any stage but a turn's planning (:func:`_stage_json`) as a dict; ``nxt``: the next
    step (``game.next_step()``)."""
    waiting = _waiting_for(game)
    stage: Json
    if nxt is None:
        stage = {"kind": "over"}
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
            "my_plans": None
            if given is None
            else {k: p.model_dump(mode="json") for k, p in given.plans.items()},
        }
    else:
        turn, phase = nxt
        asked, preview = game.questions()
        answered = seat_id in game.answers.get((turn, phase), {})
        stage = {
            "kind": "targets",
            "turn": turn,
            "phase": phase,
            "questions": [q.to_json() for q in asked.get(seat_id, [])] if not answered else [],
            "answered": answered,
            # engine decisions (a reorder after tailing...): this seat's own only
            "decisions": [d.to_json() for d in for_seat(game.pending(), vids)],
        }
        if preview is not None:
            p_state, p_events = preview
            stage["preview"] = {
                "state": public_view(p_state, vids),
                "events": [event_json(e, p_state) for e in visible_events(p_events, vids)],
            }
    stage["waiting_for"] = waiting
    return stage


def replay(game: LiveGame, seat_id: str) -> Json:
    """Every step as the seat saw it: frame 0 is the table as set up; a failed game's
    replay says the failure (``error``, ``failed``: as a refusal's)."""
    vids = game.seat_vehicles(seat_id)
    frames = [
        {
            "index": 0,
            "turn": 1,
            "phase": 0,
            "state": public_view(game.initial, vids),
            "events": [],
        }
    ]
    for i, step in enumerate(game.steps):
        frame = step_view(game, i, vids)
        frame["state"] = public_view(step.state, vids)
        frames.append(frame)
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
            needed = 3 - vehicle.tripod.toppled if vehicle.tripod is not None else 3
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
