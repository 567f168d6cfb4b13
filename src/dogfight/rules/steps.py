"""The action phase as a list of named steps (000, "THE GAME TURN").

An action phase is :data:`MOVEMENT` then :data:`FIRING`, each step a function of the
:class:`~dogfight.rules.phase.Phase` being resolved. A new system of the rules adds a step
here (or a decision a step asks), rather than a branch inside the resolver; the order of
the list is the order the rule texts give. A step of a system most tables lack (tripods,
bombs, tailing...) is one of :data:`OPTIONAL`, and :func:`of_phase` leaves those out of a
phase on a table without any of them.
"""

from __future__ import annotations

from collections.abc import Callable

from dogfight.geometry.maneuver import apply_card
from dogfight.rules import (
    action_tokens,
    bombs,
    missions,
    scenario,
    standard,
    tailing,
    tripod_reveal,
    tripods,
    ww2,
)
from dogfight.rules.blows import FIRE
from dogfight.rules.clocks import PHASES
from dogfight.rules.damage import apply_cards, eliminate
from dogfight.rules.events import (
    JamCounterDiscarded,
    LeftArea,
    Moved,
    MovedAtSpeed,
    SpeedRevealed,
)
from dogfight.rules.movement import disperse_clouds, outside, reveal
from dogfight.rules.phase import Phase
from dogfight.rules.plans import flown
from dogfight.rules.shooting import firing_step
from dogfight.rules.state import GameState
from dogfight.rules.turns import end_turn
from dogfight.rules.victory import check_victory

Step = Callable[[Phase], None]


def tail(ph: Phase) -> None:
    """002: tailing, checked at the start of the turn and before the second maneuver; the
    tailing seat may reorder its cards (a decision)."""
    if ph.state.rules.switches.tailing:  # tested here too: most rulesets have no tailing
        tailing.tail(ph)


def burn(ph: Phase) -> None:
    """Standard Rules: an airplane on fire draws its fire cards as its turn begins (000's
    turn, or a WW2 airplane's Earthling turn), before anything moves."""
    state, rng, events = ph.state, ph.rng, ph.events
    fires = standard.burn(state, ph.phase, rng, events)
    if not fires:
        return  # nothing burns (most phases): nobody is eliminated here
    for burning, deck, fire_cards in fires:
        boom = apply_cards(state, burning, deck, fire_cards, False, FIRE, events)
        if boom:
            eliminate(state, burning, "exploded", rng, events)
        elif burning.damage >= burning.resistance:
            eliminate(state, burning, "burned", rng, events)
    ph.movers = [v for v in ph.movers if v.eliminated is None]  # in play


def choose_actions(ph: Phase) -> None:
    """000: "At the start of each Movement step, all Tripod players may choose an Action
    token" (001: an action card, face down): a decision of each tripod's seat, asked now
    that the previous phase has resolved (unless the ``actions_at_planning`` house rule
    wrote them in the plan)."""
    action_tokens.choose(ph)


def drop_bombs(ph: Phase) -> None:
    """001: "After action cards are chosen and before revealing any maneuvers, each
    bomber's player can decide to drop one or more loads of bombs.": a decision of each
    bomber's seat (the plan's ``drop`` only its default)."""
    ph.drops = bombs.drop(ph.state, ph.phase, ph.events, ph.asking)


def reveal_action_cards(ph: Phase) -> None:
    """001: secret action cards (tripods of two factions, or bombers in play) are shown
    one tripod at a time in initiative order, each placing its token for a direction
    (a decision of its seat); they act together afterwards."""
    tripod_reveal.reveal(ph)


def declare_actions(ph: Phase) -> None:
    """Tripods' reminder and recovery tokens, then their action tokens face up (000: "At
    the start of each Movement step, all Tripod players may choose an Action token")."""
    ph.acts = tripods.start_of_phase(ph.state, ph.phase, ph.chosen, ph.events)


def reveal_cards(ph: Phase) -> None:
    """Every vehicle reveals this phase's card; the illegal-maneuver rules apply here."""
    for vehicle in ph.movers:
        if vehicle.tripod is not None:
            tripod_card = tripods.reveal(ph.state, vehicle, ph.phase, ph.events)
            if tripod_card is not None:
                ph.walked[vehicle.id] = tripod_card
            continue
        card = reveal(ph.state, vehicle, ph.phase, ph.rng, ph.events)
        if card is not None:
            ph.flown[vehicle.id] = card
    starts = {}  # a plain loop: a comprehension costs a function object and a frame
    for v in ph.movers:
        starts[v.id] = v.pose
    ph.starts = starts


def speed_markers(ph: Phase) -> None:
    """WW2 airplanes reveal their speed marker with the card; the card is flown at that
    speed (this project's approximation, ``rules/ww2.py``)."""
    card_speed = ph.state.rules.switches.card_speed
    for vehicle in ph.movers:
        card = ph.flown.get(vehicle.id)
        plan = vehicle.plan
        if card is None or plan is None or len(plan.speeds) < ph.phase:
            continue
        speed = plan.speeds[ph.phase - 1]
        ph.events.append(SpeedRevealed(vehicle.id, ph.phase, speed))
        ph.flown[vehicle.id] = ww2.scale(card, speed, card_speed)
        ph.speeds[vehicle.id] = speed


def walk(ph: Phase) -> None:
    """Tripods walk their cards, then overlapping tripods are resolved and facings change."""
    if not ph.walked and not ph.acts.facing:
        return  # no tripod walks or turns: nothing to put back
    state = ph.state
    for vehicle in ph.movers:
        if (
            vehicle.id in ph.walked
            and vehicle.in_play
            and tripods.move(state, vehicle, ph.walked[vehicle.id], ph.events)
        ):
            ph.backward.add(vehicle.id)
    moved = set()  # a plain loop: a comprehension costs a function object and a frame
    for vid, card in ph.walked.items():
        if card.moves:
            moved.add(vid)
    tripods.resolve_overlaps(state, ph.starts, moved, ph.rng, ph.events)
    tripods.change_facing(state, ph.acts.facing, ph.events)


def fly(ph: Phase) -> None:
    """Airplanes fly their cards; a jammed gun discards one jam counter per maneuver and
    stays silent this phase."""
    base_length = ph.state.rules.base_length
    for vehicle in ph.movers:
        card = ph.flown.get(vehicle.id)
        if card is None or vehicle.eliminated is not None:  # not in play
            continue
        start = vehicle.pose
        vehicle.pose = apply_card(start, card, base_length)
        vehicle.previous = flown(card)
        speed = ph.speeds.get(vehicle.id) if ph.speeds else None
        if speed is None:
            ph.events.append(Moved(vehicle.id, card.id, start, vehicle.pose))
        else:  # the speed is said with the move: a drawing lays the card as flown
            ph.events.append(MovedAtSpeed(vehicle.id, card.id, start, vehicle.pose, False, speed))
        if not vehicle.jams:
            continue
        for weapon in sorted(vehicle.jams):
            if vehicle.jams[weapon] > 0:
                vehicle.jams[weapon] -= 1
                ph.silenced.add((vehicle.id, weapon))
                ph.events.append(JamCounterDiscarded(vehicle.id, weapon, vehicle.jams[weapon]))
        vehicle.jams = {w: n for w, n in vehicle.jams.items() if n > 0}


def reach_objectives(ph: Phase) -> None:
    """Objective templates a tripod's base overlaps are reached (001's WW2 scenarios)."""
    if ph.state.objectives:  # tested here too: most tables have no objective
        scenario.mark_reached(ph.state, ph.events)


def clouds(ph: Phase) -> None:
    """Black smoke clouds touched by a card or a base are dispersed (Standard Rules)."""
    if not ph.state.clouds:
        return  # no cloud on the table (most phases): tested here as disperse_clouds does
    disperse_clouds(ph.state, ph.starts, ph.flown, ph.walked, ph.backward, ph.rng, ph.events)


def leave_table(ph: Phase) -> None:
    """000: a vehicle whose centre left the playing area is out of the game."""
    for vehicle in ph.movers:
        if vehicle.eliminated is None and outside(ph.state, vehicle):
            ph.events.append(LeftArea(vehicle.id, vehicle.pose))
            vehicle.exit_edge = scenario.exit_edge(ph.state, vehicle.pose.point)
            eliminate(ph.state, vehicle, "left_area", ph.rng, ph.events)


def fly_missions(ph: Phase) -> None:
    """002's bombing and photographic missions: an airplane home across its own edge after
    its side's success, then a carrier's centre on a target card succeeds (rulings M3)."""
    if not ph.state.targets:
        return  # no mission on the table (most games): no need to look through the events
    left = [e.vehicle for e in ph.events if isinstance(e, LeftArea)]
    missions.fly_missions(ph.state, ph.number, left, ph.events)


def place_bombs(ph: Phase) -> None:
    """001: "Then, all players execute their maneuver cards. After that, place the bomb
    cards into play"."""
    if ph.drops:  # tested here too: nobody dropped bombs in most phases
        bombs.place(ph.state, ph.drops, ph.flown, ph.events)


def fire(ph: Phase) -> None:
    """The firing step and the damage of all its shots, rockets and heat-rays."""
    ph.bomb_rays = firing_step(
        ph.state,
        ph.phase,
        ph.number,
        ph.silenced,
        ph.acts,
        ph.flown,
        ph.rng,
        ph.events,
        ph.asking,
    )


def bombs_fall(ph: Phase) -> None:
    """Heat-rays at falling bombs, then the bombs that were not destroyed hit the ground
    (001)."""
    if not ph.state.bomb_cards:
        return
    bombs.shoot(ph.state, ph.bomb_rays, ph.rng, ph.events)
    bombs.land(ph.state, ph.asking, ph.rng, ph.events)


def recharge(ph: Phase) -> None:
    """Tripods that chose to recharge gain their Energy."""
    if ph.acts.recharge:  # tested here too: no tripod recharges in most phases
        tripods.recharge(ph.state, ph.acts, ph.events)


def victory(ph: Phase) -> None:
    """The game ends when a side (or the scenario's conditions) says so."""
    check_victory(ph.state, ph.events)


def turn_end(ph: Phase) -> None:
    """After the third phase: reminders, the cards go back, a new planning phase. After
    the others, the end of an Earthling turn for the WW2 airplanes (001)."""
    if ph.state.over:
        return
    if ph.phase == PHASES:
        end_turn(ph.state, ph.events)
    else:
        standard.end_of_turn(ph.state, ph.phase)


MOVEMENT: tuple[Step, ...] = (
    tail,
    burn,
    choose_actions,
    drop_bombs,
    reveal_action_cards,
    declare_actions,
    reveal_cards,
    speed_markers,
    walk,
    fly,
    reach_objectives,
    clouds,
    leave_table,
    fly_missions,
    place_bombs,
)
"""From the phase's start to every vehicle in its new place: what a target preview runs."""

FIRING: tuple[Step, ...] = (fire, bombs_fall, recharge, victory, turn_end)
"""From the firing step to the end of the phase."""

OPTIONAL: frozenset[Step] = frozenset(
    {
        tail,
        choose_actions,
        drop_bombs,
        reveal_action_cards,
        declare_actions,
        speed_markers,
        walk,
        reach_objectives,
        clouds,
        fly_missions,
        place_bombs,
        bombs_fall,
        recharge,
    }
)
"""The steps of systems most tables lack: each returns at once, changing nothing, on a
:func:`plain` table (its own first test says so)."""

PLAIN_MOVEMENT: tuple[Step, ...] = tuple(s for s in MOVEMENT if s not in OPTIONAL)
PLAIN_FIRING: tuple[Step, ...] = tuple(s for s in FIRING if s not in OPTIONAL)
""":data:`MOVEMENT` and :data:`FIRING` without the :data:`OPTIONAL` steps, in their order."""


def plain(state: GameState) -> bool:
    """Whether no :data:`OPTIONAL` step can do anything this phase: no tailing, no tripod
    (its action cards, actions, walk and recharge), no bomb load or bomb card, no WW2 speed
    marker, no objective, cloud or mission target. Each of these is on the table when the
    phase begins or never this phase (reinforcements come at the end of a turn; clouds,
    from tripods only), so one look at the phase's start answers for all its steps."""
    if (
        state.rules.switches.tailing
        or state.bomb_cards
        or state.objectives
        or state.clouds
        or state.targets
    ):
        return False
    for v in state.vehicles.values():  # every vehicle: a tripod out of play still counts
        if v.tripod is not None or v.bombs > 0:
            return False
        plan = v.plan
        if plan is not None and plan.speeds:
            return False
    return True


def of_phase(state: GameState) -> tuple[tuple[Step, ...], tuple[Step, ...]]:
    """The movement and firing steps to run on ``state`` (the phase's copy): all of
    them, or on a :func:`plain` table only those that can do something there (a dozen
    steps that each return at once cost as much as an airplane's move, every phase)."""
    if plain(state):
        return PLAIN_MOVEMENT, PLAIN_FIRING
    return MOVEMENT, FIRING
