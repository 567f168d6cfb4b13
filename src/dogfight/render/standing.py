"""Referee mode (``"move": false``): the ruling on the table as it stands, drawn.

For every shot the ruler can take, the part of the target's base it can touch is filled
in the firer's colour and the ruler is laid from the firing dot to the nearest such point
(solid at short range, dashed at long range, labelled with the range and distance); each
blocker's shadow (the part of the table it hides from the firing dot, inside the arc and
within the ruler) is shaded grey. Heat-rays are drawn as the edge of the heat-ray ruler
that reached. Shots blocked completely are already drawn by :mod:`.shots` from the state.
The ruling itself is :func:`dogfight.rules.standing.table_ruling`.
"""

from __future__ import annotations

import textwrap

from dogfight.render.context import _Context, _unit
from dogfight.render.legend import _Key
from dogfight.render.markup import Attrs, _group, _line, _polygon
from dogfight.render.shots import _arrowhead
from dogfight.render.style import BLOCKED_COLOUR, FAINT, RAY, SMALL_SIZE, TEXT_SIZE
from dogfight.rules.standing import REACHES, LineOfFire, TableRuling

SHADOW_OPACITY = 0.22
REACHABLE_OPACITY = 0.5
SHADOW_KEY = "#d4d4d4"
"""The legend's swatch of a shadow: how the translucent grey looks on the table."""


def _standing_keys(ruling: TableRuling | None) -> list[_Key]:
    """The legend's keys for the ruling's areas (none without a ruling)."""
    if ruling is None:
        return []
    keys = []
    if any(line.reachable for line in ruling.lines):
        keys.append(_Key("reachable part of a target (in the firer's colour)", FAINT))
    if any(line.shadows for line in ruling.lines):
        keys.append(_Key("blocker's shadow", SHADOW_KEY))
    return keys


def _shadow_layer(ctx: _Context, ruling: TableRuling) -> list[str]:
    """Each blocker's shadow, once per firer, weapon and blocker."""
    f = ctx.frame
    seen: set[tuple[str, str, str]] = set()
    out: list[str] = []
    for line in ruling.lines:
        for shade in line.shadows:
            key = (line.firer, line.weapon, shade.blocker)
            if key in seen or not shade.area:
                continue
            seen.add(key)
            attrs = {
                "class": "shadow",
                "data-firer": line.firer,
                "data-weapon": line.weapon,
                "data-blocker": shade.blocker,
            }
            fill: Attrs = {"fill": BLOCKED_COLOUR, "fill-opacity": SHADOW_OPACITY, "stroke": "none"}
            children = [_polygon(f, piece, fill) for piece in shade.area]
            about = (
                f"what {shade.blocker} hides from {line.firer}'s {line.weapon} gun "
                "(inside the arc, within the ruler)"
            )
            out.append(_group(attrs, children, about))
    return out


def _standing_caption(ruling: TableRuling | None, width: float) -> list[str]:
    """A caption line saying nothing was flown, and how many shots can be taken."""
    if ruling is None:
        return []
    can = len(ruling.can_fire())
    reach = sum(1 for line in ruling.lines if line.verdict in REACHES)
    blocked = sum(1 for line in ruling.lines if line.verdict == "blocked")
    text = (
        f"referee mode: the vehicles stand where they are, nothing is flown · "
        f"{can} shot{'' if can == 1 else 's'} can be taken"
    )
    if reach > can:
        text += f" ({reach - can} more if the weapons could fire)"
    text += f", {blocked} completely blocked"
    chars = max(20, int(width / (0.62 * TEXT_SIZE)))
    return textwrap.wrap(text, chars)


def _ruling_layer(ctx: _Context, ruling: TableRuling) -> list[str]:
    """The rulers laid, one group per shot that reaches."""
    out: list[str] = []
    for line in ruling.lines:
        if line.verdict in REACHES and line.point is not None:
            out.append(_reaching(ctx, line))
    return out


def _reachable_layer(ctx: _Context, ruling: TableRuling) -> list[str]:
    """The reachable part of each target, in the firer's colour over the target's base."""
    f = ctx.frame
    out: list[str] = []
    for line in ruling.lines:
        if not line.reachable:
            continue
        colour = ctx.colour(ctx.state.vehicles[line.firer])
        paint: Attrs = {
            "class": "reachable",
            "fill": colour,
            "fill-opacity": REACHABLE_OPACITY,
            "stroke": colour,
            "stroke-width": 2,
        }
        attrs = {
            "class": "reachable-part",
            "data-firer": line.firer,
            "data-target": line.target,
            "data-weapon": line.weapon,
        }
        about = (
            f"the part of {line.target}'s base {line.firer}'s {line.weapon} ruler can reach "
            "(inside the arc, within the ruler, not hidden)"
        )
        out.append(_group(attrs, [_polygon(f, p, paint) for p in line.reachable], about))
    return out


def _reaching(ctx: _Context, line: LineOfFire) -> str:
    f = ctx.frame
    assert line.point is not None and line.distance is not None and line.range is not None
    ray = line.weapon.startswith("heat-ray")
    colour = RAY if ray else ctx.colour(ctx.state.vehicles[line.firer])
    kind = "ray" if ray else "shot"
    children = [
        _line(f, line.origin, line.point, {"class": f"{kind} {line.range}", "stroke": colour})
    ]
    direction = _unit(line.origin, line.point)
    if direction is not None:
        children.append(_polygon(f, _arrowhead(line.point, direction), {"fill": colour}))
    text = f"{line.range} {line.distance:.2f} cm"
    if line.verdict == "partly blocked":
        text += " (partly blocked by " + ", ".join(line.blockers) + ")"
    if line.protected:
        text += ", armour"
    if line.silent:
        text += f"; cannot fire: {line.silent}"
    size = SMALL_SIZE if line.verdict == "partly blocked" or line.silent else TEXT_SIZE
    ctx.beside(line.origin, line.point, 0.55, text, size, colour)
    attrs = {
        "class": "can-fire" if line.can_fire else "could-fire",
        "data-firer": line.firer,
        "data-target": line.target,
        "data-weapon": line.weapon,
        "data-verdict": line.verdict,
    }
    about = f"{line.firer} {line.weapon} can reach {line.target}: " + text
    return _group(attrs, children, about)
