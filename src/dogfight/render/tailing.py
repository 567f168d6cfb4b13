"""002's tailing ruler and the rear gun's blind spot, drawn where they apply.

Tailing (switch ``tailing``): the ruler from the tailing plane's centre dot to the tailed
plane's, with the two sides it must pass through — the tailer's front side and the
tailed plane's rear side — thick green when the ruler passes through them, red when it
does not; the ruler itself green when tailing holds, red with the reason when it is
broken (a side missed, a plane in between, the bases overlapping, a smoke trail).
Drawn for the rulers laid during the events (``tailing`` events, at the start of each
phase that tested them, and the pairs lost before the second maneuver, with why), and
between turns for the test the next turn will make: every pair that tails, and the near
misses (an enemy within the ruler's length that one of the two side tests finds, or one
that both find a little beyond the ruler). The ruler is one ruler long (002: "Ruler
connects center of rear plane to center of front plane"): its end is marked across the
line, green when it reaches the tailed plane's centre dot, red when it falls short.

Blind spot (switch ``blind_spot``): behind every two-seater, the area where a target the
ruler touches within its first half, through the rear side, cannot be fired at by the
rear gun (002) — the wedge between the rays through the rear corners, out to the half
mark, without the base itself. The observer's state is secret and never changes the
drawing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely

from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.sides import FRONT, REAR, side_towards
from dogfight.render.context import _Context, _polar, _timed, _when
from dogfight.render.markup import Attrs, _group, _line, _polygon
from dogfight.render.style import SMALL_SIZE
from dogfight.rules import tailing
from dogfight.rules.events import Eliminated, Event, LeftArea, PhaseStarted, Tailing
from dogfight.rules.state import Vehicle

HOLDS = "#2e7d32"
BROKEN = "#c62828"
BLIND = "#c62828"

TAILING_RULE = (
    '002: "Ruler connects center of rear plane to center of front plane." / "No other '
    "plane in between.\" (one ruler long, docs/rulings.md W7; through the tailer's front "
    "side and the tailed plane's rear side, W1)"
)
BLIND_RULE = (
    '002: "If ruler touches target with **first half** and passes through **rear side** '
    'of two-seater → **firing blocked**."'
)

NEAR_RULERS = 1.5
"""Between turns, a pair whose two sides line up is drawn as a near miss up to this many
rulers apart (beyond one ruler it does not tail: docs/rulings.md W7)."""

ARC_STEPS = 24
"""Segments of the blind spot's outer arc."""


@dataclass(frozen=True, slots=True)
class _Laid:
    """One tailing ruler to draw: the two planes where they stood, and why it does not
    hold (None: it holds)."""

    tailer: Vehicle
    tailed: Vehicle
    at: Pose
    to: Pose
    why: str | None
    when: str
    """What the test is for: "turn 1, phase 2", or "next turn"."""


def _side(ctx: _Context, pose: Pose, front: bool) -> tuple[Point, Point]:
    """The front (or rear) short side of an airplane base at ``pose``."""
    half_l = ctx.state.rules.base_length / 2.0
    half_w = ctx.state.rules.base_width / 2.0
    x = half_l if front else -half_l
    return pose.to_world(x, half_w), pose.to_world(x, -half_w)


def _ruler(ctx: _Context, laid: _Laid) -> str:
    """The ruler, its two sides coloured by their test, and its label."""
    f = ctx.frame
    rules = ctx.state.rules
    length, width = rules.base_length, rules.base_width
    a, b = laid.at.point, laid.to.point
    colour = HOLDS if laid.why is None else BROKEN
    leaves = side_towards(laid.at, b, length, width) == FRONT
    enters = side_towards(laid.to, a, length, width) == REAR
    front = _side(ctx, laid.at, front=True)
    rear = _side(ctx, laid.to, front=False)
    thick: Attrs = {"stroke-width": 6.0, "stroke-linecap": "round"}
    # 002: "Ruler connects center of rear plane to center of front plane": one ruler. Its
    # far end is marked across the line, one ruler from the tailer's centre dot.
    apart = math.dist(a, b)
    heading = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) if apart else laid.at.heading
    end = _polar(a, heading, rules.ruler)
    tick = (_polar(end, heading + 90.0, width / 2.0), _polar(end, heading - 90.0, width / 2.0))
    reaches = apart <= rules.ruler + tailing.EPSILON
    children = [
        _line(
            f,
            *front,
            {"class": "tailer-front", "stroke": HOLDS if leaves else BROKEN, **thick},
        ),
        _line(f, *rear, {"class": "tailed-rear", "stroke": HOLDS if enters else BROKEN, **thick}),
        _line(
            f,
            a,
            b,
            {
                "class": "tailing-line",
                "stroke": colour,
                "stroke-width": 2.5,
                "stroke-dasharray": None if laid.why is None else "8 5",
            },
        ),
        _line(
            f,
            *tick,
            {
                "class": "ruler-end",
                "stroke": HOLDS if reaches else BROKEN,
                "stroke-width": 2.0,
            },
        ),
    ]
    tailer, tailed = laid.tailer.id, laid.tailed.id
    text = f"{tailer} tails {tailed}" if laid.why is None else f"no tailing: {laid.why}"
    ctx.beside(a, b, 0.5, f"{text} ({laid.when})", SMALL_SIZE, colour)
    attrs = {
        "class": "tailing " + ("holds" if laid.why is None else "broken"),
        "data-tailer": tailer,
        "data-tailed": tailed,
        "data-when": laid.when,
        "data-why": laid.why,
        "data-distance": f"{apart:.1f}",
        "data-ruler": f"{rules.ruler:g}",
    }
    about = (
        f"tailing ruler from {tailer} to {tailed} ({laid.when}): "
        + ("it holds" if laid.why is None else f"broken, {laid.why}")
        + f"; the centres {apart:.1f} cm apart, the ruler {rules.ruler:g} cm (its end "
        + f"marked across the line). {TAILING_RULE}"
    )
    return _group(attrs, children, about)


def _during(ctx: _Context, events: Sequence[Event]) -> list[_Laid]:
    """The rulers the events laid (``tailing``), and the pairs lost before the second
    maneuver with the FAQ's reason: "doesn't break it unless planes overlap or exit"."""
    vehicles = ctx.state.vehicles
    out: list[_Laid] = []
    held: dict[int, set[tuple[str, str]]] = {}
    timed = list(_timed(events))
    for index, (turn, phase, event) in enumerate(timed):
        if not isinstance(event, Tailing) or event.tailer not in vehicles:
            continue
        if event.tailed not in vehicles:
            continue
        if phase == 1:
            held.setdefault(turn, set()).add((event.tailer, event.tailed))
        at = ctx.pose_at(events, index, event.tailer)
        to = ctx.pose_at(events, index, event.tailed)
        out.append(
            _Laid(
                vehicles[event.tailer],
                vehicles[event.tailed],
                at,
                to,
                None,
                _when_short(turn, phase),
            )
        )
    for index, (turn, phase, event) in enumerate(timed):
        if not (isinstance(event, PhaseStarted) and phase == 2 and turn in held):
            continue
        kept = {
            (e.tailer, e.tailed)
            for t, p, e in timed
            if isinstance(e, Tailing) and (t, p) == (turn, 2)
        }
        for tailer_id, tailed_id in sorted(held[turn] - kept):
            at = ctx.pose_at(events, index, tailer_id)
            to = ctx.pose_at(events, index, tailed_id)
            why = _lost(ctx, timed, turn, tailer_id, tailed_id, at, to)
            out.append(
                _Laid(vehicles[tailer_id], vehicles[tailed_id], at, to, why, _when_short(turn, 2))
            )
    return out


def _when_short(turn: int, phase: int) -> str:
    return _when(turn, phase).strip(" ()")


def _lost(
    ctx: _Context,
    timed: list[tuple[int, int, Event]],
    turn: int,
    tailer: str,
    tailed: str,
    at: Pose,
    to: Pose,
) -> str:
    """Why a pair tailing at the start of ``turn`` no longer does before its second
    maneuver (W2): a plane out, the bases overlapping, or a smoke trail or fire."""
    for t, p, e in timed:
        out = isinstance(e, (Eliminated, LeftArea)) and e.vehicle in (tailer, tailed)
        if out and (t, p) == (turn, 1):
            assert isinstance(e, (Eliminated, LeftArea))
            return f"{e.vehicle} is out"
    mine, theirs = shapely.Polygon(ctx.base(at)), shapely.Polygon(ctx.base(to))
    if mine.intersection(theirs).area > tailing.EPSILON:
        return "the two bases overlap"
    return f"{tailer} trails smoke (002: cannot perform tailing)"


def _next_turn(ctx: _Context) -> list[_Laid]:
    """Between turns: the test the next turn makes, for every enemy pair that tails and
    every near miss within the ruler's length."""
    state = ctx.state
    if state.over or state.phase != 0:
        return []
    planes = sorted((v for v in state.in_play() if v.kind == "airplane"), key=lambda v: v.id)
    rules = state.rules
    out: list[_Laid] = []
    for tailer in planes:
        for tailed in planes:
            if tailed.side == tailer.side:
                continue
            why = tailing.why_not(state, tailer, tailed)
            if why is None and not tailing.can_tail(tailer):
                why = f"{tailer.id} trails smoke (002: cannot perform tailing)"
            if why is not None:
                a, b = tailer.pose.point, tailed.pose.point
                apart = math.dist(a, b)
                leaves = side_towards(tailer.pose, b, rules.base_length, rules.base_width)
                enters = side_towards(tailed.pose, a, rules.base_length, rules.base_width)
                # within the ruler, a side missed; or both sides, a little beyond it
                sides = (leaves == FRONT) + (enters == REAR)
                if apart <= rules.ruler:
                    if sides == 0:
                        continue
                elif sides < 2 or apart > NEAR_RULERS * rules.ruler:
                    continue
            out.append(
                _Laid(tailer, tailed, tailer.pose, tailed.pose, why, f"start of turn {state.turn}")
            )
    return out


def _tailing_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """The tailing rulers laid in the events and the next turn's test (switch on)."""
    if not ctx.state.rules.switches.tailing:
        return []
    return [_ruler(ctx, laid) for laid in (*_during(ctx, events), *_next_turn(ctx))]


def blind_spot(pose: Pose, length: float, width: float, half: float) -> list[Point]:
    """The blind spot behind a two-seater's base at ``pose`` (002): the points within
    ``half`` of the centre dot whose ruler leaves the base through its rear side, outside
    the base — as a polygon (the outer edge an arc of ``ARC_STEPS`` segments)."""
    spread = math.degrees(math.atan2(width, length))
    back = pose.heading + 180.0
    # the rear-left corner, the arc from left to right behind the tail, the rear-right one
    first = pose.to_world(-length / 2.0, width / 2.0)
    last = pose.to_world(-length / 2.0, -width / 2.0)
    arc = [
        _polar(pose.point, back - spread + 2.0 * spread * i / ARC_STEPS, half)
        for i in range(ARC_STEPS + 1)
    ]
    return [first, *arc, last]


def _blind_spot_layer(ctx: _Context) -> list[str]:
    """Every two-seater in play's blind spot (switch ``blind_spot``)."""
    state = ctx.state
    rules = state.rules
    if not rules.switches.blind_spot:
        return []
    out: list[str] = []
    for vehicle in ctx.vehicles():
        if not vehicle.in_play or vehicle.kind != "airplane":
            continue
        if "rear" not in (w for w, _ in rules.weapons(vehicle.type)):
            continue
        area = blind_spot(vehicle.pose, rules.base_length, rules.base_width, rules.half)
        shape = _polygon(
            ctx.frame,
            area,
            {
                "class": "blind-spot",
                "fill": BLIND,
                "fill-opacity": 0.18,
                "stroke": BLIND,
                "stroke-width": 1.0,
                "stroke-dasharray": "4 3",
            },
        )
        tip = _polar(vehicle.pose.point, vehicle.pose.heading + 180.0, rules.half + 1.0)
        ctx.labels.add(tip, f"{vehicle.id}: blind spot", size=SMALL_SIZE, fill=BLIND)
        about = (
            f"{vehicle.id}'s rear gun cannot fire at a target the ruler touches here "
            f"(within the half mark, {rules.half:g} cm, through the rear side). {BLIND_RULE}"
        )
        out.append(_group({"class": "blind-spot", "data-vehicle": vehicle.id}, [shape], about))
    return out
