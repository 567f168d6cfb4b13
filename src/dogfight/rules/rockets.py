"""Le Prieur rockets (000, Standard Rules, "ROCKETS").

000: "To fire rockets, the airplane must have the target in its front firing arc at one
ruler of distance or less, and spend one or two Rocket counters. The target is hit after
the following maneuver, if both the following conditions occur: 1) The following
maneuver is either a stall or a straight. 2) At the end of this following maneuver, the
original target is still in the airplane's front firing arc, or the airplane overlaps
the target. ... the target takes one D damage card for each Rocket token spent ...
Exception: ... if the original target is still in the firing arc, but an airplane
completely blocks the line of sight of the airplane launching the rockets, then the
blocking airplane (friend or foe) is hit instead".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.geometry.frozen import fast_init
from dogfight.geometry.reach import in_arc_region, sight
from dogfight.rules import events as ev
from dogfight.rules.firing import Table
from dogfight.rules.state import GameState, Salvo

ROCKET_DECK = "D"


@fast_init
@dataclass(frozen=True, slots=True)
class RocketHit:
    firer: str
    target: str
    count: int


def resolve(
    state: GameState, table: Table, flown: dict[str, ManeuverCard], events: list[ev.Event]
) -> list[RocketHit]:
    """Salvos launched in an earlier phase, judged after the launcher's following maneuver."""
    hits: list[RocketHit] = []
    waiting: list[Salvo] = []
    for salvo in state.salvos:
        firer = state.vehicles[salvo.firer]
        if salvo.phase_number >= state.phases_played:
            waiting.append(salvo)
            continue
        target = state.vehicles[salvo.target]
        card = flown.get(firer.id)
        if not firer.in_play or card is None:
            events.append(ev.RocketsMissed(salvo.firer, salvo.target, "the launcher is gone"))
            continue
        if card.symbol not in (Symbol.STALL, Symbol.STRAIGHT):
            events.append(
                ev.RocketsMissed(
                    salvo.firer, salvo.target, "the following maneuver is not a stall or straight"
                )
            )
            continue
        if not target.in_play:
            events.append(ev.RocketsMissed(salvo.firer, salvo.target, "the target is gone"))
            continue
        if table.overlap(firer.id, target.id):
            hits.append(RocketHit(firer.id, target.id, salvo.count))
            events.append(ev.RocketsHit(firer.id, target.id, salvo.count, None))
            continue
        arc = state.rules.front_arc
        if not in_arc_region(table.bases[target.id], firer.pose, arc):
            events.append(
                ev.RocketsMissed(salvo.firer, salvo.target, "the target left the front arc")
            )
            continue
        blocker = _complete_blocker(state, table, firer.id, target.id)
        if blocker is not None:
            hits.append(RocketHit(firer.id, blocker, salvo.count))
            events.append(ev.RocketsHit(firer.id, blocker, salvo.count, target.id))
        else:
            hits.append(RocketHit(firer.id, target.id, salvo.count))
            events.append(ev.RocketsHit(firer.id, target.id, salvo.count, None))
    state.salvos = waiting
    return hits


def _complete_blocker(state: GameState, table: Table, firer: str, target: str) -> str | None:
    """The nearest airplane that alone hides every in-arc point of the target."""
    pose = state.vehicles[firer].pose
    far = math.inf
    found: str | None = None
    for vid, base in table.bases.items():
        other = state.vehicles[vid]
        if vid in (firer, target) or other.kind != "airplane":
            continue
        if table.overlap(vid, firer) or table.overlap(vid, target):
            continue
        seen = sight(pose, state.rules.front_arc, table.bases[target], 1e6, [base])
        if seen.distance == math.inf:
            distance = math.dist(pose.point, other.pose.point)
            if distance < far:
                far, found = distance, vid
    return found
