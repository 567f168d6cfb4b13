"""The Automated Tripod (001, "AUTOMATED TRIPOD RULES"): a Martian tripod that plays
itself, so that one player can fly airplanes against it.

001 replaces the tripod player's planning with a procedure run at the start of every
movement step: check the tripod's energy status, whether enemies are nearby and whether
rockets are coming, then draw or choose a maneuver card from the tripod's *current*
deck (the *reserve* deck lends it cards when airplanes come close) and, where the rules
say so, stand still to recharge or change facing. After every vehicle has moved, the
tripod fires at its best target if it can.

The bot sees only its seat's observation (:func:`dogfight.rules.observation.observe`)
and the public events it is shown (:meth:`AutomatedTripod.see`); it keeps the decks in
itself and draws every random number from the generator it is given, so a seeded game
replays exactly. Each decision is a :class:`Decision` quoting the branch of 001 that
produced it; :func:`decision_events` turns them into ``tripod_decision`` events for the
game's log.

The readings of 001 that this module makes are ``docs/rulings.md`` A1-A30.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from dogfight.bots.base import Observation, register
from dogfight.catalog.models import (
    Edge,
    Special,
    TemplateSpec,
    Tripod,
    TripodCard,
    TripodDeck,
    TripodSymbol,
)
from dogfight.geometry.heatray import RulerSpec, best_shot
from dogfight.geometry.hexbase import Side, hexagon, turned
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.reach import in_arc_region
from dogfight.geometry.shapes import (
    Polygon,
    contains,
    convex_overlap,
    local_rectangle,
    nearest_point,
    point_segment_distance,
    rectangle,
)
from dogfight.rules.context import Rules
from dogfight.rules.events import DamageCardsTaken, DamageDrawn, Event, TripodDecision
from dogfight.rules.plans import AUTO, Action, Plan

Status = Literal["full", "cruising", "emergency", "powerless"]

RULES: dict[str, str] = {
    "toppled": (
        '000: "When a tripod topples, discard all cards planned for it" / "When it '
        'discards the last token, it is put standing again": a lying tripod plays no card.'
    ),
    "powerless-1": (
        '001: "If the tripod is overlapping an unused objective template, or if none can be '
        'reached with one maneuver card, the tripod stands still and recharges."'
    ),
    "powerless-2": (
        '001: "If there are no enemies nearby and the tripod is not on an unused objective '
        "template, but one can be reached with one maneuver card from either the current "
        "deck or the reserve deck, move the tripod using the maneuver that brings it onto "
        'the objective template (if there are several options, choose one at random)."'
    ),
    "powerless-3": (
        '001: "If there are enemies nearby and the tripod is not on an unused objective '
        "template, but one can be reached with one maneuver card from either the current "
        "deck or the reserve deck, choose a maneuver as above, shuffle its card with a "
        'standing card, then draw one of the two at random and apply it."'
    ),
    "no-enemies-1": (
        '001: "A cruising tripod that is overlapping an unused objective template and that '
        'is at least 2 energy points below its maximum stands still and recharges."'
    ),
    "no-enemies-2": (
        '001: "A full or cruising tripod that is not facing the Earthling side of the '
        'table, changes facing on the spot to face towards the Earthling side."'
    ),
    "no-enemies-3": (
        '001: "A full or cruising tripod facing the Earthling side moves. To move the '
        'tripod, draw and apply the first card from the current deck."'
    ),
    "draw-off-table": (
        '001: "If the drawn card would bring the tripod outside the playing area, draw '
        "another card from the current deck to replace the first (draw again if the "
        'condition persists)."'
    ),
    "draw-cruising-standing": (
        '001: "If a cruising tripod drew a standing maneuver, the tripod stands still and '
        'recharges."'
    ),
    "draw-full-standing": '001: "If a full tripod drew a standing maneuver, draw another card."',
    "draw-third-running": (
        '001: "If the moving tripod has drawn three maneuvers in a row, replace the third '
        'maneuver with the running card from the reserve."'
    ),
    "draw-steep": (
        '001: "If a steep maneuver is used and another one is drawn in the following '
        'phase, replace the newly drawn maneuver by drawing another card."'
    ),
    "draw-exhausted": (
        "dogfight (rulings A12): no card of the current deck may be played, so the tripod "
        "stands still (and recharges)."
    ),
    "emergency-1": (
        '001: "If the Earthling side of the gaming area is within a distance of one '
        "airplane ruler, treat the tripod as if it was full or cruising (see above), with "
        "the exception that if the tripod has drawn three maneuvers in a row the third one "
        'is replaced by a standing maneuver and the tripod recharges instead."'
    ),
    "emergency-2a": (
        '001: "If there are one or more airplanes within a distance of two and a half '
        "airplane rulers, ... treat the tripod as if it was full or cruising, but move or "
        'change facing towards the best available objective" / "a) The objective template '
        "can be reached with one maneuver, or with one maneuver after changing facing or "
        'with a reverse"'
    ),
    "emergency-2b": (
        '001: "move or change facing towards the best available objective" / "b) The '
        "objective template within a distance of one airplane ruler and a half from the "
        'tripod that is closest to the Earthling side of the playing area"'
    ),
    "emergency-2c": (
        '001: "move or change facing towards the best available objective" / "c) The '
        "objective template closest to the tripod among all those that are closer than "
        'the tripod to the Earthling side of the playing area"'
    ),
    "emergency-3": (
        '001: "If none of the above applies, the tripod moves toward the Earthling side of '
        'the playing area."'
    ),
    "emergency-third": (
        '001: "In all cases, if the tripod draws three maneuvers, the third one is replaced '
        'by a standing card and the tripod recharges."'
    ),
    "enemies-reserve": (
        '001: "First, add any maneuvers in the reserve deck to the current deck, with the '
        "exception of the running and reverse cards. Keep them in the current deck as long "
        'as there are enemies nearby."'
    ),
    "ready-a": (
        '001: "a) Maneuver to acquire a target: Take a maneuver card from the current deck '
        "(standing maneuvers included) that allows the tripod to acquire its best target "
        '... (If more than one card allows targeting a vehicle, choose one card randomly)."'
    ),
    "ready-b": (
        '001: "b) Change facing to aim: If no maneuver allows the tripod to acquire a '
        "target, the tripod stands still changes facing until the red part of the automated "
        "tripod template is touched by the tripod ruler placed on its frontal heat-ray. ... "
        "Among the available options, choose the facing that would allow firing with the "
        'ruler in a straight position; if this is not possible, choose randomly."'
    ),
    "cooling-a": (
        '001: "a) Stand still and recharge: If any red part of the automated tripod '
        "template is touched by the tripod ruler placed on one of the tripod's heat-rays "
        "and the tripod is 2 or more energy points below its maximum, the tripod stands "
        'still and recharges."'
    ),
    "cooling-b": (
        '001: "b) Maneuver to aim: If none of the above applies and there are movement '
        "maneuvers that allow the tripod ruler, placed in front of an heat-ray, to touch the "
        "red part of the automated tripod template, randomly draw and execute one maneuver "
        'from among them."'
    ),
    "cooling-c": (
        '001: "c) Change facing to aim: If no movement maneuver allows the tripod to aim at '
        "an airplane, the tripod stands still and changes facing until the red part of an "
        "automated tripod template is touched by the tripod ruler placed on its frontal "
        'heat-ray."'
    ),
    "enemies-fallback": (
        "001: \"If none of the above applies, choose the tripod's behavior as if there were "
        "no enemies nearby, but keep the maneuvers you added from the reserve deck in the "
        'current deck."'
    ),
    "evasive-1": (
        '001: "If it is the first action phase of a turn and the tripod has at least 1 '
        "energy counter, draw at random from among the evasive maneuvers that allow firing; "
        "if there aren't any, draw at random from among all evasive maneuvers.\""
    ),
    "evasive-2": (
        '001: "If it is the first action phase of a turn and the tripod is powerless, draw '
        "at random from among the evasive maneuvers that move the tripod over an unused "
        "objective template; if there aren't any, draw at random among all evasive "
        'maneuvers."'
    ),
    "evasive-3": (
        '001: "If it is not the first action phase of a turn, mix the running card and the '
        "reverse card and choose one at random. If the running card is drawn, follow the "
        "procedure for case 2 above. If the reverse card is drawn, follow the usual "
        'procedure, as if rockets were not shot in the previous phase."'
    ),
    "evasive-4": (
        '001: "If rockets are coming from several airplanes, choose the maneuver that allows '
        "evasion of all of them. If this is not possible, draw at random from among those "
        'maneuvers that will avoid the highest number of rocket volleys."'
    ),
    "firing-fire": (
        '001: "After all vehicles have moved, the tripod fires if it has at least 1 energy '
        "counter, the heat-ray projector is not cooling, and the tripod has acquired a "
        'target." / "1) The target at closest range; 2) The target that can be hit by the '
        'most powerful heat-ray; 3) The target that has already drawn more damage cards."'
    ),
    "firing-recharge": (
        '001: "If the tripod stands still and does not fire for any reason, it recharges."'
    ),
    "firing-none": (
        '001: "the tripod fires if it has at least 1 energy counter, the heat-ray projector '
        'is not cooling, and the tripod has acquired a target."'
    ),
}
"""Every branch a decision may name, with the rule it applies (quoted)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One step of the automated tripod's reasoning in one phase: the ``branch`` of 001
    that produced it (a key of :data:`RULES`), the rule quoted (``text``), the card it
    concerns and the action token. The last decision of a phase before movement holds
    the card the tripod plays; a ``firing-*`` decision, made after movement, holds the
    token it finally uses."""

    tripod: str
    phase: int
    branch: str
    text: str
    card: str | None
    action: Action | None
    note: str = ""

    def event(self) -> TripodDecision:
        rule = self.text if not self.note else f"{self.text} ({self.note})"
        return TripodDecision(self.tripod, self.branch, rule, self.card, action_text(self.action))


def action_text(action: Action | None) -> str | None:
    """A token in words: ``heat_ray front-left at p1``, ``recharge from village``..."""
    if action is None:
        return None
    if action.token == "heat_ray":
        return f"heat_ray {action.projector} at {action.target}"
    if action.token == "recharge":
        return "recharge" + (f" from {action.objective}" if action.objective else "")
    if action.token == "change_facing":
        return f"change_facing {action.sides or 0:+d}"
    return action.token


def decision_events(decisions: Iterable[Decision]) -> list[TripodDecision]:
    """The ``tripod_decision`` events for a driver to append to the game's log."""
    return [d.event() for d in decisions]


def with_decisions(events: list[Event], decisions: Sequence[Decision]) -> list[Event]:
    """A phase's events with its decisions put right after its ``phase_started`` event
    (before anything the phase resolves)."""
    extra: list[Event] = list(decision_events(decisions))
    if not extra:
        return list(events)
    at = next((i + 1 for i, e in enumerate(events) if e.kind == "phase_started"), 0)
    return [*events[:at], *extra, *events[at:]]


# --- the decks ----------------------------------------------------------------------------


def solo_deck(card: TripodCard, deck: TripodDeck) -> Literal["current", "reserve"]:
    """001: "Put all long straight, long sideslip, standing still, and 60° curve maneuver
    cards in one deck (the current deck) ... Put all the remaining cards in the other deck
    (the reserve deck)". The card's ``solo`` tag when given, else derived from its
    geometry: standing still; a normal move turning 60°; the longest normal straight;
    the widest normal sideslip (a straight move with a sideways offset)."""
    if card.solo is not None:
        return card.solo
    if card.symbol is TripodSymbol.STAND:
        return "current"
    if card.symbol is not TripodSymbol.MOVE:
        return "reserve"
    if abs(abs(card.turn) - 60.0) < 1e-6:
        return "current"
    moves = [c for c in deck.cards if c.symbol is TripodSymbol.MOVE and abs(c.turn) < 1e-9]
    if abs(card.turn) < 1e-9 and abs(card.left) < 1e-9:
        longest = max(c.forward for c in moves if abs(c.left) < 1e-9)
        return "current" if card.forward >= longest - 1e-9 else "reserve"
    if abs(card.turn) < 1e-9:
        widest = max(abs(c.left) for c in moves)
        return "current" if abs(card.left) >= widest - 1e-9 else "reserve"
    return "reserve"


def running_card(deck: TripodDeck, reserve: Iterable[str]) -> TripodCard | None:
    """001's "the running card from the reserve": the first running card of the reserve
    without the Energy icon (else the first running card)."""
    cards = [deck.card(c) for c in sorted(reserve, key=_card_order(deck))]
    runs = [c for c in cards if c.symbol is TripodSymbol.RUN]
    plain = [c for c in runs if not c.energy]
    if plain:
        return plain[0]
    return runs[0] if runs else None


def reverse_card(deck: TripodDeck) -> TripodCard | None:
    return next((c for c in deck.cards if c.symbol is TripodSymbol.REVERSE), None)


def standing_card(deck: TripodDeck) -> TripodCard | None:
    """A standing still card to stand on (one without the Stop icon when possible: a green
    token needs it)."""
    stands = [c for c in deck.cards if c.symbol is TripodSymbol.STAND]
    plain = [c for c in stands if not c.stop]
    if plain:
        return plain[0]
    return stands[0] if stands else None


def _card_order(deck: TripodDeck) -> Callable[[str], int]:
    index = {c.id: i for i, c in enumerate(deck.cards)}
    return lambda cid: index.get(cid, len(index))


@dataclass(slots=True)
class Decks:
    """One automated tripod's decks (001, PREPARATION): the ``current`` draw pile (its top
    card last), the face-up ``reserve`` and the ``discard`` pile of cards used since the
    last planning phase; ``lent`` are reserve cards added to the current deck while
    enemies are nearby."""

    current: list[str]
    reserve: list[str]
    discard: list[str] = field(default_factory=list)
    lent: set[str] = field(default_factory=set)
    played: list[TripodSymbol] = field(default_factory=list)
    """Symbols of the cards played this turn (for "three maneuvers in a row")."""
    last_steep: bool = False

    @classmethod
    def prepare(cls, deck: TripodDeck, rng: np.random.Generator) -> Decks:
        current = [c.id for c in deck.cards if solo_deck(c, deck) == "current"]
        reserve = [c.id for c in deck.cards if solo_deck(c, deck) == "reserve"]
        return cls(_shuffled(current, rng), reserve)

    def home(self, card_id: str, deck: TripodDeck) -> Literal["current", "reserve"]:
        return solo_deck(deck.card(card_id), deck)

    def new_turn(self, deck: TripodDeck, rng: np.random.Generator) -> None:
        """001, PLANNING: "take all the maneuver cards used by the tripod so far, and
        shuffle them back into the corresponding deck (either current or reserve, as
        appropriate)"."""
        for card_id in self.discard:
            if self.home(card_id, deck) == "current":
                self.current.append(card_id)
            else:
                self.lent.discard(card_id)
                self.reserve.append(card_id)
        self.discard = []
        self.current = _shuffled(self.current, rng)
        self.reserve.sort(key=_card_order(deck))
        self.played = []

    def lend(self, deck: TripodDeck, rng: np.random.Generator) -> list[str]:
        """Enemies nearby: the reserve's cards but the running and reverse ones join the
        current deck (shuffled in). Returns the cards added."""
        moved = [
            c
            for c in self.reserve
            if deck.card(c).symbol not in (TripodSymbol.RUN, TripodSymbol.REVERSE)
        ]
        if not moved:
            return []
        self.reserve = [c for c in self.reserve if c not in moved]
        self.lent |= set(moved)
        self.current = _shuffled(self.current + moved, rng)
        return moved

    def take_back(self, deck: TripodDeck) -> None:
        """No enemies nearby any more: lent cards still in the current deck go back to
        the reserve (those used stay in the discard pile until the planning phase)."""
        back = [c for c in self.current if c in self.lent]
        if not back:
            return
        self.current = [c for c in self.current if c not in self.lent]
        self.lent -= set(back)
        self.reserve = sorted(self.reserve + back, key=_card_order(deck))

    def use(self, card_id: str) -> None:
        """A card the tripod plays goes to the discard pile (from wherever it is)."""
        if card_id in self.current:
            self.current.remove(card_id)
        elif card_id in self.reserve:
            self.reserve.remove(card_id)
        self.discard.append(card_id)


def _shuffled(cards: list[str], rng: np.random.Generator) -> list[str]:
    order = rng.permutation(len(cards))
    return [cards[int(i)] for i in order]


# --- what the tripod sees ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plane:
    """An enemy airplane as the observation shows it."""

    id: str
    type: str
    pose: Pose
    base: Polygon
    rockets: int


@dataclass(slots=True)
class Scene:
    """One automated tripod's view of the table at a decision."""

    rules: Rules
    me: str
    model: Tripod
    deck: TripodDeck
    pose: Pose
    energy: int
    rating: int
    cooling: int
    reverse: bool
    planes: list[Plane]
    others: dict[str, Polygon]
    """Bases of every other vehicle in play (airplanes and tripods)."""
    tripods: list[Polygon]
    """Bases of the other tripods in play (they block a heat-ray aimed at a template)."""
    objectives: list[tuple[str, float, float]]
    """Unused objective templates: not destroyed, a charge left."""
    earth: Edge
    phase: int
    exit_earth: bool
    wounded: bool = False
    """Its pilot is wounded (000: "cannot choose a firing Action token in combination with
    a movement maneuver"), as its own damage cards show."""
    gyroscope: bool = False
    """Its gyroscope is out of order this turn (000: "cannot choose the Change facing
    Action token")."""

    @property
    def base(self) -> Polygon:
        return hexagon(self.pose, self.rules.hex_side)

    @property
    def ruler(self) -> RulerSpec:
        spec = self.rules.heat_ray_ruler(self.model.id)
        return RulerSpec(spec.length, spec.half, spec.width, spec.tilt)


def _as_pose(data: dict[str, Any]) -> Pose:
    return Pose(float(data["x"]), float(data["y"]), normalize_heading(float(data["heading"])))


def scene_of(
    observation: Observation, rules: Rules, tripod: str, earth: Edge, exit_earth: bool, phase: int
) -> Scene:
    """Read one tripod's scene from its seat's observation."""
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[tripod]
    pose = _as_pose(me["pose"])
    planes: list[Plane] = []
    others: dict[str, Polygon] = {}
    tripods: list[Polygon] = []
    for vid, view in sorted(views.items()):
        if vid == tripod or view["eliminated"] is not None:
            continue
        vpose = _as_pose(view["pose"])
        if view["type"] in rules.catalog.tripods and "energy" in view:
            poly = hexagon(vpose, rules.hex_side)
            tripods.append(poly)
            others[vid] = poly
            continue
        poly = rectangle(vpose, rules.base_length, rules.base_width)
        others[vid] = poly
        if view["side"] != me["side"]:
            planes.append(Plane(vid, view["type"], vpose, poly, int(view.get("rockets", 0))))
    objectives = [
        (str(o["id"]), float(o["x"]), float(o["y"]))
        for o in observation.get("objectives", [])
        if not o["destroyed"] and int(o["charges"]) > 0
    ]
    return Scene(
        rules=rules,
        me=tripod,
        model=rules.tripod(me["type"]),
        deck=rules.tripod_deck_of(me["type"]),
        pose=pose,
        energy=int(me["energy"]),
        rating=int(me["energy_rating"]),
        cooling=int(me["cooling"]),
        reverse=bool(me.get("reverse", False)),
        planes=planes,
        others=others,
        tripods=tripods,
        objectives=objectives,
        earth=earth,
        phase=phase,
        exit_earth=exit_earth,
    )


def energy_status(energy: int, rating: int, recharge_level: int) -> Status:
    """001: "Operative, when the tripod has 1 or more energy counters. Powerless, if it is
    at 0 energy." / "Full, when it has the maximum amount of energy possible. Cruising, if
    it has more energy than its recharge level, but not the maximum. In Emergency, if it
    has at least 1 energy counter, but no more than its recharge level.\""""
    if energy <= 0:
        return "powerless"
    if energy >= rating:
        return "full"
    if energy > recharge_level:
        return "cruising"
    return "emergency"


# --- geometry -----------------------------------------------------------------------------


def poly_distance(a: Polygon, b: Polygon) -> float:
    """The shortest distance between two convex polygons (0 when they touch or overlap)."""
    if convex_overlap(a, b) or contains(a, b[0]) or contains(b, a[0]):
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for p in poly:
            for i in range(n):
                d, _ = point_segment_distance(p, other[i], other[(i + 1) % n])
                best = min(best, d)
    return best


def edge_distance(scene: Scene, point: Point, edge: str) -> float:
    x, y = point
    return {
        "south": y,
        "north": scene.rules.table_height - y,
        "west": x,
        "east": scene.rules.table_width - x,
    }[edge]


def base_edge_distance(scene: Scene, base: Polygon, edge: str) -> float:
    """How far a base is from a table edge (its nearest vertex)."""
    return max(0.0, min(edge_distance(scene, v, edge) for v in base))


def after(scene: Scene, card: TripodCard, pose: Pose | None = None) -> Pose:
    """Where the tripod stands after ``card`` (backwards after a reverse, as the engine
    moves it: 000's "the maneuver card is applied to the rear of the tripod")."""
    start = scene.pose if pose is None else pose
    if not card.moves:
        return start
    depth = 2.0 * scene.rules.hex_apothem()
    if scene.reverse and pose is None:
        rear = Pose(start.x, start.y, normalize_heading(start.heading + 180.0))
        moved = apply_card(rear, card, depth)
        return Pose(moved.x, moved.y, normalize_heading(moved.heading + 180.0))
    return apply_card(start, card, depth)


def leaves_table(scene: Scene, pose: Pose) -> bool:
    """000: "the center of its base is even partly outside of the playing area". Leaving
    across the Earthling side is the invader's goal, not a card to redraw (A8)."""
    x, y = pose.point
    w, h = scene.rules.table_width, scene.rules.table_height
    if 0 <= x <= w and 0 <= y <= h:
        return False
    if not scene.exit_earth:
        return True
    edges = ("south", "north", "west", "east")
    out_by = min(edges, key=lambda e: edge_distance(scene, pose.point, e))
    return out_by != scene.earth


def line_to_earth(scene: Scene, pose: Pose) -> float | None:
    """001: the length of "an imaginary line from the center of the rear side of the
    tripod's base going across the center of its front side" to where it "reaches the
    Earthling side of the playing area" (None: it leaves the table by another side)."""
    dx, dy = pose.forward()
    w, h = scene.rules.table_width, scene.rules.table_height
    x, y = pose.point
    hits: list[tuple[float, str]] = []
    if dy < -1e-12:
        hits.append((-y / dy, "south"))
    if dy > 1e-12:
        hits.append(((h - y) / dy, "north"))
    if dx < -1e-12:
        hits.append((-x / dx, "west"))
    if dx > 1e-12:
        hits.append(((w - x) / dx, "east"))
    if not hits:
        return None
    first = min(t for t, _ in hits)
    if not any(edge == scene.earth and t <= first + 1e-9 for t, edge in hits):
        return None
    return max(0.0, first) + scene.rules.hex_apothem()


TOWARDS = {"south": 270.0, "north": 90.0, "west": 180.0, "east": 0.0}
"""The heading straight towards each edge."""


def _heading_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def facing_earth(scene: Scene, pose: Pose | None = None) -> bool:
    """001: facing the Earthling side if the line "reaches the Earthling side of the
    playing area, and if there is not another orientation that would make this line
    shorter. If the line reaches the Earthling side, do not consider other facings that
    would allow shorter lines if the difference in length is half an airplane ruler or
    less." Orientations are the six facings of the base on the spot. When no facing's
    line reaches that side (far from it, after 30° turns), the facing nearest to straight
    towards it counts (A5)."""
    pose = scene.pose if pose is None else pose
    lengths = [line_to_earth(scene, turned(pose, k)) for k in range(6)]
    reaching = [v for v in lengths if v is not None]
    if not reaching:
        return _heading_gap(pose.heading, TOWARDS[scene.earth]) <= 30.0 + 1e-9
    mine = lengths[0]
    return mine is not None and mine <= min(reaching) + scene.rules.ruler / 2.0 + 1e-9


def turn_towards_earth(scene: Scene) -> int:
    """The change of facing (sides, positive to the left, within the tripod's limit) that
    faces the Earthling side with the shortest line, or comes nearest to it (A6)."""
    limit = scene.model.facing_limit
    turns = [k for k in range(-limit, limit + 1) if k != 0]
    good = [k for k in turns if facing_earth(scene, turned(scene.pose, k))]
    if good:
        return min(
            good,
            key=lambda k: (line_to_earth(scene, turned(scene.pose, k)) or 0.0, abs(k), -k),
        )
    lengths = {k: line_to_earth(scene, turned(scene.pose, k)) for k in range(6)}
    reach = {k: v for k, v in lengths.items() if v is not None}
    if reach:
        target = min(reach, key=lambda k: reach[k])
    else:
        straight = TOWARDS[scene.earth]
        target = min(range(6), key=lambda k: _heading_gap(scene.pose.heading + 60.0 * k, straight))
    return min(turns, key=lambda k: (_side_gap(k, target), abs(k), -k))


def _side_gap(k: int, target: int) -> int:
    gap = (k - target) % 6
    return min(gap, 6 - gap)


def bearing_gap(pose: Pose, point: Point) -> float:
    """Degrees between the heading and the direction to ``point`` (0..180)."""
    angle = math.degrees(math.atan2(point[1] - pose.y, point[0] - pose.x))
    return abs((angle - pose.heading + 180.0) % 360.0 - 180.0)


def turn_towards(scene: Scene, point: Point) -> int:
    """The change of facing, within the limit, pointing the front side nearest to
    ``point``."""
    limit = scene.model.facing_limit
    turns = [k for k in range(-limit, limit + 1) if k != 0]
    return min(turns, key=lambda k: (bearing_gap(turned(scene.pose, k), point), abs(k), -k))


def template(scene: Scene, plane: Plane, spec: TemplateSpec) -> Polygon:
    """001: "place an S Automated tripod template in front of each airplane base": the
    red part, laid like a maneuver card from the middle of the base's front edge."""
    nose = plane.pose.moved(scene.rules.base_length / 2.0, 0.0, 0.0)
    return local_rectangle(
        nose, spec.offset, spec.offset + spec.length, -spec.width / 2.0, spec.width / 2.0
    )


@dataclass(frozen=True, slots=True)
class Aim:
    """A ruler reaching a template (or a base): which projector, how far, whether at
    short range and whether the ruler lies straight."""

    target: str
    projector: Side
    distance: float
    short: bool


def aims(
    scene: Scene,
    pose: Pose,
    zones: dict[str, Polygon],
    projectors: Sequence[Side],
    blockers: Sequence[Polygon],
    ruler: RulerSpec | None = None,
) -> list[Aim]:
    """001: "Acquiring a target means that the tripod ruler touches the red part of the
    automated tripod template, using the more appropriate side of the ruler, placing it on
    one of the tripod's firing sides. The red part of the template should not overlap the
    tripod." The nearest placement per target."""
    ruler = ruler or scene.ruler
    base = hexagon(pose, scene.rules.hex_side)
    reach = scene.rules.hex_side + ruler.length
    out: list[Aim] = []
    for target, zone in zones.items():
        if convex_overlap(zone, base):
            continue
        if nearest_point(zone, pose.point)[0] > reach:
            continue
        best: Aim | None = None
        for side in projectors:
            shot = best_shot(pose, scene.rules.hex_side, side, ruler, zone, blockers)
            if shot is not None and (best is None or shot.distance < best.distance - 1e-12):
                best = Aim(target, side, shot.distance, shot.short)
        if best is not None:
            out.append(best)
    return out


def on_objective(scene: Scene, pose: Pose) -> str | None:
    """The unused objective template the base overlaps (the engine's test, 000: "If the
    tripod base overlaps an Objective token")."""
    base = hexagon(pose, scene.rules.hex_side)
    radius = scene.rules.catalog.constants.tripods.objective_radius
    for oid, x, y in sorted(scene.objectives):
        if nearest_point(base, (x, y))[0] < radius:
            return oid
    return None


# --- the bot ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Memo:
    """What the tripod chose before movement, for the firing step."""

    heat_ready: bool
    card: TripodCard | None
    action: Action | None


@dataclass(slots=True)
class _Choice:
    card: TripodCard | None
    action: Action | None
    branch: str
    note: str = ""


class AutomatedTripod:
    """A seat of automated tripods (001). ``earth`` is the Earthling side of the table
    (the south edge unless the scenario says otherwise); ``steep`` lists tripod card ids
    that carry a steep symbol (the shipped decks have none); ``exit_earth`` lets a card
    take the tripod off the table across the Earthling side (A8)."""

    name = "automated-tripod"

    def __init__(
        self, earth: Edge = "south", steep: Iterable[str] = (), exit_earth: bool = True
    ) -> None:
        self.earth: Edge = earth
        self.steep = frozenset(steep)
        self.exit_earth = exit_earth
        self.last_decisions: list[Decision] = []
        self.decks: dict[str, Decks] = {}
        self.cards_drawn: dict[str, int] = {}
        """Damage cards each vehicle was seen to draw (public, R26)."""
        self._rockets: dict[str, int] = {}
        self._memo: dict[str, _Memo] = {}
        self._held: dict[str, Counter[str]] = {}
        self._gyroscope: dict[str, set[int]] = {}

    # -- the Bot protocol --------------------------------------------------------------

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        """001, PLANNING: "No cards are chosen for the tripod. Instead, take all the
        maneuver cards used by the tripod so far, and shuffle them back into the
        corresponding deck"."""
        plans: dict[str, Plan] = {}
        for view in sorted(observation["vehicles"], key=lambda v: v["id"]):
            if view["id"] not in seat or view["eliminated"] is not None or "energy" not in view:
                continue
            deck = rules.tripod_deck_of(view["type"])
            decks = self._decks_of(view["id"], deck, rng)
            decks.new_turn(deck, rng)
            plans[view["id"]] = Plan(cards=(), automated=True)
        return plans

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        """At the start of a movement step: each automated tripod's card and token.

        A token planned to fire is this decision's guess (the projector that acquired
        the best target); a driver that can show the bot the table after movement calls
        :meth:`fire_actions` for 001's firing step instead."""
        self.last_decisions = []
        self._memo = {}
        launched = self._launches(observation, rules)
        actions: dict[str, Action | None] = {}
        cards: dict[str, str] = {}
        for view in sorted(observation["vehicles"], key=lambda v: v["id"]):
            vid = view["id"]
            if vid not in seat or view["eliminated"] is not None or "energy" not in view:
                continue
            if int(view["toppled"]) > 0:
                self._log(vid, phase, _Choice(None, None, "toppled"))
                continue
            scene = scene_of(observation, rules, vid, self.earth, self.exit_earth, phase)
            self._own_damage(scene, view, int(observation["turn"]))
            decks = self._decks_of(vid, scene.deck, rng)
            volleys = [p for p in scene.planes if p.id in launched.get(vid, ())]
            choice = self._decide(scene, decks, volleys, rng)
            self._log(vid, phase, choice)
            assert choice.card is not None
            cards[vid] = choice.card.id
            actions[vid] = choice.action
            decks.played.append(choice.card.symbol)
            decks.last_steep = choice.card.id in self.steep
            self._memo[vid] = _Memo(scene.cooling == 0, choice.card, choice.action)
        return actions, cards

    # -- after movement: the firing step ------------------------------------------------

    def fire_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> dict[str, Action | None]:
        """001, FIRING THE TRIPOD, decided on the table after every vehicle has moved:
        the token each automated tripod finally uses this phase (a heat-ray at its best
        target, a recharge when it stood still without firing, or its change of facing).
        """
        out: dict[str, Action | None] = {}
        views = {v["id"]: v for v in observation["vehicles"]}
        for vid in sorted(self._memo):
            memo = self._memo[vid]
            view = views.get(vid)
            if view is None or view["eliminated"] is not None or memo.card is None:
                continue
            if int(view["toppled"]) > 0:
                why = "it toppled during the movement step"
                self._log(vid, phase, _Choice(memo.card, None, "firing-none", why))
                out[vid] = None
                continue
            if memo.action is not None and memo.action.token == "change_facing":
                out[vid] = memo.action
                why = "its token this phase is the change of facing"
                self._log(vid, phase, _Choice(memo.card, memo.action, "firing-none", why))
                continue
            scene = scene_of(observation, rules, vid, self.earth, self.exit_earth, phase)
            self._own_damage(scene, view, int(observation["turn"]))
            choice = self._fire(scene, memo, rng)
            out[vid] = choice.action
            self._log(vid, phase, choice)
        return out

    def see(self, events: Iterable[Event]) -> None:
        """Public events the seat saw: the number of damage cards each vehicle drew
        (000: drawn in the open; R26) for 001's third best-target priority."""
        for event in events:
            if isinstance(event, DamageCardsTaken):
                self.cards_drawn[event.vehicle] = self.cards_drawn.get(event.vehicle, 0) + (
                    event.count
                )
            elif isinstance(event, DamageDrawn):
                self.cards_drawn[event.vehicle] = self.cards_drawn.get(event.vehicle, 0) + len(
                    event.cards
                )

    # -- bookkeeping ---------------------------------------------------------------------

    def _own_damage(self, scene: Scene, view: dict[str, Any], turn: int) -> None:
        """The special damage its own damage cards show (the seat sees them): a wounded
        pilot for good, a gyroscope out of order for the turn after the card came."""
        held = Counter(str(c) for c in view.get("damage_cards", []))
        before = self._held.get(scene.me, Counter())
        self._held[scene.me] = held
        decks = scene.rules.catalog.damage_decks
        gyro = self._gyroscope.setdefault(scene.me, set())
        for key in held:
            letter, _, card_id = key.partition(":")
            spec = (
                next((c for c in decks[letter].cards if c.id == card_id), None)
                if (letter in decks)
                else None
            )
            if spec is None:
                continue
            if Special.WOUNDED_PILOT in spec.specials:
                scene.wounded = True
            if Special.GYROSCOPE in spec.specials and held[key] > before.get(key, 0):
                # drawn in the previous phase: this turn's if the phase is not the first
                gyro.add(turn + 1 if scene.phase > 1 else turn)
        scene.gyroscope = turn in gyro

    def _decks_of(self, vid: str, deck: TripodDeck, rng: np.random.Generator) -> Decks:
        if vid not in self.decks:
            self.decks[vid] = Decks.prepare(deck, rng)
        return self.decks[vid]

    def _log(self, vid: str, phase: int, choice: _Choice) -> None:
        card = None if choice.card is None else choice.card.id
        self.last_decisions.append(
            Decision(
                vid, phase, choice.branch, RULES[choice.branch], card, choice.action, choice.note
            )
        )

    def _note(self, scene: Scene, branch: str, card: TripodCard | None, note: str = "") -> None:
        """A step of the reasoning that does not fix the card yet (a card drawn and put
        aside, reserve cards lent): no card, no token."""
        if card is not None:
            note = f"drew {card.id}" + (f"; {note}" if note else "")
        self._log(scene.me, scene.phase, _Choice(None, None, branch, note))

    def _launches(self, observation: Observation, rules: Rules) -> dict[str, list[str]]:
        """Airplanes whose rocket counters went down since the last movement step launched
        rockets in the previous phase (rockets are public). The target is the seat's
        tripod nearest in the launcher's front arc within a ruler (000: rockets need "the
        target in its front firing arc at one ruler of distance or less")."""
        out: dict[str, list[str]] = {}
        views = [v for v in observation["vehicles"] if v["eliminated"] is None]
        tripods = [v for v in views if "energy" in v]
        for view in views:
            before = self._rockets.get(view["id"])
            now = int(view.get("rockets", 0))
            self._rockets[view["id"]] = now
            if before is None or now >= before or "energy" in view:
                continue
            pose = _as_pose(view["pose"])
            best: tuple[float, str] | None = None
            for tripod in tripods:
                if tripod["side"] == view["side"]:
                    continue
                base = hexagon(_as_pose(tripod["pose"]), rules.hex_side)
                region = in_arc_region(base, pose, rules.front_arc)
                if not region:
                    continue
                gap = nearest_point(region, pose.point)[0]
                if gap <= rules.ruler + 1e-9 and (best is None or gap < best[0]):
                    best = (gap, tripod["id"])
            if best is not None:
                out.setdefault(best[1], []).append(view["id"])
        return out

    # -- the procedure -------------------------------------------------------------------

    def _decide(
        self, scene: Scene, decks: Decks, volleys: list[Plane], rng: np.random.Generator
    ) -> _Choice:
        status = energy_status(scene.energy, scene.rating, scene.model.recharge_level)
        nearby = self._enemies_within(scene, 1.5)
        if nearby and status != "powerless":
            added = decks.lend(scene.deck, rng)
            if added:
                self._note(scene, "enemies-reserve", None, "added: " + ", ".join(added))
        elif not nearby:
            decks.take_back(scene.deck)
        if volleys:
            evaded = self._evade(scene, decks, volleys, status, rng)
            if evaded is not None:
                return evaded
        if status == "powerless":
            return self._powerless(scene, decks, bool(nearby), rng)
        if nearby:
            return self._enemies(scene, decks, status, rng)
        return self._no_enemies(scene, decks, status, rng)

    def _enemies_within(self, scene: Scene, rulers: float) -> list[Plane]:
        """001: "airplanes within a distance of one airplane ruler and a half from the
        tripod in any direction" (base to base, A4)."""
        limit = rulers * scene.rules.ruler + 1e-9
        base = scene.base
        return [p for p in scene.planes if poly_distance(base, p.base) <= limit]

    def _third_move(self, decks: Decks, card: TripodCard) -> bool:
        """The card would be the third normal movement of the turn with no stationary or
        running card (000: illegal, the tripod topples; 001: "three maneuvers in a
        row")."""
        return (
            card.symbol is TripodSymbol.MOVE
            and len(decks.played) >= 2
            and all(s is TripodSymbol.MOVE for s in decks.played)
        )

    def _playable(self, scene: Scene, decks: Decks, card: TripodCard) -> bool:
        """A card the tripod may choose (A11): no Energy card without Energy, no third
        movement card in a row, no steep card after a steep one, not off the table."""
        if card.energy and scene.energy < 1:
            return False
        if self._third_move(decks, card):
            return False
        if decks.last_steep and card.id in self.steep:
            return False
        return not leaves_table(scene, after(scene, card))

    def _recharge(self, scene: Scene) -> Action:
        """A recharge token, drawing on the objective under the base when it gives more
        than the single Energy of a plain recharge (A9)."""
        under = on_objective(scene, scene.pose)
        if under is not None and scene.rating - scene.energy >= 2:
            return Action(token="recharge", objective=under)
        return Action(token="recharge")

    def _stand(self, scene: Scene, branch: str, recharge: bool, note: str = "") -> _Choice:
        card = standing_card(scene.deck)
        return _Choice(card, self._recharge(scene) if recharge else None, branch, note)

    def _face(self, scene: Scene, sides: int, branch: str, note: str = "") -> _Choice:
        if scene.gyroscope:
            why = "the gyroscope is out of order this turn: it stands still instead (A24)"
            return self._stand(scene, branch, True, f"{note}; {why}" if note else why)
        action = Action(token="change_facing", sides=sides)
        return _Choice(standing_card(scene.deck), action, branch, note)

    # no enemies nearby -------------------------------------------------------------------

    def _no_enemies(
        self, scene: Scene, decks: Decks, status: Status, rng: np.random.Generator
    ) -> _Choice:
        if status in ("full", "cruising"):
            return self._cruise(scene, decks, status == "full", False, "no-enemies", rng)
        return self._emergency(scene, decks, rng)

    def _cruise(
        self,
        scene: Scene,
        decks: Decks,
        full: bool,
        emergency: bool,
        prefix: str,
        rng: np.random.Generator,
        procedure: str | None = None,
    ) -> _Choice:
        """THE TRIPOD IS FULL OR CRUISING, rules 1-3, towards the Earthling side."""
        if not full and scene.rating - scene.energy >= 2:
            under = on_objective(scene, scene.pose)
            if under is not None:
                branch = "no-enemies-1"
                return self._stand(scene, branch, True, f"on objective {under}")
        if not facing_earth(scene):
            sides = turn_towards_earth(scene)
            return self._face(scene, sides, procedure or "no-enemies-2")
        return self._draw_move(scene, decks, full, emergency, procedure or "no-enemies-3", rng)

    def _draw_move(
        self,
        scene: Scene,
        decks: Decks,
        full: bool,
        emergency: bool,
        procedure: str,
        rng: np.random.Generator,
    ) -> _Choice:
        """Draw from the current deck with 001's redraw rules."""
        aside: list[str] = []
        try:
            while decks.current:
                card_id = decks.current.pop()
                card = scene.deck.card(card_id)
                if card.energy and scene.energy < 1:
                    aside.append(card_id)
                    continue
                if decks.last_steep and card_id in self.steep:
                    self._note(scene, "draw-steep", card)
                    aside.append(card_id)
                    continue
                if leaves_table(scene, after(scene, card)):
                    self._note(scene, "draw-off-table", card)
                    aside.append(card_id)
                    continue
                if card.symbol is TripodSymbol.STAND:
                    if full:
                        self._note(scene, "draw-full-standing", card)
                        aside.append(card_id)
                        continue
                    decks.discard.append(card_id)
                    return _Choice(card, self._recharge(scene), "draw-cruising-standing")
                if self._third_move(decks, card):
                    aside.append(card_id)
                    if emergency:
                        return self._stand(scene, "emergency-third", True, f"drew {card_id}")
                    run = running_card(scene.deck, decks.reserve)
                    if run is None or not self._playable(scene, decks, run):
                        return self._stand(scene, "draw-third-running", True, "no running card")
                    decks.use(run.id)
                    return _Choice(run, None, "draw-third-running", f"drew {card_id}")
                decks.discard.append(card_id)
                return _Choice(card, None, procedure)
            return self._stand(scene, "draw-exhausted", True)
        finally:
            if aside:
                decks.current = _shuffled(decks.current + aside, rng)

    def _emergency(self, scene: Scene, decks: Decks, rng: np.random.Generator) -> _Choice:
        """THE TRIPOD IS IN EMERGENCY, rules 1 and 2, else towards the Earthling side."""
        if base_edge_distance(scene, scene.base, scene.earth) <= scene.rules.ruler + 1e-9:
            return self._cruise(scene, decks, False, True, "emergency", rng, "emergency-1")
        if self._enemies_within(scene, 2.5):
            choice = self._best_objective(scene, decks, rng)
            if choice is not None:
                return choice
        return self._cruise(scene, decks, False, True, "emergency", rng, "emergency-3")

    def _best_objective(
        self, scene: Scene, decks: Decks, rng: np.random.Generator
    ) -> _Choice | None:
        """001's best available objective, a) to c), and the move or change of facing
        towards it."""
        if scene.rating - scene.energy >= 2:
            under = on_objective(scene, scene.pose)
            if under is not None:
                return self._stand(scene, "no-enemies-1", True, f"on objective {under}")
        # a) reachable with one maneuver (now), after a change of facing or a reverse
        direct: dict[str, list[TripodCard]] = {}
        for card_id in sorted(set(decks.current), key=_card_order(scene.deck)):
            card = scene.deck.card(card_id)
            if not card.moves or not self._playable(scene, decks, card):
                continue
            oid = on_objective(scene, after(scene, card))
            if oid is not None:
                direct.setdefault(oid, []).append(card)
        if direct:
            oid = self._nearest_earth_objective(scene, list(direct))
            options = direct[oid]
            card = options[int(rng.integers(len(options)))]
            if self._third_move(decks, card):
                return self._stand(scene, "emergency-third", True, f"objective {oid}")
            decks.use(card.id)
            return _Choice(card, None, "emergency-2a", f"objective {oid} with one maneuver")
        staged = self._two_step_objective(scene, decks)
        if staged is not None:
            return staged
        # b) within a ruler and a half, closest to the Earthling side
        base = scene.base
        near = [
            o
            for o in scene.objectives
            if nearest_point(base, (o[1], o[2]))[0] <= 1.5 * scene.rules.ruler + 1e-9
        ]
        if near:
            oid = self._nearest_earth_objective(scene, [o[0] for o in near])
            return self._towards(scene, decks, oid, "emergency-2b", rng)
        # c) the closest of those nearer than the tripod to the Earthling side
        mine = edge_distance(scene, scene.pose.point, scene.earth)
        ahead = [
            o for o in scene.objectives if edge_distance(scene, (o[1], o[2]), scene.earth) < mine
        ]
        if ahead:
            closest = min(ahead, key=lambda o: (math.dist(scene.pose.point, (o[1], o[2])), o[0]))
            return self._towards(scene, decks, closest[0], "emergency-2c", rng)
        return None

    def _nearest_earth_objective(self, scene: Scene, ids: list[str]) -> str:
        where = {o[0]: (o[1], o[2]) for o in scene.objectives}
        return min(ids, key=lambda oid: (edge_distance(scene, where[oid], scene.earth), oid))

    def _two_step_objective(self, scene: Scene, decks: Decks) -> _Choice | None:
        """a) "with one maneuver after changing facing or with a reverse (if changing
        facing or a reverse is needed, the tripod changes facing/plays the reverse this
        phase, and the eventual maneuver required after the facing change/reverse in the
        next phase)". A change of facing is preferred to a reverse (A14)."""
        cards = [
            scene.deck.card(c)
            for c in sorted(set(decks.current), key=_card_order(scene.deck))
            if scene.deck.card(c).moves
        ]
        limit = scene.model.facing_limit
        found: list[tuple[float, str, int]] = []
        for k in [k for k in range(-limit, limit + 1) if k != 0]:
            pose = turned(scene.pose, k)
            for card in cards:
                oid = on_objective(scene, after(scene, card, pose))
                if oid is not None:
                    where = next((o[1], o[2]) for o in scene.objectives if o[0] == oid)
                    found.append((edge_distance(scene, where, scene.earth), oid, k))
        if found:
            _, oid, k = min(found, key=lambda f: (f[0], f[1], abs(f[2]), -f[2]))
            return self._face(scene, k, "emergency-2a", f"objective {oid} after a change of facing")
        reverse = reverse_card(scene.deck)
        if reverse is None or reverse.id not in decks.reserve or scene.reverse:
            return None
        back = replace(scene, reverse=True)
        behind = {
            oid
            for card in cards
            if not (card.energy and scene.energy < 2)
            and (oid := on_objective(back, after(back, card))) is not None
        }
        if not behind:
            return None
        oid = self._nearest_earth_objective(scene, sorted(behind))
        decks.use(reverse.id)
        return _Choice(reverse, None, "emergency-2a", f"objective {oid} after a reverse")

    def _towards(
        self, scene: Scene, decks: Decks, oid: str, branch: str, rng: np.random.Generator
    ) -> _Choice:
        """Treat the tripod as cruising, but "move or change facing towards" objective
        ``oid``: face it (its centre within the front side's 60°), then draw (A15)."""
        where = next((o[1], o[2]) for o in scene.objectives if o[0] == oid)
        if bearing_gap(scene.pose, where) > 30.0 + 1e-9:
            return self._face(scene, turn_towards(scene, where), branch, f"objective {oid}")
        choice = self._draw_move(scene, decks, False, True, branch, rng)
        if not choice.note:
            choice.note = f"objective {oid}"
        return choice

    # enemies nearby ----------------------------------------------------------------------

    def _enemies(
        self, scene: Scene, decks: Decks, status: Status, rng: np.random.Generator
    ) -> _Choice:
        templates = scene.rules.catalog.constants.tripods.templates
        projectors = [Side.parse(p) for p in scene.model.projectors]
        if scene.cooling == 0:
            zones = {p.id: template(scene, p, templates.S) for p in scene.planes}
            choice = self._acquire(scene, decks, zones, projectors, rng)
            if choice is None:
                choice = self._face_to_aim(scene, zones, "ready-b", rng)
        else:
            zones = {p.id: template(scene, p, templates.L) for p in scene.planes}
            choice = self._cooling(scene, decks, zones, projectors, rng)
        if choice is not None:
            return choice
        self._note(scene, "enemies-fallback", None)
        return self._no_enemies(scene, decks, status, rng)

    def _best_target(self, aims_by: dict[str, Aim], rng: np.random.Generator) -> str:
        """001's best target: "1) The target at closest range; 2) The target that can be
        hit by the most powerful heat-ray; 3) The target that has already drawn more damage
        cards" (ties at random). One tripod's projectors share one ray (A17)."""

        def key(aim: Aim) -> tuple[int, int]:
            return (0 if aim.short else 1, -self.cards_drawn.get(aim.target, 0))

        best = min(key(a) for a in aims_by.values())
        tied = sorted(t for t, a in aims_by.items() if key(a) == best)
        return tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0]

    def _acquire(
        self,
        scene: Scene,
        decks: Decks,
        zones: dict[str, Polygon],
        projectors: list[Side],
        rng: np.random.Generator,
    ) -> _Choice | None:
        """THE TRIPOD HEAT-RAY IS READY, a) maneuver to acquire a target."""
        per_card: list[tuple[TripodCard, dict[str, Aim]]] = []
        best_per_target: dict[str, Aim] = {}
        for card_id in sorted(set(decks.current), key=_card_order(scene.deck)):
            card = scene.deck.card(card_id)
            if card.stop or not self._playable(scene, decks, card):
                continue
            if scene.wounded and card.moves:
                continue  # 000: a wounded pilot does not fire while moving
            if card.energy and scene.energy < 2:
                continue  # it could not fire after paying for the card
            found = aims(scene, after(scene, card), zones, projectors, scene.tripods)
            if not found:
                continue
            table = {a.target: a for a in found}
            per_card.append((card, table))
            for aim in found:
                known = best_per_target.get(aim.target)
                if known is None or (aim.short and not known.short):
                    best_per_target[aim.target] = aim
        if not per_card:
            return None
        target = self._best_target(best_per_target, rng)
        options = [(c, t[target]) for c, t in per_card if target in t]
        card, aim = options[int(rng.integers(len(options)))]
        decks.use(card.id)
        action = Action(token="heat_ray", projector=aim.projector.label, target=AUTO)
        return _Choice(card, action, "ready-a", f"best target {target}")

    def _face_to_aim(
        self, scene: Scene, zones: dict[str, Polygon], branch: str, rng: np.random.Generator
    ) -> _Choice | None:
        """Change facing to aim: stand still and turn until the frontal heat-ray's ruler
        touches a template; best target first, then a straight ruler, else at random."""
        limit = scene.model.facing_limit
        ruler = scene.ruler
        straight = RulerSpec(ruler.length, ruler.half, ruler.width, 0.0)
        options: list[tuple[int, Aim, bool]] = []
        for k in [k for k in range(-limit, limit + 1) if k != 0]:
            pose = turned(scene.pose, k)
            for aim in aims(scene, pose, zones, [Side.FRONT], scene.tripods):
                level = aims(
                    scene,
                    pose,
                    {aim.target: zones[aim.target]},
                    [Side.FRONT],
                    scene.tripods,
                    straight,
                )
                options.append((k, aim, bool(level)))
        if not options:
            return None
        best_per_target: dict[str, Aim] = {}
        for _, aim, _ in options:
            known = best_per_target.get(aim.target)
            if known is None or (aim.short and not known.short):
                best_per_target[aim.target] = aim
        target = self._best_target(best_per_target, rng)
        mine = [(k, level) for k, aim, level in options if aim.target == target]
        levelled = [k for k, level in mine if level] or [k for k, _ in mine]
        sides = levelled[int(rng.integers(len(levelled)))] if len(levelled) > 1 else levelled[0]
        return self._face(scene, sides, branch, f"aims at {target}")

    def _cooling(
        self,
        scene: Scene,
        decks: Decks,
        zones: dict[str, Polygon],
        projectors: list[Side],
        rng: np.random.Generator,
    ) -> _Choice | None:
        """THE TRIPOD HEAT-RAY IS COOLING: a) stand still and recharge, b) maneuver to aim,
        c) change facing to aim."""
        touched = aims(scene, scene.pose, zones, projectors, scene.tripods)
        if touched and scene.rating - scene.energy >= 2:
            return self._stand(scene, "cooling-a", True, f"aims at {touched[0].target}")
        moving: list[TripodCard] = []
        for card_id in sorted(set(decks.current), key=_card_order(scene.deck)):
            card = scene.deck.card(card_id)
            if not card.moves or not self._playable(scene, decks, card):
                continue
            if aims(scene, after(scene, card), zones, projectors, scene.tripods):
                moving.append(card)
        if moving:
            card = moving[int(rng.integers(len(moving)))]
            decks.use(card.id)
            return _Choice(card, None, "cooling-b")
        return self._face_to_aim(scene, zones, "cooling-c", rng)

    # powerless ---------------------------------------------------------------------------

    def _powerless(
        self, scene: Scene, decks: Decks, nearby: bool, rng: np.random.Generator
    ) -> _Choice:
        """POWERLESS TRIPOD ACTIONS, 1 to 3."""
        under = on_objective(scene, scene.pose)
        if under is not None:
            return self._stand(scene, "powerless-1", True, f"on objective {under}")
        options = self._onto_objective(scene, decks, [*decks.current, *decks.reserve])
        if not options:
            return self._stand(scene, "powerless-1", True, "no objective within one maneuver")
        card = options[int(rng.integers(len(options)))]
        if not nearby:
            decks.use(card.id)
            return _Choice(card, None, "powerless-2")
        if int(rng.integers(2)) == 0:
            decks.use(card.id)
            return _Choice(card, None, "powerless-3", "the maneuver was drawn")
        return self._stand(
            scene, "powerless-3", True, f"the standing card was drawn, not {card.id}"
        )

    def _onto_objective(self, scene: Scene, decks: Decks, ids: Iterable[str]) -> list[TripodCard]:
        out = []
        for card_id in sorted(set(ids), key=_card_order(scene.deck)):
            card = scene.deck.card(card_id)
            if not card.moves or not self._playable(scene, decks, card):
                continue
            if on_objective(scene, after(scene, card)) is not None:
                out.append(card)
        return out

    # rockets -----------------------------------------------------------------------------

    def _evade(
        self,
        scene: Scene,
        decks: Decks,
        volleys: list[Plane],
        status: Status,
        rng: np.random.Generator,
    ) -> _Choice | None:
        """TRIPODS AND ROCKETS — EVASIVE MANEUVERS: "Place a stall maneuver in front of the
        firing airplane and an airplane card on the arrow of the stall. A tripod maneuver is
        an evasive one if it allows the tripod to avoid both being in the firing arc of the
        airplane card and overlapping it." Cases 1 to 4."""
        rules = scene.rules
        ghosts: list[tuple[Pose, Polygon]] = []
        for plane in volleys:
            deck = rules.deck_of(plane.type)
            stall = next((c for c in deck.cards if c.symbol.value == "stall"), None)
            pose = plane.pose if stall is None else apply_card(plane.pose, stall, rules.base_length)
            ghosts.append((pose, rectangle(pose, rules.base_length, rules.base_width)))
        scored: list[tuple[TripodCard, int]] = []
        for card_id in sorted(set(decks.current), key=_card_order(scene.deck)):
            card = scene.deck.card(card_id)
            if not self._playable(scene, decks, card):
                continue
            base = hexagon(after(scene, card), rules.hex_side)
            evaded = sum(
                1
                for pose, ghost in ghosts
                if not in_arc_region(base, pose, rules.front_arc)
                and not convex_overlap(base, ghost)
            )
            if evaded:
                scored.append((card, evaded))
        if not scored:
            return None
        most = max(n for _, n in scored)
        evasive = [c for c, n in scored if n == most]
        several = len(volleys) > 1
        if several:
            self._note(scene, "evasive-4", None, f"evades {most} of {len(volleys)} volleys")
        if scene.phase != 1:
            if int(rng.integers(2)) == 1:
                self._note(scene, "evasive-3", None, "the reverse card was drawn")
                return None
            return self._pick_evasive(scene, decks, evasive, "evasive-3", rng, onto=True)
        if status == "powerless":
            return self._pick_evasive(scene, decks, evasive, "evasive-2", rng, onto=True)
        return self._pick_evasive(scene, decks, evasive, "evasive-1", rng, onto=False)

    def _pick_evasive(
        self,
        scene: Scene,
        decks: Decks,
        evasive: list[TripodCard],
        branch: str,
        rng: np.random.Generator,
        onto: bool,
    ) -> _Choice:
        if onto:
            better = [c for c in evasive if on_objective(scene, after(scene, c)) is not None]
            note = "onto an objective" if better else "no evasive maneuver reaches an objective"
        else:
            better = [c for c in evasive if self._can_fire_after(scene, c)]
            note = "allows firing" if better else "none allows firing"
        pool = better or evasive
        card = pool[int(rng.integers(len(pool)))]
        decks.use(card.id)
        action = None
        if not onto and better:
            templates = scene.rules.catalog.constants.tripods.templates
            zones = {p.id: template(scene, p, templates.S) for p in scene.planes}
            projectors = [Side.parse(p) for p in scene.model.projectors]
            found = aims(scene, after(scene, card), zones, projectors, scene.tripods)
            if found:
                action = Action(token="heat_ray", projector=found[0].projector.label, target=AUTO)
        elif card.symbol is TripodSymbol.STAND:
            action = self._recharge(scene)
        return _Choice(card, action, branch, note)

    def _can_fire_after(self, scene: Scene, card: TripodCard) -> bool:
        """An evasive maneuver "that allows firing": the heat-ray is ready, the card has no
        Stop icon, Energy is left after it, and the ruler then touches an S template."""
        if scene.cooling or card.stop or scene.energy - (1 if card.energy else 0) < 1:
            return False
        if scene.wounded and card.moves:
            return False
        templates = scene.rules.catalog.constants.tripods.templates
        zones = {p.id: template(scene, p, templates.S) for p in scene.planes}
        projectors = [Side.parse(p) for p in scene.model.projectors]
        return bool(aims(scene, after(scene, card), zones, projectors, scene.tripods))

    # firing ------------------------------------------------------------------------------

    def _fire(self, scene: Scene, memo: _Memo, rng: np.random.Generator) -> _Choice:
        """FIRING THE TRIPOD, on the table after movement."""
        card = memo.card
        assert card is not None
        why = ""
        if not memo.heat_ready:
            why = "the heat-ray is cooling"
        elif scene.energy < 1:
            why = "no Energy"
        elif card.stop:
            why = "the card has the Stop icon (000: no Action token)"
        elif scene.wounded and card.moves:
            why = "a wounded pilot does not fire while moving (000)"
        else:
            zones = {
                p.id: p.base
                for p in scene.planes
                if not convex_overlap(p.base, scene.base)  # 000: "cannot ... be fired at"
            }
            projectors = [Side.parse(p) for p in scene.model.projectors]
            found: list[Aim] = []
            for target, zone in zones.items():
                blockers = [
                    poly
                    for vid, poly in scene.others.items()
                    if vid != target
                    and not convex_overlap(poly, zone)
                    and not convex_overlap(poly, scene.base)
                ]
                found.extend(aims(scene, scene.pose, {target: zone}, projectors, blockers))
            if found:
                target = self._best_target({a.target: a for a in found}, rng)
                aim = next(a for a in found if a.target == target)
                action = Action(token="heat_ray", projector=aim.projector.label, target=target)
                return _Choice(card, action, "firing-fire", f"{aim.distance:.1f} cm")
            why = "no target acquired"
        if card.symbol is TripodSymbol.STAND:
            kept = memo.action if memo.action and memo.action.token == "recharge" else None
            return _Choice(card, kept or self._recharge(scene), "firing-recharge", why)
        return _Choice(card, None, "firing-none", why)


register("automated-tripod", AutomatedTripod)
