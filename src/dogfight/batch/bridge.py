"""To and from the referee: a batch built from :class:`~dogfight.rules.state.GameState`
tables (as :func:`dogfight.situation.format.build` makes them, stacked decks included), and one
table of a batch as a ``GameState`` the referee can resolve."""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

import numpy as np

from dogfight.batch.scenario import EDGES, not_played, victories
from dogfight.batch.spec import SYMBOLS, Spec, build_spec, uncovered
from dogfight.batch.state import NEVER, REASONS, SKILLS, WEAPONS, BatchState, empty_state
from dogfight.catalog.models import Skill
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.rules.clocks import clock_for
from dogfight.rules.plans import Flown, Plan
from dogfight.rules.state import GameState, Objective, TripodState, Vehicle
from dogfight.rules.tripods import phases_before_cards
from dogfight.situation.format import StatusKey

STATUS: tuple[str, ...] = get_args(StatusKey)
"""The lasting special damage (``Vehicle.status``) the batch keeps, every key a situation
may give: 002's and 003's, and 000's (a wounded pilot; a tripod's gyroscope, reverse
mechanism, black smoke generator)."""


def not_covered(state: GameState) -> list[str]:
    """What of this table the batch does not play (empty: all of it)."""
    missing = uncovered(state.rules)
    if state.scenario is not None and not_played(state.scenario):
        missing.append(
            f"scenario {state.scenario.id!r} (" + "; ".join(not_played(state.scenario)) + ")"
        )
    tripods = sorted(v.id for v in state.vehicles.values() if v.tripod is not None)
    if len(tripods) > 1:
        missing.append(
            "more than one tripod on a table (" + ", ".join(tripods) + "): tripods' overlaps "
            "and Tripods vs. Tripods (001)"
        )
    if any(v.bombs or v.bomber for v in state.vehicles.values()):
        missing.append("bombers (001)")
    if any(v.plan is not None and v.plan.automated for v in state.vehicles.values()):
        missing.append("the Automated Tripod (001)")
    era = state.rules.switches.era
    if tripods and era != "ww1":
        kinds = sorted({v.type for v in state.vehicles.values() if v.tripod is not None})
        missing.append(
            "tripods (" + ", ".join(kinds) + f") under {era}: the batch plays 000's basic "
            "tripod rules on WW1 tables"
        )
    others = sorted(
        {v.type for v in state.vehicles.values() if v.kind == "airplane"}
        - {t for t, a in state.rules.catalog.airplanes.items() if a.era == era}
    )
    if others:
        missing.append(f"airplanes of another era than {era} (" + ", ".join(others) + ")")
    if state.reserves:
        missing.append("reinforcements")
    if state.targets:
        missing.append("missions' target cards (002)")
    skills = sorted({k for v in state.vehicles.values() for k in v.skills} - set(SKILLS))
    if skills:
        missing.append("ace skills (" + ", ".join(skills) + ")")
    if any(v.rockets for v in state.vehicles.values()):
        missing.append("rockets")
    statuses = {k for v in state.vehicles.values() for k in v.status} - set(STATUS)
    if statuses or state.clouds or state.salvos:
        missing.append(
            "Standard Rules damage, black smoke or rockets in play"
            + (f" ({', '.join(sorted(statuses))})" if statuses else "")
        )
    if state.phase != 0:
        missing.append("a table in the middle of a turn")
    return missing


def from_states(states: Sequence[GameState], spec: Spec | None = None) -> BatchState:
    """A batch of these tables (same rules and table size), at the start of a turn."""
    if not states:
        raise DataError("batch", "tables", 0, "at least one table")
    first = states[0].rules
    for i, s in enumerate(states):
        missing = not_covered(s)
        if missing:
            raise DataError("--engine", "engine", "batch", "not covered: " + "; ".join(missing))
        r = s.rules
        if (r.ruleset.name, r.switches, r.table_width, r.table_height) != (
            first.ruleset.name,
            first.switches,
            first.table_width,
            first.table_height,
        ):
            raise DataError("batch", f"tables[{i}]", r.ruleset.name, "one ruleset and table size")
    spec = spec or build_spec(first)
    sides = tuple(sorted({v.side for s in states for v in s.vehicles.values()}))
    slots = max(len(s.vehicles) for s in states)
    objectives = tuple(sorted({o for s in states for o in s.objectives}))
    batch = empty_state(spec, len(states), slots, sides, objectives)
    first_state = states[0]
    chosen = first_state.scenario
    if chosen is not None:
        for i, s in enumerate(states):
            if (
                s.scenario is None
                or s.scenario.id != chosen.id
                or s.vehicles.keys() != (first_state.vehicles.keys())
            ):
                raise DataError(
                    "batch", f"tables[{i}]", chosen.id, "one scenario with the same vehicles"
                )
        batch.victories = victories(chosen, tuple(sorted(first_state.vehicles)), sides)
    elif any(s.scenario is not None for s in states):
        raise DataError("batch", "tables", "scenario", "one scenario on every table or none")
    for b, s in enumerate(states):
        ids = sorted(s.vehicles)
        batch.names[b] = tuple(ids) + ("",) * (slots - len(ids))
        index = {vid: n for n, vid in enumerate(ids)}
        for n, vid in enumerate(ids):
            v = s.vehicles[vid]
            if v.tripod is not None:
                _tripod_in(batch, b, n, v)
            t = 0 if v.tripod is not None else spec.type_index(v.type)
            batch.present[b, n] = True
            batch.alive[b, n] = v.in_play
            batch.reason[b, n] = REASONS.index(v.eliminated) if v.eliminated else 0
            batch.side[b, n] = sides.index(v.side)
            batch.type[b, n] = t
            batch.x[b, n], batch.y[b, n], batch.heading[b, n] = v.pose.x, v.pose.y, v.pose.heading
            batch.damage[b, n] = v.damage
            batch.observer[b, n] = bool(v.status.get("observer", 0))
            batch.engine[b, n] = v.status.get("engine", 0)
            batch.smoke[b, n] = v.status.get("smoke", 0)
            batch.fire[b, n] = v.status.get("fire", 0)
            batch.rudder[b, n] = (v.status.get("rudder_left", 0), v.status.get("rudder_right", 0))
            batch.wounded[b, n] = v.status.get("wounded", 0)
            batch.gyroscope[b, n] = v.status.get("gyroscope", 0)
            batch.exit_edge[b, n] = EDGES.index(v.exit_edge) if v.exit_edge else -1
            batch.skills[b, n] = sum(1 << k for k, skill in enumerate(SKILLS) if skill in v.skills)
            for k, skill in enumerate(SKILLS):
                batch.skill_used[b, n, k] = v.skill_used.get(skill, NEVER)
            batch.reverse_out[b, n] = bool(v.status.get("reverse_destroyed", 0))
            batch.smoke_out[b, n] = bool(v.status.get("smoke_generator", 0))
            batch.resistance[b, n] = v.resistance
            if v.previous is not None:
                batch.prev_symbol[b, n] = SYMBOLS.index(v.previous.symbol)
                batch.prev_steep[b, n] = v.previous.steep
            for w, weapon in enumerate(WEAPONS):
                batch.jams[b, n, w] = v.jams.get(weapon, 0)
                aim = v.aim.get(weapon)
                if aim is not None and aim[1] == s.phases_played and aim[0] in index:
                    batch.aim[b, n, w] = index[aim[0]]
            if v.plan is not None and v.tripod is None:
                if spec.one_card:  # this Earthling turn's card and speed, for the phase
                    k = s.phase
                    speed = v.plan.speeds[k]
                    batch.plan[b, n] = spec.card_index(t, v.plan.cards[k], speed)
                else:
                    for k, card in enumerate(v.plan.cards):
                        batch.plan[b, n, k] = spec.card_index(t, card)
        for d, letter in enumerate(spec.damage_ids):
            free: dict[str, list[int]] = {}
            for slot, card in enumerate(spec.damage_cards[d]):
                free.setdefault(card, []).append(slot)
            pile = s.piles.get(letter, [])
            used: list[int] = []
            for card in pile:
                used.append(free[card].pop(0))
            rest = [slot for slot in range(spec.slots) if slot not in set(used)]
            batch.order[b, d] = used + rest
            batch.top[b, d] = len(used)
            for vid in ids:
                for count, (deck, card) in enumerate(s.vehicles[vid].held):
                    if deck == letter and free.get(card):
                        slot = free[card].pop(0)
                        batch.holder[b, d, slot] = index[vid]
                        batch.drawn_at[b, d, slot] = count - len(s.vehicles[vid].held)
        for tailer, tailed in s.tailing.items():
            for other in tailed:
                batch.tailing[b, index[tailer], index[other]] = True
        for k, oid in enumerate(objectives):
            found = s.objectives.get(oid)
            if found is not None:
                batch.obj_x[b, k], batch.obj_y[b, k] = found.x, found.y
                batch.obj_charges[b, k] = found.charges
                batch.obj_destroyed[b, k] = found.destroyed
        batch.turn[b] = s.turn
        batch.phase[b] = s.phase
        batch.phases_played[b] = s.phases_played
        batch.over[b] = s.over
        batch.winner[b] = sides.index(s.winner) if s.winner is not None else -1
    batch.referee = states[0]
    return batch


def to_state(batch: BatchState, b: int, template: GameState) -> GameState:
    """Table ``b`` of the batch as a referee ``GameState`` (rules and vehicle models from
    ``template``, a state of the same table)."""
    spec = batch.spec
    names = batch.names[b]
    vehicles: dict[str, Vehicle] = {}
    for n, vid in enumerate(names):
        if not batch.present[b, n]:
            continue
        t = int(batch.type[b, n])
        cards: list[tuple[int, str, str]] = []
        for d, letter in enumerate(spec.damage_ids):
            for slot in range(int(spec.damage_size[d])):
                if batch.holder[b, d, slot] == n:
                    cards.append(
                        (int(batch.drawn_at[b, d, slot]), letter, spec.damage_cards[d][slot])
                    )
        held = [(letter, card) for _, letter, card in sorted(cards)]
        previous = None
        if batch.prev_symbol[b, n] >= 0:
            previous = Flown(SYMBOLS[int(batch.prev_symbol[b, n])], bool(batch.prev_steep[b, n]))
        jams = {WEAPONS[w]: int(batch.jams[b, n, w]) for w in (0, 1) if batch.jams[b, n, w] > 0}
        aim = {
            WEAPONS[w]: (names[int(batch.aim[b, n, w])], int(batch.phases_played[b]))
            for w in (0, 1)
            if batch.aim[b, n, w] >= 0
        }
        plan = None
        if batch.plan[b, n, 0] >= 0 and spec.one_card:
            # a WW2 airplane's plan so far: this Earthling turn's card at its phase
            k = int(batch.phase[b]) + 1
            card = int(batch.plan[b, n, 0])
            plan = Plan(cards=(spec.card_ids[card],) * k, speeds=(int(spec.card_speed[card]),) * k)
        elif batch.plan[b, n, 0] >= 0:
            plan = Plan(cards=tuple(spec.card_ids[int(c)] for c in batch.plan[b, n]))
        reason = int(batch.reason[b, n])
        status = status_of(batch, b, n)
        vehicles[vid] = Vehicle(
            id=vid,
            type=spec.type_ids[t],
            side=batch.side_names[int(batch.side[b, n])],
            pose=Pose(float(batch.x[b, n]), float(batch.y[b, n]), float(batch.heading[b, n])),
            resistance=int(batch.resistance[b, n]),
            damage=int(batch.damage[b, n]),
            held=held,
            eliminated=REASONS[reason] if reason else None,
            previous=previous,
            jams=jams,
            aim=aim,
            plan=plan,
            status=status,
            # a WW2 airplane's turn is an Earthling turn, a phase (001)
            clock=clock_for(template.rules.era(spec.type_ids[t])),
            skills=tuple(
                Skill(skill) for k, skill in enumerate(SKILLS) if batch.skills[b, n] >> k & 1
            ),
            exit_edge=EDGES[int(batch.exit_edge[b, n])] if batch.exit_edge[b, n] >= 0 else None,
            skill_used={
                Skill(skill): int(batch.skill_used[b, n, k])
                for k, skill in enumerate(SKILLS)
                if batch.skill_used[b, n, k] != NEVER
            },
        )
        if batch.tripod[b, n]:
            as_tripod(batch, b, n, vehicles[vid])
    piles = {
        letter: [spec.damage_cards[d][int(s)] for s in batch.order[b, d, : int(batch.top[b, d])]]
        for d, letter in enumerate(spec.damage_ids)
    }
    winner = int(batch.winner[b])
    tailing = {
        names[i]: tuple(names[j] for j in np.flatnonzero(batch.tailing[b, i]))
        for i in range(len(names))
        if batch.tailing[b, i].any()
    }
    objectives = {
        oid: Objective(
            oid,
            float(batch.obj_x[b, k]),
            float(batch.obj_y[b, k]),
            int(batch.obj_charges[b, k]),
            bool(batch.obj_destroyed[b, k]),
        )
        for k, oid in enumerate(batch.objective_ids)
        if oid in template.objectives
    }
    return GameState(
        rules=template.rules,
        vehicles=vehicles,
        piles=piles,
        objectives=objectives,
        turn=int(batch.turn[b]),
        phase=int(batch.phase[b]),
        phases_played=int(batch.phases_played[b]),
        winner=batch.side_names[winner] if winner >= 0 else None,
        over=bool(batch.over[b]),
        tailing=tailing,
        scenario=template.scenario,
    )


def status_of(batch: BatchState, b: int, n: int) -> dict[str, int]:
    """Airplane ``n`` of table ``b``'s lasting special damage as the referee's
    ``Vehicle.status`` holds it (only the counters in effect)."""
    values = (
        int(batch.engine[b, n]),
        int(batch.observer[b, n]),
        int(batch.smoke[b, n]),
        int(batch.fire[b, n]),
        int(batch.rudder[b, n, 0]),
        int(batch.rudder[b, n, 1]),
        int(batch.wounded[b, n]),
        int(batch.gyroscope[b, n]),
        int(batch.reverse_out[b, n]),
        int(batch.smoke_out[b, n]),
    )
    return {k: value for k, value in zip(STATUS, values, strict=True) if value}


def _tripod_in(batch: BatchState, b: int, n: int, v: Vehicle) -> None:
    """A referee tripod's model, console and plan into slot ``n`` of table ``b``."""
    tri = batch.spec.tripods
    assert v.tripod is not None
    t = tri.type_index(v.type)
    batch.tripod[b, n] = True
    batch.ttype[b, n] = t
    console = v.tripod
    batch.energy[b, n] = console.energy
    batch.rating[b, n] = console.rating
    batch.toppled[b, n] = console.toppled
    batch.cooling[b, n] = console.cooling
    batch.reverse[b, n] = console.reverse_pending
    batch.moving[b, n] = console.movement_cards
    batch.steadied[b, n] = console.steadied
    if v.plan is not None:
        offset = phases_before_cards(v.plan)
        for k, card in enumerate(v.plan.cards):
            batch.tplan[b, n, offset + k] = tri.card_index(t, card)


def as_tripod(batch: BatchState, b: int, n: int, vehicle: Vehicle, planned: bool = True) -> None:
    """Make ``vehicle`` (slot ``n`` of table ``b``, built as an airplane) the tripod the
    slot holds: its model, console and (``planned``) plan of the turn."""
    tri = batch.spec.tripods
    vehicle.type = tri.type_ids[int(batch.ttype[b, n])]
    vehicle.kind = "tripod"
    if planned:
        cards = tuple(tri.card_ids[int(c)] for c in batch.tplan[b, n] if c >= 0)
        vehicle.plan = Plan(cards=cards)
    vehicle.tripod = TripodState(
        energy=int(batch.energy[b, n]),
        rating=int(batch.rating[b, n]),
        toppled=int(batch.toppled[b, n]),
        cooling=int(batch.cooling[b, n]),
        reverse_pending=bool(batch.reverse[b, n]),
        movement_cards=int(batch.moving[b, n]),
        steadied=bool(batch.steadied[b, n]),
    )
