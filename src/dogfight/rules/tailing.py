"""Tailing (002, "Tailing"): a plane right behind an enemy sees its next card and may
reorder its own.

002: "At turn start, check if tailing is possible: Ruler connects center of rear plane to
center of front plane." — one ruler, so the centres are at most its length apart (W7);
it must leave the tailing plane through its front side and enter the tailed plane
through its rear side, with no other plane in between (the manual's line swaps the two
sides, see docs/rulings.md W1). The check is made at the start of the turn and again
before the second maneuver; the second time it holds if it held at the start and was not
broken as the FAQ says ("partial movement doesn't break it unless planes overlap or
exit"). A plane trailing smoke or on fire cannot tail.

The reorder is a decision (:mod:`dogfight.rules.decisions`) of the tailing seat, which
alone sees the tailed card.
"""

from __future__ import annotations

import math

import shapely

from dogfight.geometry.sides import FRONT, LONG_SIDE, REAR, side_towards
from dogfight.rules.decisions import Decision
from dogfight.rules.events import CardsReordered, TailedCardShown, Tailing
from dogfight.rules.phase import Phase
from dogfight.rules.state import GameState, Vehicle

RULE = (
    '002: "Tailed player reveals **first maneuver card** to tailing player." / "Tailing '
    'player may **reorder** their three planned maneuvers." / "Tailed reveals **second '
    'card**, tailing player may reorder remaining two."'
)
SMOKE_RULE = '002: "cannot perform **tailing**"'

EPSILON = 1e-9


def can_tail(vehicle: Vehicle) -> bool:
    """002: a smoke trail (and fire, "Smoke effect also applies") forbids tailing."""
    return vehicle.status.get("smoke", 0) <= 0 and vehicle.status.get("fire", 0) <= 0


def ruler(state: GameState, tailer: Vehicle, tailed: Vehicle) -> bool:
    """002's tailing ruler: centre to centre within one ruler's length, out of the
    tailer's front side, into the tailed plane's rear side, no other base crossed, the
    two bases apart."""
    return why_not(state, tailer, tailed) is None


SIDE_NAMES = {FRONT: "front", REAR: "rear", LONG_SIDE: "long"}


def why_not(state: GameState, tailer: Vehicle, tailed: Vehicle) -> str | None:
    """Why 002's tailing ruler from ``tailer`` to ``tailed`` does not hold, in words
    (None: it holds). A smoke trail is not tested here (:func:`can_tail`)."""
    rules = state.rules
    length, width = rules.base_length, rules.base_width
    a, b = tailer.pose.point, tailed.pose.point
    if a == b:
        return "the two centre dots coincide"
    # 002: "Ruler connects center of rear plane to center of front plane": one ruler, so
    # the two centres are at most its length apart (docs/rulings.md W7).
    apart = math.dist(a, b)
    if apart > rules.ruler + EPSILON:
        return f"the centres are {apart:.1f} cm apart, beyond the ruler ({rules.ruler:g} cm)"
    leaves = side_towards(tailer.pose, b, length, width)
    if leaves != FRONT:
        return f"the ruler leaves {tailer.id} through its {SIDE_NAMES[leaves]} side, not its front"
    enters = side_towards(tailed.pose, a, length, width)
    if enters != REAR:
        return f"the ruler enters {tailed.id} through its {SIDE_NAMES[enters]} side, not its rear"
    mine = shapely.Polygon(state.base(tailer))
    theirs = shapely.Polygon(state.base(tailed))
    if mine.intersection(theirs).area > EPSILON:
        return "the two bases overlap"
    segment = shapely.LineString([a, b])
    between = [
        other.id
        for other in sorted(state.in_play(), key=lambda v: v.id)
        if other.id not in (tailer.id, tailed.id)
        and segment.intersection(shapely.Polygon(state.base(other))).length > EPSILON
    ]
    if between:
        return f"{', '.join(between)} in between"
    return None


def tailed_by(state: GameState) -> dict[str, tuple[str, ...]]:
    """Every airplane that tails, with the enemy airplanes it tails, by id."""
    planes = sorted(
        (v for v in state.in_play() if v.kind == "airplane" and v.plan is not None),
        key=lambda v: v.id,
    )
    out: dict[str, tuple[str, ...]] = {}
    for tailer in planes:
        if not can_tail(tailer):
            continue
        tails = tuple(f.id for f in planes if f.side != tailer.side and ruler(state, tailer, f))
        if tails:
            out[tailer.id] = tails
    return out


def _still(state: GameState, tailer_id: str, tailed_id: str) -> bool:
    """FAQ: "Once initiated, partial movement doesn't break it unless planes overlap or
    exit" (and a smoke trail drawn meanwhile forbids it)."""
    tailer, tailed = state.vehicles[tailer_id], state.vehicles[tailed_id]
    if not (tailer.in_play and tailed.in_play and can_tail(tailer)):
        return False
    mine = shapely.Polygon(state.base(tailer))
    return bool(mine.intersection(shapely.Polygon(state.base(tailed))).area <= EPSILON)


def tail(ph: Phase) -> None:
    """At the start of the turn and before the second maneuver: the tailed planes show
    their next card to the tailing seat, which may reorder its remaining cards."""
    state = ph.state
    if not state.rules.switches.tailing or ph.phase not in (1, 2):
        return
    if ph.phase == 1:
        state.tailing = tailed_by(state)
    else:
        held = {t: tuple(f for f in fs if _still(state, t, f)) for t, fs in state.tailing.items()}
        state.tailing = {t: fs for t, fs in held.items() if fs}
    decisions: list[Decision] = []
    for tailer_id in sorted(state.tailing):
        tailer = state.vehicles[tailer_id]
        assert tailer.plan is not None
        shown = []
        for tailed_id in state.tailing[tailer_id]:
            plan = state.vehicles[tailed_id].plan
            assert plan is not None
            card = plan.cards[ph.phase - 1]
            ph.events.append(Tailing(tailer_id, tailed_id, ph.phase))
            ph.events.append(TailedCardShown(tailer_id, tailed_id, ph.phase, card))
            shown.append({"vehicle": tailed_id, "phase": ph.phase, "card": card})
        remaining = tuple(tailer.plan.cards[ph.phase - 1 :])
        decisions.append(
            Decision(
                "tailing",
                tailer_id,
                state.turn,
                ph.phase,
                "order",
                remaining,
                remaining,
                RULE,
                shown={"tailed": shown},
            )
        )
    answers = ph.asking.ask(decisions)
    for decision in decisions:
        order = answers[decision.id]
        if order == decision.default:
            continue
        tailer = state.vehicles[decision.vehicle]
        assert tailer.plan is not None
        cards = (*tailer.plan.cards[: ph.phase - 1], *order)
        tailer.plan = tailer.plan.model_copy(update={"cards": cards})
        ph.events.append(CardsReordered(tailer.id, ph.phase, order))


def end_of_turn(state: GameState) -> None:
    """Tailing lasts one turn."""
    state.tailing = {}
