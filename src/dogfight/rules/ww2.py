"""WW2 airplanes: this project's approximation of the WW2 Wings of Glory rules that 001
("TRIPODS IN WW2") refers to and that are not in our texts (docs/ww2.md).

- Planning: one maneuver card and one speed marker per Earthling turn (001: "Earthling
  players choose one maneuver card with a speed marker"); the speed must be one the
  airplane's data lists.
- Movement: the card's arrow is scaled by ``speed / card_speed`` (the ruleset's switch): at
  ``card_speed`` the card moves as printed, faster speeds move further along the same
  curve, slower ones less far; the heading change is the card's.
- The flight restrictions (steep after steep, Immelmann) and firing are 000's, on the same
  whole bases; damage is drawn as counters (``Rules.damage_deck``).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.errors import IllegalPlanError, UnknownCardError
from dogfight.rules import standard
from dogfight.rules.clocks import PHASES, PLANNING_RULE
from dogfight.rules.context import Rules
from dogfight.rules.events import Moved, MovedAtSpeed
from dogfight.rules.plans import AUTO, Plan
from dogfight.rules.state import GameState, Vehicle

SPEED_RULE = (
    "docs/ww2.md (this project's approximation of WW2 Wings of Glory): an airplane flies "
    "only the speed markers its data lists"
)


def scale(card: ManeuverCard, speed: int, card_speed: int) -> ManeuverCard:
    """The card as flown at ``speed``: its arrowhead moved along the same direction from
    the nose, ``speed / card_speed`` times as far; the heading change unchanged."""
    if speed == card_speed:
        return card
    factor = speed / card_speed
    return card.model_copy(update={"forward": card.forward * factor, "left": card.left * factor})


def card_flown(rules: Rules, airplane_type: str, move: Moved) -> ManeuverCard:
    """The card an airplane's move flew, as the engine flew it: its deck's card, scaled
    by the move's speed marker (a WW2 airplane's move says it: :class:`MovedAtSpeed`).
    What a drawing of the move lays (the page's curve, the rendered card and path), so
    that the path drawn ends where the engine put the base."""
    card = rules.deck_of(airplane_type).card(move.card)
    if isinstance(move, MovedAtSpeed):
        return scale(card, move.speed, rules.switches.card_speed)
    return card


def check_plan(
    state: GameState, vehicle: Vehicle, plan: Plan, allowed: AbstractSet[Symbol]
) -> tuple[ManeuverCard, int]:
    """Refuse an Earthling turn's plan that can never be flown: one card of the
    airplane's deck and one speed marker it may fly. Returns the card and the speed."""
    vid = vehicle.id
    airplane = state.rules.airplane(vehicle.type)
    if len(plan.cards) != 1:
        raise IllegalPlanError(
            f"{vid}: a WW2 airplane plans one maneuver card per Earthling turn, got "
            f"{len(plan.cards)}; {PLANNING_RULE}"
        )
    if len(plan.speeds) != 1:
        raise IllegalPlanError(
            f"{vid}: the card needs one speed marker ('speeds': one of "
            f"{', '.join(map(str, airplane.speeds))}); {PLANNING_RULE}"
        )
    speed = plan.speeds[0]
    if speed not in airplane.speeds:
        raise IllegalPlanError(
            f"{vid}: speed {speed} is not one the {airplane.name} may fly "
            f"({', '.join(map(str, airplane.speeds))}); {SPEED_RULE}"
        )
    deck = state.rules.deck_of(vehicle.type)
    try:
        card = deck.card(plan.cards[0])
    except UnknownCardError as exc:
        valid = [c.id for c in deck.cards if c.symbol in allowed]  # only what may be planned
        raise UnknownCardError(exc.deck, exc.card, valid, vid) from None
    if card.symbol not in allowed:
        raise IllegalPlanError(
            f'{vid}: card {card.id} ({card.symbol.value}) is not in play: 000: "do not take '
            'the climb and dive cards ... unless you want to play with Advanced Rules"'
        )
    standard.check_airplane_plan(state, vehicle, [card])
    return card, speed


def merge(state: GameState, vehicle: Vehicle, plan: Plan, card: str, speed: int) -> Plan:
    """The vehicle's plan for the Martian turn so far with this Earthling turn's card, speed
    and firing choices added at its action phase (so phase ``k`` reads index ``k - 1``)."""
    done = state.phase
    prior = vehicle.plan if done else None
    cards = (*(prior.cards[:done] if prior else ()), card)
    speeds = (*(prior.speeds[:done] if prior else ()), speed)

    def choices(old: tuple[str, ...] | None, new: tuple[str, ...]) -> tuple[str, ...]:
        # a plan's per-phase lists: this Earthling turn's choice is at its action phase
        head = old[:done] if old is not None else ()
        mine = new[done] if len(new) > done else AUTO
        return (*head, mine, *([AUTO] * (PHASES - done - 1)))

    return Plan(
        cards=cards,
        speeds=speeds,
        fire=choices(prior.fire if prior else None, plan.fire),
        rear_fire=choices(prior.rear_fire if prior else None, plan.rear_fire),
        rockets=(0,) * PHASES,
    )
