"""The Automated Tripod bot: the procedure of 001 run at every movement step, and its
fire after every vehicle has moved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from dogfight.bots.automated_tripod import cruise
from dogfight.bots.automated_tripod.branches import RULES, Status
from dogfight.bots.automated_tripod.choices import Choice, Memo
from dogfight.bots.automated_tripod.decisions import Decision
from dogfight.bots.automated_tripod.decks import (
    Decks,
    _card_order,
    standing_card,
)
from dogfight.bots.automated_tripod.measures import (
    Aim,
    after,
    aims,
    leaves_table,
    on_objective,
    poly_distance,
    template,
)
from dogfight.bots.automated_tripod.scene import Plane, Scene, _as_pose, energy_status, scene_of
from dogfight.bots.base import Observation, register
from dogfight.catalog.models import (
    Edge,
    Special,
    TripodCard,
    TripodDeck,
    TripodSymbol,
)
from dogfight.geometry.heatray import RulerSpec
from dogfight.geometry.hexbase import Side, hexagon, turned
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.geometry.reach import in_arc_region
from dogfight.geometry.shapes import (
    Polygon,
    convex_overlap,
    nearest_point,
    rectangle,
)
from dogfight.rules.context import Rules
from dogfight.rules.events import DamageCardsTaken, DamageDrawn, Event
from dogfight.rules.plans import AUTO, Action, Plan


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
        self._memo: dict[str, Memo] = {}
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
                self._log(vid, phase, Choice(None, None, "toppled"))
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
            self._memo[vid] = Memo(scene.cooling == 0, choice.card, choice.action)
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
                self._log(vid, phase, Choice(memo.card, None, "firing-none", why))
                out[vid] = None
                continue
            if memo.action is not None and memo.action.token == "change_facing":
                out[vid] = memo.action
                why = "its token this phase is the change of facing"
                self._log(vid, phase, Choice(memo.card, memo.action, "firing-none", why))
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
        status = view.get("status", {})
        scene.engine = int(status.get("engine", 0))
        scene.reverse_destroyed = bool(status.get("reverse_destroyed", 0))

    def _decks_of(self, vid: str, deck: TripodDeck, rng: np.random.Generator) -> Decks:
        if vid not in self.decks:
            self.decks[vid] = Decks.prepare(deck, rng)
        return self.decks[vid]

    def _log(self, vid: str, phase: int, choice: Choice) -> None:
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
        self._log(scene.me, scene.phase, Choice(None, None, branch, note))

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
    ) -> Choice:
        # 001: "double ... the recharge level values of the tripods" against WW2 airplanes
        level = scene.model.recharge_level * scene.rules.switches.tripod_factor
        status = energy_status(scene.energy, scene.rating, level)
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
        return cruise.no_enemies(self, scene, decks, status, rng)

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

    def _damage_forbids(self, scene: Scene, decks: Decks, card: TripodCard) -> str | None:
        """What its own special damage forbids (A24): 000 "The tripod cannot plan the
        reverse maneuver until the end of the game" (reverse mechanism destroyed); engine
        damage: "it can never plan three movement maneuvers in the same turn", after a
        second one "it can plan only stationary maneuvers"."""
        if scene.reverse_destroyed and card.symbol is TripodSymbol.REVERSE:
            return "its reverse mechanism is destroyed"
        if card.moves and scene.engine >= 2:
            return "a second engine damage: stationary maneuvers only"
        moved = sum(1 for s in decks.played if s in (TripodSymbol.MOVE, TripodSymbol.RUN))
        if card.moves and scene.engine == 1 and moved >= 2:
            return "engine damage: no third movement maneuver this turn"
        return None

    def _playable(self, scene: Scene, decks: Decks, card: TripodCard) -> bool:
        """A card the tripod may choose (A11): no Energy card without Energy, none its
        damage forbids, no third movement card in a row, no steep card after a steep
        one, not off the table."""
        if card.energy and scene.energy < 1:
            return False
        if self._damage_forbids(scene, decks, card) is not None:
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

    def _stand(self, scene: Scene, branch: str, recharge: bool, note: str = "") -> Choice:
        card = standing_card(scene.deck)
        return Choice(card, self._recharge(scene) if recharge else None, branch, note)

    def _face(self, scene: Scene, sides: int, branch: str, note: str = "") -> Choice:
        if scene.gyroscope:
            why = "the gyroscope is out of order this turn: it stands still instead (A24)"
            return self._stand(scene, branch, True, f"{note}; {why}" if note else why)
        action = Action(token="change_facing", sides=sides)
        return Choice(standing_card(scene.deck), action, branch, note)

    # enemies nearby ----------------------------------------------------------------------

    def _enemies(
        self, scene: Scene, decks: Decks, status: Status, rng: np.random.Generator
    ) -> Choice:
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
        return cruise.no_enemies(self, scene, decks, status, rng)

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
    ) -> Choice | None:
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
        return Choice(card, action, "ready-a", f"best target {target}")

    def _face_to_aim(
        self, scene: Scene, zones: dict[str, Polygon], branch: str, rng: np.random.Generator
    ) -> Choice | None:
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
    ) -> Choice | None:
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
            return Choice(card, None, "cooling-b")
        return self._face_to_aim(scene, zones, "cooling-c", rng)

    # powerless ---------------------------------------------------------------------------

    def _powerless(
        self, scene: Scene, decks: Decks, nearby: bool, rng: np.random.Generator
    ) -> Choice:
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
            return Choice(card, None, "powerless-2")
        if int(rng.integers(2)) == 0:
            decks.use(card.id)
            return Choice(card, None, "powerless-3", "the maneuver was drawn")
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
    ) -> Choice | None:
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
    ) -> Choice:
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
        return Choice(card, action, branch, note)

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

    def _fire(self, scene: Scene, memo: Memo, rng: np.random.Generator) -> Choice:
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
                return Choice(card, action, "firing-fire", f"{aim.distance:.1f} cm")
            why = "no target acquired"
        if card.symbol is TripodSymbol.STAND:
            kept = memo.action if memo.action and memo.action.token == "recharge" else None
            return Choice(card, kept or self._recharge(scene), "firing-recharge", why)
        return Choice(card, None, "firing-none", why)


register("automated-tripod", AutomatedTripod, flies=("automated",))
