"""Pydantic models of the catalog's data files: constants, maneuver decks, damage decks,
special damage, airplanes and rulesets.

Every file shipped in ``catalog/data`` is an approximation made for this project (no
official figures are public); a user may point the loader at a folder of their own files
to override or extend them. The models reject unknown fields so that a typo is reported
instead of silently ignored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Strict(BaseModel):
    """Base of every data model: immutable, no unknown fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Symbol(StrEnum):
    """The symbol printed on a maneuver card."""

    STRAIGHT = "straight"
    LEFT = "left"
    RIGHT = "right"
    SIDESLIP = "sideslip"
    STEEP = "steep"
    STALL = "stall"
    IMMELMANN = "immelmann"
    CLIMB = "climb"
    DIVE = "dive"


class Direction(StrEnum):
    """Which way a card's arrow points (used by jammed-rudder rules)."""

    LEFT = "left"
    RIGHT = "right"
    NONE = "none"


class ArcSpec(Strict):
    """A firing arc: ``width`` degrees wide, centred ``centre`` degrees off the heading."""

    centre: float = Field(ge=-180, le=360)
    width: float = Field(gt=0, lt=180)


class TableSpec(Strict):
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class RulerSpec(Strict):
    length: float = Field(gt=0)
    half: float = Field(gt=0)

    @model_validator(mode="after")
    def _half_inside(self) -> RulerSpec:
        if self.half >= self.length:
            raise ValueError(f"half mark {self.half} must be shorter than the ruler {self.length}")
        return self


class BaseSpec(Strict):
    """A rectangular base: ``length`` along the heading, ``width`` across it."""

    length: float = Field(gt=0)
    width: float = Field(gt=0)


class ArcsSpec(Strict):
    front: ArcSpec
    rear: ArcSpec


class HeatRayRulerSpec(Strict):
    """A heat-ray ruler: laid against a tripod's side, at a right angle or tilted by
    ``tilt`` degrees on its clipped corner; ``width`` apart are its two long edges."""

    length: float = Field(gt=0)
    half: float = Field(gt=0)
    width: float = Field(gt=0)
    tilt: float = Field(ge=0, lt=90)


class SmokeRulerSpec(Strict):
    """The arc-shaped Black Smoke ruler: its far end (the stand) lies ``length`` cm from
    the middle of the tripod's side, bent ``bend`` degrees to one side or the other (the
    ruler flipped); the cloud template is a circle of ``cloud_radius``."""

    length: float = Field(gt=0)
    bend: float = Field(ge=0, lt=90)
    cloud_radius: float = Field(gt=0)


class TemplateSpec(Strict):
    """The red part of an Automated Tripod template (001: "place an S Automated tripod
    template in front of each airplane base"): a rectangle laid in front of the airplane's
    base like a maneuver card, starting ``offset`` cm beyond the middle of the base's front
    edge, ``length`` cm long and ``width`` cm wide (centred on the airplane's heading).
    001 gives no sizes: these are approximations (docs/rulings.md, A-entries)."""

    offset: float = Field(default=3.0, ge=0)
    length: float = Field(gt=0)
    width: float = Field(gt=0)


class TemplatesSpec(Strict):
    """001's two Automated Tripod templates: S (where the airplane will be after a short
    move) and L (a long one)."""

    S: TemplateSpec = TemplateSpec(offset=3.0, length=9.0, width=8.0)
    L: TemplateSpec = TemplateSpec(offset=3.0, length=17.0, width=12.0)


class BombCardSpec(Strict):
    """001's bomb card ("BOMBING TRIPODS"): a rectangle laid with its arrow on the arrow of
    the maneuver card placed in front of the bomber, a dot at its centre. 001 gives no
    sizes: these are approximations (docs/rulings.md, B-entries)."""

    length: float = Field(default=8.0, gt=0, description="along the bomber's heading, cm")
    width: float = Field(default=6.0, gt=0, description="across the heading, cm")
    dot_radius: float = Field(default=0.6, gt=0, description="the dot at its centre, cm")


class TripodMeasures(Strict):
    """Tripod bases and rulers (Tripods & Triplanes)."""

    base_side: float = Field(default=5.0, gt=0, description="side of the hexagonal base, cm")
    medium: HeatRayRulerSpec = HeatRayRulerSpec(length=25.0, half=12.5, width=3.0, tilt=30.0)
    heavy: HeatRayRulerSpec = HeatRayRulerSpec(length=32.0, half=16.0, width=3.5, tilt=30.0)
    objective_radius: float = Field(default=2.5, gt=0, description="round objective token")
    smoke: SmokeRulerSpec = SmokeRulerSpec(length=15.0, bend=25.0, cloud_radius=4.0)
    templates: TemplatesSpec = TemplatesSpec()
    bomb_card: BombCardSpec = BombCardSpec()


class Constants(Strict):
    """Table-wide measures (``constants.toml``)."""

    note: str = ""
    table: TableSpec
    ruler: RulerSpec
    airplane_base: BaseSpec
    arcs: ArcsSpec
    jam_maneuvers: int = Field(default=3, ge=1)
    tripods: TripodMeasures = TripodMeasures()


class ManeuverCard(Strict):
    """One maneuver card: where the arrowhead lies relative to the nose of the base.

    ``forward``/``left`` (cm) locate the arrowhead from the middle of the base's front
    edge, in the base's frame before the move; ``turn`` (degrees, positive to the left)
    is the heading the arrowhead gives the base. The base is put down with the middle of
    its rear edge on the arrowhead.
    """

    id: str
    symbol: Symbol
    steep: bool | None = None
    direction: Direction | None = None
    forward: float
    left: float = 0.0
    turn: float = Field(default=0.0, ge=-180, le=180)
    length: float | None = Field(default=None, gt=0)

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    @property
    def is_steep(self) -> bool:
        """Steep and stall cards carry the steep symbol unless the file says otherwise."""
        if self.steep is not None:
            return self.steep
        return self.symbol in (Symbol.STEEP, Symbol.STALL)

    @property
    def arrow(self) -> Direction:
        if self.direction is not None:
            return self.direction
        if self.symbol is Symbol.LEFT:
            return Direction.LEFT
        if self.symbol is Symbol.RIGHT:
            return Direction.RIGHT
        if self.symbol is Symbol.SIDESLIP:
            return Direction.LEFT if self.left > 0 else Direction.RIGHT
        return Direction.NONE


class ManeuverDeck(Strict):
    """A maneuver deck (``maneuvers/<letter>.toml``)."""

    deck: str = Field(min_length=1, max_length=3)
    note: str = ""
    card_length: float = Field(gt=0)
    card_width: float = Field(gt=0)
    straight: str
    cards: list[ManeuverCard] = Field(alias="card", min_length=1)

    @field_validator("straight", mode="before")
    @classmethod
    def _straight_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    @model_validator(mode="after")
    def _ids(self) -> ManeuverDeck:
        ids = [c.id for c in self.cards]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"card ids must be unique in a deck; repeated: {', '.join(dupes)}")
        straight = {c.id: c for c in self.cards}.get(self.straight)
        if straight is None or straight.symbol is not Symbol.STRAIGHT:
            raise ValueError(
                f"'straight' must name a straight card of the deck, not {self.straight!r}"
            )
        return self

    def card(self, card_id: str) -> ManeuverCard:
        """The card with this id; raises :class:`UnknownCardError` listing valid ids."""
        known = _MANEUVER_CARDS.get(id(self))
        if known is None or known[0] is not self:
            known = (self, {c.id: c for c in self.cards})
            _MANEUVER_CARDS[id(self)] = known
        found = known[1].get(card_id)
        if found is not None:
            return found
        from dogfight.errors import UnknownCardError

        raise UnknownCardError(self.deck, card_id, [c.id for c in self.cards])


_MANEUVER_CARDS: dict[int, tuple[ManeuverDeck, dict[str, ManeuverCard]]] = {}
"""Each deck's cards by id (decks are immutable; the deck is kept to check the id)."""


class Special(StrEnum):
    """Special damage icons (000's table, plus the energy icon used by tripods)."""

    JAMMED = "jammed"
    WOUNDED_PILOT = "wounded_pilot"
    RUDDER_LEFT = "rudder_left"
    RUDDER_RIGHT = "rudder_right"
    ENGINE = "engine"
    SMOKE = "smoke"
    FIRE = "fire"
    CIRCUITS = "circuits"
    GYROSCOPE = "gyroscope"
    REVERSE_DESTROYED = "reverse_destroyed"
    SMOKE_GENERATOR = "smoke_generator"
    TOPPLED = "toppled"
    BATTERIES = "batteries"


class SpecialSpec(Strict):
    """How a special damage is handled (``specials.toml``)."""

    applies_to: Literal["airplane", "tripod", "all"]
    announced: bool
    description: str


class DamageCard(Strict):
    """A damage card: ``count`` identical copies with this id."""

    id: str
    value: int = Field(ge=0)
    explosion: bool = False
    specials: list[Special] = Field(default_factory=list)
    energy: bool = False
    count: int = Field(default=1, ge=1)

    @model_validator(mode="after")
    def _explosion_has_no_value(self) -> DamageCard:
        if self.explosion and self.value:
            raise ValueError("an explosion card carries no damage value (set value = 0)")
        return self


class DamageDeck(Strict):
    """A damage deck (``damage/<letter>.toml``), or a set of damage counters drawn from a
    cup (``counters/<set>-<letter>.toml``: WW2 airplanes and 001's Invasion counters),
    handled exactly like a deck of cards."""

    deck: str = Field(min_length=1, max_length=12)
    note: str = ""
    counters: bool = Field(
        default=False, description="damage counters drawn from a cup (WW2), not cards"
    )
    cards: list[DamageCard] = Field(alias="card", min_length=1)

    @model_validator(mode="after")
    def _ids(self) -> DamageDeck:
        ids = [c.id for c in self.cards]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"card ids must be unique in a deck; repeated: {', '.join(dupes)}")
        return self

    def composition(self) -> list[str]:
        """Every physical card's id, copies repeated, in file order."""
        return [c.id for c in self.cards for _ in range(c.count)]


class Published(Strict):
    """The figures of an airplane taken from a published source (``../shared/facts.md``,
    the few public figures about the real cards); every other figure of it is this
    project's approximation."""

    source: str = Field(
        min_length=1, description="the airplane as the source names it (a row of facts.md)"
    )
    trust: Literal["official", "card", "player"] = Field(
        description="official: printed by the publisher; card: a player quoting a card he "
        "owns; player: a player's compiled sheet"
    )
    figures: list[Literal["firepower", "damage"]] = Field(
        min_length=1, description="which of the airplane's figures are the published ones"
    )


class Airplane(Strict):
    """An airplane model (an entry of ``airplanes/*.toml``)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    maneuver_deck: str
    firepower: list[str] = Field(min_length=1, max_length=2)
    damage: int = Field(gt=0)
    rockets: bool = False
    engines: int = Field(default=1, ge=1, le=4, description="1: single-engine")
    bomb_loads: int | None = Field(
        default=None,
        ge=0,
        description="bomb loads it usually carries (001: single-engine 1, multi-engine 2)",
    )
    era: Literal["ww1", "ww2"] = Field(
        default="ww1",
        description="WW1 airplanes plan three cards a turn; WW2 ones one card "
        "and a speed marker per Earthling turn (001)",
    )
    speeds: list[int] = Field(
        default_factory=list,
        description="WW2: the speed markers it may fly (this project's approximation)",
    )
    published: Published | None = Field(
        default=None, description="the figures taken from a published source, if any"
    )
    note: str = ""

    @model_validator(mode="after")
    def _speeds(self) -> Airplane:
        if self.era == "ww2" and not self.speeds:
            raise ValueError("a WW2 airplane lists the speeds it may fly ('speeds')")
        if self.era == "ww1" and self.speeds:
            raise ValueError("only WW2 airplanes fly with a speed marker ('speeds')")
        if any(s < 1 for s in self.speeds) or len(set(self.speeds)) != len(self.speeds):
            raise ValueError(f"speeds are distinct whole numbers from 1: {self.speeds}")
        return self

    @property
    def two_seater(self) -> bool:
        return len(self.firepower) == 2

    @property
    def usual_loads(self) -> int:
        """001: "typically, a single-engine airplane has one load, while a multi-engine
        airplane has two"."""
        if self.bomb_loads is not None:
            return self.bomb_loads
        return 1 if self.engines == 1 else 2


class IllegalManeuver(StrEnum):
    """What happens when an illegal airplane maneuver is revealed."""

    STRAIGHT_AND_DAMAGE = "straight_and_damage"
    ELIMINATED = "eliminated"
    STRAIGHT = "straight"


class Explosion(StrEnum):
    """What an explosion card does."""

    HALF_RESISTANCE = "half_resistance"
    ELIMINATED = "eliminated"


class AutoTarget(StrEnum):
    """Which target an airplane fires at when its plan leaves the choice open."""

    NEAREST = "nearest"
    NONE = "none"


@dataclass(frozen=True)
class CatalogNames:
    """Marks a switch whose value names catalog entries (``Annotated[str, CatalogNames(
    "card_deck")]``): the catalog loader checks every such switch against the catalog
    (:func:`dogfight.catalog.loader.checked_switches`), one way for all of them, when a
    ruleset, scenario, situation or game is made."""

    kind: Literal["card_deck", "airplane_counters", "tripod_counters"]


TRIPOD_FACTOR_MAX = 4
"""The largest ``tripod_factor``: 001 doubles; four times the resistance is already a
tripod no airplane brings down in a game."""

CARD_SPEED_MAX = 6
"""The largest ``card_speed``: one above the fastest speed marker a WW2 airplane flies."""

SWITCH_NAME = r"^[A-Za-z0-9][A-Za-z0-9-]*$|^$"
"""What a switch naming a deck or counter set may look like (the catalog says which)."""


class Switches(Strict):
    """The rule switches a ruleset fixes and a situation may override. Each one's
    docstring is its description (the lobby shows it beside the switch)."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, use_attribute_docstrings=True
    )

    illegal_maneuver: IllegalManeuver
    """What an illegal maneuver does: flown as a straight with a damage card, flown as a
    straight, or the airplane is eliminated."""
    illegal_damage_deck: Annotated[
        str, Field(max_length=40, pattern=SWITCH_NAME), CatalogNames("card_deck")
    ] = "A"
    """The damage deck drawn from for an illegal maneuver: one of the catalog's damage
    card decks (damage/<letter>.toml)."""
    explosion: Explosion
    """What an explosion card does: half the airplane's resistance, or it is eliminated."""
    altitude_cards: bool = False
    """Climb and dive cards are in the airplanes' decks."""
    aim_bonus: bool = True
    """000's aim: from the second consecutive phase of fire at the same target, every
    damage card scores one more point."""
    auto_target: AutoTarget = AutoTarget.NEAREST
    """Whom a weapon fires at when its plan leaves the choice open: the nearest, or no one."""
    standard_rules: bool = False
    """000's Standard Rules: special damage, rockets, black smoke."""
    immelmann_counter: bool = False
    """002: after an Immelmann as the last card, the next turn may open with a straight
    or an Immelmann."""
    steep_after_turn_or_straight: bool = False
    """003: the card before a steep maneuver must be a left turn, right turn or straight."""
    blocking: Literal["any", "friendly"] = "any"
    """Which planes between a firer and its target block the shot: any (000, 002) or
    only the firer's own side's (003)."""
    blind_spot: bool = False
    """002: a rear gun cannot fire at a target right behind the tail (first half of the
    ruler, through the two-seater's rear side)."""
    special_damage: Literal["000", "002", "003"] | None = None
    """Whose special damage is in force: 000's Standard Rules, 002's list, 003's engine
    damage only; None: 000's when ``standard_rules`` is on, else none."""
    match_scoring: Literal["every_side", "winner"] = "every_side"
    """002: only the winner scores the match points; 003 ("计算每局双方分数"): every side."""
    previews: Literal["on", "as_printed"] = "on"
    """What a player may measure while planning. ``on`` (the house rule most groups
    play): the cards' ghosts on the table, the firing reach of the bases, the distance
    beyond the edge in a warning. ``as_printed`` (001: "Players are never allowed to take
    any kind of measurement during the game, apart from those required to check firing,
    tailing, and such."): no ghost beyond the card's own shape, no reach before the
    reveal, no distance in a warning."""
    tailing: bool = False
    """002's tailing: a plane right behind an enemy at the start of the turn (and again
    before the second maneuver) sees its next card and may reorder its own."""
    actions_at_planning: bool = False
    """House rule (turn-a-day games): tripods choose their three action tokens with the
    plan, instead of one at the start of each action phase as printed (000, 001)."""
    era: Literal["ww1", "ww2"] = "ww1"
    """The airplanes this ruleset flies (001, "TRIPODS IN WW2")."""
    mixed_eras: bool = False
    """Allow airplanes of the other era on the same table."""
    airplane_counters: Annotated[
        str, Field(max_length=40, pattern=SWITCH_NAME), CatalogNames("airplane_counters")
    ] = ""
    """WW2: the counter set a WW2 airplane takes its damage from (counters/<set>-<letter>.toml,
    a counter for every damage deck's letter); empty: damage cards."""
    tripod_counters: Annotated[
        str, Field(max_length=40, pattern=SWITCH_NAME), CatalogNames("tripod_counters")
    ] = ""
    """001: "To handle the damage inflicted to the tripods by WW2 airplanes, use the damage
    counters included in the Invasion set": their counter set (counters/<set>-<letter>.toml,
    a counter for every WW2 airplane's firepower letter); empty: damage cards."""
    tripod_factor: int = Field(default=1, ge=1, le=TRIPOD_FACTOR_MAX)
    """001: "double the resistance and the recharge level values of the tripods" (2);
    a whole number from 1 to 4."""
    card_speed: int = Field(default=3, ge=1, le=CARD_SPEED_MAX)
    """WW2: the speed marker at which a maneuver card moves as printed; a whole number from
    1 to 6 (a WW2 airplane flies speeds 1 to 5)."""

    @classmethod
    def explanations(cls) -> dict[str, str]:
        """Every switch with its explanation on one line (its docstring), in the order
        the model declares them: what ``dogfight info`` and the lobby show."""
        out = {}
        for name, field in cls.model_fields.items():
            text = re.sub(r":\w+:`([^`]*)`", r"\1", field.description or "").replace("``", "")
            out[name] = " ".join(text.split())
        return out


class Ruleset(Strict):
    """A named ruleset (``rulesets/<name>.toml``): its source text and its switches."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    source: str
    switches: Switches


class AirplaneFile(Strict):
    note: str = ""
    airplanes: list[Airplane] = Field(alias="airplane", min_length=1)


class SpecialsFile(Strict):
    note: str = ""
    special: dict[Special, SpecialSpec]


class TripodSymbol(StrEnum):
    """000: "Maneuver cards with an arrow are movement maneuvers" (blue: normal, red:
    running); "Maneuver cards depicting a large octagon are stationary maneuvers" (green:
    standing still; blue with an arrow on the rear: reverse)."""

    MOVE = "move"
    RUN = "run"
    STAND = "stand"
    REVERSE = "reverse"


class TripodCard(Strict):
    """A tripod maneuver card; geometry as for airplane cards (from the middle of the
    base's front side), ignored for stationary cards."""

    id: str
    symbol: TripodSymbol
    forward: float = 0.0
    left: float = 0.0
    turn: float = Field(default=0.0, ge=-180, le=180)
    stop: bool = False
    """000: "If there is a [Stop] icon on the card, the Tripod player cannot use an Action
    token"."""
    energy: bool = False
    """000: "If there is an [Energy] icon on the card, the Tripod player must immediately
    spend 1 Energy"."""
    solo: Literal["current", "reserve"] | None = None
    """The Automated Tripod's deck (001: "Put all long straight, long sideslip, standing
    still, and 60° curve maneuver cards in one deck (the current deck) ... all the
    remaining cards in the other deck (the reserve deck)"); None: decided by that rule
    from the card's geometry."""

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    @property
    def moves(self) -> bool:
        return self.symbol in (TripodSymbol.MOVE, TripodSymbol.RUN)

    @property
    def stationary(self) -> bool:
        return self.symbol in (TripodSymbol.STAND, TripodSymbol.REVERSE)


class TripodDeck(Strict):
    """A tripod maneuver deck (``tripod_maneuvers/<id>.toml``)."""

    deck: str = Field(min_length=1, max_length=8)
    note: str = ""
    card_length: float = Field(gt=0)
    card_width: float = Field(gt=0)
    cards: list[TripodCard] = Field(alias="card", min_length=1)

    @model_validator(mode="after")
    def _ids(self) -> TripodDeck:
        ids = [c.id for c in self.cards]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"card ids must be unique in a deck; repeated: {', '.join(dupes)}")
        return self

    def card(self, card_id: str) -> TripodCard:
        for c in self.cards:
            if c.id == card_id:
                return c
        from dogfight.errors import UnknownCardError

        raise UnknownCardError(self.deck, card_id, [c.id for c in self.cards])


class Initiative(Strict):
    """001's INITIATIVE table: one value per kind of pilot."""

    human: int
    martian: int


HexSide = Literal["front", "front-left", "rear-left", "rear", "rear-right", "front-right"]


class Tripod(Strict):
    """A Martian tripod model (an entry of ``tripods/*.toml``)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    maneuver_deck: str
    firepower: str = Field(description="damage deck letter of its heat-ray")
    damage: int = Field(gt=0, description="resistance")
    energy: int = Field(gt=0, description="Energy rating")
    recharge_level: int = Field(gt=0)
    heat_ray: Literal["medium", "heavy"]
    projectors: list[HexSide] = Field(min_length=1)
    protected: list[HexSide] = Field(default_factory=list)
    facing_limit: int = Field(ge=1, le=3, description="sides per change of facing")
    smoke_projectors: list[HexSide] = Field(default_factory=list)
    tripod_firepower: Literal["X", "Y"] = Field(
        default="X",
        description="firepower against tripods (001: airplane deck A for X, B for Y)",
    )
    initiative: Initiative | None = Field(
        default=None, description="001's initiative with a human and a Martian pilot"
    )
    note: str = ""


class TripodFile(Strict):
    note: str = ""
    tripods: list[Tripod] = Field(alias="tripod", min_length=1)


Edge = Literal["north", "south", "east", "west"]
"""A table edge: north is the top (y = height), south the bottom (y = 0)."""


class Skill(StrEnum):
    """Ace skills of 000's scenarios."""

    ITCHY_TRIGGER_FINGER = "itchy_trigger_finger"
    """000: "once every 5 phases, the pilot shoots first"."""
    SNIPER = "sniper"
    """000: "once every 5 phases, the pilot draws two damage cards, chooses one to give to
    the opponent, reshuffles the other one"."""


class ScenarioSide(Strict):
    name: str = Field(min_length=1)
    edge: Edge


class ObjectiveRule(Strict):
    """How many objective tokens the setup places and where (000: "set at no more than
    one airplane ruler from the center of the playing area and at no less than one ruler
    from each other")."""

    count: int = Field(ge=1)
    placed_by: str
    max_from_centre: float = Field(gt=0)
    min_apart: float = Field(ge=0)
    charges: int = Field(default=1, ge=0)
    layout: list[tuple[float, float]] = Field(
        default_factory=list,
        description="fixed spots (across, depth) in cm from the middle of the placing side's "
        "edge, across positive to that side's right as it faces the table, depth into the "
        'table (001: "one objective template at one ruler from the center of the Earthling '
        'side ..."); empty: anywhere the other rules allow',
    )


class MinDistance(Strict):
    """The vehicle must be placed more than ``distance`` cm from every vehicle of
    ``side`` (000: "at more than one airplane ruler from the tripod")."""

    side: str
    distance: float = Field(gt=0)


class ScenarioVehicle(Strict):
    """A vehicle the scenario gives a side; ``types`` lists the models allowed (empty:
    any airplane), the first being the default."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
    side: str
    types: list[str] = Field(default_factory=list)
    placement: Literal["edge", "half", "anywhere", "depth"] = "half"
    depth: float | None = Field(
        default=None,
        ge=0,
        description="'depth' placement: the centre this far (cm) from the side's edge (001: "
        '"at one ruler from its side")',
    )
    centred: bool = Field(
        default=False,
        description="'depth' placement: also on the middle line of that edge (001: \"at half a "
        'ruler from the middle of its side")',
    )
    automated: bool = Field(
        default=False, description="a tripod played by 001's Automated Tripod rules"
    )
    rockets: int = Field(default=0, ge=0, le=2)
    bombs: int | None = Field(
        default=None, ge=0, description="bomb loads agreed for this bomber (001)"
    )
    bomber: bool = Field(default=False, description="a bomber with its model's usual loads (001)")
    pilot: Literal["martian", "human"] = Field(
        default="martian", description="tripods: who pilots it (001, Tripods vs. Tripods)"
    )
    skills: list[Skill] = Field(default_factory=list)
    min_distance: MinDistance | None = None
    when_gone: list[str] = Field(
        default_factory=list, description="reinforcements: enters once all of these are out"
    )


class TargetSpec(Strict):
    """Where a target card lies: its centre and the heading of its long side (cm and
    degrees, like a vehicle's pose), and its size. 002 prints no size for a target card:
    the default is an APPROXIMATION (docs/rulings.md M2)."""

    x: float
    y: float
    heading: float = 0.0
    length: float = Field(default=12.0, gt=0, le=100)
    width: float = Field(default=8.0, gt=0, le=100)

    def corners(self) -> list[tuple[float, float]]:
        """The card's four corners on the table."""
        h = math.radians(self.heading)
        ux, uy = math.cos(h), math.sin(h)
        a, b = self.length / 2.0, self.width / 2.0
        return [
            (self.x + sx * a * ux - sy * b * uy, self.y + sx * a * uy + sy * b * ux)
            for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))
        ]

    def off_table(self, width: float, height: float) -> tuple[float, float] | None:
        """A corner of the card that is off a ``width`` x ``height`` table (None: the
        whole card lies on it)."""
        eps = 1e-9
        return next(
            (
                (x, y)
                for x, y in self.corners()
                if not (-eps <= x <= width + eps and -eps <= y <= height + eps)
            ),
            None,
        )


class Mission(Strict):
    """A bombing or photographic mission (002: "Place target cards (for bombing/photo
    missions) as specified in scenarios."): the side flying it, the airplanes carrying the
    bombs or the camera (``carriers``; empty: any airplane of the side), its target card
    and the points a success scores (002: "+2 points immediately")."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["bombing", "photo"]
    side: str
    carriers: list[str] = Field(default_factory=list)
    target: TargetSpec
    points: int = Field(default=2, ge=0, le=100)
    text: str = Field(default="", description="the mission as the briefing tells it")


class Victory(Strict):
    """A victory condition, checked after every phase in file order.

    ``destroy``: every listed vehicle is eliminated (leaving the table is not being
    destroyed, unless ``left_area_counts``). ``objectives_and_exit``: at least
    ``objectives`` objective tokens were destroyed (or drained, with ``objective_action =
    "drain"``, or reached by a tripod's base with ``"reach"``) and a vehicle of ``side``
    (every one, with ``all_exit``) left the table across ``exit_edge``.
    ``last_in_play``: ``side`` still has an airplane in play and no other side has (002:
    "Last player/team with aircraft in play wins.").

    Solo scenarios (001) grade a victory: ``level`` names it (strategic, tactical,
    marginal); ``own_losses`` (when given) lists how many of ``side``'s own vehicles may be
    out of the game for this level, and ``reinforced`` whether one of ``side``'s
    reinforcements must (True) or must not (False) have entered.
    """

    side: str
    kind: Literal["destroy", "objectives_and_exit", "last_in_play"]
    vehicles: list[str] = Field(default_factory=list)
    objectives: int = Field(default=0, ge=0)
    objective_action: Literal["destroy", "drain", "reach"] = "destroy"
    all_exit: bool = Field(
        default=False,
        description='every vehicle of ``side`` must leave across ``exit_edge`` (001: "both '
        'tripods exit the playing area from the Earthling side")',
    )
    exit_edge: Edge | None = None
    left_area_counts: bool = False
    level: Literal["strategic", "tactical", "marginal"] | None = None
    own_losses: list[int] | None = None
    reinforced: bool | None = None
    text: str = Field(description="the condition as the rule text gives it")
    said: str = Field(
        default="",
        description="the ending in words once this condition is met, as the result and the "
        "log tell it: what happened, from the winning side's view (default: ``text``)",
    )

    @property
    def outcome(self) -> str:
        """What the result and the log say when this condition ends the game."""
        return self.said or self.text


class Scenario(Strict):
    """A scenario (``scenarios/*.toml``): table, sides, forces, objectives, victory."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    source: str
    note: str = ""
    ruleset: str = "wog"
    unit: Literal["cm", "ruler"] = Field(
        default="cm",
        description="the unit of the placement distances (objectives, depth, min_distance): "
        'cm, or airplane rulers (001: "refer to the airplane ruler for the distances"); '
        "edge_depth is always cm",
    )
    switches: dict[str, bool | str] = Field(default_factory=dict)
    table: TableSpec
    sides: list[ScenarioSide] = Field(alias="side", min_length=2)
    objectives: ObjectiveRule | None = None
    edge_depth: float = Field(
        default=10.0, gt=0, description="'edge' placement: centre at most this far from it"
    )
    vehicles: list[ScenarioVehicle] = Field(alias="vehicle", min_length=1)
    reinforcements: list[ScenarioVehicle] = Field(alias="reinforcement", default_factory=list)
    victory: list[Victory] = Field(min_length=1)
    match_points: bool = Field(
        default=False,
        description="002's match scoring applies (\"Scoring & End Game\"): the game's "
        "result carries each side's match points. Off, the scenario's victory is its whole "
        'result (000: "Scenarios set different goals and scores for each gaming '
        "situation\"; 001's scenarios print no points)",
    )
    missions: list[Mission] = Field(
        alias="mission",
        default_factory=list,
        description="bombing and photographic missions with their target cards (002); "
        "their coordinates are always cm",
    )

    def side(self, name: str) -> ScenarioSide | None:
        return next((s for s in self.sides if s.name == name), None)

    def in_cm(self, ruler: float) -> Scenario:
        """The scenario with its distances in cm (``unit = "ruler"``: times the ruler)."""
        if self.unit == "cm":
            return self
        k = ruler

        def vehicle(v: ScenarioVehicle) -> ScenarioVehicle:
            update: dict[str, object] = {}
            if v.depth is not None:
                update["depth"] = v.depth * k
            if v.min_distance is not None:
                update["min_distance"] = v.min_distance.model_copy(
                    update={"distance": v.min_distance.distance * k}
                )
            return v.model_copy(update=update)

        objectives = self.objectives
        if objectives is not None:
            objectives = objectives.model_copy(
                update={
                    "max_from_centre": objectives.max_from_centre * k,
                    "min_apart": objectives.min_apart * k,
                    "layout": [(a * k, d * k) for a, d in objectives.layout],
                }
            )
        return self.model_copy(
            update={
                "unit": "cm",
                "objectives": objectives,
                "vehicles": [vehicle(v) for v in self.vehicles],
                "reinforcements": [vehicle(v) for v in self.reinforcements],
            }
        )
