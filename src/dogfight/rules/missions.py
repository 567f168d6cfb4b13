"""Bombing and photographic missions (002, "Scoring & End Game").

002: "Place target cards (for bombing/photo missions) as specified in scenarios." /
"Bombing/Photographic missions: Score upon successful execution." / "Example: Bombing in
*Wings over the Flanders* → +2 points immediately." / "After success, exiting from own
side no longer gives enemy points."

002 prints no test of success: a mission succeeds when an airplane carrying its bombs or
camera ends a maneuver with its centre dot on the target card (docs/rulings.md M3). The
step runs after the airplanes left the table, before anybody fires, so an airplane shot
down in the same phase has already dropped its bombs or taken its photographs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import contains
from dogfight.rules import events as ev
from dogfight.rules.state import GameState, TargetCard

SUCCESS_RULE = '002: "Bombing/Photographic missions: Score upon successful execution."'
HOME_RULE = '002: "After success, exiting from own side no longer gives enemy points."'


def on_target(state: GameState, card: TargetCard, point: tuple[float, float]) -> bool:
    """Whether a centre dot lies on the target card (its edge included)."""
    return contains(state.target_card(card), point)


def succeeded(state: GameState, side: str) -> bool:
    """Whether one of ``side``'s missions has succeeded."""
    return any(t.side == side and t.done_by is not None for t in state.targets.values())


def fly_missions(
    state: GameState, number: int, left: Sequence[str], events: list[ev.Event]
) -> None:
    """The missions step of an action phase.

    First the airplanes that left the table this phase (``left``): one leaving across its
    own side's edge after that side's mission succeeded in an earlier phase gives the
    enemy no point. Then every open mission whose carrier's centre dot now lies on the
    target card succeeds (the first carrier by id when several do).
    """
    if not state.targets:
        return
    for vid in left:
        vehicle = state.vehicles[vid]
        home = next((t.home for t in state.targets.values() if t.side == vehicle.side), None)
        if (
            vehicle.eliminated == "left_area"
            and home is not None
            and vehicle.exit_edge == home
            and succeeded(state, vehicle.side)
            and vid not in state.home_after_mission
        ):
            state.home_after_mission.append(vid)
            events.append(ev.HomeAfterMission(vid, vehicle.side, home))
    for mid in sorted(state.targets):
        card = state.targets[mid]
        if card.done_by is not None:
            continue
        for vehicle in sorted(state.in_play(), key=lambda v: v.id):
            if card.carried_by(vehicle) and on_target(state, card, vehicle.pose.point):
                card.done_by = vehicle.id
                card.done_at = number
                events.append(
                    ev.MissionAccomplished(mid, card.mission, vehicle.id, card.side, card.points)
                )
                break


def mission_points(state: GameState) -> dict[str, int]:
    """The points each side's successful missions score (002: "+2 points immediately":
    whoever wins the game, docs/rulings.md M4)."""
    out: dict[str, int] = {}
    for card in state.targets.values():
        if card.done_by is not None:
            out[card.side] = out.get(card.side, 0) + card.points
    return out


def target_view(card: TargetCard) -> dict[str, object]:
    """A target card as every seat sees it (the cards lie open on the table)."""
    return {
        "id": card.id,
        "mission": card.mission,
        "side": card.side,
        "x": round(card.pose.x, 4),
        "y": round(card.pose.y, 4),
        "heading": round(card.pose.heading, 4),
        "length": card.length,
        "width": card.width,
        "carriers": list(card.carriers),
        "points": card.points,
        "home": card.home,
        "done_by": card.done_by,
    }


def targets_of(observation: Iterable[Mapping[str, Any]]) -> dict[str, TargetCard]:
    """The target cards of an observation's ``targets`` (the inverse of
    :func:`target_view`: a bot rebuilds its state from what its seat sees)."""
    return {
        str(t["id"]): TargetCard(
            id=str(t["id"]),
            mission=str(t["mission"]),
            side=str(t["side"]),
            pose=Pose(float(t["x"]), float(t["y"]), float(t["heading"])),
            length=float(t["length"]),
            width=float(t["width"]),
            carriers=tuple(str(c) for c in t.get("carriers", [])),
            points=int(t.get("points", 2)),
            home=t.get("home"),
            done_by=t.get("done_by"),
        )
        for t in observation
    }
