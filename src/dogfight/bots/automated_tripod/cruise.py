"""The Automated Tripod with no enemy nearby (001, "NO ENEMIES NEARBY"): full or cruising
it walks towards the Earthling side and its objectives, drawing its moves from the two
decks; with too little Energy it takes the emergency procedure."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Protocol

import numpy as np

from dogfight.bots.automated_tripod.branches import Status
from dogfight.bots.automated_tripod.choices import Choice
from dogfight.bots.automated_tripod.decks import (
    Decks,
    _card_order,
    _shuffled,
    reverse_card,
    running_card,
)
from dogfight.bots.automated_tripod.measures import (
    after,
    base_edge_distance,
    bearing_gap,
    edge_distance,
    exit_edge,
    facing_earth,
    on_objective,
    turn_towards,
    turn_towards_earth,
)
from dogfight.bots.automated_tripod.scene import Plane, Scene
from dogfight.catalog.models import (
    TripodCard,
    TripodSymbol,
)
from dogfight.geometry.hexbase import turned
from dogfight.geometry.shapes import nearest_point
from dogfight.rules.plans import Action


class AutomatedTripod(Protocol):
    """What the no-enemies procedure asks of the tripod
    (:class:`dogfight.bots.automated_tripod.bot.AutomatedTripod` is one)."""

    steep: frozenset[str]

    def _note(self, scene: Scene, branch: str, card: TripodCard | None, note: str = "") -> None: ...

    def _enemies_within(self, scene: Scene, rulers: float) -> list[Plane]: ...

    def _third_move(self, decks: Decks, card: TripodCard) -> bool: ...

    def _damage_forbids(self, scene: Scene, decks: Decks, card: TripodCard) -> str | None: ...

    def _playable(self, scene: Scene, decks: Decks, card: TripodCard) -> bool: ...

    def _recharge(self, scene: Scene) -> Action: ...

    def _stand(self, scene: Scene, branch: str, recharge: bool, note: str = "") -> Choice: ...

    def _face(self, scene: Scene, sides: int, branch: str, note: str = "") -> Choice: ...


def no_enemies(
    bot: AutomatedTripod, scene: Scene, decks: Decks, status: Status, rng: np.random.Generator
) -> Choice:
    if status in ("full", "cruising"):
        return cruise(bot, scene, decks, status == "full", False, "no-enemies", rng)
    return emergency(bot, scene, decks, rng)


def cruise(
    bot: AutomatedTripod,
    scene: Scene,
    decks: Decks,
    full: bool,
    emergency: bool,
    prefix: str,
    rng: np.random.Generator,
    procedure: str | None = None,
) -> Choice:
    """THE TRIPOD IS FULL OR CRUISING, rules 1-3, towards the Earthling side."""
    if not full and scene.rating - scene.energy >= 2:
        under = on_objective(scene, scene.pose)
        if under is not None:
            branch = "no-enemies-1"
            return bot._stand(scene, branch, True, f"on objective {under}")
    if not facing_earth(scene):
        sides = turn_towards_earth(scene)
        return bot._face(scene, sides, procedure or "no-enemies-2")
    return draw_move(bot, scene, decks, full, emergency, procedure or "no-enemies-3", rng)


def draw_move(
    bot: AutomatedTripod,
    scene: Scene,
    decks: Decks,
    full: bool,
    emergency: bool,
    procedure: str,
    rng: np.random.Generator,
) -> Choice:
    """Draw from the current deck with 001's redraw rules. A card taking it off the
    table is drawn again, across the Earthling side too; when the condition persists
    to the last card and one of them leaves across the Earthling side, that one is
    played: the tripod walks off the Earthling side (A8)."""
    aside: list[str] = []
    exits: list[str] = []
    try:
        while decks.current:
            card_id = decks.current.pop()
            card = scene.deck.card(card_id)
            if card.energy and scene.energy < 1:
                aside.append(card_id)
                continue
            if decks.last_steep and card_id in bot.steep:
                bot._note(scene, "draw-steep", card)
                aside.append(card_id)
                continue
            why = bot._damage_forbids(scene, decks, card)
            if why is not None:
                bot._note(scene, "draw-damaged", card, why)
                aside.append(card_id)
                continue
            edge = exit_edge(scene, after(scene, card))
            if edge is not None:
                bot._note(scene, "draw-off-table", card)
                aside.append(card_id)
                if edge == scene.earth and scene.exit_earth and not bot._third_move(decks, card):
                    exits.append(card_id)
                continue
            if card.symbol is TripodSymbol.STAND:
                if full:
                    bot._note(scene, "draw-full-standing", card)
                    aside.append(card_id)
                    continue
                decks.discard.append(card_id)
                return Choice(card, bot._recharge(scene), "draw-cruising-standing")
            if bot._third_move(decks, card):
                aside.append(card_id)
                if emergency:
                    return bot._stand(scene, "emergency-third", True, f"drew {card_id}")
                run = running_card(scene.deck, decks.reserve)
                if run is None or not bot._playable(scene, decks, run):
                    return bot._stand(scene, "draw-third-running", True, "no running card")
                decks.use(run.id)
                return Choice(run, None, "draw-third-running", f"drew {card_id}")
            decks.discard.append(card_id)
            return Choice(card, None, procedure)
        if exits:
            aside.remove(exits[0])
            decks.discard.append(exits[0])
            card = scene.deck.card(exits[0])
            why = "every card leaves the table; this one across the Earthling side"
            return Choice(card, None, "draw-exit-earth", why)
        return bot._stand(scene, "draw-exhausted", True)
    finally:
        if aside:
            decks.current = _shuffled(decks.current + aside, rng)


def emergency(bot: AutomatedTripod, scene: Scene, decks: Decks, rng: np.random.Generator) -> Choice:
    """THE TRIPOD IS IN EMERGENCY, rules 1 and 2, else towards the Earthling side."""
    if base_edge_distance(scene, scene.base, scene.earth) <= scene.rules.ruler + 1e-9:
        return cruise(bot, scene, decks, False, True, "emergency", rng, "emergency-1")
    if bot._enemies_within(scene, 2.5):
        choice = best_objective(bot, scene, decks, rng)
        if choice is not None:
            return choice
    return cruise(bot, scene, decks, False, True, "emergency", rng, "emergency-3")


def best_objective(
    bot: AutomatedTripod, scene: Scene, decks: Decks, rng: np.random.Generator
) -> Choice | None:
    """001's best available objective, a) to c), and the move or change of facing
    towards it."""
    if scene.rating - scene.energy >= 2:
        under = on_objective(scene, scene.pose)
        if under is not None:
            return bot._stand(scene, "no-enemies-1", True, f"on objective {under}")
    # a) reachable with one maneuver (now), after a change of facing or a reverse
    direct: dict[str, list[TripodCard]] = {}
    for card_id in sorted(set(decks.current), key=_card_order(scene.deck)):
        card = scene.deck.card(card_id)
        if not card.moves or not bot._playable(scene, decks, card):
            continue
        oid = on_objective(scene, after(scene, card))
        if oid is not None:
            direct.setdefault(oid, []).append(card)
    if direct:
        oid = nearest_earth_objective(bot, scene, list(direct))
        options = direct[oid]
        card = options[int(rng.integers(len(options)))]
        if bot._third_move(decks, card):
            return bot._stand(scene, "emergency-third", True, f"objective {oid}")
        decks.use(card.id)
        return Choice(card, None, "emergency-2a", f"objective {oid} with one maneuver")
    staged = two_step_objective(bot, scene, decks)
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
        oid = nearest_earth_objective(bot, scene, [o[0] for o in near])
        return towards(bot, scene, decks, oid, "emergency-2b", rng)
    # c) the closest of those nearer than the tripod to the Earthling side
    mine = edge_distance(scene, scene.pose.point, scene.earth)
    ahead = [o for o in scene.objectives if edge_distance(scene, (o[1], o[2]), scene.earth) < mine]
    if ahead:
        closest = min(ahead, key=lambda o: (math.dist(scene.pose.point, (o[1], o[2])), o[0]))
        return towards(bot, scene, decks, closest[0], "emergency-2c", rng)
    return None


def nearest_earth_objective(bot: AutomatedTripod, scene: Scene, ids: list[str]) -> str:
    where = {o[0]: (o[1], o[2]) for o in scene.objectives}
    return min(ids, key=lambda oid: (edge_distance(scene, where[oid], scene.earth), oid))


def two_step_objective(bot: AutomatedTripod, scene: Scene, decks: Decks) -> Choice | None:
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
        return bot._face(scene, k, "emergency-2a", f"objective {oid} after a change of facing")
    reverse = reverse_card(scene.deck)
    if (
        reverse is None
        or reverse.id not in decks.reserve
        or scene.reverse
        or bot._damage_forbids(scene, decks, reverse) is not None
    ):
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
    oid = nearest_earth_objective(bot, scene, sorted(behind))
    decks.use(reverse.id)
    return Choice(reverse, None, "emergency-2a", f"objective {oid} after a reverse")


def towards(
    bot: AutomatedTripod,
    scene: Scene,
    decks: Decks,
    oid: str,
    branch: str,
    rng: np.random.Generator,
) -> Choice:
    """Treat the tripod as cruising, but "move or change facing towards" objective
    ``oid``: face it (its centre within the front side's 60°), then draw (A15)."""
    where = next((o[1], o[2]) for o in scene.objectives if o[0] == oid)
    if bearing_gap(scene.pose, where) > 30.0 + 1e-9:
        return bot._face(scene, turn_towards(scene, where), branch, f"objective {oid}")
    choice = draw_move(bot, scene, decks, False, True, branch, rng)
    if not choice.note:
        choice.note = f"objective {oid}"
    return choice
