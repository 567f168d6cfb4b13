"""Missions' target cards (002) where they lie, in the colour of the side flying the
mission, with what the mission is and whether it succeeded."""

from __future__ import annotations

from dogfight.render.context import _Context
from dogfight.render.markup import _cm, _group, _polygon
from dogfight.render.style import SMALL_SIZE


def _targets_block(ctx: _Context) -> None:
    """Keep labels off the target cards."""
    for card in ctx.state.targets.values():
        outline = ctx.state.target_card(card)
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        ctx.labels.block(((min(xs), min(ys)), (max(xs), max(ys))))


def status(done_by: str | None, points: int) -> str:
    """A mission's state in a few words."""
    return f"accomplished by {done_by}, +{points}" if done_by else f"open, +{points}"


def _targets_layer(ctx: _Context) -> list[str]:
    """Each target card as a dashed outline (solid and filled once the mission
    succeeded), labelled with its mission and its state."""
    f = ctx.frame
    out: list[str] = []
    for tid in sorted(ctx.state.targets):
        card = ctx.state.targets[tid]
        colour = ctx.colours.get(card.side, "#555555")
        done = card.done_by is not None
        attrs = {
            "class": "target-card done" if done else "target-card",
            "fill": colour if done else "#ffffff",
            "fill-opacity": 0.18 if done else None,
            "stroke": colour,
            "stroke-width": 1.2,
            "stroke-dasharray": None if done else "4 2",
        }
        outline = ctx.state.target_card(card)
        x, y = card.pose.point
        text = f"{tid}: {card.mission} ({card.side}) {status(card.done_by, card.points)}"
        ctx.labels.add(
            (x, y - card.width / 2.0 - 1.2),
            text,
            size=SMALL_SIZE,
            nudges=((0.0, -1.2), (0.0, card.width + 2.4)),
            fill=colour,
        )
        about = (
            f"target card of the {card.mission} mission {tid} of the {card.side} side at x "
            f"{_cm(x)} y {_cm(y)}: {status(card.done_by, card.points)}"
        )
        group = {
            "class": "target",
            "data-target": tid,
            "data-mission": card.mission,
            "data-done-by": card.done_by,
        }
        out.append(_group(group, [_polygon(f, outline, attrs)], about))
    return out
