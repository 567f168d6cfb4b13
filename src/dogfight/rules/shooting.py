"""The firing step: who fires at whom, heat-rays and rockets, then the damage of them all."""

from __future__ import annotations

import numpy as np

from dogfight.catalog.models import (
    AutoTarget,
    ManeuverCard,
    Skill,
)
from dogfight.geometry.hexbase import Side
from dogfight.rules import firing, rockets, scenario, skill_choice, standard, tripods
from dogfight.rules.damage import Shot, resolve_damage
from dogfight.rules.decisions import Asking, Decision
from dogfight.rules.events import (
    HOLDS_FIRE,
    Event,
    Fired,
    HeatRay,
    HeldFire,
    RearGunLost,
    RocketsLaunched,
    SkillUsed,
)
from dogfight.rules.plans import AUTO, HOLD
from dogfight.rules.rays import RayOption, RayScene
from dogfight.rules.state import BY_ID, GameState, Salvo, Vehicle

_NO_AUTO_TARGET = AutoTarget.NONE
"""Read at every weapon's choice (an enum's member is an attribute lookup on its class)."""


def firing_step(
    state: GameState,
    phase: int,
    number: int,
    silenced: set[tuple[str, str]],
    acts: tripods.PhaseActions,
    flown: dict[str, ManeuverCard],
    rng: np.random.Generator,
    events: list[Event],
    asking: Asking | None = None,
) -> list[tuple[Vehicle, RayOption]]:
    """000: "All damage inflicted in the same firing step, regardless of its source, is
    resolved simultaneously, after all vehicles that wish to fire have done so." A pilot
    using Itchy Trigger Finger shoots first: its damage is resolved before anyone else
    fires (000: "once every 5 phases, the pilot shoots first"), when its seat chooses to
    use it (:mod:`dogfight.rules.skill_choice`). 001: "if at the start of
    the firing step the tripod has at least 1 energy counter in its reserve, all shots
    across protected sides are considered protected by the armor": the reserves are read
    before anything fires, and the Energy of the heat-rays is discarded once every shot
    is decided. Returns the heat-rays fired at falling bomb cards (the bombs step
    resolves them)."""
    # plain loops rather than comprehensions (each costs a function object and a frame):
    # every phase fires, most with nobody to treat apart
    in_play = state.in_play()
    energy = {}
    for v in in_play:
        if v.tripod is not None:
            energy[v.id] = v.tripod.energy
    table = firing.table_of(state, in_play)
    ordered = sorted(in_play, key=BY_ID)
    first = []
    done = set()
    itchy: dict[str, Decision] = {}
    for v in ordered:
        if v.skills and scenario.skill_ready(v, Skill.ITCHY_TRIGGER_FINGER, number):
            shot = _would_fire(state, table, v, phase, silenced, flown)
            if shot is not None:
                danger = skill_choice.threatened(state, table, v)
                itchy[v.id] = skill_choice.decision(
                    state, v, Skill.ITCHY_TRIGGER_FINGER, shot, danger
                )
            first.append(v)
            done.add(v.id)
    if itchy:  # the pilots ready to shoot first are asked together
        kept = skill_choice.kept(asking, list(itchy.values()))
        first = [v for v in first if v.id not in kept]
        done -= kept
    early = (
        _decide_shots(state, table, first, phase, number, silenced, flown, events, asking)
        if first
        else []
    )
    if early:
        for firer in sorted({shot[0].id for shot in early}):
            state.vehicles[firer].skill_used[Skill.ITCHY_TRIGGER_FINGER] = number
            events.append(SkillUsed(firer, Skill.ITCHY_TRIGGER_FINGER, "shoots first"))
        resolve_damage(state, table, early, [], [], number, rng, events, asking)
        table = firing.table_of(state)
        ordered = sorted(state.in_play(), key=BY_ID)
    rays = _heat_rays(state, table, acts, energy, events)
    arrivals = rockets.resolve(state, table, flown, events) if state.salvos else []
    # heat-rays and rockets only decide here: who is in play changes with damage alone
    rest = [v for v in ordered if v.id not in done] if done else ordered
    shots = _decide_shots(state, table, rest, phase, number, silenced, flown, events, asking)
    if not rays:  # no heat-ray this phase (every phase without tripods)
        tripods.place_smoke(state, acts, events)
        resolve_damage(state, table, shots, arrivals, [], number, rng, events, asking)
        return []
    for tripod, _ in rays:
        tripods.spend_fired(tripod, events)
    tripods.place_smoke(state, acts, events)
    at_vehicles = []  # the hits, split in one plain loop
    at_bombs = []
    for t, o in rays:
        if o is None:
            continue
        if o.kind == "bombs":
            at_bombs.append((t, o))
        else:
            at_vehicles.append((t, o))
    resolve_damage(state, table, shots, arrivals, at_vehicles, number, rng, events, asking)
    return at_bombs


def _decide_shots(
    state: GameState,
    table: firing.Table,
    vehicles: list[Vehicle],
    phase: int,
    number: int,
    silenced: set[tuple[str, str]],
    flown: dict[str, ManeuverCard],
    events: list[Event],
    asking: Asking | None = None,
) -> list[Shot]:
    """Each airplane's weapons choose their targets (or launch rockets: a decision of its
    seat, :func:`_guns_or_rockets`)."""
    shots: list[Shot] = []
    rules = state.rules
    salvos = _guns_or_rockets(state, table, vehicles, phase, silenced, flown, asking)
    for vehicle in vehicles:
        # lasting damage is in ``status``: without any, nothing keeps a gun silent
        grounded = bool(vehicle.status) and standard.cannot_fire(
            state, vehicle, flown.get(vehicle.id)
        )
        for weapon, letter in rules.weapons(vehicle.type):
            if weapon == "rear" and standard.rear_gun_lost(state, vehicle):
                # 002: "Keep Secret Unless Noted": the owner sees why, the others what a
                # gun holding fire shows them (events.RearGunLost).
                reach = firing.nearest_option(state, table, vehicle, weapon, protection=False)
                events.append(RearGunLost(vehicle.id, weapon, reach is not None))
                vehicle.aim.pop(weapon, None)
                continue
            if grounded or (silenced and (vehicle.id, weapon) in silenced):
                if grounded:
                    events.append(
                        HeldFire(vehicle.id, weapon, "wounded pilot flying a steep maneuver")
                    )
                vehicle.aim.pop(weapon, None)
                continue
            option = _choose(state, table, vehicle, weapon, phase, events)
            if option is None:
                vehicle.aim.pop(weapon, None)
                continue
            option = firing.protected(state, option)
            salvo = salvos.get(vehicle.id, 0) if salvos and weapon == "front" else 0
            if salvo:
                # 000: "An airplane carrying rockets may fire its machine guns or its
                # rockets, but not both in the same phase."
                vehicle.aim.pop(weapon, None)
                vehicle.rockets -= salvo
                state.salvos.append(Salvo(vehicle.id, option.target, salvo, number))
                events.append(RocketsLaunched(vehicle.id, option.target, salvo, vehicle.rockets))
                continue
            aimed = state.rules.switches.aim_bonus and vehicle.aim.get(weapon) == (
                option.target,
                number - 1,
            )
            vehicle.aim[weapon] = (option.target, number)
            shots.append((vehicle, weapon, letter, option, aimed))
            events.append(
                Fired(
                    vehicle.id,
                    weapon,
                    option.target,
                    "short" if option.short else "long",
                    option.sight.distance,
                    vehicle.pose.point,
                    option.sight.point or (0.0, 0.0),
                    2 if option.short else 1,
                    aimed,
                )
            )
    return shots


def _would_fire(
    state: GameState,
    table: firing.Table,
    vehicle: Vehicle,
    phase: int,
    silenced: set[tuple[str, str]],
    flown: dict[str, ManeuverCard],
    only: str | None = None,
) -> firing.Option | None:
    """The first shot ``vehicle``'s weapons (or its weapon ``only``) would take this
    firing step (None: it fires at nothing), as :func:`_decide_shots` would choose it,
    without telling anything: whether Itchy Trigger Finger would apply, whether the
    front guns have a target for rockets (the seat is asked only then)."""
    if vehicle.status and standard.cannot_fire(state, vehicle, flown.get(vehicle.id)):
        return None
    for weapon, _ in state.rules.weapons(vehicle.type):
        if only is not None and weapon != only:
            continue
        if weapon == "rear" and standard.rear_gun_lost(state, vehicle):
            continue
        if (vehicle.id, weapon) in silenced:
            continue
        option = _choose(state, table, vehicle, weapon, phase, [])
        if option is not None:
            return option
    return None


def _guns_or_rockets(
    state: GameState,
    table: firing.Table,
    vehicles: list[Vehicle],
    phase: int,
    silenced: set[tuple[str, str]],
    flown: dict[str, ManeuverCard],
    asking: Asking | None,
) -> dict[str, int]:
    """The Rocket counters each of ``vehicles`` launches at its front guns' target
    instead of firing them (0: the guns), asked of their seats together now that
    everything has moved (000: "After all vehicles have moved, all airplanes can fire");
    unanswered, the plan's."""
    asked = []
    for v in vehicles:
        if v.rockets and rockets.asked(state, v):
            option = _would_fire(state, table, v, phase, silenced, flown, "front")
            if option is not None:
                target, short, distance = option.target, option.short, option.sight.distance
                asked.append(rockets.decision(state, v, phase, target, short, distance))
    if not asked:
        return {}
    answers = {d.id: d.default for d in asked} if asking is None else asking.ask(asked)
    return {d.vehicle: rockets.count_of(answers[d.id][0]) for d in asked}


def _choose(
    state: GameState,
    table: firing.Table,
    vehicle: Vehicle,
    weapon: str,
    phase: int,
    events: list[Event],
) -> firing.Option | None:
    """The shot the plan's choice takes: the nearest (``auto``), none (``none``, said so
    when something was in reach) or the named target's, when it is among the options."""
    assert vehicle.plan is not None
    choice = vehicle.plan.choice(weapon, phase)
    if choice == HOLD:
        if firing.nearest_option(state, table, vehicle, weapon, protection=False) is not None:
            events.append(HeldFire(vehicle.id, weapon, HOLDS_FIRE))
        return None
    if choice == AUTO:
        if state.rules.switches.auto_target is _NO_AUTO_TARGET:
            return None
        return firing.nearest_option(state, table, vehicle, weapon, protection=False)
    for option in firing.options(state, table, vehicle, weapon, protection=False):
        if option.target == choice:
            return option
    reason = firing.why_not(state, table, vehicle, weapon, state.vehicles[choice])
    events.append(HeldFire(vehicle.id, weapon, f"chosen target {choice} {reason}"))
    return None


def _heat_rays(
    state: GameState,
    table: firing.Table,
    acts: tripods.PhaseActions,
    energy: dict[str, int],
    events: list[Event],
) -> list[tuple[Vehicle, RayOption | None]]:
    """Tripods that committed Energy to a heat-ray fire it (000: "Firing is mandatory.
    Discard the Energy token used to fire after checking for targets."). A chosen target
    the ruler cannot reach is a miss, said so (000: "If a target is beyond a tripod's
    range it cannot be hit"). Returns every tripod that fired, with what it hit."""
    out: list[tuple[Vehicle, RayOption | None]] = []
    if not acts.heat_ray:
        return out
    scene = RayScene(state, table.overlap, energy, table.bases)
    for vid, action in sorted(acts.heat_ray.items()):
        tripod = state.vehicles[vid]
        if not tripod.in_play or tripod.tripod is None or tripod.tripod.toppled:
            continue
        assert action.projector is not None
        opts = scene.options(tripod, Side.parse(action.projector))
        pick = None
        reason = None
        if action.target == AUTO:
            pick = opts[0] if opts else None
            if pick is None:
                reason = f"nothing in reach of the {action.projector} projector"
        else:
            pick = next((o for o in opts if o.target == action.target), None)
            if pick is None:
                reason = f"chosen target {action.target} {_ray_miss(state, action.target)}"
        if pick is None:
            events.append(
                HeatRay(vid, action.projector, None, None, None, None, None, None, reason)
            )
        else:
            events.append(
                HeatRay(
                    vid,
                    action.projector,
                    pick.target,
                    "short" if pick.short else "long",
                    pick.distance,
                    pick.origin,
                    pick.point,
                    pick.tilt,
                    None,
                    pick.protected if pick.kind == "tripod" else None,
                )
            )
        out.append((tripod, pick))
    return out


def _ray_miss(state: GameState, target: str) -> str:
    """Why a heat-ray's chosen target is not hit, in words."""
    vehicle = state.vehicles.get(target)
    if vehicle is not None and not vehicle.in_play:
        return "is out of the game"
    if vehicle is None and not any(c.id == target for c in state.bomb_cards):
        return "is not on the table (no bomb card falls there)"
    return "is beyond the heat-ray ruler or out of its line of sight: a miss"
