"""A campaign file (TOML), validated on load.

A campaign names two sides, the squadrons of each (their airplanes and pilots), the rule
that makes a pilot an ace, the table of what happens to a pilot who is shot down, and a
graph of missions: each mission is a scenario of the catalog or a custom table where the
squadrons meet, and says which mission follows a win, a loss or a draw of the campaign's
first side (or a number of victory points). ``"end"`` ends the campaign, and so does the
number of missions in ``max_missions``.
"""

from __future__ import annotations

import tomllib
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dogfight.catalog.loader import Catalog, validation_to_data_error
from dogfight.catalog.models import Skill
from dogfight.errors import DataError

SHIPPED = Path(__file__).parent / "data"
END = "end"
ID = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fate(StrEnum):
    """What becomes of a pilot whose airplane is shot down."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    CAPTURED = "captured"
    KILLED = "killed"


class AceRule(Strict):
    """A pilot becomes an ace at ``victories`` victories and gains one of ``skills`` (the
    engine's ace skills, 000), drawn by the campaign's seeded generator."""

    victories: int = Field(default=5, ge=1)
    skills: list[Skill] = Field(default_factory=lambda: list(Skill), min_length=1)


class Casualty(Strict):
    """One row of the table rolled for a pilot who was shot down: ``weight`` chances in the
    sum of all rows; a wounded pilot misses ``missions_out`` missions."""

    fate: Fate
    weight: int = Field(ge=1)
    missions_out: int = Field(default=0, ge=0)


class Squadron(Strict):
    id: str = Field(pattern=ID, max_length=40)
    name: str = ""
    side: str
    airplanes: list[str] = Field(description="airplane (or tripod) ids of the catalog")
    pilots: list[str] = Field(min_length=1, description="the pilots' names, in roster order")
    replacements: list[str] = Field(
        default_factory=list,
        description="names of replacement pilots, sent when too few pilots can fly; "
        "numbered 'Replacement N' when these run out",
    )


class Next(Strict):
    """Which mission follows, from the first side's result: ``points_at_least`` victory
    points go to ``on_points`` first; else ``win``, ``loss`` or ``draw`` (default: as a
    loss). ``"end"`` ends the campaign."""

    win: str = END
    loss: str = END
    draw: str | None = None
    points_at_least: int | None = None
    on_points: str | None = None


class TableSize(Strict):
    width: float = Field(default=90.0, gt=0, le=500)
    height: float = Field(default=90.0, gt=0, le=500)


class Mission(Strict):
    """A scenario of the catalog (``scenario``; ``sides`` maps its sides to the
    campaign's) or a custom table (``table`` and ``forces``: how many airplanes each
    campaign side flies; the first side enters from the south edge, the second from the
    north)."""

    id: str = Field(pattern=ID, max_length=40)
    title: str = ""
    scenario: str | None = None
    sides: dict[str, str] = Field(default_factory=dict)
    table: TableSize | None = None
    forces: dict[str, int] = Field(default_factory=dict)
    next: Next = Field(default_factory=Next)


class CampaignSpec(Strict):
    id: str = Field(pattern=ID, max_length=40)
    title: str
    note: str = ""
    ruleset: str = "wog"
    sides: list[str] = Field(min_length=2, max_length=2)
    max_missions: int = Field(ge=1, le=100)
    start: str
    ace: AceRule = Field(default_factory=AceRule)
    casualties: list[Casualty] = Field(min_length=1)
    squadrons: list[Squadron] = Field(min_length=1, alias="squadron")
    missions: list[Mission] = Field(min_length=1, alias="mission")

    def mission(self, mission_id: str) -> Mission:
        return next(m for m in self.missions if m.id == mission_id)

    def squadrons_of(self, side: str) -> list[Squadron]:
        return [s for s in self.squadrons if s.side == side]

    def campaign_side(self, mission: Mission, game_side: str) -> str:
        """The campaign side a game side of ``mission`` belongs to."""
        return mission.sides.get(game_side, game_side)


def available() -> dict[str, Path]:
    """The shipped campaigns by id (file name without ``.toml``)."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.toml"))}


def load_campaign(name: str | Path, catalog: Catalog) -> tuple[CampaignSpec, str]:
    """A shipped campaign by id, or a campaign file, checked against the catalog; with the
    file's text (a stored campaign keeps it).

    Raises :class:`DataError` naming the file, the field and the value."""
    path = available().get(str(name)) or Path(name)
    if not path.is_file():
        raise DataError(
            str(name), "campaign", str(name), "a campaign file or one of: " + ", ".join(available())
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), "(document)", None, f"not a readable file: {exc}") from exc
    return parse_campaign(text, str(path), catalog), text


def validated(text: str, source: str, model: type[M]) -> M:
    """``model`` read from TOML text; :class:`DataError` naming ``source``, the field and
    the value."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source, "(document)", None, f"not a TOML file: {exc}") from exc
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise validation_to_data_error(source, exc) from exc


def parse_campaign(text: str, source: str, catalog: Catalog) -> CampaignSpec:
    """A campaign from its TOML text; ``source`` names it in messages."""
    spec = validated(text, source, CampaignSpec)
    check(spec, catalog, source)
    return spec


def check(spec: CampaignSpec, catalog: Catalog, source: str) -> None:
    """Cross-checks no field can make alone: every name a campaign uses exists, and every
    mission can reach the end."""
    if spec.ruleset not in catalog.rulesets:
        raise DataError(source, "ruleset", spec.ruleset, "one of: " + ", ".join(catalog.rulesets))
    if len(set(spec.sides)) != 2:
        raise DataError(source, "sides", spec.sides, "two different side names")
    vehicles = set(catalog.airplanes) | set(catalog.tripods)
    for i, squadron in enumerate(spec.squadrons):
        where = f"squadron[{i}]"
        if squadron.side not in spec.sides:
            raise DataError(
                source, f"{where}.side", squadron.side, "one of: " + ", ".join(spec.sides)
            )
        if not squadron.airplanes:
            raise DataError(
                source,
                f"{where}.airplanes",
                [],
                f"squadron {squadron.id} needs at least one airplane",
            )
        for j, kind in enumerate(squadron.airplanes):
            if kind not in vehicles:
                raise DataError(
                    source,
                    f"{where}.airplanes[{j}]",
                    kind,
                    "an airplane or tripod id (dogfight info)",
                )
    for side in spec.sides:
        if not spec.squadrons_of(side):
            raise DataError(source, "squadron", side, f"side {side} needs a squadron")
    ids = [m.id for m in spec.missions]
    if len(set(ids)) != len(ids):
        raise DataError(source, "mission.id", ids, "mission ids must differ")
    if spec.start not in ids:
        raise DataError(source, "start", spec.start, "one of the missions: " + ", ".join(ids))
    for i, mission in enumerate(spec.missions):
        _check_mission(spec, catalog, source, f"mission[{i}]", mission, ids)
    _check_exits(spec, source)


def _check_mission(
    spec: CampaignSpec, catalog: Catalog, source: str, where: str, mission: Mission, ids: list[str]
) -> None:
    if mission.scenario is not None:
        scenario = catalog.scenario(
            mission.scenario, source, "a scenario of the catalog", f"{where}.scenario"
        )
        for game_side in (s.name for s in scenario.sides):
            if spec.campaign_side(mission, game_side) not in spec.sides:
                raise DataError(
                    source,
                    f"{where}.sides",
                    dict(mission.sides),
                    f"map the scenario's side {game_side!r} to one of: " + ", ".join(spec.sides),
                )
    else:
        if sorted(mission.forces) != sorted(spec.sides) or any(
            n < 1 or n > 8 for n in mission.forces.values()
        ):
            raise DataError(
                source,
                f"{where}.forces",
                dict(mission.forces),
                "a custom table gives 1 to 8 airplanes for each side: " + ", ".join(spec.sides),
            )
    targets = {
        "win": mission.next.win,
        "loss": mission.next.loss,
        "draw": mission.next.draw,
        "on_points": mission.next.on_points,
    }
    for key, target in targets.items():
        if target is not None and target != END and target not in ids:
            raise DataError(
                source, f"{where}.next.{key}", target, "a mission id or 'end': " + ", ".join(ids)
            )
    if (mission.next.points_at_least is None) != (mission.next.on_points is None):
        raise DataError(
            source,
            f"{where}.next",
            mission.next.model_dump(exclude_none=True),
            "points_at_least and on_points go together",
        )


def _check_exits(spec: CampaignSpec, source: str) -> None:
    """Every mission must lead to ``end`` by some result: a cycle that only leads back
    into itself would only end on ``max_missions``."""
    follows = {
        m.id: {t for t in (m.next.win, m.next.loss, m.next.draw, m.next.on_points) if t}
        for m in spec.missions
    }
    ends: set[str] = {END}
    changed = True
    while changed:
        changed = False
        for mid, targets in follows.items():
            if mid not in ends and targets & ends:
                ends.add(mid)
                changed = True
    trapped = sorted(set(follows) - ends)
    if trapped:
        raise DataError(
            source,
            "mission.next",
            trapped,
            "these missions form a cycle with no exit: some result of one of them must lead "
            "to 'end' or to a mission that does",
        )
