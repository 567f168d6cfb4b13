"""Plans: the three maneuver cards (and firing choices) a seat sets for each airplane.

A plan that can never be flown (wrong length, a card not in the deck, a card used twice)
is refused with :class:`IllegalPlanError`. A plan that breaks a flight restriction is
accepted: the rules say what happens when such a card is revealed. :func:`plan_problems`
lists those restrictions so a user interface can flag them while the player chooses.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from dogfight.catalog.models import ManeuverCard, ManeuverDeck, Symbol
from dogfight.errors import IllegalPlanError, UnknownCardError
from dogfight.geometry.frozen import fast_init

HOLD = "none"
AUTO = "auto"

PHASES = 3
"""Action phases in a turn: every per-phase list of a plan has exactly this many entries."""

MAX_ID = 40
"""The longest id (vehicle, card, objective) any input may give."""

Id = Annotated[str, StringConstraints(max_length=MAX_ID)]

FireChoice = Id
"""``"auto"`` (the ruleset's auto-target rule), ``"none"`` (hold fire) or a vehicle id."""

RocketCount = Annotated[int, Field(ge=0, le=2)]
LoadCount = Annotated[int, Field(ge=0, le=20)]


ActionToken = Literal[
    "change_facing", "recharge", "destroy_objective", "heat_ray", "black_smoke", "blank"
]
GREEN_TOKENS = ("change_facing", "recharge", "destroy_objective")


class Action(BaseModel):
    """A tripod's action token for one phase (000: "Action tokens").

    ``blank`` is 001's blank action card (only where action cards are played: "A tripod
    player can place a blank card to pretend he is executing an action when he is not").
    ``sides`` turns the base by that many sides at the end of the movement step (positive
    to the left); ``projector`` is the side whose projector fires; ``objective`` names the
    objective token to recharge from or destroy; ``target`` the heat-ray's target
    ('auto' = the nearest it can reach).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    token: ActionToken
    sides: int | None = Field(default=None, ge=-3, le=3)
    projector: (
        Literal["front", "front-left", "rear-left", "rear", "rear-right", "front-right"] | None
    ) = None
    objective: Id | None = None
    target: Id = AUTO
    at: tuple[float, float] | None = Field(
        default=None, description="black smoke: where to centre the cloud (x, y)"
    )


class Plan(BaseModel):
    """One turn's plan for one vehicle: its maneuver cards (a toppled tripod plans fewer,
    for the last phases), firing choices and, for tripods, the action tokens.

    This model is the one check of a plan's shape wherever a plan enters (situation
    files, the browser API, bots, simulation): every per-phase list has exactly
    :data:`PHASES` entries and every number its range, so the engine never meets a plan
    it could index out of range. What the rules refuse (wrong card count, a card not in
    the deck) is left to the engine, which says which rule."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cards: tuple[Id, ...] = Field(
        max_length=2 * PHASES, description="maneuver card ids, first to third"
    )
    fire: tuple[FireChoice, ...] = Field(
        default=(AUTO, AUTO, AUTO),
        min_length=PHASES,
        max_length=PHASES,
        description="front-gun choice per phase: 'auto', 'none' or a target id",
    )
    rear_fire: tuple[FireChoice, ...] = Field(
        default=(AUTO, AUTO, AUTO),
        min_length=PHASES,
        max_length=PHASES,
        description="rear-gun choice per phase (two-seaters): 'auto', 'none' or a target id",
    )
    rockets: tuple[RocketCount, ...] = Field(
        default=(0, 0, 0),
        min_length=PHASES,
        max_length=PHASES,
        description="rockets launched per phase instead of the front guns (0, 1 or 2), at the "
        "front 'fire' choice",
    )
    actions: tuple[Action | None, ...] = Field(
        default=(None, None, None),
        min_length=PHASES,
        max_length=PHASES,
        description="tripods: the action token of each phase",
    )
    drop: tuple[LoadCount, ...] = Field(
        default=(0, 0, 0),
        min_length=PHASES,
        max_length=PHASES,
        description="bombers: bomb loads dropped per phase (001, Bombing Tripods)",
    )
    automated: bool = Field(
        default=False,
        description="an automated tripod (001): no cards planned, one given at each phase",
    )
    speeds: tuple[Annotated[int, Field(ge=1, le=20)], ...] = Field(
        default=(),
        max_length=PHASES,
        description='WW2 airplanes: the speed marker planned with each card (001: "one '
        'maneuver card with a speed marker")',
    )

    @field_validator("cards", mode="before")
    @classmethod
    def _ids_as_text(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(str(v) if isinstance(v, int) else v for v in value)
        return value

    def choice(self, weapon: str, phase: int) -> FireChoice:
        choices = self.fire if weapon == "front" else self.rear_fire
        return choices[phase - 1] if phase - 1 < len(choices) else AUTO

    def to_json(self) -> dict[str, Any]:
        """``model_dump(mode="json")``: a plan that gives only its cards (an airplane's,
        as a person plans it) is its cards among the other fields' defaults, dumped
        once (:data:`_CARDS_ONLY_DUMP`; pydantic's dump of it cost several times the rest
        of storing a person's plan, or of a seat's stage). The defaults' lists are
        shared between the plans: read them, do not change them."""
        if self.__pydantic_fields_set__ <= _CARDS_ONLY:
            dumped = dict(_CARDS_ONLY_DUMP)
            dumped["cards"] = list(self.cards)
            return dumped
        return self.model_dump(mode="json")


_CARDS_ONLY = frozenset({"cards"})

_CARDS_ONLY_DUMP: dict[str, Any] = Plan(cards=()).model_dump(mode="json")
"""Every field's default as a plan's dump (its cards first, replaced by each plan's)."""


@fast_init
@dataclass(frozen=True, slots=True)
class Problem:
    """A flight restriction a planned card breaks."""

    index: int
    card: str
    rule: Literal[
        "steep_after_steep",
        "immelmann_without_straight",
        "after_immelmann",
        "steep_without_turn_or_straight",
    ]
    text: str


@dataclass(frozen=True, slots=True)
class Restrictions:
    """The flight restrictions that differ between the rule texts (switches)."""

    immelmann_counter: bool = False
    """002: the Immelmann counter "allows next turn to start with straight or Immelmann"."""
    steep_after_turn_or_straight: bool = False
    """003: the card before a steep maneuver is a left turn, a right turn or a straight."""


BASIC = Restrictions()


STEEP_RULE = (
    '000: "It is not allowed to play two steep cards in a row." / "If the last card of '
    "the previous turn was a steep maneuver, you cannot use a steep maneuver as the first "
    'card of the new turn."'
)
IMMELMANN_BEFORE_RULE = (
    '000: "To play the Immelmann card, a player must plan a straight move (a card with the '
    '[STRAIGHT] symbol) immediately before performing the Immelmann"'
)
IMMELMANN_AFTER_RULE = (
    '000: "and another straight move immediately after the Immelmann." / "he must begin '
    'his next turn with a straight maneuver."'
)


STEEP_003_RULE = (
    '003: "进行这动作前,玩家都必须先执行一次左徊旋、右徊旋或直线飞行(不包括英麦曼回旋)" '
    "(before a steep maneuver, a left turn, a right turn or a straight, not an Immelmann)"
)
IMMELMANN_COUNTER_RULE = (
    '002: "Immelmann performed → place **Immelmann counter** (allows next turn to start '
    'with straight or Immelmann)"'
)


@dataclass(frozen=True, slots=True)
class Flown:
    """What the previous maneuver was, as far as the restrictions care."""

    symbol: Symbol
    steep: bool


_FLOWN: dict[int, tuple[ManeuverCard, Flown]] = {}


def flown(card: ManeuverCard) -> Flown:
    """``Flown(card.symbol, card.is_steep)``, made once per card (every move records one;
    a Flown is immutable, so the cards' moves share it)."""
    hit = _FLOWN.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    made = Flown(card.symbol, card.is_steep)
    if len(_FLOWN) >= 4096:  # cards made on the fly (a WW2 card at a speed) come and go
        _FLOWN.clear()
    _FLOWN[id(card)] = (card, made)
    return made


TURN_OR_STRAIGHT = (Symbol.LEFT, Symbol.RIGHT, Symbol.STRAIGHT)

_IMMELMANN = Symbol.IMMELMANN
_STRAIGHT = Symbol.STRAIGHT
"""The members read by :func:`card_problem`, taken once (reading an enum's member costs
an attribute lookup on its class, and every revealed card is checked)."""


def may_break(previous: Flown | None, facts: Flown) -> bool:
    """Whether a card of ``facts`` flown after ``previous`` could break a restriction:
    only a steep card, an Immelmann or a card after an Immelmann can. False means
    :func:`card_problem` finds nothing, whatever the opening and the restrictions (a
    revealed card asks this first: most cards are level turns after level turns)."""
    return (
        facts.steep
        or facts.symbol is _IMMELMANN
        or (previous is not None and previous.symbol is _IMMELMANN)
    )


def card_problem(
    previous: Flown | None,
    card: ManeuverCard,
    opening: bool = False,
    restrictions: Restrictions = BASIC,
) -> Problem | None:
    """The restriction ``card`` breaks when flown right after ``previous`` (None: none);
    ``opening``: the card opens a turn (``previous`` is the last card of the turn before,
    as its reminder counter says). The card's symbol and steepness are read from its
    :func:`flown` facts (made once per card; ``ManeuverCard.is_steep`` is worked out at
    every read)."""
    facts = flown(card)
    steep, symbol = facts.steep, facts.symbol
    if steep and previous is not None and previous.steep:
        return Problem(0, card.id, "steep_after_steep", STEEP_RULE)
    # 002: the Immelmann counter lets a turn open with an Immelmann after an Immelmann.
    counter = (
        restrictions.immelmann_counter
        and opening
        and previous is not None
        and previous.symbol is _IMMELMANN
        and symbol is _IMMELMANN
    )
    if (
        previous is not None
        and previous.symbol is _IMMELMANN
        and symbol is not _STRAIGHT
        and not counter
    ):
        return Problem(0, card.id, "after_immelmann", IMMELMANN_AFTER_RULE)
    if (
        symbol is _IMMELMANN
        and (previous is None or previous.symbol is not _STRAIGHT)
        and not counter
    ):
        return Problem(0, card.id, "immelmann_without_straight", IMMELMANN_BEFORE_RULE)
    if (
        restrictions.steep_after_turn_or_straight
        and steep
        and (previous is None or previous.steep or previous.symbol not in TURN_OR_STRAIGHT)
    ):
        return Problem(0, card.id, "steep_without_turn_or_straight", STEEP_003_RULE)
    return None


def plan_problems(
    previous: Flown | None, cards: list[ManeuverCard], restrictions: Restrictions = BASIC
) -> list[Problem]:
    """Every restriction the planned cards break, assuming each illegal card is flown as
    a straight (as 000 and 003 do)."""
    problems: list[Problem] = []
    for index, card in enumerate(cards):
        problem = card_problem(previous, card, index == 0, restrictions)
        if problem is not None:
            problems.append(Problem(index, card.id, problem.rule, problem.text))
            previous = Flown(Symbol.STRAIGHT, False)
        else:
            previous = Flown(card.symbol, card.is_steep)
    return problems


def check_plan_shape(
    vehicle: str,
    plan: Plan,
    deck: ManeuverDeck,
    allowed: AbstractSet[Symbol],
    count: int = 3,
    by_id: Mapping[str, ManeuverCard] | None = None,
) -> list[ManeuverCard]:
    """Refuse a plan that can never be flown; return its cards. ``by_id``: the deck's cards
    by id when the caller has them (:meth:`~dogfight.rules.context.Rules.maneuver_cards`:
    a subscript for each card rather than a call of ``deck.card``)."""
    known = by_id or {}
    if len(plan.cards) != count:
        raise IllegalPlanError(
            f"{vehicle}: a plan has exactly {count} maneuver cards, got {len(plan.cards)}"
        )
    for field_name, choices in (("fire", plan.fire), ("rear_fire", plan.rear_fire)):
        if len(choices) != count:
            raise IllegalPlanError(
                f"{vehicle}: '{field_name}' needs {count} choices, got {len(choices)}"
            )
    cards: list[ManeuverCard] = []
    planned: set[str] = set()  # the ids of ``cards`` (a deck's card has the id it is asked by)
    for card_id in plan.cards:
        found = known.get(card_id)
        if found is not None:
            card = found
        else:
            try:
                card = deck.card(card_id)
            except UnknownCardError as exc:
                # the ids that may be planned: not the climbs and dives left out of play
                valid = [c.id for c in deck.cards if c.symbol in allowed]
                raise UnknownCardError(exc.deck, exc.card, valid, vehicle) from None
        if card.symbol not in allowed:
            raise IllegalPlanError(
                f'{vehicle}: card {card_id} ({card.symbol.value}) is not in play: 000: "do not '
                'take the climb and dive cards ... unless you want to play with Advanced Rules"'
            )
        if card_id in planned:
            raise IllegalPlanError(
                f"{vehicle}: card {card_id} is planned twice; 003: "
                '"每张动作牌在同一回合中只可使用一次" '
                "(each maneuver card can be used once per turn)"
            )
        cards.append(card)
        planned.add(card_id)
    return cards
