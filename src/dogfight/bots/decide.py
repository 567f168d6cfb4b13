"""How a computer player answers an engine decision (:mod:`dogfight.rules.decisions`).

A bot may define ``decide(observation, rules, seat, decisions, rng)`` returning answers by
decision id; whatever it leaves out is answered here: a reorder after tailing by
:func:`reorder_after_tailing`, a tripod's direction at the reveal of its action card by
:func:`dogfight.bots.direction.face_nearest`, a Sniper's pick by :func:`sniper_pick`, a
tripod's action token at the start of a phase by
:func:`dogfight.bots.tokens.choose_token`, guns or rockets by :func:`guns_or_rockets`,
a skill used or kept by :func:`use_skill`, a bomber's drop by :func:`drop_bombs`, any
other decision by its default. The bot
sees only its seat's observation, where the decisions carry what they show it (the tailed
card, the action cards revealed before).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dogfight.bots.direction import face_nearest
from dogfight.bots.tokens import choose_token
from dogfight.catalog.models import Symbol
from dogfight.geometry.maneuver import apply_card, arrowhead
from dogfight.geometry.pose import Pose
from dogfight.rules.action_tokens import KIND as TOKEN
from dogfight.rules.bombs import DROP
from dogfight.rules.context import Rules
from dogfight.rules.damage import SNIPER
from dogfight.rules.decisions import Answer, Decision
from dogfight.rules.plans import Flown, plan_problems
from dogfight.rules.rockets import GUNS
from dogfight.rules.rockets import KIND as ROCKETS
from dogfight.rules.skill_choice import KEEP, USE
from dogfight.rules.skill_choice import KIND as SKILL
from dogfight.rules.tripod_reveal import KIND as DIRECTION


def _pose(view: Mapping[str, Any]) -> Pose:
    p = view["pose"]
    return Pose(float(p["x"]), float(p["y"]), float(p["heading"]))


def _score(rules: Rules, me: Pose, them: Pose) -> tuple[int, float]:
    """Better when the enemy's centre is in my front arc within the ruler, then nearer."""
    forward, left = me.to_local(them.point)
    distance = math.hypot(forward, left)
    angle = abs(math.degrees(math.atan2(left, forward)))
    aimed = angle <= rules.front_arc.width / 2.0 and distance <= rules.ruler
    return (1 if aimed else 0, -distance)


def reorder_after_tailing(
    observation: Mapping[str, Any], rules: Rules, decision: Decision
) -> Answer:
    """The order of the remaining cards that best keeps the tailed plane in the front arc
    after the next move, knowing its card; orders that would break a flight restriction
    are skipped, and the planned order wins ties."""
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[decision.vehicle]
    deck = rules.deck_of(me["type"])
    previous = me.get("previous")
    flown = None if previous is None else Flown(Symbol(previous["symbol"]), bool(previous["steep"]))
    targets: list[Pose] = []
    for shown in decision.shown.get("tailed", []):
        them = views.get(shown["vehicle"])
        if them is None:
            continue
        card = rules.deck_of(them["type"]).card(shown["card"])
        targets.append(apply_card(_pose(them), card, rules.base_length))
    if not targets:
        return decision.default
    best = decision.default
    best_score: tuple[int, int, float] | None = None
    for order in itertools.permutations(decision.default):
        cards = [deck.card(c) for c in order]
        legal = 0 if plan_problems(flown, cards, rules.restrictions) else 1
        after = apply_card(_pose(me), cards[0], rules.base_length)
        aimed, near = max(_score(rules, after, t) for t in targets)
        score = (legal, aimed, near)
        if best_score is None or score > best_score:
            best, best_score = tuple(order), score
    return best


def sniper_pick(rules: Rules, decision: Decision) -> Answer:
    """000's Sniper gives the opponent the card of the two it drew that hurts most: an
    explosion, else the higher value, else the one with special damage."""
    cards = rules.damage_cards(str(decision.shown["deck"]))

    def harm(option: str) -> tuple[int, int, int]:
        card = cards[option.split(":", 1)[1]]
        return (int(card.explosion), card.value, len(card.specials))

    return (max(decision.options, key=harm),)


def guns_or_rockets(decision: Decision) -> Answer:
    """000's rockets hit "after the following maneuver" only if it "is either a stall or
    a straight": launch every counter offered when the seat's following card is one (it
    sees its own plan), else fire the machine guns; after the turn's last card (the next
    is not planned yet) the plan's choice stands."""
    following = decision.shown.get("following")
    if following is None:
        return decision.default
    if following in ("straight", "stall"):
        return (decision.options[-1],)
    return (GUNS,)


def use_skill(decision: Decision) -> Answer:
    """000's skills come back only after 5 phases, so a computer pilot spends one when it
    counts: Itchy Trigger Finger ("shoots first") when an enemy's guns reach it (shooting
    first may save it) or its shot is at short range (two cards: the likeliest to finish
    the target before it fires back); the Sniper ("chooses one to give") on a short-range
    shot, where the pick of two cards weighs most. Otherwise it keeps the skill."""
    shown = decision.shown
    if shown.get("range") == "short" or shown.get("threatened"):
        return (USE,)
    return (KEEP,)


def drop_bombs(observation: Mapping[str, Any], rules: Rules, decision: Decision) -> Answer:
    """001's drop, judged by eye as the planning bot does (:mod:`dogfight.bots.invasion`),
    now with the tripods where the previous phase left them: lay this phase's card, then
    the straight (or its stall) in front; every load offered when the bomb card's dot
    would fall within a base of an enemy tripod's centre, one load when the card would
    reach it, else none."""
    if len(decision.options) == 1 or decision.shown.get("card") is None:
        return decision.default
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[decision.vehicle]
    deck = rules.deck_of(me["type"])
    card = deck.card(str(decision.shown["card"]))
    after = apply_card(_pose(me), card, rules.base_length)
    under = card if card.symbol is Symbol.STALL else deck.card(deck.straight)
    dot = arrowhead(after, under, rules.base_length).point
    measures = rules.catalog.constants.tripods
    near = min(
        (
            math.dist(dot, _pose(v).point)
            for v in observation["vehicles"]
            if v["side"] != me["side"]
            and not v.get("eliminated")
            and v["type"] in rules.catalog.tripods
        ),
        default=math.inf,
    )
    if near <= measures.base_side:
        return (decision.options[-1],)
    if near <= measures.base_side + measures.bomb_card.length / 2.0:
        return ("1",)
    return ("0",)


def decide(
    bot: Any,
    observation: Mapping[str, Any],
    rules: Rules,
    seat: frozenset[str],
    decisions: Sequence[Decision],
    rng: np.random.Generator,
) -> dict[str, Answer]:
    """Answers to ``decisions`` (all of this seat's) from ``bot``, checked."""
    method = getattr(bot, "decide", None)
    given: Mapping[str, Sequence[str]] = (
        method(observation, rules, seat, decisions, rng) if method is not None else {}
    )
    out: dict[str, Answer] = {}
    for d in decisions:
        if d.id in given:
            out[d.id] = d.check(given[d.id])
        elif d.kind == "tailing":
            out[d.id] = reorder_after_tailing(observation, rules, d)
        elif d.kind == DIRECTION:
            out[d.id] = face_nearest(observation, d)
        elif d.kind == SNIPER:
            out[d.id] = sniper_pick(rules, d)
        elif d.kind == ROCKETS:
            out[d.id] = guns_or_rockets(d)
        elif d.kind == SKILL:
            out[d.id] = use_skill(d)
        elif d.kind == DROP:
            out[d.id] = drop_bombs(observation, rules, d)
        elif d.kind == TOKEN:
            out[d.id] = choose_token(observation, rules, d, rng)
        else:
            out[d.id] = d.default
    return out
