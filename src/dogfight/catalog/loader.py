"""Load and cross-check the catalog's TOML files.

The shipped files live in ``catalog/data``. A user folder with the same layout
(``constants.toml``, ``specials.toml``, ``rulesets/``, ``maneuvers/``, ``damage/``,
``airplanes/``) is read after them: a deck or ruleset with the same name replaces the
shipped one, airplanes are merged by id, and new entries extend the catalog.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from dogfight.catalog.models import (
    Airplane,
    AirplaneFile,
    CatalogNames,
    Constants,
    DamageDeck,
    ManeuverDeck,
    Ruleset,
    Scenario,
    Special,
    SpecialsFile,
    SpecialSpec,
    Switches,
    Tripod,
    TripodDeck,
    TripodFile,
)
from dogfight.errors import DataError

SHIPPED = Path(__file__).parent / "data"
ENV_VAR = "DOGFIGHT_DATA"

M = TypeVar("M", bound=BaseModel)


def format_location(loc: tuple[int | str, ...]) -> str:
    """Turn a pydantic error location into ``card[3].symbol`` form."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "(document)"


def validation_to_data_error(source: str, error: ValidationError) -> DataError:
    """The first problem of a pydantic error, as a :class:`DataError`."""
    first = error.errors()[0]
    field = format_location(tuple(first["loc"]))
    value = first.get("input")
    if first["type"] == "missing":
        value = None
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = "unknown field (check its spelling)"
    return DataError(source, field, value, message)


def read_toml(path: Path) -> dict[str, object]:
    """Parse a TOML file, reporting syntax errors as :class:`DataError`."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), "(syntax)", None, f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise DataError(str(path), "(file)", None, f"cannot be read: {exc.strerror}") from None


def parse(model: type[M], path: Path) -> M:
    """Read ``path`` and validate it as ``model``."""
    data = read_toml(path)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_to_data_error(str(path), exc) from None


@dataclass(frozen=True)
class Catalog:
    """Everything the rules need to know about the pieces, read from data files."""

    constants: Constants
    specials: dict[Special, SpecialSpec]
    rulesets: dict[str, Ruleset]
    maneuver_decks: dict[str, ManeuverDeck]
    damage_decks: dict[str, DamageDeck]
    airplanes: dict[str, Airplane]
    folders: tuple[str, ...]
    tripod_decks: dict[str, TripodDeck]
    tripods: dict[str, Tripod]
    scenarios: dict[str, Scenario]

    def airplane(self, airplane_id: str) -> Airplane:
        try:
            return self.airplanes[airplane_id]
        except KeyError:
            raise DataError(
                "catalog",
                "type",
                airplane_id,
                "unknown airplane; known: " + ", ".join(sorted(self.airplanes)),
            ) from None

    def scenario(
        self,
        scenario_id: str,
        source: str = "catalog",
        known: str = "known scenarios",
        field: str = "scenario",
    ) -> Scenario:
        """The scenario, or a :class:`DataError` from ``source``'s ``field`` listing the
        known ones after ``known`` (what else the field could have named): the one
        "unknown scenario" message of a situation, a scenario table, a solo game and a
        campaign's mission."""
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            raise DataError(
                source,
                field,
                scenario_id,
                f"{known}: " + ", ".join(sorted(self.scenarios)),
            ) from None

    def ruleset(self, name: str) -> Ruleset:
        try:
            return self.rulesets[name]
        except KeyError:
            raise DataError(
                "catalog",
                "ruleset",
                name,
                "unknown ruleset; known: " + ", ".join(sorted(self.rulesets)),
            ) from None


def _merge_folder(
    folder: Path,
    sub: str,
    model: type[M],
    into: dict[str, M],
    key: Callable[[M], str],
) -> None:
    directory = folder / sub
    if not directory.is_dir():
        return
    for path in sorted(directory.glob("*.toml")):
        item = parse(model, path)
        if isinstance(item, Scenario):
            _check_targets(item, str(path))
        into[key(item)] = item


def _check_targets(scenario: Scenario, source: str) -> None:
    """A mission's target card must lie wholly on the scenario's table (002: "Place
    target cards (for bombing/photo missions) as specified in scenarios.")."""
    for i, mission in enumerate(scenario.missions):
        corner = mission.target.off_table(scenario.table.width, scenario.table.height)
        if corner is not None:
            raise DataError(
                source,
                f"mission[{i}].target",
                mission.target.model_dump(),
                f"the target card of mission '{mission.id}' must lie wholly on the "
                f"{scenario.table.width:g} x {scenario.table.height:g} cm table; its corner "
                f"({corner[0]:.1f}, {corner[1]:.1f}) is off it",
            )


def _check(catalog: Catalog) -> None:
    """Cross-file checks: every letter an airplane names exists."""
    for airplane in catalog.airplanes.values():
        where = f"airplane '{airplane.id}'"
        if airplane.maneuver_deck not in catalog.maneuver_decks:
            raise DataError(
                where,
                "maneuver_deck",
                airplane.maneuver_deck,
                "no such maneuver deck; known: " + ", ".join(sorted(catalog.maneuver_decks)),
            )
        for letter in airplane.firepower:
            if letter not in catalog.damage_decks:
                raise DataError(
                    where,
                    "firepower",
                    letter,
                    "no such damage deck; known: " + ", ".join(sorted(catalog.damage_decks)),
                )
    for tripod in catalog.tripods.values():
        where = f"tripod '{tripod.id}'"
        if tripod.maneuver_deck not in catalog.tripod_decks:
            raise DataError(
                where,
                "maneuver_deck",
                tripod.maneuver_deck,
                "no such tripod maneuver deck; known: " + ", ".join(sorted(catalog.tripod_decks)),
            )
        if tripod.firepower not in catalog.damage_decks:
            raise DataError(
                where,
                "firepower",
                tripod.firepower,
                "no such damage deck; known: " + ", ".join(sorted(catalog.damage_decks)),
            )
        if tripod.recharge_level > tripod.energy:
            raise DataError(
                where,
                "recharge_level",
                tripod.recharge_level,
                f"cannot exceed the Energy rating {tripod.energy}",
            )
    for ruleset in catalog.rulesets.values():
        checked_switches(
            catalog, ruleset.switches.model_dump(mode="json"), f"ruleset '{ruleset.name}'"
        )
    for scenario in catalog.scenarios.values():
        _check_scenario(catalog, scenario)


def switch_names(catalog: Catalog, kind: str) -> tuple[list[str], str]:
    """The names a switch of ``kind`` (:class:`CatalogNames`) may take in this catalog,
    and what they are (for the message refusing another):

    - ``card_deck``: a damage card deck (not a counter set);
    - ``airplane_counters``: "" (cards) or a counter set with a counter for every card
      deck's letter (a WW2 airplane may be hit by any of them: guns, rockets, black
      smoke, a heat-ray, an illegal maneuver);
    - ``tripod_counters``: "" or a counter set with every WW2 airplane's firepower letter
      (001: the Invasion counters are for the damage WW2 airplanes inflict on tripods).
    """
    decks = catalog.damage_decks
    cards = sorted(d for d, deck in decks.items() if not deck.counters)
    if kind == "card_deck":
        return cards, "damage card decks (damage/<letter>.toml)"
    if kind == "airplane_counters":
        letters = set(cards)
    else:
        ww2 = [a for a in catalog.airplanes.values() if a.era == "ww2"]
        letters = {f for a in ww2 for f in a.firepower}
    sets = {d.rsplit("-", 1)[0] for d, deck in decks.items() if deck.counters and "-" in d}
    whole = sorted(s for s in sets if all(f"{s}-{x}" in decks for x in letters))
    need = ", ".join(sorted(letters))
    what = f"'' (damage cards) or a counter set with the letters {need} (counters/<set>-<letter>)"
    return ["", *whole], what


def checked_switches(catalog: Catalog, merged: Mapping[str, object], source: str) -> Switches:
    """``merged`` (a ruleset's switches with a scenario's and a situation's over them) as
    :class:`Switches`, every switch checked: known names, values of the right kind and
    within bounds (the model), and every switch naming catalog entries (marked
    :class:`CatalogNames`) one of those :func:`switch_names` allows. A :class:`DataError`
    names ``switches.<name>`` and the value. Rulesets and scenarios are checked with it when
    the catalog loads, situations and games when they are made: no switch set reaches the
    rules that could fail a game later."""
    try:
        switches = Switches.model_validate(merged)
    except ValidationError as exc:
        error = validation_to_data_error(source, exc)
        raise DataError(source, f"switches.{error.field}", error.value, error.allowed) from None
    for name, field in Switches.model_fields.items():
        for mark in field.metadata:
            if isinstance(mark, CatalogNames):
                value = getattr(switches, name)
                names, what = switch_names(catalog, mark.kind)
                if value not in names:
                    known = ", ".join(repr(n) for n in names)
                    raise DataError(source, f"switches.{name}", value, f"{what}; known: {known}")
    return switches


def _check_scenario(catalog: Catalog, scenario: Scenario) -> None:
    """Cross-file checks of a scenario: rulesets, models, sides and vehicle ids exist."""
    where = f"scenario '{scenario.id}'"
    if scenario.ruleset not in catalog.rulesets:
        raise DataError(
            where, "ruleset", scenario.ruleset, "known: " + ", ".join(sorted(catalog.rulesets))
        )
    ruleset = catalog.rulesets[scenario.ruleset].switches.model_dump(mode="json")
    checked_switches(catalog, {**ruleset, **scenario.switches}, where)
    sides = {s.name for s in scenario.sides}
    ids = [v.id for v in (*scenario.vehicles, *scenario.reinforcements)]
    for i, v in enumerate((*scenario.vehicles, *scenario.reinforcements)):
        if v.side not in sides:
            raise DataError(
                where, f"vehicle[{i}].side", v.side, "sides: " + ", ".join(sorted(sides))
            )
        for t in v.types:
            if t not in catalog.airplanes and t not in catalog.tripods:
                raise DataError(where, f"vehicle[{i}].types", t, "no such airplane or tripod")
        for gone in v.when_gone:
            if gone not in ids:
                raise DataError(where, f"vehicle[{i}].when_gone", gone, "no such vehicle id")
    if len(set(ids)) != len(ids):
        raise DataError(where, "vehicle", ids, "vehicle ids must be unique")
    for i, mission in enumerate(scenario.missions):
        if mission.side not in sides:
            raise DataError(
                where, f"mission[{i}].side", mission.side, "sides: " + ", ".join(sorted(sides))
            )
        forces = (*scenario.vehicles, *scenario.reinforcements)
        own = {v.id for v in forces if v.side == mission.side}
        for carrier in mission.carriers:
            if carrier not in own:
                raise DataError(
                    where,
                    f"mission[{i}].carriers",
                    carrier,
                    f"no airplane of the {mission.side} side has that id",
                )
    if len({m.id for m in scenario.missions}) != len(scenario.missions):
        raise DataError(
            where, "mission", [m.id for m in scenario.missions], "mission ids must be unique"
        )
    for i, win in enumerate(scenario.victory):
        if win.side not in sides:
            raise DataError(
                where, f"victory[{i}].side", win.side, "sides: " + ", ".join(sorted(sides))
            )
        for vid in win.vehicles:
            if vid not in ids:
                raise DataError(where, f"victory[{i}].vehicles", vid, "no such vehicle id")


def _load(folders: tuple[Path, ...]) -> Catalog:
    constants: Constants | None = None
    specials: dict[Special, SpecialSpec] = {}
    rulesets: dict[str, Ruleset] = {}
    maneuver_decks: dict[str, ManeuverDeck] = {}
    damage_decks: dict[str, DamageDeck] = {}
    airplanes: dict[str, Airplane] = {}
    tripod_decks: dict[str, TripodDeck] = {}
    tripods: dict[str, Tripod] = {}
    scenarios: dict[str, Scenario] = {}
    for folder in folders:
        if not folder.is_dir():
            raise DataError(str(folder), "(folder)", str(folder), "data folder does not exist")
        if (folder / "constants.toml").is_file():
            constants = parse(Constants, folder / "constants.toml")
        if (folder / "specials.toml").is_file():
            specials.update(parse(SpecialsFile, folder / "specials.toml").special)
        _merge_folder(folder, "rulesets", Ruleset, rulesets, lambda r: r.name)
        _merge_folder(folder, "maneuvers", ManeuverDeck, maneuver_decks, lambda d: d.deck)
        _merge_folder(folder, "damage", DamageDeck, damage_decks, lambda d: d.deck)
        _merge_folder(folder, "counters", DamageDeck, damage_decks, lambda d: d.deck)
        _merge_folder(folder, "tripod_maneuvers", TripodDeck, tripod_decks, lambda d: d.deck)
        _merge_folder(folder, "scenarios", Scenario, scenarios, lambda d: d.id)
        if (folder / "tripods").is_dir():
            for path in sorted((folder / "tripods").glob("*.toml")):
                for tripod in parse(TripodFile, path).tripods:
                    tripods[tripod.id] = tripod
        if (folder / "airplanes").is_dir():
            for path in sorted((folder / "airplanes").glob("*.toml")):
                for airplane in parse(AirplaneFile, path).airplanes:
                    airplanes[airplane.id] = airplane
    assert constants is not None, "the shipped data folder has constants.toml"
    scenarios = {k: s.in_cm(constants.ruler.length) for k, s in scenarios.items()}
    catalog = Catalog(
        constants,
        specials,
        rulesets,
        maneuver_decks,
        damage_decks,
        airplanes,
        tuple(str(f) for f in folders),
        tripod_decks,
        tripods,
        scenarios,
    )
    _check(catalog)
    return catalog


@lru_cache(maxsize=8)
def _cached(folders: tuple[Path, ...]) -> Catalog:
    return _load(folders)


def load_catalog(user_folder: str | Path | None = None) -> Catalog:
    """The shipped catalog, overridden by ``user_folder`` (or ``$DOGFIGHT_DATA``) if given."""
    folders = [SHIPPED]
    chosen = user_folder if user_folder is not None else os.environ.get(ENV_VAR) or None
    if chosen is not None:
        folders.append(Path(chosen).resolve())
    return _cached(tuple(folders))
