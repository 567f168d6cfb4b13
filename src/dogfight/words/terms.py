"""The words a player reads for the game's cards: one place for every screen.

The browser gets them in the catalog (each card's ``name`` and ``speed``), the terminal
prints them, so "sideslip left · medium" is the same card everywhere (issue 29 item 8:
"Every text a player reads is English prose from one place of wording").
"""

from __future__ import annotations

import math
from collections.abc import Collection

from dogfight.catalog.models import (
    DamageCard,
    ManeuverCard,
    ManeuverDeck,
    Special,
    TripodCard,
    TripodDeck,
)

NAMES = {
    "straight": "straight",
    "left": "bank left",
    "right": "bank right",
    "sideslip": "sideslip",
    "steep": "steep turn",
    "stall": "stall",
    "immelmann": "Immelmann turn",
    "climb": "climb",
    "dive": "dive",
    "move": "walk",
    "run": "run",
    "stand": "stand",
    "reverse": "reverse",
}
"""Each maneuver symbol's name on a card."""

TRIPOD_PACE = {"move": "walking", "run": "running", "stand": "standing", "reverse": "reverse"}


def card_name(card: ManeuverCard | TripodCard) -> str:
    """A card's name: its symbol's, with the side it turns or slips to where that tells
    two cards apart ("sideslip left", "steep turn right", "walk left")."""
    symbol = card.symbol.value
    name = NAMES.get(symbol, symbol)
    if symbol in ("steep", "sideslip"):
        name += " left" if card.left > 0 else " right"
    if symbol in ("move", "run") and card.turn:
        name += " left" if card.turn > 0 else " right"
    return name


def speed_class(card: ManeuverCard | TripodCard, deck: ManeuverDeck | TripodDeck) -> str:
    """How far a card carries the base: an airplane's against the longest card of its
    deck (fast, medium, slow); a tripod's by its kind (walking, running...)."""
    symbol = card.symbol.value
    if symbol in TRIPOD_PACE:
        return TRIPOD_PACE[symbol]
    longest = max((math.hypot(c.forward, c.left) for c in deck.cards), default=0.0) or 1.0
    share = math.hypot(card.forward, card.left) / longest
    return "fast" if share >= 0.8 else "medium" if share >= 0.55 else "slow"


def card_words(card: ManeuverCard | TripodCard, deck: ManeuverDeck | TripodDeck) -> str:
    """A card as a list of cards shows it: ``2 straight · fast``."""
    return f"{card.id} {card_name(card)} · {speed_class(card, deck)}"


OUT = {
    "shot_down": "shot down",
    "exploded": "exploded",
    "out_of_control": "out of control",
    "burned": "burned",
    "pilot_incapacitated": "pilot out of action",
    "engine_destroyed": "engine destroyed",
    "left_area": "left the table",
    "destroyed": "destroyed",
    "toppled": "toppled for good",
}
"""Why a vehicle is out of the game, in words (the engine's reasons are ids)."""


def out_words(reason: str) -> str:
    """A reason a vehicle is out of the game, in words."""
    return OUT.get(reason, reason.replace("_", " "))


SIDES = {
    "allies": ("the Allies", True),
    "central": ("the Central Powers", True),
    "earth": ("Earth", False),
    "martians": ("the Martians", True),
}
"""The usual sides' names, and whether the name is plural ("the Allies win", "Earth
wins"); any other side is "the <name> side"."""


def side_name(side: str) -> str:
    """A side as a sentence names it: "the Allies", "Earth", "the red side"."""
    return SIDES.get(side, (f"the {side} side", False))[0]


def side_wins(side: str) -> str:
    """The heading of a side's victory: "The Allies win", "Earth wins"."""
    name, plural = SIDES.get(side, (f"the {side} side", False))
    return f"{name[:1].upper()}{name[1:]} {'win' if plural else 'wins'}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 counter``, ``2 counters``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def damage_card_words(card: DamageCard, acting: Collection[Special] | None = None) -> str:
    """A damage card as its face reads: ``3``, ``2 and smoke``, ``an explosion``; with
    ``acting``, only the icons that take effect in the game are told (special damage off:
    ``1``, not ``1 and wounded pilot``; jams act in every ruleset, R23)."""
    face = "an explosion" if card.explosion else str(card.value)
    specials = [s.value.replace("_", " ") for s in card.specials if acting is None or s in acting]
    return " and ".join([face, *specials])


MEANS = {
    "front": "front guns",
    "rear": "rear guns",
    "heat-ray": "heat-ray",
    "rockets": "rockets",
    "bombs": "bombs",
    "fire": "fire",
    "black smoke": "black smoke",
    "bomb fragments": "the fragments of its own bombs",
    "illegal maneuver": "an illegal maneuver",
}
"""What drew a damage card, in words (the engine's ``means``, docs/rulings.md R33)."""


def cause_words(by: str | None, means: str) -> str:
    """What brought a vehicle down: "central's front guns", "fire"."""
    what = MEANS.get(means, means.replace("_", " "))
    return what if by is None else f"{by}'s {what}"
