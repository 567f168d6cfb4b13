"""A match series: several games between the same players, each scored by 002's match
scoring (:func:`dogfight.rules.victory.scores`), with running totals per side.

002: "Match Scoring (for multiple matches)" / "Used to compare performance across
matches." 003: "若以多局决定胜负(局数由玩家自行决定),则计算每局双方分数。总分较高者胜。"
(when several games decide, count both sides' score each game; the higher total wins).
The server's series page and ``dogfight simulate`` both total games with this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Standing:
    """The series so far: each game's points with the running totals after it, the
    totals, and the side ahead (None: level, or no game scored yet)."""

    rows: list[tuple[dict[str, int], dict[str, int]]] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    leader: str | None = None


def standing(sides: Sequence[str], games: Iterable[Mapping[str, int]]) -> Standing:
    """Total the points of ``games`` (each side's points in one game), in order."""
    totals = {side: 0 for side in sides}
    rows: list[tuple[dict[str, int], dict[str, int]]] = []
    for points in games:
        for side, p in points.items():
            totals[side] = totals.get(side, 0) + p
        rows.append((dict(points), dict(totals)))
    best = max(totals.values(), default=0)
    ahead = [side for side, total in totals.items() if total == best]
    leader = ahead[0] if rows and len(ahead) == 1 else None
    return Standing(rows, dict(sorted(totals.items())), leader)
