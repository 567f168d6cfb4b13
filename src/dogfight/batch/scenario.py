"""A scenario's victory conditions on arrays (``rules.scenario.judge``): checked in the
scenario's order after every phase, the first met ends the game with its side the
winner; a side with nothing left in play ends it with no winner.

Played: ``destroy`` (every listed vehicle eliminated; leaving the table counts only
with ``left_area_counts``) and ``objectives_and_exit`` (at least so many objectives
destroyed and one of the side's vehicles gone off the table across ``exit_edge``).
Refused by name (:func:`not_played`): ``last_in_play``, objectives drained or reached,
every vehicle to exit, a condition on the side's own losses or reinforcements, graded
(solo) victories.
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.arrays import any_slot
from dogfight.batch.spec import Bools, Floats, Ints
from dogfight.batch.state import LEFT_AREA, BatchState, Victories
from dogfight.catalog.models import Scenario

EDGES = ("south", "north", "west", "east")
"""Edge codes of ``BatchState.exit_edge`` (their order breaks ties as
``rules.scenario.exit_edge`` does)."""

DESTROY, OBJECTIVES_AND_EXIT = 0, 1


def not_played(scenario: Scenario) -> list[str]:
    """The scenario's victory conditions the batch does not play (empty: all)."""
    out = []
    for win in scenario.victory:
        if win.kind == "last_in_play":
            out.append("its victory 'last_in_play'")
        elif win.kind == "objectives_and_exit":
            why = (
                [f"objectives {win.objective_action}ed"]
                if win.objective_action != "destroy"
                else []
            )
            why += ["every vehicle to exit"] if win.all_exit else []
            why += ["no exit edge"] if win.exit_edge is None else []
            if why:
                out.append(f"its victory '{win.kind}' (" + ", ".join(why) + ")")
        if win.own_losses is not None or win.reinforced is not None or win.level is not None:
            out.append("graded victories, own losses and reinforcements")
    return sorted(set(out))


def victories(scenario: Scenario, names: tuple[str, ...], sides: tuple[str, ...]) -> Victories:
    """The conditions of ``scenario`` on a table whose slots hold ``names``."""
    wins = scenario.victory
    return Victories(
        scenario=scenario.id,
        kind=tuple(DESTROY if w.kind == "destroy" else OBJECTIVES_AND_EXIT for w in wins),
        side=tuple(sides.index(w.side) if w.side in sides else -1 for w in wins),
        vehicles=np.array([[n in w.vehicles for n in names] for w in wins], dtype=np.bool_),
        left_counts=tuple(w.left_area_counts for w in wins),
        objectives=tuple(w.objectives for w in wins),
        exit_edge=tuple(EDGES.index(w.exit_edge) if w.exit_edge else -1 for w in wins),
    )


def edge_crossed(state: BatchState, x: Floats, y: Floats) -> Ints:
    """The edge codes of centres (x, y) off the table: the one each is furthest beyond."""
    beyond = np.stack([y, state.spec.height - y, x, state.spec.width - x])
    out: Ints = np.argmin(beyond, axis=0)
    return out


def judged(state: BatchState, act: Bools) -> tuple[Bools, Ints]:
    """(B,) the tables of ``act`` whose game the scenario ends now, and (B,) the winner
    (-1: none)."""
    wins = state.victories
    assert wins is not None
    b = state.tables
    winner = np.full(b, -1, dtype=np.int64)
    decided = np.zeros(b, dtype=np.bool_)
    gone = state.present & ~state.alive
    for k, kind in enumerate(wins.kind):
        if kind == DESTROY:
            out = gone if wins.left_counts[k] else gone & (state.reason != LEFT_AREA)
            listed = wins.vehicles[k]
            met = (out[:, listed] | ~state.present[:, listed]).all(axis=1)
            met &= state.present[:, listed].all(axis=1)
        else:
            own = state.side == wins.side[k]
            exited = own & (state.reason == LEFT_AREA) & (state.exit_edge == wins.exit_edge[k])
            met = any_slot(exited) & (state.obj_destroyed.sum(axis=1) >= wins.objectives[k])
        new = met & ~decided
        winner[new] = wins.side[k]
        decided |= met
    for k in range(len(state.side_names)):
        empty = ~any_slot((state.side == k) & state.present & state.alive)
        decided |= empty
    ends: Bools = act & decided
    return ends, winner
