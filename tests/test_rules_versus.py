"""Tripods vs. Tripods (001, "TRIPODS VS. TRIPODS RULES"): tripods of two factions, secret
action cards revealed in initiative order, heat-rays at tripods with the airplane A and B
decks, the electrified armour against heat-rays and the Energy test at the start of the
firing step.

Tables are laid out by hand as in ``test_rules_tripods.py``: stacked damage decks make
every outcome exact.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from conftest import Json, of, plain, plane, run, situation
from test_rules_tripods import (
    APOTHEM,
    CATALOG,
    LOCUST,
    SCARAB,
    STILL_PLAN,
    X0,
    Y0,
    bare_explosion,
    cards,
    drawn,
    energy,
    planned,
    ray,
    tplan,
    tripod,
)

from dogfight.errors import DataError, IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import preview_targets, resolve_phase
from dogfight.rules.events import ActionCardRevealed, ActionWasted, HeatRay, ProtectedHit
from dogfight.situation.format import build, parse_situation

SEP = 20.0  # centre to centre, cm


def still_cards(model: str = LOCUST) -> tuple[str, str, str]:
    """Three cards of ``model``'s deck, standing still first (then reverses, runs)."""
    quiet = [*cards(model, "stand"), *cards(model, "reverse"), *cards(model, "run")]
    return (quiet[0], quiet[1], quiet[2])


def still(model: str = LOCUST, first: Json | None = None) -> list[Json]:
    return [tplan(*still_cards(model), actions=[first, None, None])]


def facing_pair(
    first: Json | None = None, second: Json | None = None, **kw: Any
) -> tuple[Json, Json]:
    """Two Locusts of opposite sides 20 cm apart, front to front, each firing its front
    projector in phase 1."""
    fire = [tplan(*STILL_PLAN, actions=[ray("front"), None, None])]
    earth = tripod("e", X0, Y0, 90.0, side="earth", pilot="human", plans=fire)
    mars = tripod("m", X0, Y0 + SEP, 270.0, plans=fire)
    earth.update(first or {})
    mars.update(second or {})
    return earth, mars


def test_opposite_tripods_hit_each_other_with_heat_rays() -> None:
    """001 FIRING TRIPODS: "When a heat-ray projector fires against another tripod, the
    player of the target draws damage cards from the airplane A deck if the firing
    tripod's firepower is X, or from the airplane B deck if the firing tripod's firepower
    is Y." Two opposite Locusts 20 cm apart, front to front: both rays reach."""
    assert CATALOG.constants.tripods.medium.length > SEP - 2 * APOTHEM
    _, events = run(situation(*facing_pair()), phases=1)
    shots = {e.firer: e.target for e in of(events, HeatRay)}
    assert shots == {"e": "m", "m": "e"}


def earth_martian(
    earth_kw: dict[str, Any] | None = None,
    mars_kw: dict[str, Any] | None = None,
    stack: list[str] | None = None,
) -> Json:
    earth, mars = facing_pair(earth_kw, mars_kw)
    return situation(earth, mars, damage_decks={"A": stack or []})


def ray_hits(events: list[Any], target: str) -> list[Any]:
    return [e for e in events if getattr(e, "vehicle", None) == target]


def test_heat_ray_across_protected_side_costs_energy() -> None:
    """001: "If the tripod is hit across a side protected by its electrified armor, and the
    tripod has at least 1 energy counter in its reserve, all damage cards drawn by the
    targeted player are immediately revealed: Any numerical damage means that the same
    number of energy counters are discarded. Any special damage and jammed guns icons are
    ignored." Front to front, each ray crosses the other's armoured front: the 2 and the 3
    cost Energy, not damage. The Locust fires X: the A deck."""
    assert CATALOG.tripods[LOCUST].tripod_firepower == "X"
    sit = earth_martian(stack=plain("A", 2, 3))
    state, events = run(sit, phases=1)
    hits = {e.vehicle: e for e in of(events, ProtectedHit)}
    assert hits["m"].deck == "A" and hits["m"].energy_lost == 2
    assert hits["e"].energy_lost == 3
    assert all(e.protected for e in of(events, HeatRay))
    assert state.vehicles["e"].damage == 0 and state.vehicles["m"].damage == 0
    # each spent 1 to fire, then lost what the card said
    assert energy(state, "e") == 4 - 1 - 3 and energy(state, "m") == 4 - 1 - 2


def test_heat_ray_explosion_on_protected_side_empties_the_reserve() -> None:
    """001: "An explosion icon means that the tripod must discard all of its energy
    counters." """
    sit = earth_martian(stack=[bare_explosion("A"), *plain("A", 0, 0)])
    state, _events = run(sit, phases=1)
    assert energy(state, "m") == 0
    assert state.vehicles["m"].damage == 0


def test_heat_ray_across_unprotected_side_doubles_the_damage() -> None:
    """001: "If the tripod is hit across a side not protected by its electrified armor, or
    while toppled: Any numerical damage means that damage points inflicted are twice that
    number." The Earth Locust turned away shows its bare rear to the Martian's ray."""
    earth, mars = facing_pair()
    earth["pose"]["heading"] = 270.0
    state, events = run(situation(earth, mars, damage_decks={"A": plain("A", 3)}), phases=1)
    (shot,) = [e for e in of(events, HeatRay) if e.firer == "m"]
    assert shot.target == "e" and shot.protected is False
    (hit,) = drawn(events, "e")
    assert hit.points == 6 and state.vehicles["e"].damage == 6


def test_heat_ray_explosion_on_unprotected_side_costs_half_the_initial_resistance() -> None:
    """001: "An explosion icon means that the tripod loses half of its initial
    resistance." """
    earth, mars = facing_pair()
    earth["pose"]["heading"] = 270.0
    stack = [bare_explosion("A")]
    state, _ = run(situation(earth, mars, damage_decks={"A": stack}), phases=1)
    assert state.vehicles["e"].damage == math.ceil(CATALOG.tripods[LOCUST].damage / 2)


def test_toppled_tripod_is_hit_unprotected() -> None:
    """001: "If the tripod is hit across a side not protected by its electrified armor, or
    while toppled" -- a toppled Locust takes the Martian's ray on its armoured front at
    double damage. 000: "A toppled tripod is considered to be at zero Energy"."""
    lying = {"toppled": 2, "plans": [tplan(STILL_PLAN[2], actions=[None, None, None])]}
    earth, mars = facing_pair(lying)
    _state, events = run(situation(earth, mars, damage_decks={"A": plain("A", 2)}), phases=1)
    (hit,) = drawn(events, "e")
    assert hit.points == 4


def test_scarab_fires_y_with_the_b_deck() -> None:
    """001: "or from the airplane B deck if the firing tripod's firepower is Y." """
    assert CATALOG.tripods[SCARAB].tripod_firepower == "Y"
    earth, mars = facing_pair()
    earth["pose"]["heading"] = 270.0
    mars["type"] = SCARAB
    mars["plans"] = still(SCARAB, ray("front"))
    _state, events = run(situation(earth, mars, damage_decks={"B": plain("B", 2)}), phases=1)
    (hit,) = drawn(events, "e")
    assert hit.deck == "B" and hit.points == 4


def test_energy_test_at_the_start_of_the_firing_step() -> None:
    """001: "All damage inflicted in the same firing step, regardless of its source, is
    resolved simultaneously ... if at the start of the firing step the tripod has at least
    1 energy counter in its reserve, all shots across protected sides are considered
    protected by the armor, even if some of these cards bring the energy of the target to
    0 before others are considered (that is, further damage cards across protected sides
    in the same firing step are ignored)." The Earth Locust has 1 Energy and spends it on
    its own ray; two Martian rays hit its armoured front: the first card takes nothing
    left, the second is ignored -- no damage."""
    fire = [tplan(*STILL_PLAN, actions=[ray("front"), None, None])]
    earth = tripod("e", X0, Y0, 90.0, side="earth", pilot="human", energy=1, plans=fire)
    m1 = tripod("m1", X0 - 6.0, Y0 + SEP, 270.0, plans=fire)
    m2 = tripod("m2", X0 + 6.0, Y0 + SEP, 270.0, plans=fire)
    stack = plain("A", 0, 1, 3, 2)  # e's ray (a 0 then a 1 at short range), then m1, m2
    state, events = run(situation(earth, m1, m2, damage_decks={"A": stack}), phases=1)
    at_e = [e for e in of(events, HeatRay) if e.target == "e"]
    assert len(at_e) == 2 and all(e.protected for e in at_e)
    assert [h.energy_lost for h in of(events, ProtectedHit) if h.vehicle == "e"] == [0, 0]
    assert state.vehicles["e"].damage == 0 and energy(state, "e") == 0


def order_of(events: list[Any]) -> list[tuple[str, int]]:
    return [(e.vehicle, e.order) for e in of(events, ActionCardRevealed)]


def test_initiative_order_highest_first_human_before_martian() -> None:
    """001: "tripod players show them one at a time, according to the initiative values
    indicated in the table below, starting with the highest initiative value and then
    proceeding in descending order." MK. II SCARAB WITH HUMAN PILOT 7, WITH MARTIAN PILOT
    6; MK. I LOCUST WITH HUMAN PILOT 3, WITH MARTIAN PILOT 2; MK. III SQUID 1 and 0."""
    blank = {"token": "blank"}
    vehicles = [
        tripod("hl", 10.0, 10.0, side="earth", pilot="human", plans=still(LOCUST, blank)),
        tripod("ms", 30.0, 80.0, 270.0, model=SCARAB, plans=still(SCARAB, blank)),
        tripod(
            "hs", 50.0, 10.0, model=SCARAB, side="earth", pilot="human", plans=still(SCARAB, blank)
        ),
        tripod("mq", 70.0, 80.0, 270.0, model="mk3-squid", plans=still("mk3-squid", blank)),
        tripod("ml", 80.0, 80.0, 270.0, plans=still(LOCUST, blank)),
    ]
    _, events = run(situation(*vehicles), phases=1)
    assert order_of(events) == [("hs", 1), ("ms", 2), ("hl", 3), ("ml", 4), ("mq", 5)]
    assert [e.initiative for e in of(events, ActionCardRevealed)] == [7, 6, 3, 2, 0]
    assert {e.token for e in of(events, ActionCardRevealed)} == {"blank"}


def test_same_initiative_same_team_act_together() -> None:
    """001: "If two tripods with the same initiative belong to the same team, they act at
    the same time." """
    vehicles = [
        tripod("a", 10.0, 80.0, 270.0),
        tripod("b", 30.0, 80.0, 270.0),
        tripod("e", 50.0, 10.0, side="earth", pilot="human"),
    ]
    _, events = run(situation(*vehicles), phases=1)
    assert order_of(events) == [("e", 1), ("a", 2), ("b", 2)]
    assert not any(e.drawn for e in of(events, ActionCardRevealed))


def test_same_initiative_opposite_teams_drawn_by_the_seeded_generator() -> None:
    """001: "If they belong to different teams, determine randomly who goes first." Two
    Martian-piloted Locusts of opposite factions: the seed decides, the same seed the same
    way, and both orders happen."""
    sit = situation(
        tripod("x", 10.0, 80.0, 270.0, side="red"),
        tripod("y", 50.0, 10.0, side="blue"),
    )
    firsts = set()
    for seed in range(12):
        _, events = run(sit, seed=seed, phases=1)
        revealed = of(events, ActionCardRevealed)
        assert all(e.drawn for e in revealed)
        assert sorted(e.order for e in revealed) == [1, 2]
        firsts.add(min(revealed, key=lambda e: e.order).vehicle)
        _, again = run(sit, seed=seed, phases=1)
        assert order_of(again) == order_of(events)
    assert firsts == {"x", "y"}


def test_blank_card_only_with_secret_action_cards() -> None:
    """001: "A tripod player can place a blank card to pretend he is executing an action
    when he is not." It costs nothing; against airplanes only (000's open action tokens)
    the blank card does not exist and is refused."""
    blank = [tplan(*STILL_PLAN, actions=[{"token": "blank"}, None, None])]
    earth, mars = facing_pair(None, {"plans": blank})
    _state, events = run(situation(earth, mars), phases=1)
    assert ("m", "blank") in [(e.vehicle, e.token) for e in of(events, ActionCardRevealed)]
    assert not [e for e in of(events, ActionWasted) if e.vehicle == "m"]
    alone = situation(tripod("m", plans=blank), plane("p", "spad-vii", "earth", 10.0, 10.0))
    with pytest.raises(DataError, match="blank action card"):
        run(alone, phases=1)


def test_chosen_target_out_of_reach_is_reported_as_a_miss() -> None:
    """000: "If a target is beyond a tripod's range it cannot be hit." The ray chosen at a
    tripod 40 cm away fires (000: "Firing is mandatory") and the event says why it missed
    -- never a silent empty target."""
    fire = [tplan(*STILL_PLAN, actions=[ray("front", "m"), None, None])]
    earth = tripod("e", X0, Y0, 90.0, side="earth", pilot="human", plans=fire)
    mars = tripod("m", X0, Y0 + 40.0, 270.0)
    _, events = run(situation(earth, mars), phases=1)
    (shot,) = of(events, HeatRay)
    assert shot.target is None and shot.reason is not None and "m" in shot.reason


def test_action_for_a_toppled_phase_is_refused() -> None:
    """000: "If, during a planning phase, a tripod is laying down, the player may only
    plan three cards minus the reminder tokens on the "toppled" box, for the last phases
    of the turn": an action card for phase 1 of a tripod lying with 1 token is refused."""
    lying = {
        "toppled": 1,
        "plans": [tplan(*STILL_PLAN[:2], actions=[{"token": "blank"}, None, None])],
    }
    earth, mars = facing_pair(lying)
    with pytest.raises(DataError, match="lying down"):
        run(situation(earth, mars), phases=1)


def test_human_pilot_needs_an_initiative_in_the_catalog() -> None:
    """001's INITIATIVE table names the human-piloted models; a human pilot on a model the
    catalog gives no initiative for is refused, with the rule quoted."""
    tripods = dict(CATALOG.tripods)
    tripods[LOCUST] = tripods[LOCUST].model_copy(update={"initiative": None})
    cat = dataclasses.replace(CATALOG, tripods=tripods)
    earth, mars = facing_pair()
    with pytest.raises(DataError, match="initiative"):
        build(parse_situation(situation(earth, mars)), cat, 0)


def test_heat_ray_target_named_after_movement_must_be_reached() -> None:
    """000: "Each tripod can fire at a single target each round, choosing one if there are
    several possible targets." / "If a target is beyond a tripod's range it cannot be
    hit." The table knows who the ruler reaches once everything has moved: the preview
    lists the tripod's targets, a target it reaches is taken, one it does not is refused
    (nothing resolved)."""
    fire = [tplan(*STILL_PLAN, actions=[ray("front"), None, None])]
    earth = tripod("e", X0, Y0, 90.0, side="earth", pilot="human", plans=fire)
    near = tripod("m", X0, Y0 + SEP, 270.0)
    far = tripod("far", X0 + 30.0, Y0 + 45.0, 270.0)
    sit = situation(earth, near, far, damage_decks={"A": plain("A", 2, 2)})
    state = planned(sit)
    rng = step_rng(0, 1, 1)
    assert preview_targets(state, rng)["e"]["heat_ray"] == ["m"]
    with pytest.raises(IllegalPlanError, match="not reached"):
        resolve_phase(state, step_rng(0, 1, 1), fire={"e": {"heat_ray": "far"}})
    with pytest.raises(IllegalPlanError, match="mandatory"):
        resolve_phase(state, step_rng(0, 1, 1), fire={"e": {"heat_ray": "none"}})
    _, events = resolve_phase(state, step_rng(0, 1, 1), fire={"e": {"heat_ray": "m"}})
    assert [(e.firer, e.target) for e in of(events, HeatRay)] == [("e", "m")]
