"""The next mission as an ordinary situation, and a finished game as a mission result.

A mission is flown by the pilots who can fly, in roster order (replacements are sent when
a side has too few); an ace's skills go into the situation as the vehicle's ``skills``.
In a scenario the squadron's airplane is used where the scenario allows it (else the
scenario's first choice); on a custom table each side enters from its own edge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from dogfight.campaign.record import Campaign, CampaignError, Flight, MissionResult, recruit
from dogfight.campaign.spec import CampaignSpec, Mission
from dogfight.catalog.loader import Catalog
from dogfight.rules.events import DamageDrawn, Eliminated, Event, GameOver
from dogfight.rules.victory import SHOT_DOWN
from dogfight.situation.format import Situation, parse_situation
from dogfight.situation.scenarios import scenario_situation

Json = dict[str, Any]


def _slug(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30] or "pilot"
    slug, k = base, 2
    while slug in taken:
        slug, k = f"{base}-{k}", k + 1
    taken.add(slug)
    return slug


def _pilots_for(spec: CampaignSpec, campaign: Campaign, side: str, count: int) -> list[str]:
    ready = [p.name for p in campaign.pilots if p.side == side and p.can_fly]
    while len(ready) < count:
        ready.append(recruit(spec, campaign, side).name)
    return ready[:count]


def _airplanes(spec: CampaignSpec, side: str) -> list[str]:
    return [a for sq in spec.squadrons_of(side) for a in sq.airplanes]


def prepare(spec: CampaignSpec, campaign: Campaign, catalog: Catalog) -> tuple[Campaign, Situation]:
    """The campaign with the current mission's flights chosen, and its situation.

    Raises :class:`CampaignError` when the campaign is over."""
    if campaign.over or campaign.current is None:
        raise CampaignError("the campaign is over: there is no next mission")
    new = Campaign.from_json(campaign.to_json())
    mission = spec.mission(campaign.current)
    if mission.scenario is not None:
        data = _scenario_table(spec, new, mission, catalog)  # the scenario's own ruleset
    else:
        data = _custom_table(spec, new, mission)
        data["ruleset"] = spec.ruleset
    situation = parse_situation(data, f"campaign {spec.id} mission {mission.id}")
    return new, situation


def _skills(campaign: Campaign, pilot: str | None) -> list[str]:
    return list(campaign.pilot(pilot).skills) if pilot else []


def _scenario_table(
    spec: CampaignSpec, campaign: Campaign, mission: Mission, catalog: Catalog
) -> Json:
    assert mission.scenario is not None
    scenario = catalog.scenarios[mission.scenario]
    place = np.random.Generator(
        np.random.PCG64(np.random.SeedSequence([campaign.seed, campaign.number, 3]))
    )
    data = scenario_situation(catalog, mission.scenario, place).model_dump(
        mode="json", exclude_defaults=True
    )
    specs = {v.id: v for v in scenario.vehicles}
    by_side: dict[str, list[Json]] = {}
    for entry in data["vehicles"]:
        by_side.setdefault(spec.campaign_side(mission, specs[entry["id"]].side), []).append(entry)
    flights: list[Flight] = []
    for side, entries in sorted(by_side.items()):
        pilots = _pilots_for(spec, campaign, side, len(entries))
        own = _airplanes(spec, side)
        for entry, pilot in zip(entries, pilots, strict=True):
            allowed = specs[entry["id"]].types
            kind = next((a for a in own if not allowed or a in allowed), None)
            kind = kind or entry.get("type") or allowed[0]
            entry["type"] = kind
            skills = sorted({*_skills(campaign, pilot), *specs[entry["id"]].skills})
            if skills:
                entry["skills"] = skills
            flights.append(Flight(entry["id"], kind, side, pilot))
    campaign.flights = flights
    return data


def _custom_table(spec: CampaignSpec, campaign: Campaign, mission: Mission) -> Json:
    table = mission.table
    width, height = (table.width, table.height) if table else (90.0, 90.0)
    vehicles: list[Json] = []
    flights: list[Flight] = []
    taken: set[str] = set()
    for k, side in enumerate(spec.sides):
        count = mission.forces[side]
        pilots = _pilots_for(spec, campaign, side, count)
        own = _airplanes(spec, side)
        for i, pilot in enumerate(pilots):
            vid = _slug(pilot, taken)
            kind = own[i % len(own)]
            x = width * (i + 1) / (count + 1)
            pose = (
                {"x": x, "y": 8.0, "heading": 90.0}
                if k == 0
                else {
                    "x": x,
                    "y": height - 8.0,
                    "heading": 270.0,
                }
            )
            entry: Json = {"id": vid, "type": kind, "side": side, "pose": pose}
            if _skills(campaign, pilot):
                entry["skills"] = _skills(campaign, pilot)
            vehicles.append(entry)
            flights.append(Flight(vid, kind, side, pilot))
    campaign.flights = flights
    return {"table": {"width": width, "height": height}, "vehicles": vehicles}


def result_of(
    spec: CampaignSpec,
    campaign: Campaign,
    events: Iterable[Event],
    winner: str | None,
    game_sides: Mapping[str, str],
    game: str = "",
) -> MissionResult:
    """The current mission's result from a finished game's events.

    ``winner`` is the game's winning side and ``game_sides`` every vehicle's game side
    (reinforcements included). A pilot scores a victory for an enemy shot down (not one
    that left the table) when his vehicle's card brought that enemy down (the event's
    ``by``, docs/rulings.md R33: with several firers in one step, the card that took the
    total to the resistance); where no vehicle's card did (a fire, an illegal maneuver),
    the last enemy to hit it."""
    if campaign.current is None:
        raise CampaignError("the campaign is over: there is no mission to report")
    mission = spec.mission(campaign.current)
    damage: dict[str, int] = {}
    last_hit: dict[str, str] = {}
    shot_down: list[str] = []
    victories: dict[str, int] = {}
    points: dict[str, int] = {s: 0 for s in spec.sides}
    for event in events:
        if isinstance(event, DamageDrawn):
            damage[event.vehicle] = damage.get(event.vehicle, 0) + event.points
            firer = event.source.split(" ", 1)[0]
            if firer in game_sides and game_sides[firer] != game_sides.get(event.vehicle):
                last_hit[event.vehicle] = firer
        elif isinstance(event, Eliminated) and event.reason in SHOT_DOWN:
            shot_down.append(event.vehicle)
            credited = last_hit.get(event.vehicle)
            by = event.by
            if (
                by is not None
                and by in game_sides
                and game_sides[by] != game_sides.get(event.vehicle)
            ):
                credited = by
            if credited is not None:
                victories[credited] = victories.get(credited, 0) + 1
        elif isinstance(event, GameOver):
            for side, score in event.scores.items():
                mine = spec.campaign_side(mission, side)
                points[mine] = points.get(mine, 0) + score
    return MissionResult(
        number=campaign.number,
        mission=mission.id,
        winner=spec.campaign_side(mission, winner) if winner else None,
        points=points,
        damage=dict(sorted(damage.items())),
        shot_down=shot_down,
        victories=dict(sorted(victories.items())),
        game=game,
    )
