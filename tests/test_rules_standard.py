"""The Standard Rules of Tripods & Triplanes (000, "STANDARD RULES"): special damage and its
table, Le Prieur rockets and the Martians' Black Smoke. The switch ``standard_rules`` turns
them on ("The rules in this chapter are a set and are meant to be used all together").

Tables are laid out by hand and driven phase by phase: before each phase every airplane is
put where its next card *ends* at the spot the test wants (:meth:`Game.phase`), so shots
are exactly at the range asked. Airplane "p" (a SPAD VII: deck A, fires B) is the Earth
pilot; "e" its enemy. The tripod "t" is a Mk I Locust at (X0, Y0) facing +y, hit from
behind (its rear side has no electrified armour) unless a test says otherwise. Damage
decks are stacked so every outcome is exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from conftest import HOLD, Json, of, phases_of, plain, plan, plane, situation, straights
from conftest import run as run_situation
from test_rules_tripods import (
    APOTHEM,
    HALF_L,
    MK1,
    REAR_Y,
    REVERSE,
    RUN,
    STANDS,
    STEPS,
    STILL_PLAN,
    X0,
    Y0,
    facing,
    land,
    next_phase,
    planned,
    ray,
    tplan,
    tripod,
)

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import Direction, Special, Symbol
from dogfight.errors import DataError, IllegalPlanError
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Pose
from dogfight.rules.engine import start_turn
from dogfight.rules.events import (
    ActionWasted,
    CloudDispersed,
    DamageDrawn,
    Eliminated,
    EnergyChanged,
    Event,
    FacingChanged,
    Fired,
    FlameCounter,
    HeatRay,
    HeldFire,
    Jammed,
    Moved,
    PhaseStarted,
    ProtectedHit,
    Revealed,
    RocketsHit,
    RocketsLaunched,
    RocketsMissed,
    SmokeCloud,
    SpecialDamage,
    Toppled,
)
from dogfight.rules.observation import observe, side_seat, visible_events
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.tripods import planned_cards, smoke_stands
from dogfight.situation.format import build, parse_situation

CATALOG = load_catalog()
CONST = CATALOG.constants
STANDARD = {"standard_rules": True}

PLANE = "spad-vii"  # maneuver deck A, fires B, resistance 13, no rockets
GUN = CATALOG.airplane(PLANE).firepower[0]
assert GUN == "B"
RESISTANCE = CATALOG.airplane(PLANE).damage
ROCKETEER = "nieuport-17"  # carries rockets, fires B
assert CATALOG.airplane(ROCKETEER).rockets
DECK = CATALOG.maneuver_decks[CATALOG.airplane(PLANE).maneuver_deck]
SMOKE_SPEC = CONST.tripods.smoke

Where = tuple[float, float, float]

# Where the duellists end their maneuvers: face to face at long range (one card), at
# short range (two cards), or far apart (nobody can fire).
P_SPOT: Where = (30.0, 45.0, 0.0)
E_LONG: Where = (50.0, 45.0, 180.0)
E_SHORT: Where = (40.0, 45.0, 180.0)
P_AWAY: Where = (15.0, 15.0, 0.0)
E_AWAY: Where = (75.0, 75.0, 180.0)
# Behind the tripod, facing its unprotected rear: at long range, or at short range.
BEHIND_LONG: Where = (X0, REAR_Y - 20.0, 90.0)
BEHIND_SHORT: Where = (X0, REAR_Y - 10.0, 90.0)
P_OFF: Where = (80.0, 80.0, 0.0)  # far from the tripod

FIRE_FIRST = ("auto", "none", "none")
ALWAYS = ("auto", "auto", "auto")


# --- maneuver cards of deck A, looked up by symbol and arrow -----------------------------------


def cards_of(symbol: Symbol | None = None, arrow: Direction | None = None) -> list[str]:
    out = [
        c.id
        for c in DECK.cards
        if (symbol is None or c.symbol is symbol) and (arrow is None or c.arrow is arrow)
    ]
    assert out, (symbol, arrow)
    return out


STRAIGHTS = straights(PLANE)
STALL = cards_of(Symbol.STALL)[0]
IMMELMANN = cards_of(Symbol.IMMELMANN)[0]
STEEP = cards_of(Symbol.STEEP)[0]
LEFT = cards_of(Symbol.LEFT)
RIGHT = cards_of(Symbol.RIGHT)
TURNS = (LEFT[0], RIGHT[0], LEFT[1])  # a turn without any straight
CRUISE = (STRAIGHTS[0], STRAIGHTS[1], STRAIGHTS[2])


# --- driving a game phase by phase ------------------------------------------------------------


class Game:
    """A situation planned for its first turn, then resolved one phase at a time with
    the airplanes put where the test wants them to end each maneuver."""

    def __init__(self, sit: Json, spots: Mapping[str, Where] | None = None) -> None:
        self.state: GameState = planned(sit)
        self.spots: dict[str, Where] = dict(spots or {})
        self.events: list[Event] = []

    def phase(self, actions: Mapping[str, Action | None] | None = None, **at: Where) -> list[Event]:
        """Resolve the next phase; airplanes end it at ``at`` (else at their spots)."""
        for vid, (x, y, heading) in {**self.spots, **at}.items():
            vehicle = self.state.vehicles[vid]
            if vehicle.in_play and vehicle.kind == "airplane":
                land(self.state, vid, x, y, heading)
        self.state, events = next_phase(self.state, 0, None if actions is None else dict(actions))
        self.events.extend(events)
        return events

    def turn(self, plans: Mapping[str, Json]) -> None:
        """Plan the next turn (every vehicle in play)."""
        chosen = {vid: Plan.model_validate(p) for vid, p in plans.items()}
        self.state, events = start_turn(self.state, chosen)
        self.events.extend(events)

    def refuses(self, plans: Mapping[str, Json]) -> None:
        chosen = {vid: Plan.model_validate(p) for vid, p in plans.items()}
        with pytest.raises(IllegalPlanError):
            start_turn(self.state, chosen)

    def accepts(self, plans: Mapping[str, Json]) -> None:
        chosen = {vid: Plan.model_validate(p) for vid, p in plans.items()}
        start_turn(self.state, chosen)

    def status(self, vid: str) -> dict[str, int]:
        return dict(self.state.vehicles[vid].status)


def std(
    *vehicles: Json,
    stacks: Mapping[str, Sequence[str]] | None = None,
    standard: bool = True,
    **kw: Any,
) -> Json:
    """A situation with the Standard Rules on (or, with ``standard=False``, off)."""
    return situation(
        *vehicles,
        switches=STANDARD if standard else None,
        damage_decks={k: list(v) for k, v in (stacks or {}).items()} or None,
        **kw,
    )


def flyer(
    vid: str,
    side: str = "earth",
    cards: Sequence[str] = CRUISE,
    fire: Sequence[str] = HOLD,
    airplane: str = PLANE,
    **extra: Any,
) -> Json:
    """An airplane entry with its first turn's plan (where it starts does not matter:
    :class:`Game` puts it where its first card ends)."""
    return plane(
        vid, airplane, side, 45.0, 45.0, 0.0, plans=[plan(*cards, fire=list(fire))], **extra
    )


def duel(
    stack: Sequence[str],
    *,
    p_cards: Sequence[str] = CRUISE,
    p_fire: Sequence[str] = HOLD,
    e_fire: Sequence[str] = FIRE_FIRST,
    more: Mapping[str, Sequence[str]] | None = None,
    standard: bool = True,
    **p_extra: Any,
) -> Game:
    """ "e" fires at "p" in the first phase (where the test puts them) with ``stack`` on top
    of its damage deck (``more``: other decks stacked); between the shots the test asks
    for, both stay out of reach."""
    sit = std(
        flyer("p", "earth", p_cards, p_fire, **p_extra),
        flyer("e", "central", CRUISE, e_fire),
        stacks={GUN: stack, **(more or {})},
        standard=standard,
    )
    return Game(sit, {"p": P_AWAY, "e": E_AWAY})


def target_tripod(
    stack: Sequence[str],
    *,
    plans: Sequence[Json] = (tplan(*STILL_PLAN),),
    fire: Sequence[str] = FIRE_FIRST,
    more: Mapping[str, Sequence[str]] | None = None,
    standard: bool = True,
    **extra: Any,
) -> Game:
    """ "p" fires at the Locust "t" in the first phase (behind it, where the test puts it)
    with ``stack`` on top of its damage deck; otherwise "p" keeps far away."""
    sit = std(
        tripod(plans=list(plans), **extra),
        flyer("p", "earth", CRUISE, fire),
        stacks={GUN: stack, **(more or {})},
        standard=standard,
    )
    return Game(sit, {"p": P_OFF})


def quiet(state: GameState) -> dict[str, Json]:
    """Plans for a turn in which nothing happens: airplanes turn, tripods stand."""
    out: dict[str, Json] = {}
    for v in state.in_play():
        out[v.id] = tplan(*STILL_PLAN) if v.kind == "tripod" else plan(*TURNS, fire=list(HOLD))
    return out


def specials(events: Sequence[Event], vid: str) -> list[str]:
    return [e.special for e in of(events, SpecialDamage) if e.vehicle == vid]


def phase_events(events: Sequence[Event], turn: int, phase: int) -> list[Event]:
    """The events of one phase (from its PhaseStarted to the next)."""
    out: list[Event] = []
    inside = False
    for event in events:
        if isinstance(event, PhaseStarted):
            inside = (event.turn, event.phase) == (turn, phase)
        if inside:
            out.append(event)
    return out


def fired_by(events: Sequence[Event], vid: str) -> list[Fired]:
    return [e for e in of(events, Fired) if e.firer == vid]


def drawn_by(events: Sequence[Event], vid: str, deck: str | None = None) -> list[DamageDrawn]:
    return [
        e for e in of(events, DamageDrawn) if e.vehicle == vid and (deck is None or e.deck == deck)
    ]


def energy_of(state: GameState, vid: str = "t") -> int:
    tripod_state = state.vehicles[vid].tripod
    assert tripod_state is not None
    return tripod_state.energy


# --- special damage: the airplane icons -------------------------------------------------------


def test_wounded_pilot_cannot_fire_in_a_phase_with_a_steep_maneuver_or_immelmann() -> None:
    """000 (WOUNDED PILOT) - Airplane Only: "The pilot of the vehicle has been wounded. The
    player must announce this special damage. Its effects are applied until the end of the
    game. A wounded airplane pilot cannot fire any of its weapons in the same phase he
    executes a steep maneuver or an Immelmann turn." 000: "A steep maneuver with a short
    arrow is called a stall." Wounded in phase 1, the pilot flies a steep turn (turn 1), an
    Immelmann (turn 2) and a stall (turn 3) in the second phase, straights otherwise."""
    stack = ["B1-wound", *plain(GUN, 1, 1, 1, 1, 1, 1)]
    game = duel(stack, p_cards=(STRAIGHTS[0], STEEP, STRAIGHTS[1]), p_fire=("none", "auto", "auto"))
    game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [Special.WOUNDED_PILOT.value]
    game.phase(p=P_SPOT, e=E_LONG)  # a steep turn: holds fire
    game.phase(p=P_SPOT, e=E_LONG)  # a straight: fires
    for second in (IMMELMANN, STALL):
        game.turn(
            {
                "p": plan(STRAIGHTS[0], second, STRAIGHTS[1], fire=list(ALWAYS)),
                "e": plan(*CRUISE, fire=list(HOLD)),
            }
        )
        for _ in range(3):
            game.phase(p=P_SPOT, e=E_LONG)
    phases = [(1, 2), (1, 3), *[(t, ph) for t in (2, 3) for ph in (1, 2, 3)]]
    fired = [(t, ph) for t, ph in phases if fired_by(phase_events(game.events, t, ph), "p")]
    assert fired == [(1, 3), (2, 1), (2, 3), (3, 1), (3, 3)]
    held = [e for e in of(phase_events(game.events, 1, 2), HeldFire) if e.firer == "p"]
    assert held and "wounded" in held[0].reason
    assert len(drawn_by(game.events, "e")) == 5


@pytest.mark.parametrize("wounded", [True, False], ids=["wounded", "unhurt"])
def test_wounded_pilot_jams_last_four_maneuvers(wounded: bool) -> None:
    """000 (WOUNDED PILOT) - Airplane Only: "a wounded airplane pilot takes longer unjamming
    his machine guns: If the guns become jammed, they cannot fire after the next four
    maneuvers, instead of the next three." (JAMMED): "The firing airplane cannot fire after
    each of the next three maneuvers." """
    first = "B1-wound" if wounded else plain(GUN, 1)[0]
    stack = [first, "B0-jam", *plain(GUN, 0, 0, 0, 0, 0, 0)]
    game = duel(stack, p_fire=("none", "auto", "auto"))
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase(p=P_SPOT, e=E_LONG)  # p fires and jams its guns
    (jam,) = of(game.events, Jammed)
    length = CONST.jam_maneuvers + (1 if wounded else 0)
    assert (jam.firer, jam.card, jam.counters) == ("p", "B0-jam", length)
    assert game.state.vehicles["p"].jams == {"front": length}
    game.phase(p=P_SPOT, e=E_LONG)
    for _ in range(2):
        game.turn({"p": plan(*CRUISE, fire=list(ALWAYS)), "e": plan(*CRUISE, fire=list(HOLD))})
        for _ in range(3):
            game.phase(p=P_SPOT, e=E_LONG)
    shots = [
        (t, ph)
        for t in (1, 2, 3)
        for ph in (1, 2, 3)
        if fired_by(phase_events(game.events, t, ph), "p")
    ]
    silent = 4 if wounded else 3
    after = [(1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)][silent:]
    assert shots == [(1, 2), *after]


@pytest.mark.parametrize("together", [True, False], ids=["at-once", "one-after-the-other"])
def test_second_wound_eliminates_the_airplane(together: bool) -> None:
    """000 (WOUNDED PILOT) - Airplane Only: "If a wounded pilot is wounded a second time, the
    pilot is incapacitated and the vehicle is immediately eliminated." MULTIPLE SPECIAL
    DAMAGE CARDS: "Multiple Pilot Wounded, Engine and smoke damage cards have cumulative
    effects" (two wounds drawn at once, at short range)."""
    game = duel(["B1-wound", "B2-e-wound"], e_fire=("auto", "auto", "none"))
    if together:
        game.phase(p=P_SPOT, e=E_SHORT)
    else:
        game.phase(p=P_SPOT, e=E_LONG)
        assert game.state.vehicles["p"].in_play
        game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [Special.WOUNDED_PILOT.value] * 2
    (gone,) = of(game.events, Eliminated)
    assert (gone.vehicle, gone.reason) == ("p", "pilot_incapacitated")
    assert game.state.vehicles["p"].damage < RESISTANCE  # the wound, not the points
    # R33: "e"'s guns did it with a B card; the wound is announced, the card is not (000:
    # "the player should keep secret the amount of damage points on the card(s)")
    assert (gone.by, gone.means, gone.deck, gone.card) == ("e", "front", GUN, None)


def test_jammed_is_the_firers_and_two_at_once_last_three_maneuvers() -> None:
    """000 SPECIAL DAMAGE: "(exception: the "jammed" special damage affects the firing
    airplane)". (JAMMED): "The firing airplane cannot fire after each of the next three
    maneuvers ... If two jammed cards are drawn at the same time, jamming still lasts for
    only three maneuvers." """
    game = duel(["B0-jam", "B1-jam"])
    game.phase(p=P_SPOT, e=E_SHORT)
    (jam,) = of(game.events, Jammed)
    assert (jam.firer, jam.counters) == ("e", CONST.jam_maneuvers)
    assert game.state.vehicles["e"].jams == {"front": CONST.jam_maneuvers}
    assert game.state.vehicles["p"].jams == {}
    assert specials(game.events, "p") == []
    assert game.state.vehicles["p"].damage == 1


@pytest.mark.parametrize("side", [Direction.LEFT, Direction.RIGHT], ids=["left", "right"])
def test_rudder_jammed_refuses_that_side_the_following_turn_only(side: Direction) -> None:
    """000 (LEFT/RIGHT RUDDER JAMMED) - Airplane Only: "The rudder of the airplane is
    jammed. This special damage is kept secret. The following turn, the airplane cannot
    choose maneuvers to the left or right, based on the symbol drawn (maneuvers that have
    an arrow pointing in the appropriate direction in the lower right corner of the card).
    Maneuvers already selected are carried out as planned." """
    card = "B1-rudl-gyro" if side is Direction.LEFT else "B1-rudr-gyro"
    other = Direction.RIGHT if side is Direction.LEFT else Direction.LEFT
    banned = cards_of(arrow=side)
    allowed = cards_of(arrow=other)
    assert len(banned) >= 3 and len(allowed) >= 3  # turns, a sideslip and a steep turn
    game = duel([card], p_cards=(STRAIGHTS[0], banned[0], banned[1]))
    game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [f"rudder_{side.value}"]
    game.phase()
    game.phase()
    moved = [e.card for e in of(game.events, Moved) if e.vehicle == "p"]
    assert moved == [STRAIGHTS[0], banned[0], banned[1]]  # carried out as planned
    e_plan = plan(*CRUISE, fire=list(HOLD))
    for card_id in banned:
        game.refuses({"p": plan(STRAIGHTS[0], card_id, STRAIGHTS[1]), "e": e_plan})
    game.turn({"p": plan(allowed[0], STRAIGHTS[0], allowed[1]), "e": e_plan})
    for _ in range(3):
        game.phase()
    game.accepts({"p": plan(banned[0], STRAIGHTS[0], banned[1]), "e": e_plan})


def test_engine_damage_requires_a_stall_every_turn() -> None:
    """000 (ENGINE DAMAGED) - All Vehicles: "The engine of the vehicle has been hit. This
    special damage is kept secret. Its effects are applied until the end of the game. If
    the target is an airplane, it must plan at least one stall maneuver every turn (one
    with a short arrow and the symbol)." """
    game = duel(["B1-eng"])
    game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [Special.ENGINE.value]
    game.phase()
    game.phase()
    e_plan = plan(*CRUISE, fire=list(HOLD))
    for _ in range(2):  # every turn
        game.refuses({"p": plan(*CRUISE), "e": e_plan})
        game.turn({"p": plan(STRAIGHTS[0], STALL, STRAIGHTS[1]), "e": e_plan})
        for _ in range(3):
            game.phase()


@pytest.mark.parametrize("together", [True, False], ids=["at-once", "one-after-the-other"])
def test_second_engine_damage_eliminates_the_airplane(together: bool) -> None:
    """000 (ENGINE DAMAGED): "If the airplane takes a second engine damage, it is immediately
    eliminated." MULTIPLE SPECIAL DAMAGE CARDS: "Multiple ... Engine ... damage cards have
    cumulative effects"."""
    game = duel(["B1-eng", "B3-e-eng"], e_fire=("auto", "auto", "none"))
    if together:
        game.phase(p=P_SPOT, e=E_SHORT)
    else:
        game.phase(p=P_SPOT, e=E_LONG)
        assert game.state.vehicles["p"].in_play
        game.phase(p=P_SPOT, e=E_LONG)
    (gone,) = of(game.events, Eliminated)
    assert (gone.vehicle, gone.reason) == ("p", "engine_destroyed")
    assert game.state.vehicles["p"].damage < RESISTANCE


def test_smoke_trail_three_counters_one_discarded_each_end_of_turn() -> None:
    """000 (SMOKE TRAIL) - Airplane Only: "The airplane starts to leave a smoke trail. The
    player must announce this special damage. To keep track of it, the targeted player
    places three smoke counters in the Damage section on the vehicle console. One counter
    will be discarded at the end of each turn, including the current one." A smoke card
    after the last counter is gone starts a new trail (not a fire)."""
    game = duel(["B2-smoke", *plain(GUN, 1), "B1-smoke-smgen"], p_fire=("none", "auto", "none"))
    game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [Special.SMOKE.value]
    left = [game.status("p").get("smoke", 0)]
    # 000: "A smoking airplane fighting tripods does not suffer any hindrance": it fires,
    # it may plan any maneuver
    assert [e.target for e in fired_by(game.phase(p=P_SPOT, e=E_LONG), "p")] == ["e"]
    game.phase()
    left.append(game.status("p").get("smoke", 0))
    game.accepts({"p": plan(*CRUISE, fire=list(ALWAYS)), "e": plan(*CRUISE)})
    for _ in range(2):
        game.turn(quiet(game.state))
        for _ in range(3):
            game.phase()
        left.append(game.status("p").get("smoke", 0))
    assert left == [3, 2, 1, 0]
    game.turn({"p": plan(*TURNS, fire=list(HOLD)), "e": plan(*CRUISE, fire=list(FIRE_FIRST))})
    game.phase(p=P_SPOT, e=E_LONG)
    assert game.status("p") == {"smoke": 3}


@pytest.mark.parametrize("together", [True, False], ids=["at-once", "while-smoking"])
def test_second_smoke_while_smoking_becomes_a_fire(together: bool) -> None:
    """000 (SMOKE TRAIL): "if the airplane is hit for a second smoke damage, while the first
    is still in effect and there are still smoke counters on its console, treat it as a
    Vehicle on Fire damage instead (see below). In this case, the owner of the airplane
    discards all remaining smoke counters, and takes three flame counters." MULTIPLE SPECIAL
    DAMAGE CARDS: smoke damage cards "have cumulative effects"."""
    game = duel(["B2-smoke", "B1-smoke-smgen"], e_fire=("auto", "none", "none"))
    if together:
        game.phase(p=P_SPOT, e=E_SHORT)
        game.phase()
        game.phase()
    else:
        game.phase(p=P_SPOT, e=E_LONG)
        game.phase()
        game.phase()
        game.turn({"p": plan(*TURNS, fire=list(HOLD)), "e": plan(*CRUISE, fire=list(FIRE_FIRST))})
        game.phase(p=P_SPOT, e=E_LONG)  # one counter discarded already: still smoking
        game.phase()
        game.phase()
    assert game.status("p") == {"fire": 3}
    # on fire: a straight cannot be planned, a flame counter goes at the start of next turn
    game.refuses({"p": plan(*CRUISE), "e": plan(*CRUISE, fire=list(HOLD))})
    game.turn(quiet(game.state))
    game.phase()
    (flame,) = of(game.events, FlameCounter)
    assert (flame.vehicle, flame.left) == ("p", 2)


# --- special damage: vehicle on fire ------------------------------------------------------------


def burns(game: Game, vid: str) -> list[tuple[int, int, str]]:
    """(turn, flame counters left, A card) of every burn, checking that each comes before
    the first maneuver of its turn is revealed."""
    out: list[tuple[int, int, str]] = []
    for turn in range(1, game.state.turn + 1):
        events = phase_events(game.events, turn, 1)
        flames = [e for e in of(events, FlameCounter) if e.vehicle == vid]
        if not flames:
            continue
        (flame,) = flames
        (card,) = [e for e in drawn_by(events, vid, "A") if e.source == "fire"]
        first_reveal = next(i for i, e in enumerate(events) if isinstance(e, Revealed))
        assert events.index(flame) < first_reveal and events.index(card) < first_reveal
        out.append((turn, flame.left, card.cards[0]))
    return out


def test_fire_three_flame_counters_an_a_card_before_each_first_reveal() -> None:
    """000 (VEHICLE ON FIRE) - All Vehicles: "The vehicle has caught fire. The player must
    announce this special damage. The targeted player takes three flame counters and
    places them in the Damage section on the vehicle console. Each turn, before revealing
    the first maneuver of the turn, the player removes a flame counter and takes a damage
    card from the A deck". A fire caught in turn 1 burns in turns 2, 3 and 4."""
    stack_a = plain("A", 1, 2, 1)
    game = duel(["B3-fire"], p_cards=TURNS, more={"A": stack_a})
    game.phase(p=P_SPOT, e=E_LONG)
    assert specials(game.events, "p") == [Special.FIRE.value]
    assert game.status("p") == {"fire": 3}
    game.phase()
    game.phase()
    for _ in range(4):
        game.turn(quiet(game.state))
        for _ in range(3):
            game.phase()
    assert burns(game, "p") == [(2, 2, stack_a[0]), (3, 1, stack_a[1]), (4, 0, stack_a[2])]
    assert game.status("p") == {}
    assert game.state.vehicles["p"].damage == 3 + 1 + 2 + 1


def test_fire_a_card_counts_only_damage_points_and_explosions() -> None:
    """000 (VEHICLE ON FIRE): "takes a damage card from the A deck: only damage points and
    explosions are taken into account - all other special icons are ignored." The wound on
    the first A card is ignored; the explosion on the second adds half the resistance
    (000: "the target vehicle receives half of its original damage allowance (rounding
    up)")."""
    game = duel(["B3-fire"], p_cards=TURNS, more={"A": ["A1-wound", "A-expl"]})
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase()
    game.phase()
    for _ in range(2):
        game.turn(quiet(game.state))
        for _ in range(3):
            game.phase()
    assert [card for _, _, card in burns(game, "p")] == ["A1-wound", "A-expl"]
    assert specials(game.events, "p") == [Special.FIRE.value]
    assert "wounded" not in game.status("p")
    assert game.state.vehicles["p"].damage == 3 + 1 + math.ceil(RESISTANCE / 2)
    assert game.state.vehicles["p"].in_play


def test_fire_burns_an_airplane_down() -> None:
    """000 (VEHICLE ON FIRE): the A card of the fire is damage like any other (000 DAMAGE:
    "When the total damage ... equals or exceeds the resistance of the vehicle ..., the
    vehicle is eliminated"): it is gone before revealing its first maneuver."""
    game = duel(["B3-fire"], p_cards=TURNS, more={"A": plain("A", 1)}, damage=RESISTANCE - 4)
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase()
    game.phase()
    game.turn(quiet(game.state))
    events = game.phase()
    (gone,) = of(events, Eliminated)
    assert gone.vehicle == "p"
    # R33: the fire brought it down, with an A card nobody else saw
    assert gone == Eliminated("p", "burned", None, "fire", "A", None)
    assert not game.state.vehicles["p"].in_play
    assert [e for e in of(events, Revealed) if e.vehicle == "p"] == []


def test_airplane_on_fire_cannot_plan_a_straight_until_the_flames_are_out() -> None:
    """000 (VEHICLE ON FIRE): "An airplane on fire cannot plan any straight maneuver until
    all the flame counters are removed." The last counter goes before the first maneuver
    of turn 4 is revealed, so turn 4 is still planned without straights."""
    game = duel(["B3-fire"], p_cards=TURNS, more={"A": plain("A", 0, 0, 0)})
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase()
    game.phase()
    e_plan = plan(*CRUISE, fire=list(HOLD))
    for _ in range(3):  # turns 2, 3, 4
        game.refuses({"p": plan(STRAIGHTS[0], *TURNS[:2]), "e": e_plan})
        game.turn({"p": plan(*TURNS), "e": e_plan})
        for _ in range(3):
            game.phase()
    game.accepts({"p": plan(*CRUISE), "e": e_plan})


def test_a_new_fire_starts_again_with_three_flame_counters() -> None:
    """000 (VEHICLE ON FIRE): "If a vehicle draws a vehicle on fire damage card while it
    already suffers from fire damage, the player must start again tracking the fire damage
    with three counters in the Damage section on the console, regardless of how many flame
    counters were previously on the console." """
    game = duel(["B3-fire", "B4-e-fire"], p_cards=TURNS, more={"A": plain("A", 0, 0, 0, 0)})
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase()
    game.phase()
    game.turn({"p": plan(*TURNS), "e": plan(*CRUISE, fire=list(FIRE_FIRST))})
    game.phase(p=P_SPOT, e=E_LONG)  # burns (2 left), then catches fire again
    assert game.status("p") == {"fire": 3}
    game.phase()
    game.phase()
    for _ in range(3):
        game.turn(quiet(game.state))
        for _ in range(3):
            game.phase()
    assert [(turn, left) for turn, left, _ in burns(game, "p")] == [(2, 2), (3, 2), (4, 1), (5, 0)]


def test_tripod_on_fire_burns_too() -> None:
    """000 (VEHICLE ON FIRE) - All Vehicles: "The targeted player takes three flame counters
    ... Each turn, before revealing the first maneuver of the turn, the player removes a
    flame counter and takes a damage card from the A deck"."""
    stack_a = plain("A", 2)
    game = target_tripod(["B3-fire"], more={"A": stack_a})
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.FIRE.value]
    game.phase()
    game.phase()
    game.turn(quiet(game.state))
    game.phase()
    assert burns(game, "t") == [(2, 2, stack_a[0])]
    assert game.state.vehicles["t"].damage == 3 + 2


# --- special damage: the tripod icons ---------------------------------------------------------


def behind(state: GameState, distance: float = 20.0) -> Where:
    """The spot ``distance`` cm behind the Locust's rear side, facing it (heading 90)."""
    pose = state.vehicles["t"].pose
    assert pose.heading == pytest.approx(90.0)
    return (pose.x, pose.y - APOTHEM - distance, 90.0)


def test_tripod_engine_damage_never_three_movement_cards_second_only_stationary() -> None:
    """000 (ENGINE DAMAGED) - All Vehicles: "If the target is a tripod, it can never plan
    three movement maneuvers in the same turn (neither choosing the running card, nor
    applying the xxx skill). If the tripod takes a second engine damage, it can plan only
    stationary maneuvers until the end of the game. Maneuvers already planned are carried
    out as placed." """
    walk = tplan(STANDS[0], STEPS[0], STANDS[1])
    game = target_tripod(["B1-eng", "B3-e-eng"], plans=[walk])
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.ENGINE.value]
    game.phase()
    game.phase()
    p_plan = plan(*CRUISE, fire=list(FIRE_FIRST))
    game.refuses({"t": tplan(STEPS[0], STEPS[1], RUN), "p": p_plan})
    game.refuses({"t": tplan(RUN, STEPS[0], STEPS[1]), "p": p_plan})
    game.turn({"t": walk, "p": p_plan})
    game.phase(p=behind(game.state))  # the second engine damage
    game.phase()
    game.phase()
    walked = [(e.card, e.start.y < e.end.y) for e in of(game.events, Moved) if e.vehicle == "t"]
    assert walked == [(STEPS[0], True), (STEPS[0], True)]  # both carried out as placed
    game.refuses({"t": walk, "p": p_plan})
    game.refuses({"t": tplan(STANDS[0], RUN, STANDS[1]), "p": p_plan})
    game.accepts({"t": tplan(*STILL_PLAN), "p": p_plan})


def test_a_tripod_its_damage_leaves_two_cards_plans_both_for_the_last_phases() -> None:
    """Ruling SR10. 000 (ENGINE DAMAGED): after a second engine damage "it can plan only
    stationary maneuvers until the end of the game"; (REVERSE MECHANISM DESTROYED): "The
    tripod cannot plan the reverse maneuver until the end of the game"; and 000 asks for
    "three cards" a turn, distinct. A Locust with both keeps two standing still cards: it
    plans both, for the last phases (as a toppled tripod's cards are "for the last phases
    of the turn"), stands still the first phase without a card and without an Action
    token (000 puts a token "in the space of the tripod's console corresponding to the
    first planned maneuver"). The game goes on (it used to stop: no plan was legal)."""
    game = target_tripod([], fire=list(HOLD))
    for _ in range(3):
        game.phase()
    t = game.state.vehicles["t"]
    t.status.update({"engine": 2, "reverse_destroyed": 1})
    assert planned_cards(game.state, t) == 2
    p_plan = plan(*CRUISE, fire=list(HOLD))
    game.refuses({"t": tplan(*STILL_PLAN), "p": p_plan})  # the reverse
    game.refuses({"t": tplan(STANDS[0]), "p": p_plan})
    game.refuses({"t": tplan(STANDS[0], STANDS[1], actions=[ray(), None, None]), "p": p_plan})
    seen = {
        side: next(
            v
            for v in observe(game.state, side_seat(game.state, side))["vehicles"]
            if v["id"] == "t"
        )
        for side in ("martians", "earth")
    }
    assert seen["martians"]["cards_to_plan"] == 2
    assert "cards_to_plan" not in seen["earth"]  # the damage behind it is secret
    game.turn({"t": tplan(STANDS[0], STANDS[1], actions=[None, ray(), None]), "p": p_plan})
    start = game.state.vehicles["t"].pose
    for _ in range(3):
        game.phase()
    shown = [
        (ph, e.card)
        for turn, ph, e in phases_of(game.events, Revealed)
        if e.vehicle == "t" and turn == 2
    ]
    assert shown == [(2, STANDS[0]), (3, STANDS[1])]
    assert game.state.vehicles["t"].pose == start


def test_terminal_play_asks_a_damaged_tripod_for_its_two_cards_and_says_why() -> None:
    """Ruling SR10 at the terminal: the prompt asks for the cards the tripod may plan and
    says why there are fewer; three are asked again."""
    from dogfight.cli.terminal_play import _human_plan

    game = target_tripod([], fire=list(HOLD))
    t = game.state.vehicles["t"]
    t.status.update({"engine": 2, "reverse_destroyed": 1})
    said: list[str] = []
    typed = iter([" ".join(STILL_PLAN), f"{STANDS[0]} {STANDS[1]}"])
    got = _human_plan(game.state, t, lambda _p: next(typed), said.append)
    assert got.cards == (STANDS[0], STANDS[1])
    assert any("ruling SR10" in line for line in said)
    assert any("give 2 different card ids" in line for line in said)


@pytest.mark.parametrize(
    ("model", "status", "cards"),
    [
        ("mk1-locust", {"engine": 2}, 3),  # two standing still cards and a reverse
        ("mk1-locust", {"engine": 1, "reverse_destroyed": 1}, 3),
        ("mk4-cuttlefish", {"engine": 2}, 2),  # one standing still card and a reverse
        ("mk4-cuttlefish", {"engine": 2, "reverse_destroyed": 1}, 1),
    ],
)
def test_how_many_cards_a_damaged_tripod_plans(
    model: str, status: dict[str, int], cards: int
) -> None:
    """Ruling SR10: as many as its deck holds that its damage lets it plan, three at most
    (fewer toppled)."""
    deck = CATALOG.tripod_decks[CATALOG.tripods[model].maneuver_deck].cards
    still = [c.id for c in deck if c.stationary]
    first = tplan(*still, *[c.id for c in deck if c.moves][: 3 - len(still)])
    game = target_tripod([], model=model, plans=[first])
    t = game.state.vehicles["t"]
    t.status.update(status)
    assert planned_cards(game.state, t) == cards
    assert t.tripod is not None
    t.tripod.toppled = 2
    assert planned_cards(game.state, t) == 1


def test_a_situation_describes_a_damaged_tripod_and_adjudicates_its_two_cards() -> None:
    """Ruling SR10 where a referee meets it: a situation gives a Mk IV two engine hits
    (``status``); its plan of its two stationary cards is played, phases 2 and 3; three
    cards are refused with the ruling named."""
    deck = CATALOG.tripod_decks[CATALOG.tripods["mk4-cuttlefish"].maneuver_deck].cards
    still = [c.id for c in deck if c.stationary]
    damaged = tripod(model="mk4-cuttlefish", status={"engine": 2}, plans=[tplan(*still)])
    sit = std(damaged, flyer("p", "earth", CRUISE, HOLD))
    _, events = run_situation(sit)
    shown = [(ph, e.card) for _, ph, e in phases_of(events, Revealed) if e.vehicle == "t"]
    assert shown == [(2, still[0]), (3, still[1])]
    moves = [c.id for c in deck if c.moves]
    sit["vehicles"][0]["plans"] = [tplan(*still, moves[0])]
    with pytest.raises(DataError, match="SR10"):
        run_situation(sit)


def test_circuits_hit_discards_energy_equal_to_the_damage() -> None:
    """000 (CIRCUITS HIT) - Tripod Only: "Important circuitry in the tripod's maneuvering
    systems have been compromised. This special damage is announced. In addition to
    numerical damage, the tripod must also discard an equal amount of energy tokens." """
    game = target_tripod(["B2-circ"])
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.CIRCUITS.value]
    (lost,) = [e for e in of(game.events, EnergyChanged) if e.vehicle == "t"]
    assert lost.change == -2
    assert energy_of(game.state) == MK1.energy - 2
    assert game.state.vehicles["t"].damage == 2


def plan_or_fallback(game: Game, plans: Mapping[str, Json], fallback: Mapping[str, Json]) -> bool:
    """Plan the turn with ``plans``; if they are refused, with ``fallback``. Whether the
    first plans were accepted."""
    try:
        game.turn(plans)
    except IllegalPlanError:
        game.turn(fallback)
        return False
    return True


def test_gyroscope_out_of_order_no_change_facing_the_following_turn() -> None:
    """000 (GYROSCOPE OUT OF ORDER) - Tripod Only: "The tripod gyroscopes are out of order.
    This special damage is kept secret. The following turn, the tripod cannot choose the
    Change facing Action token." The rest of the current turn is not affected; the turn
    after next it can turn again. A plan choosing the token is refused or the token has no
    effect."""
    turning = [None, facing(1), None]
    game = target_tripod(["B1-rudl-gyro"], plans=[tplan(*STILL_PLAN, actions=turning)])
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.GYROSCOPE.value]  # the rudder: airplanes
    game.phase()
    game.phase()
    p_plan = plan(*CRUISE, fire=list(HOLD))
    turn_again = tplan(*STILL_PLAN, actions=[facing(1), None, None])
    plan_or_fallback(game, {"t": turn_again, "p": p_plan}, {"t": tplan(*STILL_PLAN), "p": p_plan})
    for _ in range(3):
        game.phase()
    game.turn({"t": turn_again, "p": p_plan})
    game.phase()
    turns = [(t, ph) for t, ph, e in phases_of(game.events, FacingChanged) if e.vehicle == "t"]
    assert turns == [(1, 2), (3, 1)]


def test_reverse_mechanism_destroyed_no_reverse_planned() -> None:
    """000 (REVERSE MECHANISM DESTROYED) - Tripod Only: "The tripod's reverse mechanism has
    been destroyed. This special damage is kept secret. The tripod cannot plan the reverse
    maneuver until the end of the game. If it has been already planned before, it is
    carried out as placed." """
    game = target_tripod(["B2-rudl-rev"], plans=[tplan(STANDS[0], REVERSE, STEPS[0])])
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.REVERSE_DESTROYED.value]
    game.phase()
    game.phase()
    ((_, _, back),) = [(t, ph, e) for t, ph, e in phases_of(game.events, Moved) if e.vehicle == "t"]
    assert back.backward and back.end.y < back.start.y  # the reverse planned before
    p_plan = plan(*CRUISE, fire=list(HOLD))
    game.refuses({"t": tplan(REVERSE, STANDS[0], STANDS[1]), "p": p_plan})
    game.refuses({"t": tplan(STANDS[0], STANDS[1], REVERSE), "p": p_plan})
    game.turn({"t": tplan(STANDS[0], STANDS[1], STEPS[0]), "p": p_plan})
    for _ in range(3):
        game.phase()
    game.refuses({"t": tplan(STANDS[0], STANDS[1], REVERSE), "p": p_plan})  # for good


def smoke(projector: str = "rear", at: tuple[float, float] | None = None) -> Json:
    token: Json = {"token": "black_smoke", "projector": projector}
    if at is not None:
        token["at"] = list(at)
    return token


def stands_of(state: GameState, vid: str = "t", projector: Side = Side.REAR) -> list[Any]:
    return smoke_stands(state, state.vehicles[vid], projector)


def test_black_smoke_generator_disabled() -> None:
    """000 (BLACK SMOKE GENERATOR DISABLED) - Tripod Only: "The tripod's Black Smoke
    generator has been disabled. This special damage is kept secret. The tripod cannot use
    its Black Smoke projectors until the end of the game. A Black Smoke template already in
    play is resolved normally." Hit while firing its smoke: the cloud stays and still
    corrodes the airplane flying into it; later smoke tokens are refused or have no
    effect."""
    game = target_tripod(["B1-smoke-smgen"], more={"Z": plain("Z", 2)})
    stand = stands_of(game.state)[0]
    firing = {"t": Action.model_validate(smoke(at=stand))}
    game.phase(firing, p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.SMOKE_GENERATOR.value]
    (cloud,) = game.state.clouds
    game.phase()
    game.phase()
    p_plan = plan(*CRUISE, fire=list(HOLD))
    again = tplan(*STILL_PLAN, actions=[smoke(at=stand), None, None])
    plan_or_fallback(game, {"t": again, "p": p_plan}, {"t": tplan(*STILL_PLAN), "p": p_plan})
    game.phase(p=(cloud.x, cloud.y, 90.0))
    assert len(of(game.events, SmokeCloud)) == 1  # the one of turn 1 only
    (gone,) = of(game.events, CloudDispersed)
    assert (gone.cloud, gone.vehicle) == (cloud.id, "p")
    (corroded,) = drawn_by(game.events, "p", "Z")
    assert corroded.points == 2


@pytest.mark.parametrize("token", ["heat_ray", "black_smoke"])
def test_wounded_tripod_pilot_cannot_fire_while_moving(token: str) -> None:
    """000 (WOUNDED PILOT) - Tripod Only: "A wounded tripod pilot cannot choose a firing
    Action token (Heat-ray or Black Smoke) in combination with a movement maneuver."
    Wounded in the first phase, it chooses the token with a movement card in the second
    (no effect) and with a standing still card in the third (it fires)."""
    fire = ray() if token == "heat_ray" else smoke()
    plans = [tplan(STANDS[0], STEPS[0], STANDS[1], actions=[None, fire, fire])]
    game = target_tripod(["B1-wound"], plans=plans)
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.WOUNDED_PILOT.value]
    game.phase()
    game.phase()
    kind: type[Any] = HeatRay if token == "heat_ray" else SmokeCloud
    assert [(t, ph) for t, ph, _ in phases_of(game.events, kind)] == [(1, 3)]


def test_second_wound_eliminates_the_tripod() -> None:
    """000 (WOUNDED PILOT) - Tripod Only: "If a wounded pilot is wounded a second time, the
    pilot is incapacitated and the vehicle is immediately eliminated." Two wounds at once
    (short range) are cumulative (000 MULTIPLE SPECIAL DAMAGE CARDS)."""
    game = target_tripod(["B1-wound", "B2-e-wound"])
    game.phase(p=BEHIND_SHORT)
    (gone,) = of(game.events, Eliminated)
    assert (gone.vehicle, gone.reason) == ("t", "pilot_incapacitated")
    assert game.state.vehicles["t"].damage < MK1.damage


def test_toppled_special_damage_topples_the_tripod() -> None:
    """000 (TOPPLED) - Tripod Only: "The balance of the tripod have been compromised and the
    vehicle has toppled." TOPPLED TRIPODS: "When a tripod topples, discard all cards
    planned for it and take two reminder tokens." """
    game = target_tripod(["B3-topl"], plans=[tplan(STANDS[0], STEPS[0], STEPS[1])])
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.TOPPLED.value]
    (fall,) = of(game.events, Toppled)
    assert fall.vehicle == "t"
    tripod_state = game.state.vehicles["t"].tripod
    assert tripod_state is not None and tripod_state.toppled == 2
    game.phase()
    game.phase()
    assert [e for e in of(game.events, Moved) if e.vehicle == "t"] == []  # cards discarded


@pytest.mark.parametrize("start", [MK1.energy, 2])
def test_batteries_damaged_lower_the_rating_and_discard_an_energy(start: int) -> None:
    """000 (BATTERIES DAMAGED) - Tripod Only: "The energy-accumulation devices of the tripod
    have been damaged. This special damage is announced. The Energy rating of the tripod is
    lowered by one and the tripod discards an Energy." """
    game = target_tripod(["B1-batt"], energy=start)
    game.phase(p=BEHIND_LONG)
    assert specials(game.events, "t") == [Special.BATTERIES.value]
    assert energy_of(game.state) == start - 1
    earth = side_seat(game.state, "earth")
    (view,) = [v for v in observe(game.state, earth)["vehicles"] if v["id"] == "t"]
    assert (view["energy"], view["energy_rating"]) == (start - 1, MK1.energy - 1)


# --- announced or secret ----------------------------------------------------------------------

ANNOUNCED = {
    # 000's special damage table: "The player must announce this special damage" /
    # "This special damage is announced" against "This special damage is kept secret".
    Special.WOUNDED_PILOT: True,
    Special.SMOKE: True,
    Special.FIRE: True,
    Special.CIRCUITS: True,
    Special.TOPPLED: True,
    Special.BATTERIES: True,
    Special.ENGINE: False,
    Special.RUDDER_LEFT: False,
    Special.RUDDER_RIGHT: False,
    Special.GYROSCOPE: False,
    Special.REVERSE_DESTROYED: False,
    Special.SMOKE_GENERATOR: False,
}

HITS = [
    ("p", "B1-wound", Special.WOUNDED_PILOT),
    ("p", "B2-smoke", Special.SMOKE),
    ("p", "B3-fire", Special.FIRE),
    ("p", "B1-eng", Special.ENGINE),
    ("p", "B1-rudl-gyro", Special.RUDDER_LEFT),
    ("p", "B1-rudr-gyro", Special.RUDDER_RIGHT),
    ("t", "B1-wound", Special.WOUNDED_PILOT),
    ("t", "B3-fire", Special.FIRE),
    ("t", "B2-circ", Special.CIRCUITS),
    ("t", "B3-topl", Special.TOPPLED),
    ("t", "B1-batt", Special.BATTERIES),
    ("t", "B1-eng", Special.ENGINE),
    ("t", "B1-rudl-gyro", Special.GYROSCOPE),
    ("t", "B2-rudl-rev", Special.REVERSE_DESTROYED),
    ("t", "B1-smoke-smgen", Special.SMOKE_GENERATOR),
]


def hit_once(target: str, card: str) -> Game:
    """``target`` ("p", an airplane, or "t", the Locust from behind) draws ``card``."""
    if target == "p":
        game = duel([card])
        game.phase(p=P_SPOT, e=E_LONG)
    else:
        game = target_tripod([card])
        game.phase(p=BEHIND_LONG)
    return game


@pytest.mark.parametrize(("target", "card", "special"), HITS, ids=[f"{t}-{c}" for t, c, _ in HITS])
def test_special_damage_announced_or_kept_secret(target: str, card: str, special: Special) -> None:
    """000 SPECIAL DAMAGE ETIQUETTE: "Some special damage results must be announced to the
    other players immediately when drawn, while some others may (and should!) be kept
    secret. When appropriate, the owner of the target vehicle announces the special
    damage". Which is which comes from the special damage table."""
    game = hit_once(target, card)
    (event,) = [e for e in of(game.events, SpecialDamage) if e.vehicle == target]
    assert event.special == special.value
    assert event.announced is ANNOUNCED[special]
    assert CATALOG.specials[special].announced is ANNOUNCED[special]
    owner = game.state.vehicles[target].side
    others = [s for s in game.state.sides() if s != owner]
    assert event in of(visible_events(game.events, side_seat(game.state, owner)), SpecialDamage)
    for side in others:
        seen = of(visible_events(game.events, side_seat(game.state, side)), SpecialDamage)
        assert (event in seen) is ANNOUNCED[special]


@pytest.mark.parametrize(("target", "card"), [("p", "B3-fire"), ("t", "B2-circ")])
def test_announced_special_keeps_the_damage_points_secret(target: str, card: str) -> None:
    """000 SPECIAL DAMAGE ETIQUETTE: "However, even when the special damage must be
    announced, the player should keep secret the amount of damage points on the card(s)."
    The other side learns the special, not which card (its value) was drawn. (The
    circuits hit makes the tripod discard as many Energy tokens as the damage value, in
    the open, so only the card is checked there.)"""
    game = hit_once(target, card)
    owner = game.state.vehicles[target].side
    (other,) = [s for s in game.state.sides() if s != owner]
    seen = visible_events(game.events, side_seat(game.state, other))
    assert [e.special for e in of(seen, SpecialDamage)] != []  # announced
    assert card not in json.dumps([e.to_json() for e in seen])
    if target == "p":
        value = {c.id: c.value for c in CATALOG.damage_decks[GUN].cards}[card]
        public = [e.to_json() for e in seen if not isinstance(e, SpecialDamage)]
        assert all("points" not in e and "total" not in e for e in public)
        assert value > 0


@pytest.mark.parametrize(
    ("card", "token", "word"),
    [("B1-rudl-gyro", facing(1), "gyroscope"), ("B1-smoke-smgen", smoke(), "generator")],
    ids=["gyroscope", "smoke-generator"],
)
def test_secret_tripod_damage_stays_secret_when_its_token_is_chosen(
    card: str, token: Json, word: str
) -> None:
    """000 (GYROSCOPE OUT OF ORDER): "This special damage is kept secret. The following turn,
    the tripod cannot choose the Change facing Action token." (BLACK SMOKE GENERATOR
    DISABLED): "This special damage is kept secret. The tripod cannot use its Black Smoke
    projectors". Choosing the token anyway is either refused (privately, when planned) or
    leaves no public trace of the damage."""
    game = target_tripod([card])
    game.phase(p=BEHIND_LONG)
    game.phase()
    game.phase()
    p_plan = plan(*CRUISE, fire=list(HOLD))
    chosen = tplan(*STILL_PLAN, actions=[token, None, None])
    if plan_or_fallback(game, {"t": chosen, "p": p_plan}, {"t": tplan(*STILL_PLAN), "p": p_plan}):
        game.phase()
    seen = visible_events(game.events, side_seat(game.state, "earth"))
    assert word not in json.dumps([e.to_json() for e in seen]).lower()


# --- several at once, protected hits, the switch ------------------------------------------------

AT_ONCE = [
    ("p", ("B3-fire", "B4-e-fire"), [Special.FIRE]),
    ("p", ("B1-rudl-gyro", "B2-rudl-rev"), [Special.RUDDER_LEFT]),
    ("p", ("B1-rudr-gyro", "B2-rudr-rev"), [Special.RUDDER_RIGHT]),
    ("t", ("B1-rudl-gyro", "B1-rudr-gyro"), [Special.GYROSCOPE]),
    ("t", ("B3-fire", "B4-e-fire"), [Special.FIRE]),
]


@pytest.mark.parametrize(
    ("target", "cards", "effects"), AT_ONCE, ids=[f"{t}-{'+'.join(c)}" for t, c, _ in AT_ONCE]
)
def test_same_special_drawn_at_once_applies_once(
    target: str, cards: tuple[str, str], effects: list[Special]
) -> None:
    """000 MULTIPLE SPECIAL DAMAGE CARDS: "An airplane can take more than one type of special
    damage, at the same time or over the course of several turns. Multiple vehicle on fire
    damage cards, left jams, right jams, or gyroscopes out of order drawn at the same time,
    apply their effects only once." Two such cards at short range: one effect (a fire:
    three flame counters, one A card the next turn)."""
    if target == "p":
        game = duel(list(cards), p_cards=TURNS)
        game.phase(p=P_SPOT, e=E_SHORT)
    else:
        game = target_tripod(list(cards))
        game.phase(p=BEHIND_SHORT)
    assert specials(game.events, target) == [s.value for s in effects]
    if Special.FIRE in effects:
        assert game.status(target) == {"fire": 3}
        game.phase()
        game.phase()
        game.turn(quiet(game.state))
        game.phase()
        assert [left for _, left, _ in burns(game, target)] == [2]


def test_specials_ignored_on_a_protected_side() -> None:
    """000 SPECIAL DAMAGE: "Special damage is ignored when the tripod is attacked through a
    functioning electrified armored side." Hit through its armoured front at short range
    with a toppled and a wounded pilot card, the Locust neither topples nor is wounded."""
    assert "front" in MK1.protected
    game = target_tripod(["B3-topl", "B1-wound"])
    front = (X0, Y0 + APOTHEM + 10.0, 270.0)
    game.phase(p=front)
    (hit,) = of(game.events, ProtectedHit)
    assert hit.cards == ("B3-topl", "B1-wound")
    assert of(game.events, SpecialDamage) == [] and of(game.events, Toppled) == []
    assert game.status("t") == {}
    tripod_state = game.state.vehicles["t"].tripod
    assert tripod_state is not None and tripod_state.toppled == 0


def test_specials_off_without_the_standard_rules() -> None:
    """000 STANDARD RULES: "After players are familiar with the Basic Rules, the rules in
    this chapter may be added"; the basic rules: "Other types of special damage symbols
    ... are ignored in the Basic Rules". Without the switch a fire card only deals its
    points: no counters, no A card, straights allowed; a toppled card on a tripod only
    its points."""
    game = duel(["B3-fire"], standard=False)
    game.phase(p=P_SPOT, e=E_LONG)
    game.phase()
    game.phase()
    assert of(game.events, SpecialDamage) == [] and game.status("p") == {}
    game.turn({"p": plan(*CRUISE), "e": plan(*CRUISE, fire=list(HOLD))})
    game.phase()
    assert of(game.events, FlameCounter) == []
    assert game.state.vehicles["p"].damage == 3
    game = target_tripod(["B3-topl"], standard=False)
    game.phase(p=BEHIND_LONG)
    assert of(game.events, SpecialDamage) == [] and of(game.events, Toppled) == []
    assert game.state.vehicles["t"].damage == 3


# --- rockets ------------------------------------------------------------------------------------

R_DECK = CATALOG.maneuver_decks[CATALOG.airplane(ROCKETEER).maneuver_deck]


def r_card(symbol: Symbol) -> str:
    """The rocketeer's first card with ``symbol``."""
    return next(c.id for c in R_DECK.cards if c.symbol is symbol)


R_STRAIGHT = r_card(Symbol.STRAIGHT)
R_CRUISE = tuple(c.id for c in R_DECK.cards if c.symbol is Symbol.STRAIGHT)[:3]
ROCKET_DECK = "D"
D_STACK = plain(ROCKET_DECK, 3, 4)
LAUNCH: Where = BEHIND_LONG  # 20 cm behind the Locust's rear, facing it
NEARER: Where = (X0, REAR_Y - 12.0, 90.0)  # where the following maneuver ends


def rocketeer(
    rockets: Sequence[int] = (2, 0, 0),
    follow: str = R_STRAIGHT,
    fire: Sequence[str] = FIRE_FIRST,
    counters: int = 2,
) -> Json:
    """The rocket-armed Nieuport "p": launches ``rockets`` per phase at its ``fire``
    choice, then flies ``follow``."""
    rest = [c for c in R_CRUISE if c != follow]
    cards = (rest[0], follow, rest[1])
    entry = flyer("p", "earth", cards, fire, airplane=ROCKETEER, rockets=counters)
    entry["plans"][0]["rockets"] = list(rockets)
    return entry


def rocket_game(*extra: Json, standard: bool = True, **p: Any) -> Game:
    """The Locust "t" standing still and the rocketeer "p" behind it, D deck stacked."""
    sit = std(
        tripod(),
        rocketeer(**p),
        *extra,
        stacks={ROCKET_DECK: D_STACK, GUN: plain(GUN, 2, 2)},
        standard=standard,
    )
    return Game(sit, {"p": P_OFF})


def test_rockets_need_the_standard_rules() -> None:
    """000 ROCKETS are one of the "SPECIAL WEAPONS OF THE EARTHLINGS" of the Standard Rules:
    without the switch a plan launching rockets is refused."""
    with pytest.raises(IllegalPlanError):
        rocket_game(standard=False)
    rocket_game()


def test_rockets_need_rocket_counters() -> None:
    """000 ROCKETS: "When a scenario indicates that one or more airplanes have rockets,
    place two rocket counters on the consoles of those airplanes." / "spend one or two
    Rocket counters". An airplane launches only the counters it has; one that cannot carry
    rockets has none."""
    with pytest.raises(IllegalPlanError):
        rocket_game(rockets=(2, 0, 0), counters=1)
    with pytest.raises(IllegalPlanError):
        rocket_game(rockets=(1, 0, 1), counters=1)
    with pytest.raises(DataError, match=r"'rockets' is for .* carrying no rockets"):
        rocket_game(rockets=(1, 0, 0), counters=0)  # a field it does not use (issue 28)
    rocket_game(rockets=(1, 0, 0), counters=1)
    assert not CATALOG.airplane(PLANE).rockets
    spad = flyer("p", "earth", CRUISE, FIRE_FIRST, rockets=2)
    with pytest.raises(DataError) as error:
        build(parse_situation(std(tripod(), spad)), CATALOG, 0)
    assert error.value.field == "vehicles[1].rockets"


@pytest.mark.parametrize(
    ("where", "launched"),
    [
        (LAUNCH, True),
        ((X0, REAR_Y - CONST.ruler.length - 5.0, 90.0), False),  # beyond the ruler
        ((X0 - 20.0, Y0, 90.0), False),  # abeam: not in the front arc
    ],
    ids=["in-reach", "beyond-the-ruler", "outside-the-front-arc"],
)
def test_rockets_need_the_target_in_the_front_arc_within_a_ruler(
    where: Where, launched: bool
) -> None:
    """000 ROCKETS: "To fire rockets, the airplane must have the target in its front firing
    arc at one ruler of distance or less, and spend one or two Rocket counters." A launch
    that cannot be made keeps the counters."""
    game = rocket_game()
    game.phase(p=where)
    launches = of(game.events, RocketsLaunched)
    if launched:
        (launch,) = launches
        assert (launch.firer, launch.target, launch.count, launch.left) == ("p", "t", 2, 0)
        assert game.state.vehicles["p"].rockets == 0
    else:
        assert launches == []
        assert game.state.vehicles["p"].rockets == 2


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("follow", [Symbol.STRAIGHT, Symbol.STALL])
def test_rockets_hit_after_a_following_stall_or_straight_one_d_card_each(
    follow: Symbol, count: int
) -> None:
    """000 ROCKETS: "The target is hit after the following maneuver, if both the following
    conditions occur: 1) The following maneuver is either a stall or a straight. 2) At the
    end of this following maneuver, the original target is still in the airplane's front
    firing arc, or the airplane overlaps the target. If both conditions are met, the target
    takes one D damage card for each Rocket token spent." """
    game = rocket_game(rockets=(count, 0, 0), follow=r_card(follow))
    game.phase(p=LAUNCH)
    assert drawn_by(game.events, "t") == []  # not yet
    events = game.phase(p=NEARER)
    (hit,) = of(events, RocketsHit)
    assert (hit.firer, hit.target, hit.count, hit.instead_of) == ("p", "t", count, None)
    (cards,) = drawn_by(events, "t")
    assert (cards.deck, cards.cards) == (ROCKET_DECK, tuple(D_STACK[:count]))
    assert game.state.vehicles["t"].damage == sum((3, 4)[:count])
    assert game.state.vehicles["p"].rockets == 2 - count


@pytest.mark.parametrize("follow", [Symbol.LEFT, Symbol.STEEP, Symbol.SIDESLIP])
def test_rockets_miss_when_the_following_maneuver_is_not_a_stall_or_straight(
    follow: Symbol,
) -> None:
    """000 ROCKETS: "1) The following maneuver is either a stall or a straight." ... "If any
    of the conditions are not met, the rockets miss the target and the counters are
    wasted." The target is still right ahead after the maneuver."""
    game = rocket_game(follow=r_card(follow))
    game.phase(p=LAUNCH)
    events = game.phase(p=NEARER)
    (miss,) = of(events, RocketsMissed)
    assert (miss.firer, miss.target) == ("p", "t")
    assert of(events, RocketsHit) == [] and drawn_by(game.events, "t") == []
    assert game.state.vehicles["p"].rockets == 0


def test_rockets_miss_when_the_target_left_the_front_arc() -> None:
    """000 ROCKETS: "2) At the end of this following maneuver, the original target is still
    in the airplane's front firing arc, or the airplane overlaps the target." After its
    straight the Nieuport has the Locust abeam."""
    game = rocket_game()
    game.phase(p=LAUNCH)
    events = game.phase(p=(X0 - 20.0, Y0, 90.0))
    (miss,) = of(events, RocketsMissed)
    assert miss.target == "t"
    assert drawn_by(game.events, "t") == []
    assert game.state.vehicles["p"].rockets == 0


def test_rockets_hit_a_target_the_launcher_overlaps() -> None:
    """000 ROCKETS: "the original target is still in the airplane's front firing arc, or
    the airplane overlaps the target." The straight ends with the Nieuport's nose over the
    Locust's base."""
    game = rocket_game()
    game.phase(p=LAUNCH)
    events = game.phase(p=(X0, REAR_Y - HALF_L + 1.0, 90.0))
    (hit,) = of(events, RocketsHit)
    assert (hit.target, hit.count) == ("t", 2)
    assert game.state.vehicles["t"].damage == 7


@pytest.mark.parametrize(
    ("side", "offset", "victim"),
    [("earth", 0.0, "b"), ("martians", 0.0, "b"), ("earth", 5.0, "t")],
    ids=["friend-blocks", "foe-blocks", "partly-hidden"],
)
def test_rockets_hit_an_airplane_completely_blocking_the_line(
    side: str, offset: float, victim: str
) -> None:
    """000 ROCKETS: "Exception: For condition (2), if the original target is still in the
    firing arc, but an airplane completely blocks the line of sight of the airplane
    launching the rockets, then the blocking airplane (friend or foe) is hit instead,
    taking one D damage card for each rocket fired." An airplane hiding only part of the
    target does not take its place."""
    game = rocket_game(flyer("b", side, CRUISE, HOLD))
    game.spots["b"] = (80.0, 10.0, 90.0)
    game.phase(p=LAUNCH)
    events = game.phase(p=LAUNCH, b=(X0 + offset, REAR_Y - 9.0, 90.0))
    (hit,) = of(events, RocketsHit)
    assert (hit.target, hit.count) == (victim, 2)
    assert hit.instead_of == ("t" if victim == "b" else None)
    (cards,) = drawn_by(events, victim)
    assert cards.cards == tuple(D_STACK)
    other = "t" if victim == "b" else "b"
    assert drawn_by(game.events, other) == []


def test_rockets_or_guns_not_both_in_a_phase() -> None:
    """000 ROCKETS: "An airplane carrying rockets may fire its machine guns or its rockets,
    but not both in the same phase." The launch phase has no gun shot; the next phase the
    guns fire again."""
    game = rocket_game(fire=("auto", "auto", "none"))
    launch = game.phase(p=LAUNCH)
    assert len(of(launch, RocketsLaunched)) == 1
    assert fired_by(launch, "p") == [] and drawn_by(launch, "t") == []
    nxt = game.phase(p=NEARER)
    assert [e.target for e in fired_by(nxt, "p")] == ["t"]
    assert len(of(nxt, RocketsHit)) == 1


def test_rockets_launched_in_the_last_phase_hit_after_the_next_turns_first_maneuver() -> None:
    """000 ROCKETS: "The target is hit after the following maneuver": for rockets launched
    in the third phase, the first maneuver of the next turn."""
    game = rocket_game(rockets=(0, 0, 1), fire=("none", "none", "auto"))
    game.phase()
    game.phase()
    game.phase(p=LAUNCH)
    assert len(of(game.events, RocketsLaunched)) == 1
    game.turn({"t": tplan(*STILL_PLAN), "p": plan(*R_CRUISE, fire=list(HOLD))})
    events = game.phase(p=NEARER)
    (hit,) = of(events, RocketsHit)
    assert (hit.target, hit.count) == ("t", 1)
    assert game.state.vehicles["t"].damage == 3


# --- the black smoke ----------------------------------------------------------------------------


def smoke_game(
    *extra: Json,
    actions: Sequence[Json | None] = (None, None, None),
    standard: bool = True,
    at_planning: bool = False,
    **t_extra: Any,
) -> Game:
    """The Locust "t" standing still with these action tokens; "p" keeps far away.
    ``at_planning``: the house rule that places the plan's tokens as written (a token the
    rules forbid then is placed, to no effect), as these tests check."""
    sit = std(
        tripod(plans=[tplan(*STILL_PLAN, actions=list(actions))], **t_extra),
        flyer("p", "earth", CRUISE, HOLD),
        *extra,
        stacks={"Z": plain("Z", 2)},
        standard=standard,
    )
    if at_planning:
        sit["switches"] = {**sit.get("switches", {}), "actions_at_planning": True}
    return Game(sit, {"p": P_OFF})


def test_black_smoke_needs_the_standard_rules_and_a_smoke_projector() -> None:
    """000 THE BLACK SMOKE is one of the "SPECIAL WEAPONS OF THE MARTIANS" of the Standard
    Rules; FIRING: the player "must put 1 Energy on a spot on the tripod reference card
    corresponding to one of its black-smoke projectors". The Mk I's only projector is at
    its rear."""
    assert MK1.smoke_projectors == ["rear"]
    game = smoke_game(standard=False)
    p_plan = plan(*CRUISE, fire=list(HOLD))
    game.refuses({"t": tplan(*STILL_PLAN, actions=[smoke(), None, None]), "p": p_plan})
    game = smoke_game()
    game.refuses({"t": tplan(*STILL_PLAN, actions=[smoke("front"), None, None]), "p": p_plan})
    game.accepts({"t": tplan(*STILL_PLAN, actions=[smoke(), None, None]), "p": p_plan})


@pytest.mark.parametrize("start", [MK1.energy, 0])
def test_black_smoke_costs_one_energy(start: int) -> None:
    """000 FIRING: "Immediately after selecting the corresponding Action token, the Tripod
    player controlling the vehicle must put 1 Energy on a spot on the tripod reference card
    corresponding to one of its black-smoke projectors". With no Energy, no cloud."""
    game = smoke_game(actions=[smoke(), None, None], energy=start, at_planning=True)
    game.phase()
    clouds = of(game.events, SmokeCloud)
    if start:
        assert [c.firer for c in clouds] == ["t"]
        (spent,) = [e for e in of(game.events, EnergyChanged) if e.vehicle == "t"]
        assert spent.change == -1
        assert energy_of(game.state) == start - 1
    else:
        assert clouds == [] and game.state.clouds == []
        assert [e.token for e in of(game.events, ActionWasted)] == ["black_smoke"]


@pytest.mark.parametrize(
    "wanted",
    [(1.0, 1.0), (0.0, -3.0), (-20.0, -10.0), (30.0, 5.0)],
    ids=["inside", "inside-edge", "far-left", "far-right"],
)
def test_black_smoke_cloud_keeps_the_ruler_stand_inside(wanted: tuple[float, float]) -> None:
    """000 FIRING: "the player places the special Black Smoke ruler (arc-shaped), at a right
    angle against the side of the tripod's base where the player placed the Energy ...
    Then, the Tripod player places a Black smoke cloud template at the far end of the
    ruler. The template can be placed as the Tripod player sees fit, as long as the plastic
    stand at the end of the ruler remains inside the circle of the Black smoke template."
    A cloud asked for (``at``, here relative to the ruler's first stand) where the stand
    would be outside goes to the nearest allowed point."""
    game = smoke_game()
    stands = stands_of(game.state)
    at = (stands[0][0] + wanted[0], stands[0][1] + wanted[1])
    game.phase({"t": Action.model_validate(smoke(at=at))})
    (placed,) = of(game.events, SmokeCloud)
    (cloud,) = game.state.clouds
    centre = (cloud.x, cloud.y)
    assert cloud.radius == SMOKE_SPEC.cloud_radius
    stand = min(stands, key=lambda s: math.dist(s, at))
    assert math.dist(centre, stand) <= cloud.radius  # the stand stays inside
    nearest = max(0.0, math.dist(at, stand) - cloud.radius)
    assert math.dist(centre, at) == pytest.approx(nearest, abs=0.01)
    assert (placed.x, placed.y) == pytest.approx(centre)
    # the stand: the far end of the ruler, against the middle of the rear side
    rear = Pose(X0, Y0, 90.0).to_world(-APOTHEM, 0.0)
    for s in stands:
        assert math.dist(s, rear) == pytest.approx(SMOKE_SPEC.length)


def test_black_smoke_generator_takes_two_recovery_tokens() -> None:
    """000 RECHARGING: "If a tripod fires using any one of its black smoke launchers, its
    generator must recharge before any launcher can fire again. After a launcher has fired,
    place on the tripod's console two recovery tokens in the Black Smoke generator box.
    Remove one token at the beginning of each following phase. If a tripod's console has no
    recovery tokens at the beginning of a phase, then the generator is recharged". Tokens
    checked before one is removed, as for the heat-ray (ruling T7): the two phases after
    a shot have none."""
    every = [smoke(), smoke(), smoke()]
    game = smoke_game(actions=every, at_planning=True)
    for _ in range(3):
        game.phase()
    game.turn({"t": tplan(*STILL_PLAN, actions=every), "p": plan(*CRUISE, fire=list(HOLD))})
    game.phase()
    assert [(t, ph) for t, ph, _ in phases_of(game.events, SmokeCloud)] == [(1, 1), (2, 1)]
    wasted = [(t, ph) for t, ph, e in phases_of(game.events, ActionWasted)]
    assert wasted == [(1, 2), (1, 3)]
    assert energy_of(game.state) == MK1.energy - 2


@pytest.mark.parametrize(
    ("how", "dispersed"),
    [("base", True), ("card", True), ("beside", False)],
)
def test_airplane_flying_into_a_black_smoke_cloud_draws_a_z_card(how: str, dispersed: bool) -> None:
    """000 BLACK SMOKE DAMAGE: "Should a vehicle maneuver card or a vehicle itself be
    positioned overlapping a Black smoke cloud token, the cloud is dissipated and removed,
    and the vehicle must draw 1 damage card drawn from the Z deck. Airplanes take full
    damage from the Black Smoke". An airplane ending on the cloud, or whose card passes
    over it, draws; one flying past does not, and the cloud stays (000: "Black-smoke clouds
    remain on the board until dispersed")."""
    game = smoke_game()
    stand = stands_of(game.state)[0]
    game.phase({"t": Action.model_validate(smoke(at=stand))})
    (cloud,) = game.state.clouds
    beyond = cloud.radius + HALF_L + 1.0  # the base ends clear of the cloud
    end = {
        "base": (cloud.x, cloud.y, 90.0),
        "card": (cloud.x, cloud.y + beyond, 90.0),
        "beside": (cloud.x + 15.0, cloud.y, 90.0),
    }[how]
    events = game.phase(p=end)
    gone = of(events, CloudDispersed)
    if dispersed:
        assert [(e.cloud, e.vehicle) for e in gone] == [(cloud.id, "p")]
        (hit,) = drawn_by(events, "p")
        assert (hit.deck, hit.cards, hit.points) == ("Z", tuple(plain("Z", 2)), 2)
        assert game.state.clouds == []
    else:
        assert gone == [] and drawn_by(events, "p") == []
        game.phase()
        assert game.state.clouds == [cloud]


def test_tripod_walking_into_a_black_smoke_cloud_removes_it_unharmed() -> None:
    """000 BLACK SMOKE DAMAGE: "Airplanes take full damage from the Black Smoke, while
    tripods are completely unaffected (but the cloud is removed anyway)." A second Locust
    walks onto the cloud."""
    stand = stands_of(smoke_game().state)[0]
    step = STEPS[0]
    card = next(c for c in CATALOG.tripod_decks[MK1.maneuver_deck].cards if c.id == step)
    stride = card.forward + 2.0 * APOTHEM  # it ends with its centre on the stand
    walks = [tplan(STANDS[0], step, STANDS[1])]
    game = smoke_game(tripod("u", stand[0] - stride, stand[1], 0.0, plans=walks))
    game.phase({"t": Action.model_validate(smoke(at=stand))})
    (cloud,) = game.state.clouds
    events = game.phase()
    assert [(e.cloud, e.vehicle) for e in of(events, CloudDispersed)] == [(cloud.id, "u")]
    assert drawn_by(events, "u") == []
    assert game.state.vehicles["u"].damage == 0
    assert game.state.clouds == []
