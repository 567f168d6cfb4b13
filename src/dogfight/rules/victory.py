"""Victory and match scoring."""

from __future__ import annotations

from dogfight.rules import scenario
from dogfight.rules.events import (
    Event,
    GameOver,
)
from dogfight.rules.missions import mission_points
from dogfight.rules.state import GameState

SHOT_DOWN = (
    "shot_down",
    "exploded",
    "out_of_control",
    "burned",
    "pilot_incapacitated",
    "engine_destroyed",
)


def scores(state: GameState) -> dict[str, int]:
    """Match scoring. 002: "Winning player/team scores: +1 per enemy aircraft that exited
    playing area, +2 per enemy aircraft shot down, –1 per own aircraft shot down" (switch
    ``match_scoring = "winner"``: the other sides score 0, and nobody in a draw); 003:
    "计算每局双方分数" (every side's score, ``"every_side"``). A side's successful missions
    add their points whoever wins (002: "+2 points immediately"), and an airplane that
    went home across its own edge after its side's success gives the enemy nothing (002:
    "After success, exiting from own side no longer gives enemy points")."""  # noqa: RUF002
    if state.scenario is not None and not state.scenario.match_points:
        return {}  # the scenario's victory is the whole result (000, 001: no match points)
    out: dict[str, int] = {}
    for side in state.sides():
        total = 0
        for v in state.vehicles.values():
            if v.eliminated is None:
                continue
            if v.side != side:
                if v.eliminated == "left_area":
                    total += 0 if v.id in state.home_after_mission else 1
                else:
                    total += 2
            elif v.eliminated in SHOT_DOWN:
                total -= 1
        out[side] = total
    if state.rules.switches.match_scoring == "winner":
        out = {side: (points if side == state.winner else 0) for side, points in out.items()}
    for side, points in mission_points(state).items():
        out[side] = out.get(side, 0) + points
    return out


def check_victory(state: GameState, events: list[Event]) -> None:
    """000: "the winner is the player (or team) with vehicles still in the playing area
    when all the enemy vehicles exit it or are eliminated." Both gone at once: a draw.
    A scenario judges its own victory conditions instead. The game's end is one
    :class:`GameOver`: who won, why in words, the level and the scores."""
    if state.scenario is not None:
        ended = scenario.judge(state, events)
        if ended is not None:
            reason, level = ended
            state.result = GameOver(state.winner, scores(state), reason, level)
            events.append(state.result)
        return
    standing = set()  # a plain loop (every phase): a comprehension costs a frame
    for v in state.vehicles.values():
        if v.eliminated is None:
            standing.add(v.side)
    if len(standing) >= 2:
        return  # two sides still in play (so at least two sides): the game goes on
    if len(state.sides()) < 2:
        return
    left = sorted(standing)
    if len(left) <= 1:
        state.over = True
        state.winner = left[0] if left else None
        reason = (
            f"the {left[0]} side still has vehicles in the playing area and every enemy "
            "vehicle has left it or is eliminated"
            if left
            else "the last vehicles of every side left the playing area or were eliminated "
            "in the same step"
        )
        state.result = GameOver(state.winner, scores(state), reason)
        events.append(state.result)
