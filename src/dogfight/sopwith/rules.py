"""The switches of a Sopwith ruleset, read from TOML and validated with pydantic.

Two rulesets are shipped in ``sopwith/data/rulesets``: ``gm-tweedy`` (004, Tom Tweedy's
house rules, the default) and ``original`` (the 1978 board game as far as its rules are
known to us; the file says which values are assumptions). A Games Master can load his
own file (``--ruleset path/to/rules.toml``) or override single switches when a game is
created (``--switch repair_cap=10``); either way the message for a bad value names the
file, the field and the value.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from dogfight.catalog.loader import parse, validation_to_data_error
from dogfight.errors import DataError
from dogfight.sopwith.hexes import MAX_SIDE
from dogfight.sopwith.model import Strip

SHIPPED = Path(__file__).parent / "data" / "rulesets"
DEFAULT = "gm-tweedy"

COUNT = 99
"""The bound of a switch counting ammunition, damage or points per event: far above any
rule text's (16 ammo, 12 damage), low enough that no number a report prints is absurd."""

POINTS = 9_999
"""The bound of a switch in score points (the Ace mark, bonuses)."""


class Ruleset(BaseModel):
    """Every number and choice the turn resolver reads. Field docs say where each comes
    from; ``docs/sopwith.md`` lists them for Games Masters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    source: str
    board_side: int = Field(ge=3, le=MAX_SIDE)
    """Hexes on each side of the board (10: 271 hexes)."""
    ammo: int = Field(ge=0, le=COUNT)
    """004: "16 ammo"; one burst uses one (0 to 99)."""
    damage_capacity: int = Field(ge=1, le=COUNT)
    """004: "12 dge": damage points a plane can take (1 to 99)."""
    bursts_per_turn: int = Field(ge=0, le=9)
    """004: "Players are only allowed three bursts of fire per turn" (0 to 9)."""
    range: int = Field(ge=1, le=2 * MAX_SIDE - 1)
    """004: "The range is 4 hexes" (1 to 25: the widest board's width)."""
    damage_at_one_hex: int = Field(ge=1, le=COUNT)
    """004: "Four damage if the target is at one hexagon distance"; one less per hex (1 to
    99)."""
    ace_damage_bonus: int = Field(ge=0, le=COUNT)
    """004: Aces do "Five damage if the target is at one hexagon distance" (0 to 99)."""
    ace_threshold: int = Field(ge=0, le=POINTS)
    """004: "40 hits/points" (0 to 9,999)."""
    ace_basis: Literal["career", "game"]
    """``career``: the score carried from game to game, Ace status lost below the mark
    (004); ``game``: points made in this game, kept for the rest of the game."""
    repair_per_turn: int = Field(ge=0, le=COUNT)
    """004: "for each complete TURN spent on the ground may repair two damage points" (0 to
    99)."""
    repair_cap: int = Field(ge=0, le=COUNT)
    """004: "A 'plane may not recover to a strength higher than eight points" (0 to 99)."""
    landing: Literal["any_airfield", "own_airfield"]
    """Where a plane may land; reloading is at its own airfield only either way."""
    take_off_strip: Strip
    """004: "If a player doesn't specify an airstrip ... BETA"."""
    nmr: Literal["ahead", "no_move"]
    """004: an NMR'd plane in flight "will fly AHEAD for the three moves"."""
    zero_first_move: Literal["allowed", "ahead"]
    """A 0 as Move 1: flown as written, or flown as Ahead (the board game's stall rule)."""
    clouds_move: Literal["random", "none"]
    """How clouds move at the end of a turn when the Games Master enters no moves."""
    cloud_entry: Literal["crash", "damage"]
    """004: "flying into a cloud" is a crash; ``damage``: ``cloud_damage`` a move inside."""
    cloud_damage: int = Field(ge=0, le=COUNT)
    """Damage points a move inside a cloud costs with ``cloud_entry = "damage"`` (0 to
    99)."""
    fire_hits: Literal["all", "nearest"]
    """Which planes on a line of fire a burst hits: every one in range, or the nearest."""
    points_per_damage: int = Field(ge=0, le=COUNT)
    """004: "made on enemy 'plane.... +1 point" per damage point (0 to 99)."""
    last_plane_bonus: int = Field(ge=0, le=POINTS)
    """004: "The last surviving 'plane is the winner (and is awarded 5 bonus points)" (0
    to 9,999)."""
    shot_down_points: int = Field(ge=-POINTS, le=POINTS)
    """Points a pilot gets (negative: loses) when shot down or crashed; 004's table is
    cut off after its first line, so 0 by default (-9,999 to 9,999)."""
    crash_share: bool
    """004: a crashed plane's damage points "will be shared out amongst the players still
    in the game"."""

    @field_validator("damage_at_one_hex")
    @classmethod
    def _last_hex_does_damage(cls, value: int, info: ValidationInfo) -> int:
        reach = info.data.get("range")
        if isinstance(reach, int) and value - (reach - 1) < 1:
            raise ValueError(f"must be at least range ({reach}) so a burst at range does damage")
        return value

    def damage(self, distance: int, ace: bool) -> int:
        """Damage of one burst at ``distance`` hexes (0 beyond range): 004 "Four damage if
        the target is at one hexagon distance", one less per hex further, Aces one more."""
        if not 1 <= distance <= self.range:
            return 0
        return self.damage_at_one_hex - (distance - 1) + (self.ace_damage_bonus if ace else 0)


def known_rulesets() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.toml"))


def load_ruleset(name_or_path: str = DEFAULT) -> Ruleset:
    """A shipped ruleset by name, or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = SHIPPED / f"{name_or_path}.toml"
        if not path.is_file():
            raise DataError(
                "--ruleset",
                "ruleset",
                name_or_path,
                "unknown ruleset; shipped: " + ", ".join(known_rulesets()) + " (or a .toml file)",
            )
    return parse(Ruleset, path)


def _value(text: str) -> object:
    """A switch value as TOML would read it (``10``, ``true``, ``"x"``); bare words are
    strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def with_switches(ruleset: Ruleset, switches: Mapping[str, str], source: str) -> Ruleset:
    """``ruleset`` with some switches overridden (``{"repair_cap": "10"}``), validated."""
    if not switches:
        return ruleset
    data = ruleset.model_dump(mode="json")
    for key, text in switches.items():
        data[key] = _value(text)
    try:
        return Ruleset.model_validate(data)
    except ValidationError as exc:
        raise validation_to_data_error(source, exc) from None


def ruleset_from_json(data: Mapping[str, object], source: str) -> Ruleset:
    try:
        return Ruleset.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_to_data_error(source, exc) from None
