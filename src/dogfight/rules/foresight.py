"""What a plan being chosen will do, before it is committed: where each card takes the
vehicle (its ghosts) and the dangers a player would want to hear about first.

The physical game lets a player hold a card over the table before putting it down; this
module is that gesture, measured exactly. It does not referee: the engine still rules
when the cards are revealed (other vehicles move at the same time, damage can change
everything). The warnings are per card, with the phase it is flown in:

- ``leaves_table``: the card takes the centre of the base beyond the table's edge (000:
  the vehicle is out of the game), with how far;
- ``overlaps_friend``: after the phase the base overlaps a friendly vehicle planned by
  the same player (the other friends' plans are not known, so they are not judged);
- ``black_smoke``: the card or the base touches a Black Smoke cloud (Standard Rules: the
  cloud disperses and an airplane draws a damage card from the Z deck);
- ``tripod_unopposed``: an Automated Tripod (001) had one of the player's airplanes
  nearby (within one ruler and a half, base to base) and after the phase none is:
  with "no enemies nearby" 001 walks it on towards its goal (the Earthling side).

The functions are pure: the same state and drafts give the same answer.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import shapely

from dogfight.catalog.models import IllegalManeuver, ManeuverCard, TripodCard, TripodSymbol
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.maneuver import apply_card, card_area, card_path
from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.plans import Flown, card_problem
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import planned_cards
from dogfight.rules.ww2 import scale

WarningKind = Literal["leaves_table", "overlaps_friend", "black_smoke", "tripod_unopposed"]

NEARBY_RULERS = 1.5
"""001: "airplanes within a distance of one airplane ruler and a half from the tripod"."""


@dataclass(frozen=True, slots=True)
class Ghost:
    """One card of a draft: the card chosen, the card flown (``None``: the vehicle is
    eliminated by an illegal maneuver), why they differ, and where it ends."""

    index: int
    phase: int
    card: str
    flown: str | None
    note: str | None
    start: Pose
    pose: Pose | None
    path: list[Point]
    area: Polygon | None
    """The card laid on the table (what a Black Smoke cloud is tested against)."""


@dataclass(frozen=True, slots=True)
class PlanWarning:
    """A danger of one card of a draft, in words, with the phase it is flown in."""

    vehicle: str
    index: int
    phase: int
    card: str
    kind: WarningKind
    text: str
    distance: float | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "phase": self.phase,
            "card": self.card,
            "kind": self.kind,
            "text": self.text,
            "distance": None if self.distance is None else round(self.distance, 1),
        }


def first_phase(state: GameState, vehicle: Vehicle) -> int:
    """The phase the vehicle's first card is flown in (a toppled tripod lies the first
    phases down; a tripod its damage leaves fewer cards stands still the first phases,
    ruling SR10)."""
    if vehicle.tripod is None:
        return 1
    return 1 + 3 - planned_cards(state, vehicle)


def ghosts(
    state: GameState, vehicle: Vehicle, cards: Sequence[str], speeds: Sequence[int] = ()
) -> list[Ghost]:
    """Where each card takes the vehicle, in order, from its pose now (a WW2 airplane's
    card at its speed marker)."""
    if vehicle.tripod is not None:
        return _tripod_ghosts(state, vehicle, cards)
    return _airplane_ghosts(state, vehicle, cards, speeds)


def _airplane_ghosts(
    state: GameState, vehicle: Vehicle, cards: Sequence[str], speeds: Sequence[int] = ()
) -> list[Ghost]:
    rules = state.rules
    deck = rules.deck_of(vehicle.type)
    chosen: list[ManeuverCard] = [deck.card(c) for c in cards]
    out: list[Ghost] = []
    pose = vehicle.pose
    previous: Flown | None = vehicle.previous
    eliminated = rules.switches.illegal_maneuver is IllegalManeuver.ELIMINATED
    # a WW2 airplane plans the Earthling turn of the next action phase (001)
    phase = state.phase + 1 if vehicle.clock == ONE_PHASE else first_phase(state, vehicle)
    for index, card in enumerate(chosen):
        flown = card
        note = None
        opening = phase + index == 1
        if card_problem(previous, card, opening, rules.restrictions) is not None:
            if eliminated:
                out.append(
                    Ghost(index, phase + index, card.id, None, "eliminated", pose, None, [], None)
                )
                break
            flown = deck.card(deck.straight)
            note = f"flown as straight {flown.id}"
        if index < len(speeds):
            flown = scale(flown, speeds[index], rules.switches.card_speed)
        start = pose
        path = card_path(pose, flown, rules.base_length)
        area = card_area(pose, flown, rules.base_length, deck.card_length, deck.card_width)
        pose = apply_card(pose, flown, rules.base_length)
        previous = Flown(flown.symbol, flown.is_steep)
        out.append(Ghost(index, phase + index, card.id, flown.id, note, start, pose, path, area))
    return out


def _tripod_ghosts(state: GameState, vehicle: Vehicle, cards: Sequence[str]) -> list[Ghost]:
    """Movement only: overlaps and Energy are judged when the cards are revealed."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    chosen: list[TripodCard] = [deck.card(c) for c in cards]
    depth = 2.0 * rules.hex_apothem()
    pose = vehicle.pose
    backward = vehicle.tripod.reverse_pending
    phase = first_phase(state, vehicle)
    out: list[Ghost] = []
    for index, card in enumerate(chosen):
        start = pose
        area: Polygon | None = None
        if card.moves:
            if backward:
                rear = Pose(pose.x, pose.y, normalize_heading(pose.heading + 180.0))
                area = card_area(rear, card, depth, deck.card_length, deck.card_width)
                moved = apply_card(rear, card, depth)
                pose = Pose(moved.x, moved.y, normalize_heading(moved.heading + 180.0))
            else:
                area = card_area(pose, card, depth, deck.card_length, deck.card_width)
                pose = apply_card(pose, card, depth)
        backward = card.symbol is TripodSymbol.REVERSE
        note = "backwards" if backward and not card.moves else None
        path = [start.point, pose.point]
        out.append(Ghost(index, phase + index, card.id, card.id, note, start, pose, path, area))
    return out


def _base(state: GameState, vehicle: Vehicle, pose: Pose) -> Polygon:
    if vehicle.kind == "tripod":
        return hexagon(pose, state.rules.hex_side)
    return rectangle(pose, state.rules.base_length, state.rules.base_width)


def _beyond(state: GameState, point: Point) -> tuple[float, str]:
    """How far (cm) a point lies beyond the table, and across which edge."""
    x, y = point
    width, height = state.rules.table_width, state.rules.table_height
    return max((-y, "south"), (y - height, "north"), (-x, "west"), (x - width, "east"))


def automated_tripods(state: GameState) -> set[str]:
    """The vehicles a scenario gives to 001's Automated Tripod rules."""
    if state.scenario is None:
        return set()
    listed = [*state.scenario.vehicles, *state.scenario.reinforcements]
    return {v.id for v in listed if v.automated}


def warnings(
    state: GameState,
    drafts: Mapping[str, Sequence[Ghost]],
    automated: Collection[str] = (),
) -> dict[str, list[PlanWarning]]:
    """The warnings of every card of one player's drafts (vehicle id -> its ghosts).
    ``automated`` adds vehicles played by the Automated Tripod to the scenario's."""
    out: dict[str, list[PlanWarning]] = {vid: [] for vid in drafts}
    for vid, seq in drafts.items():
        vehicle = state.vehicles[vid]
        out[vid].extend(_table_and_smoke(state, vehicle, seq))
    out_of_play = {
        w.vehicle: w.phase for ws in out.values() for w in ws if w.kind == "leaves_table"
    }
    for phase in (1, 2, 3):
        bases: dict[str, tuple[Vehicle, Ghost, Polygon]] = {}
        for vid, seq in drafts.items():
            ghost = next((g for g in seq if g.phase == phase and g.pose is not None), None)
            if ghost is None or ghost.pose is None or out_of_play.get(vid, 4) < phase:
                continue
            vehicle = state.vehicles[vid]
            bases[vid] = (vehicle, ghost, _base(state, vehicle, ghost.pose))
        for w in _friends(bases, phase):
            out[w.vehicle].append(w)
    for w in _unopposed(state, drafts, set(automated) | automated_tripods(state)):
        out[w.vehicle].append(w)
    for ws in out.values():
        ws.sort(key=lambda w: (w.index, w.kind))
    return out


def _table_and_smoke(state: GameState, vehicle: Vehicle, seq: Sequence[Ghost]) -> list[PlanWarning]:
    found: list[PlanWarning] = []
    clouds = {c.id: shapely.Point(c.x, c.y).buffer(c.radius, quad_segs=32) for c in state.clouds}
    touched: set[str] = set()
    for ghost in seq:
        if ghost.pose is None:
            break
        shapes = [shapely.Polygon(_base(state, vehicle, ghost.pose))]
        if ghost.area is not None:
            shapes.append(shapely.Polygon(ghost.area))
        for cid, disc in clouds.items():
            if cid not in touched and any(s.intersects(disc) for s in shapes):
                touched.add(cid)
                what = (
                    "the cloud disperses and the airplane draws a damage card from the Z deck"
                    if vehicle.kind == "airplane"
                    else "the cloud disperses (a tripod is unaffected)"
                )
                found.append(
                    PlanWarning(
                        vehicle.id,
                        ghost.index,
                        ghost.phase,
                        ghost.card,
                        "black_smoke",
                        f"phase {ghost.phase}: card {ghost.card} flies into black smoke "
                        f"cloud {cid}: {what}",
                    )
                )
        far, edge = _beyond(state, ghost.pose.point)
        if far > 0:
            # as printed (001: no measurement while planning): the edge, not the distance
            measured = state.rules.switches.previews == "on"
            beyond = f"{far:.1f} cm beyond" if measured else "beyond"
            found.append(
                PlanWarning(
                    vehicle.id,
                    ghost.index,
                    ghost.phase,
                    ghost.card,
                    "leaves_table",
                    f"phase {ghost.phase}: card {ghost.card} takes {vehicle.id} {beyond} "
                    f"the {edge} edge: it leaves the table and is out of the game",
                    far if measured else None,
                )
            )
            break
    return found


def _friends(bases: Mapping[str, tuple[Vehicle, Ghost, Polygon]], phase: int) -> list[PlanWarning]:
    found: list[PlanWarning] = []
    ids = sorted(bases)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            va, _ga, pa = bases[a]
            vb, _gb, pb = bases[b]
            if va.side != vb.side:
                continue
            if not shapely.Polygon(pa).intersects(shapely.Polygon(pb)):
                continue
            for vid, other in ((a, b), (b, a)):
                ghost = bases[vid][1]
                found.append(
                    PlanWarning(
                        vid,
                        ghost.index,
                        phase,
                        ghost.card,
                        "overlaps_friend",
                        f"phase {phase}: card {ghost.card} ends with {vid} on top of {other}",
                    )
                )
    return found


def _unopposed(
    state: GameState, drafts: Mapping[str, Sequence[Ghost]], automated: set[str]
) -> list[PlanWarning]:
    tripods = [
        v for v in state.vehicles.values() if v.id in automated and v.in_play and v.kind == "tripod"
    ]
    planes = [state.vehicles[vid] for vid in drafts if state.vehicles[vid].kind == "airplane"]
    if not tripods or not planes:
        return []
    limit = NEARBY_RULERS * state.rules.ruler + 1e-9
    found: list[PlanWarning] = []
    for tripod in sorted(tripods, key=lambda v: v.id):
        hexa = shapely.Polygon(state.base(tripod))
        mine = [p for p in planes if p.side != tripod.side]
        near_now = [p for p in mine if hexa.distance(shapely.Polygon(state.base(p))) <= limit]
        if not near_now:
            continue
        for phase in (1, 2, 3):
            near = False
            at_phase: list[tuple[Ghost, Vehicle]] = []
            for p in mine:
                ghost = next((g for g in drafts[p.id] if g.phase == phase), None)
                if ghost is None or ghost.pose is None:
                    continue
                at_phase.append((ghost, p))
                far, _edge = _beyond(state, ghost.pose.point)
                base = shapely.Polygon(_base(state, p, ghost.pose))
                if far <= 0 and hexa.distance(base) <= limit:
                    near = True
            if near or not at_phase:
                continue
            for ghost, p in at_phase:
                found.append(
                    PlanWarning(
                        p.id,
                        ghost.index,
                        phase,
                        ghost.card,
                        "tripod_unopposed",
                        f"phase {phase}: after card {ghost.card} none of your airplanes is "
                        f"within 1½ rulers of {tripod.id}: the Automated Tripod has no "
                        "enemies nearby and walks on towards the Earthling side (001)",
                    )
                )
            break
    return found
