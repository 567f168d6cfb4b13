"""Typed events: everything that changes in a game is one of these.

Each event knows who may see it. Public events are seen whole by every seat. Secret
events (damage drawn) are seen whole only by the seat controlling ``secret_for``; other
seats get :meth:`Event.redacted` (what a player across the table would see), or nothing.
Events serialise to JSON objects with a ``kind`` field; floats are rounded to 1e-4 cm so
transcripts are stable and readable.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from dogfight.geometry.frozen import fast_init
from dogfight.geometry.pose import Pose

_AS_IS = frozenset({str, int, bool, type(None)})
"""Types whose values go into JSON as they are (checked first: most fields are ids and
counts)."""


def _plain(value: object) -> object:
    if type(value) in _AS_IS:
        return value
    if isinstance(value, float):
        rounded = round(value, 4)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, Pose):
        return {"x": _plain(value.x), "y": _plain(value.y), "heading": _plain(value.heading)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """An event class's fields in order, worked out once per class
    (``dataclasses.fields`` builds them anew at every call: most of the cost of putting
    an event in JSON, which the server does for every step and page)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of events."""

    kind: ClassVar[str] = "event"

    @property
    def secret_for(self) -> str | None:
        """The vehicle whose seat alone sees this event whole (None: public)."""
        return None

    def redacted(self) -> Event | None:
        """What other seats see of a secret event (None: nothing)."""
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    turn: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    kind: ClassVar[str] = "phase_started"
    turn: int
    phase: int


@dataclass(frozen=True, slots=True)
class EarthlingTurnStarted(Event):
    """001: the WW2 airplanes have planned an Earthling turn (the game's count of them:
    "Three consecutive Earthling game turns are equivalent to a Martian game turn")."""

    kind: ClassVar[str] = "earthling_turn_started"
    earthling_turn: int


@dataclass(frozen=True, slots=True)
class SpeedRevealed(Event):
    """A WW2 airplane's speed marker, revealed with its card (001: "one maneuver card with
    a speed marker")."""

    kind: ClassVar[str] = "speed_revealed"
    vehicle: str
    phase: int
    speed: int


@dataclass(frozen=True, slots=True)
class ObjectiveReached(Event):
    """A tripod's base overlaps an objective template (001: "the tripod reaches all three
    objective templates")."""

    kind: ClassVar[str] = "objective_reached"
    objective: str
    vehicle: str


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "revealed"
    vehicle: str
    phase: int
    card: str
    symbol: str
    steep: bool


@dataclass(frozen=True, slots=True)
class IllegalManeuver(Event):
    """A revealed card broke a restriction; ``outcome`` says what the ruleset did."""

    kind: ClassVar[str] = "illegal_maneuver"
    vehicle: str
    card: str
    rule: str
    outcome: str
    replaced_by: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    vehicle: str
    card: str
    start: Pose
    end: Pose
    backward: bool = False
    """A tripod's card applied to the rear of its base (after a reverse)."""


@dataclass(frozen=True, slots=True)
class MovedAtSpeed(Moved):
    """A WW2 airplane's move: its card flown at the speed marker ``speed``
    (:func:`dogfight.rules.ww2.scale`). The same event as :class:`Moved` (kind "moved"),
    with the speed, so that whoever draws the move lays the card as the engine flew it
    (``dogfight.rules.movement.card_flown``); an airplane flown without a marker, and a
    tripod, make a plain :class:`Moved` (their JSON has no ``speed``)."""

    speed: int = 0


@dataclass(frozen=True, slots=True)
class LeftArea(Event):
    kind: ClassVar[str] = "left_area"
    vehicle: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class JamCounterDiscarded(Event):
    """The weapon cannot fire this phase; ``left`` counters remain."""

    kind: ClassVar[str] = "jam_counter_discarded"
    vehicle: str
    weapon: str
    left: int


@dataclass(frozen=True, slots=True)
class Fired(Event):
    kind: ClassVar[str] = "fired"
    firer: str
    weapon: str
    target: str
    range: str
    distance: float
    origin: tuple[float, float]
    """The firing dot, where the ruler starts."""
    point: tuple[float, float]
    """The nearest point of the target's base the ruler reaches."""
    cards: int
    aimed: bool


HOLDS_FIRE = "holds fire"
""":class:`HeldFire`'s reason when the player chose not to fire at what was in reach."""


@dataclass(frozen=True, slots=True)
class HeldFire(Event):
    """A weapon that could fire did not, or the chosen target was not possible."""

    kind: ClassVar[str] = "held_fire"
    firer: str
    weapon: str
    reason: str


@dataclass(frozen=True, slots=True)
class RearGunLost(Event):
    """A two-seater's rear gun cannot fire: its observer is incapacitated (002:
    "two-seaters lose rear gun"). 002's specials are "Keep Secret Unless Noted", so only
    the owner sees why; another seat sees what it would see if the gun simply held fire:
    "holds fire" when something was in reach (``in_reach``), else nothing."""

    kind: ClassVar[str] = "rear_gun_lost"
    firer: str
    weapon: str
    in_reach: bool

    @property
    def secret_for(self) -> str | None:
        return self.firer

    def redacted(self) -> Event | None:
        return HeldFire(self.firer, self.weapon, HOLDS_FIRE) if self.in_reach else None


@dataclass(frozen=True, slots=True)
class DamageDrawn(Event):
    """Damage cards a vehicle drew; secret to its owner (others see how many)."""

    kind: ClassVar[str] = "damage_drawn"
    vehicle: str
    deck: str
    cards: tuple[str, ...]
    points: int
    total: int
    source: str

    @property
    def secret_for(self) -> str | None:
        return self.vehicle

    def redacted(self) -> Event | None:
        return DamageCardsTaken(self.vehicle, self.deck, len(self.cards), self.source)


@dataclass(frozen=True, slots=True)
class DamageCardsTaken(Event):
    """The public face of :class:`DamageDrawn`."""

    kind: ClassVar[str] = "damage_cards_taken"
    vehicle: str
    deck: str
    count: int
    source: str


@dataclass(frozen=True, slots=True)
class Jammed(Event):
    """A jam card shown to the firer (and so public): the weapon is jammed."""

    kind: ClassVar[str] = "jammed"
    firer: str
    weapon: str
    card: str
    counters: int


@dataclass(frozen=True, slots=True)
class Explosion(Event):
    """An explosion card was drawn. Where it eliminates the vehicle outright (002:
    "Reveal only if card has **explosion symbol** (immediate elimination)"; 003) it is
    shown to everyone. Where it is half the damage allowance (000: "the target vehicle
    receives half of its original damage allowance"), it is a number like any other
    card: 000 "The player looks secretly at the damage cards drawn", so only the owner
    sees it (the others see the cards taken, :class:`DamageCardsTaken`)."""

    kind: ClassVar[str] = "explosion"
    vehicle: str
    card: str
    eliminates: bool

    @property
    def secret_for(self) -> str | None:
        return None if self.eliminates else self.vehicle

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    kind: ClassVar[str] = "deck_reshuffled"
    deck: str
    reason: str


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """``vehicle`` is out of the game for ``reason`` (shot_down, exploded, burned,
    out_of_control, pilot_incapacitated, engine_destroyed, left_area...). Where a damage
    card did it (docs/rulings.md R33): ``by`` the vehicle whose ``means`` drew it ("front"
    or "rear" guns, "heat-ray", "rockets", "bombs"; ``by`` None: "fire", "black smoke",
    "bomb fragments", "illegal maneuver"), the card's ``deck``, and the ``card`` itself
    only where every seat saw it drawn (an explosion that eliminates outright, a jam, a
    heat-ray's card revealed at short range; else None). Public: the source and the deck
    were seen at the table; a card no seat but its owner saw is not named here."""

    kind: ClassVar[str] = "eliminated"
    vehicle: str
    reason: str
    by: str | None = None
    means: str | None = None
    deck: str | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Reminder(Event):
    """End-of-turn reminder counter: steep, immelmann or straight."""

    kind: ClassVar[str] = "reminder"
    vehicle: str
    counter: str


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game's one judgement, which every reader of a result takes as it is: ``winner``
    a side, or None for a draw; ``level`` a graded victory's (001's solo scenarios:
    strategic, tactical, marginal); ``reason`` why it ended, in words, from the winning
    side's view (the condition it met) or why nobody won; ``scores`` the match points per
    side where a match scoring applies (002, 003), empty where the victory is the whole
    result (a scenario of 000 or 001)."""

    kind: ClassVar[str] = "game_over"
    winner: str | None
    scores: dict[str, int]
    reason: str = ""
    level: str | None = None


@dataclass(frozen=True, slots=True)
class ActionChosen(Event):
    """A tripod's action token, placed face up at the start of the movement step."""

    kind: ClassVar[str] = "action_chosen"
    vehicle: str
    token: str
    detail: str


@dataclass(frozen=True, slots=True)
class ActionTokenPlaced(Event):
    """A tripod's seat chose this phase's action (:mod:`dogfight.rules.action_tokens`):
    ``action`` is the option string (``none``: no token). 000's token lies face up:
    public. 001's action card lies face down (``face_down``): seen whole by its seat
    alone, the others see that a card was placed (``action`` empty) until its reveal."""

    kind: ClassVar[str] = "action_token_placed"
    vehicle: str
    phase: int
    action: str
    face_down: bool

    @property
    def secret_for(self) -> str | None:
        return self.vehicle if self.face_down else None

    def redacted(self) -> Event | None:
        return ActionTokenPlaced(self.vehicle, self.phase, "", True)


@dataclass(frozen=True, slots=True)
class ActionWasted(Event):
    """000: "the chosen token effect is not applied and the Tripod player must discard 1
    Energy" (or, for other impossible choices, simply no effect)."""

    kind: ClassVar[str] = "action_wasted"
    vehicle: str
    token: str
    reason: str
    energy_lost: int


@dataclass(frozen=True, slots=True)
class EnergyChanged(Event):
    """A tripod's Energy tokens (on its open console)."""

    kind: ClassVar[str] = "energy_changed"
    vehicle: str
    energy: int
    change: int
    reason: str


@dataclass(frozen=True, slots=True)
class Toppled(Event):
    kind: ClassVar[str] = "toppled"
    vehicle: str
    reason: str


@dataclass(frozen=True, slots=True)
class ToppledTokens(Event):
    """A toppled tripod's reminder tokens; 0 means it stands again."""

    kind: ClassVar[str] = "toppled_tokens"
    vehicle: str
    tokens: int


@dataclass(frozen=True, slots=True)
class PutBack(Event):
    """Overlapping tripods go back where they were before moving (000)."""

    kind: ClassVar[str] = "put_back"
    vehicle: str
    pose: Pose
    card: str
    value: int
    toppled: bool


@dataclass(frozen=True, slots=True)
class FacingChanged(Event):
    kind: ClassVar[str] = "facing_changed"
    vehicle: str
    sides: int
    pose: Pose


@dataclass(frozen=True, slots=True)
class HeatRay(Event):
    """A heat-ray fired from ``projector``; ``target`` None when nothing was reached."""

    kind: ClassVar[str] = "heat_ray"
    firer: str
    projector: str
    target: str | None
    range: str | None
    distance: float | None
    origin: tuple[float, float] | None
    point: tuple[float, float] | None
    tilt: float | None
    reason: str | None = None
    """Why nothing was hit (a miss): the chosen target out of reach, or none in reach."""
    protected: bool | None = None
    """A tripod target: whether the ray crossed its working electrified armour (001)."""


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """A damage card shown to everyone (heat-ray at short range, protected hits)."""

    kind: ClassVar[str] = "card_revealed"
    vehicle: str
    deck: str
    card: str
    value: int


@dataclass(frozen=True, slots=True)
class ProtectedHit(Event):
    """A hit on a tripod's electrified armour: the cards are revealed and only their
    energy icons and explosions count (against its Energy)."""

    kind: ClassVar[str] = "protected_hit"
    vehicle: str
    firer: str
    deck: str
    cards: tuple[str, ...]
    energy_lost: int


@dataclass(frozen=True, slots=True)
class Recharged(Event):
    kind: ClassVar[str] = "recharged"
    vehicle: str
    gained: int
    energy: int
    objective: str | None


@dataclass(frozen=True, slots=True)
class ObjectiveDestroyed(Event):
    kind: ClassVar[str] = "objective_destroyed"
    vehicle: str
    objective: str


@dataclass(frozen=True, slots=True)
class SpecialDamage(Event):
    """A special damage icon taking effect (Standard Rules). Announced specials are
    public; the others are seen by the owner only (000: "SPECIAL DAMAGE ETIQUETTE")."""

    kind: ClassVar[str] = "special_damage"
    vehicle: str
    special: str
    announced: bool
    # No card id here: 000 "the player should keep secret the amount of damage points on
    # the card(s)", and a card id would tell them. The owner has it in damage_drawn.

    @property
    def secret_for(self) -> str | None:
        return None if self.announced else self.vehicle

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class FlameCounter(Event):
    """A burning vehicle discards a flame counter and draws an A card (000)."""

    kind: ClassVar[str] = "flame_counter"
    vehicle: str
    left: int


@dataclass(frozen=True, slots=True)
class RocketsLaunched(Event):
    kind: ClassVar[str] = "rockets_launched"
    firer: str
    target: str
    count: int
    left: int


@dataclass(frozen=True, slots=True)
class RocketsHit(Event):
    """``instead_of`` names the original target when a blocking airplane is hit."""

    kind: ClassVar[str] = "rockets_hit"
    firer: str
    target: str
    count: int
    instead_of: str | None


@dataclass(frozen=True, slots=True)
class RocketsMissed(Event):
    kind: ClassVar[str] = "rockets_missed"
    firer: str
    target: str
    reason: str


@dataclass(frozen=True, slots=True)
class SmokeCloud(Event):
    """A Black Smoke cloud placed at the end of the arc ruler."""

    kind: ClassVar[str] = "smoke_cloud"
    firer: str
    projector: str
    cloud: str
    x: float
    y: float
    stand: tuple[float, float]


@dataclass(frozen=True, slots=True)
class CloudDispersed(Event):
    """000: "the cloud is dissipated and removed"; airplanes draw a Z card."""

    kind: ClassVar[str] = "cloud_dispersed"
    cloud: str
    vehicle: str


@dataclass(frozen=True, slots=True)
class ScenarioWon(Event):
    """A scenario's victory condition is met (``winner`` None: the game ends undecided)."""

    kind: ClassVar[str] = "scenario_won"
    winner: str | None
    condition: str


@dataclass(frozen=True, slots=True)
class Reinforcement(Event):
    kind: ClassVar[str] = "reinforcement"
    vehicle: str
    type: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class SkillUsed(Event):
    kind: ClassVar[str] = "skill_used"
    vehicle: str
    skill: str
    detail: str


@dataclass(frozen=True, slots=True)
class TripodDecision(Event):
    """An automated tripod's decision (001, Automated Tripod rules): the ``branch`` of the
    rules that produced it, the ``rule`` quoted, the maneuver ``card`` it plays (None: none
    this phase) and its action token (e.g. ``"recharge village"``, None: no token).
    Public: the automated tripod's procedure is open to the table."""

    kind: ClassVar[str] = "tripod_decision"
    vehicle: str
    branch: str
    rule: str
    card: str | None
    action: str | None


@dataclass(frozen=True, slots=True)
class PlanExplained(Event):
    """Why a computer player chose a vehicle's plan of ``turn``: its best plans (card
    ids) with the values it gave them, best first (the first is the plan it flew), and
    the ``bot`` that chose. Never made by the engine: a game's driver logs it once the
    turn is over (its plan is public then), for a bot that explains itself
    (:func:`dogfight.bots.base.explanation`). Public."""

    kind: ClassVar[str] = "plan_explained"
    vehicle: str
    turn: int
    bot: str
    plans: tuple[tuple[tuple[str, ...], float], ...]


@dataclass(frozen=True, slots=True)
class ActionCardRevealed(Event):
    """001 (Tripods vs. Tripods): a tripod's secret action card shown, "one at a time,
    according to the initiative values"; ``order`` counts the reveals (tripods of one
    team with the same initiative share it), ``drawn`` when a random draw between the
    teams set it. ``token`` is the card ("blank": 001's blank card, no action)."""

    kind: ClassVar[str] = "action_card_revealed"
    vehicle: str
    token: str
    detail: str
    initiative: int
    order: int
    drawn: bool


@dataclass(frozen=True, slots=True)
class BombsDropped(Event):
    """001: "each bomber's player can decide to drop one or more loads of bombs"."""

    kind: ClassVar[str] = "bombs_dropped"
    bomber: str
    loads: int
    left: int


@dataclass(frozen=True, slots=True)
class BombCardPlaced(Event):
    """001: the bomb card laid after movement, its arrow on the arrow of the maneuver
    card (``card``: the stall or straight) placed in front of the bomber; ``under``: tripods
    whose miniature is replaced by its cardboard base to let the card lie; ``dot`` and
    ``covered``: the tripods its dot and its card cover."""

    kind: ClassVar[str] = "bomb_card_placed"
    bombs: str
    bomber: str
    loads: int
    card: str
    pose: Pose
    corners: tuple[tuple[float, float], ...]
    dot: tuple[str, ...]
    covered: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BombsShot(Event):
    """A heat-ray at a falling bomb card: its cards are revealed; 4 or more points or an
    explosion destroy the bombs in the air; a special icon then sends two Z cards to the
    bomber (001)."""

    kind: ClassVar[str] = "bombs_shot"
    bombs: str
    firer: str
    deck: str
    cards: tuple[str, ...]
    points: int
    destroyed: bool
    fragments: bool


@dataclass(frozen=True, slots=True)
class BombsLanded(Event):
    """Bombs hitting the ground: for each tripod base the card covers, ``how`` is "dot"
    (2 C cards per load, the bomber assigns half) or "card" (1 C card per load); a miss
    covers no base."""

    kind: ClassVar[str] = "bombs_landed"
    bombs: str
    bomber: str
    target: str | None
    how: str
    cards: int


@dataclass(frozen=True, slots=True)
class BomberPicked(Event):
    """001: "the bomber's player draws two C damage cards for each load of bombs dropped,
    and he assigns his choice of half of them to the tripod and discards the others".
    Secret to the bomber's seat."""

    kind: ClassVar[str] = "bomber_picked"
    bomber: str
    target: str
    drawn: tuple[str, ...]
    assigned: tuple[str, ...]

    @property
    def secret_for(self) -> str | None:
        return self.bomber

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class Tailing(Event):
    """002's tailing ruler holds before this phase: ``tailer`` tails ``tailed`` (measured
    in the open)."""

    kind: ClassVar[str] = "tailing"
    tailer: str
    tailed: str
    phase: int


@dataclass(frozen=True, slots=True)
class TailedCardShown(Event):
    """The tailed plane's card for ``phase``, shown to the tailing seat only (002)."""

    kind: ClassVar[str] = "tailed_card_shown"
    tailer: str
    tailed: str
    phase: int
    card: str

    @property
    def secret_for(self) -> str | None:
        return self.tailer

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class CardsReordered(Event):
    """A tailing plane's remaining cards, from ``phase`` on, in their new order (secret:
    the cards are face down)."""

    kind: ClassVar[str] = "cards_reordered"
    vehicle: str
    phase: int
    cards: tuple[str, ...]

    @property
    def secret_for(self) -> str | None:
        return self.vehicle

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class MissionAccomplished(Event):
    """A bombing or photographic mission succeeded: ``vehicle``'s centre ended a maneuver
    on the target card (002: "Score upon successful execution", docs/rulings.md M3)."""

    kind: ClassVar[str] = "mission_accomplished"
    mission: str
    mission_kind: str
    vehicle: str
    side: str
    points: int


@dataclass(frozen=True, slots=True)
class HomeAfterMission(Event):
    """An airplane left the table across its own side's edge after its side's mission
    succeeded: no point for the enemy (002: "After success, exiting from own side no
    longer gives enemy points")."""

    kind: ClassVar[str] = "home_after_mission"
    vehicle: str
    side: str
    edge: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        TurnStarted,
        PhaseStarted,
        EarthlingTurnStarted,
        SpeedRevealed,
        ObjectiveReached,
        Revealed,
        IllegalManeuver,
        Moved,
        LeftArea,
        JamCounterDiscarded,
        Fired,
        HeldFire,
        RearGunLost,
        DamageDrawn,
        DamageCardsTaken,
        Jammed,
        Explosion,
        DeckReshuffled,
        Eliminated,
        Reminder,
        GameOver,
        ActionChosen,
        ActionTokenPlaced,
        ActionWasted,
        EnergyChanged,
        Toppled,
        ToppledTokens,
        PutBack,
        FacingChanged,
        HeatRay,
        CardRevealed,
        ProtectedHit,
        Recharged,
        ObjectiveDestroyed,
        SpecialDamage,
        FlameCounter,
        RocketsLaunched,
        RocketsHit,
        RocketsMissed,
        SmokeCloud,
        CloudDispersed,
        ScenarioWon,
        Reinforcement,
        SkillUsed,
        TripodDecision,
        PlanExplained,
        ActionCardRevealed,
        BombsDropped,
        BombCardPlaced,
        BombsShot,
        BombsLanded,
        BomberPicked,
        Tailing,
        TailedCardShown,
        CardsReordered,
        MissionAccomplished,
        HomeAfterMission,
    )
}

for _cls in (*EVENT_TYPES.values(), MovedAtSpeed):  # kind "moved": Moved in EVENT_TYPES
    fast_init(_cls)  # made in every phase: see dogfight.geometry.frozen


def as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]
