"""Rich tables for ``dogfight info``."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from dogfight.catalog import Catalog
from dogfight.catalog.models import Switches


def print_info(cat: Catalog, console: Console | None = None) -> None:
    out = console or Console()
    c = cat.constants
    out.print(f"[bold]Data folders:[/] {', '.join(cat.folders)}")
    out.print(f"[italic]{c.note}[/]")
    out.print(
        f"Table {c.table.width:g} x {c.table.height:g} cm; ruler {c.ruler.length:g} cm, "
        f"half mark {c.ruler.half:g} cm; airplane base {c.airplane_base.length:g} long x "
        f"{c.airplane_base.width:g} wide; front arc {c.arcs.front.width:g} deg, rear arc "
        f"{c.arcs.rear.width:g} deg; jams last {c.jam_maneuvers} maneuvers."
    )
    rules = Table(title="Rulesets")
    for col in ("name", "source", "title", "illegal maneuver", "explosion"):
        rules.add_column(col)
    for r in sorted(cat.rulesets.values(), key=lambda r: r.name):
        rules.add_row(
            r.name, r.source, r.title, r.switches.illegal_maneuver.value, r.switches.explosion.value
        )
    out.print(rules)
    out.print(switches_table(cat))
    print_switches(cat, console=out)
    planes = Table(title="Airplanes")
    for col in (
        "id",
        "name",
        "era",
        "deck",
        "firepower",
        "damage",
        "rockets",
        "bomb loads",
        "speeds",
    ):
        planes.add_column(col)
    for a in sorted(cat.airplanes.values(), key=lambda a: (a.era, a.id)):
        planes.add_row(
            a.id,
            a.name,
            a.era.upper(),
            a.maneuver_deck,
            "/".join(a.firepower),
            str(a.damage),
            "yes" if a.rockets else "",
            str(a.usual_loads),
            ", ".join(map(str, a.speeds)),
        )
    out.print(planes)
    decks = Table(title="Maneuver decks")
    for col in ("deck", "cards"):
        decks.add_column(col)
    for letter, deck in sorted(cat.maneuver_decks.items()):
        decks.add_row(
            letter,
            ", ".join(
                f"{card.id}:{card.symbol.value}{'*' if card.is_steep else ''}"
                for card in deck.cards
            ),
        )
    out.print(decks)
    damage = Table(title="Damage decks")
    for col in ("deck", "cards", "average", "explosions", "jams"):
        damage.add_column(col)
    for letter, dd in sorted(cat.damage_decks.items()):
        comp = dd.composition()
        specs = {card.id: card for card in dd.cards}
        avg = sum(specs[i].value for i in comp) / len(comp)
        damage.add_row(
            letter,
            str(len(comp)),
            f"{avg:.2f}",
            str(sum(1 for i in comp if specs[i].explosion)),
            str(sum(1 for i in comp if "jammed" in specs[i].specials)),
        )
    out.print(damage)
    tripods = Table(title="Tripods")
    for col in (
        "id",
        "name",
        "deck",
        "heat-ray",
        "energy",
        "recharge",
        "damage",
        "projectors",
        "protected",
        "facing",
        "vs tripods",
        "initiative",
    ):
        tripods.add_column(col)
    for t in sorted(cat.tripods.values(), key=lambda t: t.id):
        tripods.add_row(
            t.id,
            t.name,
            t.maneuver_deck,
            f"{t.heat_ray} ({t.firepower})",
            str(t.energy),
            str(t.recharge_level),
            str(t.damage),
            ", ".join(t.projectors),
            ", ".join(t.protected),
            str(t.facing_limit),
            f"{t.tripod_firepower} ({'A' if t.tripod_firepower == 'X' else 'B'})",
            "" if t.initiative is None else f"{t.initiative.human}/{t.initiative.martian}",
        )
    out.print(tripods)
    t_decks = Table(title="Tripod maneuver decks")
    t_decks.add_column("deck")
    t_decks.add_column("cards (S = stop icon, E = energy icon)")
    for letter, t_deck in sorted(cat.tripod_decks.items()):
        t_decks.add_row(
            letter,
            ", ".join(
                f"{card.id}:{card.symbol.value}"
                + ("/S" if card.stop else "")
                + ("/E" if card.energy else "")
                for card in t_deck.cards
            ),
        )
    out.print(t_decks)
    scenarios = Table(title="Scenarios")
    for col in ("id", "title", "source", "forces", "missions"):
        scenarios.add_column(col)
    for sc in sorted(cat.scenarios.values(), key=lambda s: s.id):
        forces = ", ".join(f"{v.id} ({v.side})" for v in sc.vehicles)
        missions = "; ".join(
            f"{m.id}: {m.kind} by {', '.join(m.carriers) or m.side}, target at "
            f"({m.target.x:g}, {m.target.y:g}), +{m.points}"
            for m in sc.missions
        )
        scenarios.add_row(sc.id, sc.title, sc.source, forces, missions)
    out.print(scenarios)
    m = c.tripods
    out.print(
        f"Tripod base: hexagon of side {m.base_side:g} cm; heat-ray rulers: medium "
        f"{m.medium.length:g} cm (half {m.medium.half:g}), heavy {m.heavy.length:g} cm "
        f"(half {m.heavy.half:g}), tilted {m.medium.tilt:g}/{m.heavy.tilt:g} deg on the clipped "
        f"corner; objectives {2 * m.objective_radius:g} cm across; bomb card "
        f"{m.bomb_card.length:g} x {m.bomb_card.width:g} cm, dot {2 * m.bomb_card.dot_radius:g} "
        "cm across (001)."
    )


def switches_table(cat: Catalog) -> Table:
    """The rule switches' values, a column per ruleset."""
    rulesets = sorted(cat.rulesets.values(), key=lambda r: r.name)
    table = Table(title='Rule switches (a situation\'s "switches" overrides them)')
    table.add_column("switch", overflow="fold")
    for r in rulesets:
        table.add_column(r.name, overflow="fold")
    for name in Switches.explanations():
        table.add_row(name, *(switch_value(getattr(r.switches, name)) for r in rulesets))
    return table


def print_switches(
    cat: Catalog, ruleset: str | None = None, console: Console | None = None
) -> None:
    """Every switch with a one-line explanation (the model's field docstrings: the
    explanation lives with the switch, not here); with ``ruleset``, its value there."""
    out = console or Console()
    chosen = cat.rulesets[ruleset] if ruleset is not None else None
    if chosen is not None:
        out.print(f"[bold]{chosen.name}[/]: {chosen.title} ({chosen.source})")
    else:
        out.print("[bold]What each switch does[/]")
    for name, text in Switches.explanations().items():
        value = f" = {switch_value(getattr(chosen.switches, name))}" if chosen else ""
        out.print(f"  [bold]{name}[/]{value} — {text}", highlight=False, soft_wrap=True)


def switch_value(value: object) -> str:
    """A switch's value as the tables show it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    text = str(getattr(value, "value", value))
    return text or '""'
