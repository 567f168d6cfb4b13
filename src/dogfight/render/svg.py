"""Draw a game state to scale as a standalone SVG document.

The drawing is for checking rulings by eye: every base where the engine put it, the
cards and paths that brought it there, every shot as the ruler was laid (from the firing
dot to the nearest point of the target's base it could reach), the firing arcs out to the
ruler with the half mark, and the shots other bases blocked completely.

Martian tripods (*Tripods & Triplanes*) are drawn on their hexagonal bases with the
protected sides as a serrated orange line (as on the tripod's reference card), the
heat-ray projectors as red dots, Energy in the label and, when toppled, hatched; their
moves are laid on the front of the base, or on the rear after a reverse; heat-rays are
drawn as the edge of the heat-ray ruler that reached (red) with the ruler's outline, and
shots that hit the electrified armour are labelled "armour". Objective tokens are drawn
where they lie, crossed out once destroyed.

Standard Rules: Black Smoke clouds as grey translucent circles, each cloud placed with the
arc-shaped ruler from the projector's side to its stand, dispersed clouds dashed and
crossed with who dispersed them; rockets launched, hitting (dash-dot) and missing
(dotted); announced special damage and the public lasting status (wounded pilot, smoke,
fire) as tags by the vehicle. Secret specials are never drawn: a player may be shown the
drawing. A scenario adds its title, each side's edge strip in the side's colour, the
half-line, the circle the objectives lie in, reinforcements entering, and in the caption
how it was won, the reserves still to come (and any rockets still in flight). 001: bomb
cards with their dot, crossed when blown up in the air, and each tripod's action card as
revealed in initiative order.

:func:`render_svg` is a pure function and its output is byte-for-byte deterministic: floats
are written with a fixed number of decimals, vehicles are visited in id order and events in
the order given, so drawings can be diffed and kept as test fixtures.

Coordinates: the table's origin is its lower-left corner with y growing upward, as in the
rules; SVG's y grows downward. Every point therefore goes through :class:`_Frame`, which
scales (``SCALE`` user units per cm) and flips y. Nothing is drawn through an SVG
transform, so text always stays upright and the numbers in the file are table
coordinates times ten.

The layers live in sibling modules named for what they draw (:mod:`.table`,
:mod:`.vehicles`, :mod:`.moves`, :mod:`.shots`, :mod:`.tripods`, :mod:`.objectives`,
:mod:`.smoke`, :mod:`.rockets`, :mod:`.tags`, :mod:`.scenario`, :mod:`.legend`,
:mod:`.header`) over shared :mod:`.style`, :mod:`.markup`, :mod:`.labels` and
:mod:`.context`; this module stacks them into one document.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from dogfight.render.bombs import _bomb_layer, _reveal_labels
from dogfight.render.context import _Context, side_colours
from dogfight.render.header import _caption_more, _header
from dogfight.render.labels import _Labels
from dogfight.render.legend import _legend_keys, _legend_rows
from dogfight.render.markup import Attrs, _Frame, _num, _open, _rect, _tag
from dogfight.render.moves import _moves_layer, _reach_layer
from dogfight.render.objectives import _objectives_block, _objectives_layer
from dogfight.render.rockets import _rockets_layer
from dogfight.render.scenario import _scenario_layer
from dogfight.render.shots import _blocked_layer, _shots_layer
from dogfight.render.smoke import _smoke_layer
from dogfight.render.standing import (
    _reachable_layer,
    _ruling_layer,
    _shadow_layer,
    _standing_caption,
    _standing_keys,
)
from dogfight.render.style import (
    HATCH,
    INK,
    MARGIN,
    SCALE,
    SCENARIO_STYLE,
    STANDARD_STYLE,
    STYLE,
    TRIPOD_STYLE,
)
from dogfight.render.table import _table_layer
from dogfight.render.tags import _tags, _tags_layer
from dogfight.render.tailing import _blind_spot_layer, _tailing_layer
from dogfight.render.targets import _targets_block, _targets_layer
from dogfight.render.vehicles import _vehicles_layer
from dogfight.render.view import _view
from dogfight.rules.events import (
    Event,
)
from dogfight.rules.standing import TableRuling
from dogfight.rules.state import GameState


def render_svg(
    state: GameState,
    events: Sequence[Event] = (),
    title: str = "",
    show_reach: bool = True,
    ruling: TableRuling | None = None,
) -> str:
    """The table as a standalone SVG document, to scale (1 cm = ``SCALE`` user units,
    width and height in mm so that it prints at the table's real size).

    ``state`` is drawn as it stands: bases, eliminated airplanes ghosted, the firing arcs
    (``show_reach``) and the shots other bases block completely, tripods with their
    protected sides and Energy, objective tokens. ``events`` add what led to it: the
    moves (card, path, start outline), the shots and heat-rays (with the heat-ray rulers
    under ``show_reach``). ``ruling`` (referee mode, nothing flown) adds the reachable
    part of each target, the rulers that reach it and each blocker's shadow.
    """
    rules = state.rules
    frame = _Frame(rules.table_height)
    scenario = state.scenario
    sides = state.sides()
    if scenario is not None:
        sides += [side.name for side in scenario.sides]
        sides += [v.side for v in state.reserves.values()]
    ctx = _Context(state, frame, side_colours(sides), _Labels(frame))
    tags = _tags(ctx, events)
    text_width = rules.table_width + MARGIN
    keys = _legend_keys(ctx, events, tags) + _standing_keys(ruling)
    rows = _legend_rows(keys, text_width)
    more = _standing_caption(ruling, text_width) + _caption_more(state, events, text_width)
    view = _view(ctx, events, len(rows), len(more))
    ctx.labels.bounds = (view.left, view.bottom, view.right, view.top - view.header)

    # Labels are placed in order of importance; the layers are stacked in drawing order.
    _objectives_block(ctx)
    _targets_block(ctx)
    vehicles = _vehicles_layer(ctx)
    tagged = _tags_layer(ctx, tags)
    shots = _shots_layer(ctx, events)
    ruled = [] if ruling is None else _ruling_layer(ctx, ruling)
    shadows = [] if ruling is None else _shadow_layer(ctx, ruling)
    reachable = [] if ruling is None else _reachable_layer(ctx, ruling)
    rockets = _rockets_layer(ctx, events)
    blocked = _blocked_layer(ctx)
    moves = _moves_layer(ctx, events)
    smoke = _smoke_layer(ctx, events)
    bombs = _bomb_layer(ctx, events)
    _reveal_labels(ctx, events)
    objectives = _objectives_layer(ctx)
    targets = _targets_layer(ctx)
    zones = [] if scenario is None else _scenario_layer(ctx, scenario, events)
    reach = _reach_layer(ctx, events) if show_reach else []
    tailing = _tailing_layer(ctx, events)
    blind = _blind_spot_layer(ctx)

    name = title or "dogfight"
    if scenario is not None:
        name = f"{scenario.title} · {title}" if title else scenario.title
    x0, y0 = frame.x(view.left), frame.y(view.top)
    width, height = (view.right - view.left) * SCALE, (view.top - view.bottom) * SCALE
    svg: Attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": f"{_num(width / SCALE * 10.0)}mm",
        "height": f"{_num(height / SCALE * 10.0)}mm",
        "viewBox": f"{_num(x0)} {_num(y0)} {_num(width)} {_num(height)}",
    }
    area = _rect(frame, (0.0, 0.0), rules.table_width, rules.table_height, {})
    clip = _tag("clipPath", {"id": "table-area"}, area)
    style, patterns = STYLE, ""
    if ctx.has_tripods() or state.objectives:
        style += "\n" + TRIPOD_STYLE
        hatch = _tag(
            "path",
            {"class": "hatch", "d": "M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6", "stroke": INK},
        )
        patterns = _tag(
            "pattern",
            {"id": HATCH, "patternUnits": "userSpaceOnUse", "width": 8, "height": 8},
            hatch,
        )
    if smoke or rockets or tagged:
        style += "\n" + STANDARD_STYLE
    if zones:
        style += "\n" + SCENARIO_STYLE
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        _open("svg", svg),
        f"<title>{escape(name)}</title>",
        f"<defs><style>{escape(style)}</style>{clip}{patterns}</defs>",
        _tag("rect", {"x": x0, "y": y0, "width": width, "height": height, "fill": "#ffffff"}),
    ]
    layers = (
        ("table", _table_layer(ctx), None),
        ("scenario", zones, None),
        ("targets", targets, None),
        ("objectives", objectives, None),
        ("smoke", smoke, None),
        ("bombs", bombs, None),
        ("reach", reach, "url(#table-area)"),
        ("shadows", shadows, "url(#table-area)"),
        ("blind-spots", blind, None),
        ("moves", moves, None),
        ("blocked", blocked, None),
        ("tailing", tailing, None),
        ("shots", shots, None),
        ("ruling", ruled, None),
        ("rockets", rockets, None),
        ("vehicles", vehicles, None),
        ("reachable", reachable, None),
        ("tags", tagged, None),
        ("labels", ctx.labels.texts, None),
        ("header", _header(ctx, view, name, rows, more), None),
    )
    for layer, children, clip_path in layers:
        if children:
            lines.append(_open("g", {"id": layer, "clip-path": clip_path}))
            lines.extend(children)
            lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
