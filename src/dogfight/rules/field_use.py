"""Which optional fields each kind of vehicle reads: the one table every body that carries
per-vehicle fields (a plan, a situation's vehicle) is checked against.

A field a vehicle does not read is refused when it is given with any value other than its
default (the default means "not used"): a WW2 speed marker in a WW1 airplane's plan would
otherwise move it at that speed (issue 28), a tripod's ``status`` would be dropped in
silence (issue 30). :class:`~dogfight.errors.UnusedFieldError` names the field, the
vehicle and what kind of vehicle uses the field.

The kinds are worked out from the vehicle (:func:`kind_of`, :func:`kind_of_model`): a
tripod, or an airplane of 000's three-phase turn (WW1) or of 001's Earthling turn (WW2),
with or without a rear gun, carrying rocket counters or bomb loads. A name ``a.b`` stands
for the key ``b`` of the mapping field ``a`` (``status.observer``): given means present.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from dogfight.catalog.models import Airplane
from dogfight.errors import UnusedFieldError
from dogfight.rules.clocks import ONE_PHASE, clock_for
from dogfight.rules.context import Rules
from dogfight.rules.state import Vehicle
from dogfight.words.terms import plural


@dataclass(frozen=True, slots=True)
class Kind:
    """What a vehicle is, as far as the fields it reads go."""

    type: str
    tripod: bool = False
    ww2: bool = False
    rear_gun: bool = False
    rockets: int = 0
    """Rocket counters carried (000: ROCKETS)."""
    bombs: int = 0
    """Bomb loads carried (001, Bombing Tripods)."""

    @property
    def airplane(self) -> bool:
        return not self.tripod

    @property
    def ww1(self) -> bool:
        """An airplane of 000's three-phase turn."""
        return not self.tripod and not self.ww2

    @property
    def text(self) -> str:
        """The kind in words, for a refusal: 'a WW1 airplane (sopwith-camel) carrying no
        rockets and no bombs'."""
        if self.tripod:
            return f"a tripod ({self.type})"
        era = "WW2" if self.ww2 else "WW1"
        body = "two-seater" if self.rear_gun else "airplane"
        rockets = plural(self.rockets, "rocket counter") if self.rockets else "no rockets"
        bombs = plural(self.bombs, "bomb load") if self.bombs else "no bombs"
        return f"a {era} {body} ({self.type}) carrying {rockets} and {bombs}"


def kind_of_model(airplane: Airplane | None, type_id: str, rockets: int, bombs: int) -> Kind:
    """The kind of a vehicle of catalog model ``airplane`` (None: a tripod)."""
    if airplane is None:
        return Kind(type_id, tripod=True)
    return Kind(
        type_id,
        ww2=clock_for(airplane.era) == ONE_PHASE,
        rear_gun=airplane.two_seater,
        rockets=rockets,
        bombs=bombs,
    )


def kind_of(vehicle: Vehicle, rules: Rules) -> Kind:
    """The kind of a vehicle in play, from its state and its model's weapons (a rear gun
    is a second firepower letter, :meth:`Rules.weapons`)."""
    if vehicle.tripod is not None:
        return Kind(vehicle.type, tripod=True)
    return Kind(
        vehicle.type,
        ww2=vehicle.clock == ONE_PHASE,
        rear_gun=len(rules.weapons(vehicle.type)) > 1,
        rockets=vehicle.rockets,
        bombs=vehicle.bombs,
    )


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a field: ``reads`` says whether a kind does, ``who`` says it in words
    (with the rule it comes from)."""

    reads: Callable[[Kind], bool]
    who: str


AIRPLANES = Reader(lambda k: k.airplane, "airplanes")
WW1_AIRPLANES = Reader(lambda k: k.ww1, "WW1 airplanes (000's turn of three phases)")
REAR_GUNS = Reader(lambda k: k.rear_gun, "airplanes with a rear gun (two-seaters)")
TRIPODS = Reader(lambda k: k.tripod, "tripods")
BOMB_LOADS = Reader(
    lambda k: k.ww1, "WW1 airplanes (001, Bombing Tripods; WW2 airplanes drop no bombs here)"
)

PLAN_FIELDS: Mapping[str, Reader] = {
    "fire": Reader(
        lambda k: k.airplane,
        "airplanes' front guns (a tripod fires its heat-ray through 'actions')",
    ),
    "rear_fire": REAR_GUNS,
    "rockets": Reader(
        lambda k: k.ww1 and k.rockets > 0,
        'WW1 airplanes carrying rocket counters (000: "spend one or two Rocket counters")',
    ),
    "actions": Reader(lambda k: k.tripod, "tripods (000: Action tokens)"),
    "drop": Reader(
        lambda k: k.ww1 and k.bombs > 0,
        "WW1 airplanes carrying bomb loads (001, Bombing Tripods)",
    ),
    "automated": Reader(lambda k: k.tripod, "tripods (001: the Automated Tripod)"),
    "speeds": Reader(
        lambda k: k.airplane and k.ww2,
        'WW2 airplanes (001: "one maneuver card with a speed marker")',
    ),
}
"""Every optional field of :class:`~dogfight.rules.plans.Plan` (``cards`` is every
vehicle's) and who reads it."""

VEHICLE_FIELDS: Mapping[str, Reader] = {
    "jams": AIRPLANES,
    "jams.rear": REAR_GUNS,
    "previous": AIRPLANES,
    "aim": AIRPLANES,
    "aim.rear": REAR_GUNS,
    "rockets": WW1_AIRPLANES,
    "energy": TRIPODS,
    "toppled": TRIPODS,
    "cooling": TRIPODS,
    "reverse": TRIPODS,
    "pilot": Reader(lambda k: k.tripod, "tripods (001: a captured tripod's human pilot)"),
    "bombs": BOMB_LOADS,
    "bomber": BOMB_LOADS,
    "skills": Reader(lambda k: k.airplane, "airplanes (000's ace pilots)"),
    "status": Reader(lambda k: k.airplane or k.tripod, "airplanes and tripods"),
    "status.observer": REAR_GUNS,
    "status.smoke": AIRPLANES,
    "status.rudder_left": AIRPLANES,
    "status.rudder_right": AIRPLANES,
    "status.gyroscope": TRIPODS,
    "status.reverse_destroyed": TRIPODS,
    "status.smoke_generator": TRIPODS,
}
"""Every optional per-kind field of a situation's vehicle
(:class:`~dogfight.situation.format.VehicleIn`) and who reads it; the fields every vehicle has
(id, type, side, pose, damage, plans) are not listed."""

_DEFAULTS: dict[type[BaseModel], dict[str, Any]] = {}


def _defaults(model: type[BaseModel]) -> dict[str, Any]:
    known = _DEFAULTS.get(model)
    if known is None:
        known = {
            name: field.get_default(call_default_factory=True)
            for name, field in model.model_fields.items()
            if not field.is_required()
        }
        _DEFAULTS[model] = known
    return known


def unused_fields(
    readers: Mapping[str, Reader], kind: Kind, body: BaseModel
) -> list[tuple[str, Reader]]:
    """The fields of ``body`` given with a value other than their default that ``kind``
    does not read (a mapping's key: present), with their reader, in table order."""
    defaults = _defaults(type(body))
    out: list[tuple[str, Reader]] = []
    for name, reader in readers.items():
        if reader.reads(kind):
            continue
        head, _, key = name.partition(".")
        value = getattr(body, head)
        if key:
            if key in value:
                out.append((name, reader))
        elif value != defaults[head]:
            out.append((name, reader))
    return out


def refuse_unused(readers: Mapping[str, Reader], kind: Kind, vehicle: str, body: BaseModel) -> None:
    """:class:`UnusedFieldError` for the first field of ``body`` ``kind`` does not read."""
    found = unused_fields(readers, kind, body)
    if found:
        name, reader = found[0]
        raise UnusedFieldError(vehicle, name, reader.who, kind.text)
