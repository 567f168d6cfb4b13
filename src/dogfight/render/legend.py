"""The legend: one key per kind of thing drawn, in rows that fit the width."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dogfight.render.context import _Context
from dogfight.render.labels import _text
from dogfight.render.markup import Attrs, _circle, _Frame, _line, _rect, _tag
from dogfight.render.smoke import _dispersals
from dogfight.render.style import (
    ARMOUR,
    BLOCKED_COLOUR,
    HATCH,
    INK,
    KEY_SAMPLE,
    LEGEND_ROW,
    OBJECTIVE_COLOUR,
    RAY,
    SCALE,
    SMALL_SIZE,
    SMOKE,
    TAG,
)
from dogfight.render.tags import _Tag
from dogfight.render.tripods import _serrated
from dogfight.rules.events import (
    Event,
    ProtectedHit,
    Reinforcement,
    RocketsHit,
    RocketsMissed,
    SmokeCloud,
)


@dataclass(frozen=True, slots=True)
class _Key:
    """One legend entry: a side's colour swatch, or a sample of a line style."""

    text: str
    colour: str
    css: str | None = None

    @property
    def width(self) -> float:
        return KEY_SAMPLE + 0.6 + 0.6 * SMALL_SIZE * len(self.text) + 1.6


def _legend_keys(ctx: _Context, events: Sequence[Event], tags: Sequence[_Tag] = ()) -> list[_Key]:
    """The sides and the line styles; the tripods' marks only when tripods are drawn,
    objectives only when there are some, and so on for the Standard Rules' and the
    scenario's marks (so that a drawing shows only the keys it needs)."""
    keys = [_Key(side, ctx.colours[side]) for side in sorted(ctx.colours)]
    keys += [
        _Key("short range", INK, "shot short"),
        _Key("long range", INK, "shot long"),
        _Key("+1: aimed", INK, "aimed"),
        _Key("completely blocked", BLOCKED_COLOUR, "blocked"),
        _Key("start of a move", INK, "start"),
    ]
    state = ctx.state
    if ctx.has_tripods():
        keys += [
            _Key("protected side", ARMOUR, "armour"),
            _Key("heat-ray projector", RAY, "projector"),
            _Key("heat-ray short", RAY, "ray short"),
            _Key("heat-ray long", RAY, "ray long"),
        ]
    if any(isinstance(e, ProtectedHit) for e in events):
        keys.append(_Key("shot on the armour", ARMOUR, "armour-hit"))
    if any(v.tripod is not None and v.tripod.toppled for v in state.vehicles.values()):
        keys.append(_Key("toppled", INK, "toppled"))
    if state.objectives:
        keys.append(_Key("objective", OBJECTIVE_COLOUR, "token"))
    if state.clouds or _dispersals(events):
        keys.append(_Key("black smoke cloud", SMOKE, "cloud"))
    if any(isinstance(e, SmokeCloud) for e in events):
        keys.append(_Key("black smoke ruler", SMOKE, "smoke-ruler"))
    if any(isinstance(e, RocketsHit) for e in events):
        keys.append(_Key("rockets hit", INK, "rocket-hit"))
    if any(isinstance(e, RocketsMissed) for e in events):
        keys.append(_Key("rockets missed", INK, "rocket-missed"))
    if tags:
        keys.append(_Key("announced damage", TAG, "tag"))
    scenario = state.scenario
    if scenario is not None and scenario.objectives is not None:
        keys.append(_Key("objective zone", OBJECTIVE_COLOUR, "objective-zone"))
    if scenario is not None and any(isinstance(e, Reinforcement) for e in events):
        keys.append(_Key("reinforcement enters", INK, "enters"))
    return keys


def _legend_rows(keys: Sequence[_Key], width: float) -> list[list[_Key]]:
    """Keys laid out left to right, wrapping at ``width`` cm."""
    rows: list[list[_Key]] = [[]]
    used = 0.0
    for key in keys:
        if rows[-1] and used + key.width > width:
            rows.append([])
            used = 0.0
        rows[-1].append(key)
        used += key.width
    return rows


def _legend(f: _Frame, rows: Sequence[Sequence[_Key]], y: float) -> list[str]:
    """The legend rows, the first centred on height ``y``."""
    out: list[str] = []
    for row in rows:
        x = 0.0
        for key in row:
            if key.css is None:
                out.append(
                    _rect(f, (x, y - 0.6), KEY_SAMPLE, 1.2, {"fill": key.colour, "stroke": INK})
                )
            elif key.css == "start":
                attrs = {"class": "start", "stroke": key.colour}
                out.append(_rect(f, (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2, attrs))
            elif key.css == "armour":
                teeth = f.points(_serrated((x, y + 0.3), (x + KEY_SAMPLE, y + 0.3)))
                out.append(
                    _tag("polyline", {"class": "armour-under", "points": teeth, "stroke": INK})
                )
                out.append(
                    _tag("polyline", {"class": "armour", "points": teeth, "stroke": key.colour})
                )
            elif key.css in ("projector", "armour-hit", "token"):
                radius = {"projector": 0.45, "armour-hit": 0.55, "token": 0.6}[key.css]
                fill = {"projector": key.colour, "armour-hit": "none", "token": "#ffffff"}[key.css]
                stroke = "#ffffff" if key.css == "projector" else key.colour
                centre = {"cx": f.x(x + KEY_SAMPLE / 2.0), "cy": f.y(y), "r": radius * SCALE}
                out.append(
                    _tag("circle", {"class": key.css, **centre, "fill": fill, "stroke": stroke})
                )
            elif key.css == "cloud":
                swatch: Attrs = {"class": "cloud", "fill": key.colour, "stroke": key.colour}
                out.append(_circle(f, (x + KEY_SAMPLE / 2.0, y), 0.7, swatch))
            elif key.css in ("tag", "enters"):
                sample = (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2
                box: Attrs = {"class": key.css, "stroke": key.colour}
                if key.css == "tag":
                    box = {**box, "rx": 0.5 * SCALE}
                out.append(_rect(f, *sample, box))
            elif key.css == "toppled":
                sample = (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2
                out.append(_rect(f, *sample, {"fill": "#ffffff", "stroke": INK}))
                out.append(_rect(f, *sample, {"class": "hatched", "fill": f"url(#{HATCH})"}))
            elif key.css != "aimed":
                attrs = {"class": key.css, "stroke": key.colour}
                out.append(_line(f, (x, y), (x + KEY_SAMPLE, y), attrs))
            out.append(_text(f, (x + KEY_SAMPLE + 0.6, y), key.text, SMALL_SIZE, "start", "legend"))
            x += key.width
        y -= LEGEND_ROW
    return out
