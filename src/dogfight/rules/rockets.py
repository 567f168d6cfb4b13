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

Guns or rockets is chosen in the firing step, after movement (000: "After all vehicles
have moved, all airplanes can fire"; "An airplane carrying rockets may fire its machine
guns or its rockets, but not both in the same phase."): a
:class:`~dogfight.rules.decisions.Decision` of the airplane's seat alone (:func:`decision`),
asked when it carries rockets under the Standard Rules and its front guns have a target.
Options ``guns``, ``rockets:1``, ``rockets:2`` (as many counters as are left); the plan's
``rockets`` is only the default (the planned count if still legal, else guns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.errors import DogfightError
from dogfight.geometry.frozen import fast_init
from dogfight.geometry.reach import in_arc_region, sight
from dogfight.rules import events as ev
from dogfight.rules.decisions import Decision
from dogfight.rules.firing import Table
from dogfight.rules.state import GameState, Salvo, Vehicle

ROCKET_DECK = "D"

KIND = "rockets"
"""The kind of the guns-or-rockets decision (:attr:`Decision.kind`)."""

GUNS = "guns"
RULE = (
    '000: "After all vehicles have moved, all airplanes can fire"; "An airplane carrying '
    'rockets may fire its machine guns or its rockets, but not both in the same phase."'
)
COUNTERS_RULE = '000: "To fire rockets, the airplane must ... spend one or two Rocket counters"'


def option(count: int) -> str:
    """The option string launching ``count`` counters (0: the machine guns)."""
    return GUNS if count == 0 else f"rockets:{count}"


def count_of(answer: str) -> int:
    """How many counters an option launches (0: the machine guns)."""
    return 0 if answer == GUNS else int(answer.split(":", 1)[1])


def asked(state: GameState, vehicle: Vehicle) -> bool:
    """Whether ``vehicle``'s seat chooses guns or rockets: the Standard Rules are on and it
    still carries Rocket counters."""
    return vehicle.rockets > 0 and state.rules.switches.standard_rules


def decision(
    state: GameState, vehicle: Vehicle, phase: int, target: str, short: bool, distance: float
) -> Decision:
    """Guns or rockets for ``vehicle`` this firing step, its front guns aiming at
    ``target``: the options its counters allow, the others refused with the rule; the
    plan's count as the default when still legal, else guns. Shown (to its seat alone):
    the target, the range, the counters left and its following maneuver (rockets hit only
    after "a stall or a straight")."""
    left = vehicle.rockets
    options = tuple(option(n) for n in range(0, min(2, left) + 1))
    reasons = {
        option(
            n
        ): f"{vehicle.id} has {left} Rocket counter{'' if left == 1 else 's'} left: {COUNTERS_RULE}"
        for n in range(left + 1, 3)
    }
    reasons[option(3)] = f"at most two counters at once: {COUNTERS_RULE}"
    plan = vehicle.plan
    planned = plan.rockets[phase - 1] if plan is not None and phase <= len(plan.rockets) else 0
    default = option(planned) if option(planned) in options else GUNS
    following: str | None = None
    if plan is not None and phase < len(plan.cards):
        try:
            following = state.rules.deck_of(vehicle.type).card(str(plan.cards[phase])).symbol.value
        except DogfightError:  # a card id the deck does not hold: said as unknown
            following = None
    shown = {
        "target": target,
        "range": "short" if short else "long",
        "distance": round(distance, 1),
        "rockets": left,
        "following": following,
    }
    return Decision.one_of(
        KIND, vehicle.id, (state.turn, phase), options, default, RULE, shown, reasons
    )


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
