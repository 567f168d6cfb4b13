"""Ready-made setups for the lobby and the public catalog the table page draws with.

A *preset* is a situation (``docs/situations.md``) without plans: an airplane duel, or a
scenario with every vehicle and objective placed where its placement rules allow. The
lobby offers them as they are or as the starting point of a custom setup.
"""

from __future__ import annotations

import math
from typing import Any

from dogfight.bots.base import FLIES
from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import ObjectiveRule, Scenario, Switches
from dogfight.errors import DogfightError
from dogfight.render.style import SIDE_SHADES, SIDE_SLOTS
from dogfight.rules.state import GameState
from dogfight.server.play.seating import kinds_of
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import off_objectives
from dogfight.words.terms import OUT, card_name, speed_class

Json = dict[str, Any]

EDGE_INSET = 6.0
"""How far in from its edge a scenario vehicle starts (cm): inside any ``edge_depth``."""


def duel_setup(width: float = 90.0, height: float = 90.0) -> Json:
    """A Sopwith Camel and an Albatros D.Va flying at each other from opposite edges."""
    return {
        "ruleset": "wog",
        "table": {"width": width, "height": height},
        "vehicles": [
            {
                "id": "camel",
                "type": "sopwith-camel",
                "side": "allies",
                "pose": {"x": width / 2, "y": 8.0, "heading": 90.0},
            },
            {
                "id": "albatros",
                "type": "albatros-d5a",
                "side": "central",
                "pose": {"x": width / 2, "y": height - 8.0, "heading": 270.0},
            },
        ],
    }


def _edge_pose(
    edge: str, width: float, height: float, along: float, inset: float = EDGE_INSET
) -> Json:
    """A pose ``inset`` cm in from ``edge``, ``along`` (0..1) along it, facing across."""
    if edge == "south":
        return {"x": width * along, "y": inset, "heading": 90.0}
    if edge == "north":
        return {"x": width * along, "y": height - inset, "heading": 270.0}
    if edge == "west":
        return {"x": inset, "y": height * along, "heading": 0.0}
    return {"x": width - inset, "y": height * along, "heading": 180.0}


def _layout_point(edge: str, width: float, height: float, across: float, depth: float) -> Json:
    """A point given from the middle of ``edge``: ``across`` to the right of a player
    sitting there facing the table, ``depth`` into the table."""
    if edge == "south":
        return {"x": width / 2 + across, "y": depth}
    if edge == "north":
        return {"x": width / 2 - across, "y": height - depth}
    if edge == "west":
        return {"x": depth, "y": height / 2 - across}
    return {"x": width - depth, "y": height / 2 + across}


def scenario_setup(scenario: Scenario, catalog: Catalog) -> Json:
    """A scenario placed by its rules: each side's vehicles spread along its own edge,
    the objectives on a circle around the centre (as far apart as the rule asks)."""
    width, height = scenario.table.width, scenario.table.height
    vehicles: list[Json] = []
    for side in scenario.sides:
        mine = [v for v in scenario.vehicles if v.side == side.name]
        for i, spec in enumerate(mine):
            along = (i + 1) / (len(mine) + 1)
            inset = EDGE_INSET
            if spec.placement == "depth" and spec.depth is not None:
                inset = spec.depth
                if spec.centred:
                    along = 0.5
            entry: Json = {
                "id": spec.id,
                "pose": _edge_pose(side.edge, width, height, along, inset),
            }
            if not spec.types:
                entry["type"] = (
                    "sopwith-camel"
                    if "sopwith-camel" in catalog.airplanes
                    else min(catalog.airplanes)
                )
            vehicles.append(entry)
    setup: Json = {"scenario": scenario.id, "vehicles": vehicles}
    rule = scenario.objectives
    if rule is not None:
        layout = list(getattr(rule, "layout", []) or [])
        if layout:
            placer = scenario.side(rule.placed_by)
            edge = placer.edge if placer is not None else "south"
            setup["objectives"] = [
                {"id": f"objective-{i + 1}", **_layout_point(edge, width, height, a, d)}
                for i, (a, d) in enumerate(layout)
            ]
        else:
            setup["objectives"] = _ring(rule, width, height)
        centred = frozenset(v.id for v in scenario.vehicles if v.centred)
        off_objectives(vehicles, setup["objectives"], width, height, centred)
    return setup


def _ring(rule: ObjectiveRule, width: float, height: float) -> list[Json]:
    """The objective tokens on a circle around the centre, as far apart as ``rule`` asks."""
    count = rule.count
    radius = rule.max_from_centre * 0.95
    if count > 1:
        # the chord between neighbours must be at least ``min_apart``
        needed = rule.min_apart / (2 * math.sin(math.pi / count))
        radius = min(rule.max_from_centre, max(radius, needed))
    offset = math.pi / count
    return [
        {
            "id": f"objective-{i + 1}",
            "x": width / 2 + radius * math.cos(2 * math.pi * i / count + offset),
            "y": height / 2 + radius * math.sin(2 * math.pi * i / count + offset),
        }
        for i in range(count)
    ]


def presets(catalog: Catalog) -> dict[str, Json]:
    """Every ready-made setup by name: ``duel`` and each scenario's id, each with a
    one-line ``description`` (:func:`describe`)."""
    duel = duel_setup()
    out = {"duel": _preset("Airplane duel", duel, build(parse_situation(duel), catalog, 0))}
    for sid, scenario in sorted(catalog.scenarios.items()):
        setup = scenario_setup(scenario, catalog)
        try:
            state = build(parse_situation(setup, sid), catalog, 0, sid)
        except DogfightError:
            continue  # a scenario this simple placement cannot satisfy: custom setup only
        out[sid] = _preset(scenario.title, setup, state)
    return out


def _preset(title: str, setup: Json, state: GameState) -> Json:
    """A preset's entry: its title, setup, one-line description and each vehicle's kind
    (which computer players may fly it: :func:`~dogfight.server.play.seating.kinds_of`)."""
    every = [*state.vehicles, *state.reserves]
    kinds = {vid: sorted(kinds_of(state, [vid]))[0] for vid in every}
    return {"title": title, "setup": setup, "description": describe(state), "kinds": kinds}


def describe(state: GameState) -> str:
    """A setup in one line for the lobby: who flies what, the rules, and what wins
    ("allies: Sopwith Camel · central: Albatros D.Va · wog rules · the last side with
    vehicles in the playing area wins")."""
    catalog = state.rules.catalog
    forces: dict[str, list[str]] = {}
    for v in (*state.vehicles.values(), *state.reserves.values()):
        model = catalog.airplanes.get(v.type) or catalog.tripods.get(v.type)
        name = model.name if model is not None else v.type
        forces.setdefault(v.side, []).append(name + (" (later)" if v.id in state.reserves else ""))
    parts = [f"{side}: {', '.join(names)}" for side, names in sorted(forces.items())]
    parts.append(f"{state.rules.ruleset.name} rules")
    scenario = state.scenario
    if scenario is None:
        parts.append("the last side with vehicles in the playing area wins")
    else:
        wins: dict[str, list[str]] = {}
        for win in scenario.victory:
            said = wins.setdefault(win.side, [])
            if win.outcome not in said and not (win.level and said):
                said.append(win.outcome)
        parts.append("; ".join(f"{side} win if {' or '.join(ways)}" for side, ways in wins.items()))
    return " · ".join(parts)


def switch_specs() -> Json:
    """Every rule switch for the lobby's house rules: its kind (a checkbox, a choice among
    values, or text) and a one-line explanation (the switch's docstring)."""
    schema = Switches.model_json_schema()
    defs = schema.get("$defs", {})
    out: Json = {}
    for name, field in Switches.model_fields.items():
        prop = schema["properties"][name]
        ref = prop.get("$ref") or next(
            (p.get("$ref") for p in prop.get("anyOf", []) if "$ref" in p), None
        )
        enum = defs[ref.split("/")[-1]]["enum"] if ref else prop.get("enum")
        if enum is None and "anyOf" in prop:
            enum = next((p["enum"] for p in prop["anyOf"] if "enum" in p), None)
        kind = "bool" if prop.get("type") == "boolean" else ("choice" if enum else "text")
        spec: Json = {"kind": kind, "help": " ".join((field.description or "").split())}
        if enum:
            spec["choices"] = list(enum)
            spec["optional"] = "anyOf" in prop
        out[name] = spec
    return out


def client_catalog(
    catalog: Catalog, bots: list[str], loopback: bool = False, public_url: str | None = None
) -> Json:
    """What the browser needs to draw and plan: public figures only (no damage decks'
    order, no seed). The damage cards' faces (value, specials) are the printed deck's
    contents, so the console can show a held card by its value and icons. ``loopback``:
    whether nobody on another machine can reach the server; ``public_url``: the address
    the seats' links start with (``dogfight serve --public-url``; None: the page's own)."""
    c = catalog.constants
    return {
        "constants": {
            "table": c.table.model_dump(mode="json"),
            "ruler": c.ruler.model_dump(mode="json"),
            "airplane_base": c.airplane_base.model_dump(mode="json"),
            "arcs": c.arcs.model_dump(mode="json"),
            "tripods": c.tripods.model_dump(mode="json"),
        },
        "side_slots": dict(SIDE_SLOTS),
        "side_shades": [list(family) for family in SIDE_SHADES],
        "rulesets": {
            name: {"title": r.title, "switches": r.switches.model_dump(mode="json")}
            for name, r in sorted(catalog.rulesets.items())
        },
        "airplanes": {
            a.id: {
                "name": a.name,
                "deck": a.maneuver_deck,
                "firepower": a.firepower,
                "damage": a.damage,
                "rockets": a.rockets,
                "era": a.era,
                "speeds": a.speeds,
            }
            for a in sorted(catalog.airplanes.values(), key=lambda a: a.name)
        },
        "maneuver_decks": {
            d: {
                "straight": deck.straight,
                "card_length": deck.card_length,
                "card_width": deck.card_width,
                "cards": [
                    {
                        "id": card.id,
                        "symbol": card.symbol.value,
                        "steep": card.is_steep,
                        "forward": card.forward,
                        "left": card.left,
                        "turn": card.turn,
                        "name": card_name(card),
                        "speed": speed_class(card, deck),
                    }
                    for card in deck.cards
                ],
            }
            for d, deck in sorted(catalog.maneuver_decks.items())
        },
        "tripods": {
            t.id: {
                "name": t.name,
                "deck": t.maneuver_deck,
                "damage": t.damage,
                "energy": t.energy,
                "projectors": list(t.projectors),
                "protected": list(t.protected),
                "smoke_projectors": list(t.smoke_projectors),
                "facing_limit": t.facing_limit,
                "heat_ray": t.heat_ray,
                # 001's INITIATIVE (the reveal's order): a hot-seat table orders its seats by it
                "initiative": None if t.initiative is None else t.initiative.model_dump(),
            }
            for t in sorted(catalog.tripods.values(), key=lambda t: t.id)
        },
        "tripod_decks": {
            d: {
                "cards": [
                    {
                        **card.model_dump(mode="json"),
                        "name": card_name(card),
                        "speed": speed_class(card, deck),
                    }
                    for card in deck.cards
                ],
            }
            for d, deck in sorted(catalog.tripod_decks.items())
        },
        "scenarios": {
            sid: {
                "title": s.title,
                "note": s.note,
                "victory": [v.text for v in s.victory],
                "vehicles": [
                    {"id": v.id, "side": v.side, "types": v.types, "automated": v.automated}
                    for v in s.vehicles
                ],
                "missions": [m.model_dump(mode="json") for m in s.missions],
            }
            for sid, s in sorted(catalog.scenarios.items())
        },
        "switches": switch_specs(),
        "specials": {
            special.value: spec.model_dump(mode="json")
            for special, spec in sorted(catalog.specials.items())
        },
        "damage_cards": {
            letter: {
                card.id: {
                    "value": card.value,
                    "explosion": card.explosion,
                    "specials": [s.value for s in card.specials],
                    "energy": card.energy,
                }
                for card in deck.cards
            }
            for letter, deck in sorted(catalog.damage_decks.items())
        },
        "presets": presets(catalog),
        "bots": bots,
        "bot_flies": {name: sorted(FLIES.get(name, ())) for name in bots},
        "words": {"out": OUT},
        "loopback": loopback,
        "public_url": public_url,
    }
