"""A scenario's briefing and a game's ending, in words, for the table and the terminal.

The briefing is what a player reads before the first card and looks up during play: the
forces of each side (in play, out, still to come), the objective tokens and their state,
the missions and their target cards (002),
the edges a side must leave by, every victory condition as the rule text gives it and
what that side still needs now. The ending says why the game ended and how each side's
score was made (002's match scoring, :func:`dogfight.rules.victory.scores`).

Everything here is public: built from the state without any seat's secrets (positions,
eliminations and objective tokens are on the table for all to see).
"""

from __future__ import annotations

from typing import Any

from dogfight.catalog.models import Victory
from dogfight.rules.scenario import edge_distance, own_losses, reinforced
from dogfight.rules.state import GameState
from dogfight.rules.victory import SHOT_DOWN
from dogfight.words.narration import ending as narration_ending
from dogfight.words.terms import plural

Json = dict[str, Any]


def _needs(state: GameState, win: Victory) -> str:
    """What ``win.side`` still needs for this condition, as the table stands."""
    parts: list[str] = []
    if win.kind == "last_in_play":
        others = sorted({v.side for v in state.in_play()} - {win.side})
        if others:
            parts.append("be the last side with airplanes in play (" + ", ".join(others) + " fly)")
    elif win.kind == "destroy":
        gone = (None,) if win.left_area_counts else (None, "left_area")
        left = [
            vid
            for vid in win.vehicles
            if vid not in state.vehicles or state.vehicles[vid].eliminated in gone
        ]
        if left:
            parts.append("destroy " + ", ".join(left))
    else:
        done = [
            o
            for o in state.objectives.values()
            if (o.destroyed if win.objective_action == "destroy" else o.drained)
        ]
        more = win.objectives - len(done)
        if more > 0:
            verb = "destroy" if win.objective_action == "destroy" else "drain"
            parts.append(
                f"{verb} {plural(more, 'more objective')} ({len(done)} of {win.objectives})"
            )
        exited = any(
            v.side == win.side and v.eliminated == "left_area" and v.exit_edge == win.exit_edge
            for v in state.vehicles.values()
        )
        if not exited and win.exit_edge is not None:
            movers = [v for v in state.in_play() if v.side == win.side]
            near = min(
                ((edge_distance(state, v.pose.point, win.exit_edge), v.id) for v in movers),
                default=None,
            )
            where = "" if near is None else f" ({near[1]} is {near[0]:.0f} cm from it)"
            parts.append(f"leave the table across the {win.exit_edge} edge{where}")
    if win.reinforced is True and not reinforced(state, win.side):
        parts.append("only once a reinforcement has entered")
    if win.reinforced is False and reinforced(state, win.side):
        parts.append("no longer possible: a reinforcement has entered")
    if win.own_losses is not None and own_losses(state, win.side) not in win.own_losses:
        parts.append(f"with {' or '.join(map(str, win.own_losses))} own losses")
    return "; ".join(parts) if parts else "met"


def briefing(state: GameState) -> Json | None:
    """The scenario's briefing (None: not a scenario)."""
    scenario = state.scenario
    if scenario is None:
        return None
    sides: list[Json] = []
    for side in scenario.sides:
        vehicles = [
            {"id": v.id, "type": v.type, "in_play": v.in_play, "out": v.eliminated}
            for v in sorted(state.vehicles.values(), key=lambda v: v.id)
            if v.side == side.name
        ]
        reserves = sorted(vid for vid, v in state.reserves.items() if v.side == side.name)
        sides.append(
            {"name": side.name, "edge": side.edge, "vehicles": vehicles, "reserves": reserves}
        )
    victory = [
        {
            "side": win.side,
            "level": win.level,
            "text": win.text,
            "exit_edge": win.exit_edge,
            "needs": _needs(state, win),
        }
        for win in scenario.victory
    ]
    exits = sorted(
        {(win.side, win.exit_edge) for win in scenario.victory if win.exit_edge is not None}
    )
    return {
        "id": scenario.id,
        "title": scenario.title,
        "note": scenario.note,
        "sides": sides,
        "objectives": [
            {"id": o.id, "destroyed": o.destroyed, "drained": o.drained, "charges": o.charges}
            for o in sorted(state.objectives.values(), key=lambda o: o.id)
        ],
        "exits": [{"side": side, "edge": edge} for side, edge in exits],
        "victory": victory,
        "missions": missions(state),
    }


def missions(state: GameState) -> list[Json]:
    """The missions on the table (002): what each is, who carries it, and how it stands."""
    out: list[Json] = []
    texts = {m.id: m.text for m in state.scenario.missions} if state.scenario else {}
    for card in sorted(state.targets.values(), key=lambda t: t.id):
        carriers = ", ".join(card.carriers) or f"any airplane of the {card.side} side"
        done = card.done_by
        out.append(
            {
                "id": card.id,
                "kind": card.mission,
                "side": card.side,
                "carriers": list(card.carriers),
                "points": card.points,
                "home": card.home,
                "done_by": done,
                "text": texts.get(card.id) or f"{card.mission} mission of the {card.side} side",
                "status": (
                    f"accomplished by {done}: +{card.points} to {card.side}; going home across "
                    f"the {card.home} edge now gives the enemy nothing"
                    if done
                    else f"open: {carriers} must end a maneuver with its centre on the "
                    f"target card (+{card.points})"
                ),
            }
        )
    return out


def ending(state: GameState) -> Json | None:
    """Why the game ended and how each side's score was made (None: not over): the
    words of its one judgement (``state.result``, :func:`dogfight.words.narration.ending`),
    with, where match points apply, the lines that made each side's points."""
    over = state.result
    if not state.over or over is None:
        return None
    said = narration_ending(over)
    out: Json = {
        "heading": said["heading"],
        "reason": said["reason"],
        "winner": over.winner,
        "level": over.level,
        "scores": over.scores,
        "how": {},
    }
    if not over.scores:
        return out  # the scenario's victory is the whole result: no points to explain
    how: dict[str, list[str]] = {}
    for side in state.sides():
        lines: list[str] = []
        for v in sorted(state.vehicles.values(), key=lambda v: v.id):
            if v.eliminated is None:
                continue
            what = v.eliminated.replace("_", " ")
            if v.side != side:
                if v.id in state.home_after_mission:
                    lines.append(f"+0: enemy {v.id} went home after its mission")
                    continue
                points = 1 if v.eliminated == "left_area" else 2
                lines.append(f"+{points}: enemy {v.id} {what}")
            elif v.eliminated in SHOT_DOWN:
                lines.append(f"-1: own {v.id} {what}")
        if state.rules.switches.match_scoring == "winner" and side != state.winner and lines:
            lines.append("(002: only the winning side scores these)")
        for card in sorted(state.targets.values(), key=lambda t: t.id):
            if card.side == side and card.done_by is not None:
                lines.append(f"+{card.points}: {card.mission} mission {card.id} ({card.done_by})")
        how[side] = lines
    out["how"] = how
    return out
