"""Sizes, colours and CSS of the SVG drawing (:mod:`dogfight.render.svg`)."""

from __future__ import annotations

SCALE = 10.0
"""SVG user units per cm; the document's width and height are given in mm, so printed at
100 % the drawing is the size of the real table."""


MARGIN = 6.0
"""cm of paper left, right and below the table (grid labels live there)."""


HEADER = 10.0
"""cm above the table for the title, the caption and one row of legend."""


LEGEND_ROW = 1.8
"""cm added to the header for each further row of legend."""


CAPTION_ROW = 1.7
"""cm added to the header for each caption line beyond the first two."""


GRID = 10.0
"""cm between grid lines."""


PAD = 1.0
"""cm kept around anything drawn off the table (an airplane that left the area)."""


# font sizes, cm
TITLE_SIZE = 2.4


TEXT_SIZE = 1.3


SMALL_SIZE = 1.1


PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#6a3d9a",
    "#e69f00",
    "#56b4e9",
    "#cc79a7",
    "#8c6d1f",
)
"""Side colours, most distinct first: Okabe-Ito (readable by colour-blind players) with
its yellow and black, unreadable on the table or mistaken for the ink, swapped for purple
and brown."""


def _mix(colour: str, towards: str, share: float) -> str:
    """``colour`` moved ``share`` of the way to ``towards`` (both "#rrggbb")."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


SHADE_STEPS = ((None, 0.0), ("#000000", 0.3), ("#ffffff", 0.3), ("#000000", 0.5), ("#ffffff", 0.5))
"""How a side's further vehicles are told apart on the table page: its colour, then
darker and lighter shades of it (the same hue, so a side still reads as one)."""


SIDE_SHADES = tuple(
    tuple(
        colour if towards is None else _mix(colour, towards, share)
        for towards, share in SHADE_STEPS
    )
    for colour in PALETTE
)
"""Each side colour of :data:`PALETTE` first, then its shades: the one palette of the
table page, sent in the catalog (``side_shades``), so a side is drawn in the same colour
by ``render`` and by the page (issue 29 item 11, "one colour per side")."""


SIDE_SLOTS = {"allies": 0, "earth": 0, "central": 1, "martians": 1}
"""The palette's place of the sides every scenario names, the same in every game and on
the table page (sent in the catalog, ``side_slots``): the Allies and Earth take the first
colour (blue), the Central Powers and the Martians the second (issue 29 item 11)."""


# Colours are given as presentation attributes, never in the style sheet: a CSS rule
# would override the attribute, and the side colours must be attributes.
INK = "#222222"


FAINT = "#777777"


BLOCKED_COLOUR = "#777777"


TABLE = "#f7f4ea"


GRID_COLOUR = "#d9d2bd"


CARD_EDGE = "#999999"


ARMOUR = "#ff8c00"
"""The serrated orange line of a tripod's protected sides (and hits on the armour)."""


RAY = "#d62728"
"""Heat-rays and the heat-ray projectors."""


OBJECTIVE_COLOUR = "#5c4b2e"


KEY_SAMPLE = 2.4
"""cm of line (or swatch) before each legend text."""


STYLE = """
text { font-family: 'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif; }
.halo { paint-order: stroke; stroke: #ffffff; stroke-width: 4; stroke-linejoin: round; }
.title { font-weight: bold; }
.table { stroke-width: 3; }
.grid { stroke-width: 1; }
.reach { fill-opacity: 0.07; stroke-opacity: 0.35; stroke-width: 1.5; }
.half { fill: none; stroke-opacity: 0.45; stroke-width: 1.5; stroke-dasharray: 6 4; }
.card { fill-opacity: 0.06; stroke-width: 1; }
.start { fill: none; stroke-width: 1.5; stroke-dasharray: 5 4; stroke-opacity: 0.8; }
.path { fill: none; stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
.shot { stroke-width: 4; stroke-linecap: round; }
.long { stroke-dasharray: 10 6; }
.blocked { stroke-width: 3; stroke-linecap: round; stroke-dasharray: 0.1 8; }
.base { fill-opacity: 0.85; stroke-width: 2; }
.eliminated { fill-opacity: 0.12; stroke-dasharray: 4 4; stroke-opacity: 0.7; }
.cross { stroke-width: 2; stroke-opacity: 0.7; }
.dot { stroke-width: 1; }
""".strip()


TRIPOD_STYLE = """
.armour-under { fill: none; stroke-width: 6; stroke-linejoin: miter; stroke-opacity: 0.8; }
.armour { fill: none; stroke-width: 3.5; stroke-linejoin: miter; }
.projector { stroke-width: 1.2; }
.ray { stroke-width: 4; stroke-linecap: round; }
.nothing { stroke-width: 3; stroke-dasharray: 2 5; stroke-linecap: round; }
.ruler { fill-opacity: 0.05; stroke-opacity: 0.5; stroke-width: 1.2; stroke-dasharray: 4 3; }
.ruler-half { stroke-opacity: 0.5; stroke-width: 1.2; }
.toppled { fill-opacity: 0.4; }
.hatch { stroke-width: 1.5; }
.armour-hit { fill: none; stroke-width: 3; }
.token { fill-opacity: 0.75; stroke-width: 2; }
.token-core { fill: none; stroke-width: 1.5; }
.destroyed { fill-opacity: 0.2; stroke-dasharray: 4 3; }
""".strip()
"""Added to the style sheet only when tripods or objectives are drawn (so that drawings of
airplanes alone stay byte for byte what they were)."""


HATCH = "toppled-hatch"
"""Id of the hatching pattern laid over a toppled tripod."""


SMOKE = "#5a5a5a"
"""Black smoke clouds (translucent) and the arc-shaped Black Smoke ruler."""


TAG = "#a50f15"
"""Announced special damage and lasting status tags."""


STANDARD_STYLE = """
.cloud { fill-opacity: 0.35; stroke-width: 1.5; stroke-opacity: 0.8; }
.dispersed { fill-opacity: 0.06; stroke-dasharray: 5 4; }
.smoke-ruler { fill: none; stroke-width: 3; stroke-linecap: round; stroke-opacity: 0.85; }
.stand { stroke-width: 1.5; }
.rocket-casing { stroke-width: 6; stroke-opacity: 0.8; stroke-linecap: round; }
.rocket-hit { stroke-width: 3.5; stroke-linecap: round; stroke-dasharray: 14 4 3 4; }
.rocket-missed { stroke-width: 2.5; stroke-linecap: round; stroke-dasharray: 0.1 7; }
.rocket-launch { fill: none; stroke-width: 2.5; stroke-linecap: round; stroke-linejoin: round; }
.tag { fill: #ffffff; stroke-width: 1.2; }
""".strip()
"""Added only when Standard Rules marks are drawn (clouds, rockets, special damage)."""


SCENARIO_STYLE = """
.strip { fill-opacity: 0.12; }
.half-line { stroke-width: 1.5; stroke-dasharray: 8 5; stroke-opacity: 0.7; }
.objective-zone { fill: none; stroke-width: 1.5; stroke-dasharray: 6 5; stroke-opacity: 0.7; }
.enters { fill: none; stroke-width: 2; stroke-dasharray: 5 3; }
""".strip()
"""Added only when a scenario is drawn."""


SPECIAL_NAMES = {
    "wounded_pilot": "wounded pilot",
    "fire": "on fire",
    "smoke": "smoke trail",
    "circuits": "circuits hit",
    "toppled": "toppled",
    "batteries": "batteries damaged",
    "jammed": "jammed",
}
"""How announced special damage reads on its tag (others: the name with spaces)."""


STATUS_SPECIALS = {"wounded": "wounded_pilot", "smoke": "smoke", "fire": "fire"}
"""The lasting status counters that are public (000: announced specials), with the
special that sets each; the others (engine, rudders, gyroscope, ...) stay secret."""
