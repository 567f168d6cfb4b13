"""How a computer player chooses a tripod's action token at the start of a phase (000:
"At the start of each Movement step, all Tripod players may choose an Action token"),
a decision of :mod:`dogfight.rules.action_tokens`, from the table as it stands then.

The choice follows the Martian bot's planning (:mod:`dogfight.bots.tripod_planner`), made
again with what the previous phase showed: fire the heat-ray when it is among the options
and the nearest enemy is within reach (one Energy kept for the armour), through the
projector facing it most squarely; else recharge on a standing still card when short of
Energy; else what the plan pencilled in; else turn towards the nearest enemy when the card
lets the tripod turn and the enemy is off its front; with secret action cards, a blank
card now and then so that an empty console tells nothing; else no token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dogfight.bots.direction import bearing_off, nearest_enemy
from dogfight.geometry.hexbase import Side
from dogfight.rules.action_tokens import BLANK, NONE
from dogfight.rules.context import Rules
from dogfight.rules.decisions import Answer, Decision

REACH_MARGIN = 12.0
"""How far beyond the ruler an enemy may stand and still be worth a heat-ray token (it
moves before the firing step), as the Martian bot's phase actions allow."""


def choose_token(
    observation: Mapping[str, Any], rules: Rules, decision: Decision, rng: np.random.Generator
) -> Answer:
    """This phase's token for ``decision.vehicle`` (always one of the options)."""
    options = decision.options
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[decision.vehicle]
    heading = float(me["pose"]["heading"])
    energy, rating = int(me.get("energy", 0)), int(me.get("energy_rating", 0))
    enemy = nearest_enemy(observation, decision.vehicle)
    rays = [o for o in options if o.startswith("heat_ray:") and "@" not in o]
    if rays and enemy is not None and energy >= 2:
        distance, bearing = enemy
        if distance <= rules.heat_ray_ruler(me["type"]).length + REACH_MARGIN:
            return (min(rays, key=lambda o: _aim(heading, o, bearing)),)
    recharges = [o for o in options if o.startswith("recharge")]
    planned = decision.default[0]
    if recharges and energy < rating:
        return (planned if planned in recharges else recharges[0],)
    if planned != NONE and planned in options and not planned.startswith("heat_ray"):
        return (planned,)
    turns = [o for o in options if o.startswith("change_facing:")]
    if turns and enemy is not None:
        best = min(turns, key=lambda o: _aim(heading, o, enemy[1]))
        if _aim(heading, best, enemy[1]) + 30.0 < bearing_off(heading, enemy[1]):
            return (best,)
    if BLANK in options and rng.random() < 0.5:
        return (BLANK,)
    return (NONE,)


def _aim(heading: float, option: str, bearing: float) -> float:
    """How far off ``bearing`` the option points: a heat-ray's projector side, or the
    front once a change of facing has turned the base."""
    arg = option.split(":")[1]
    sides = int(arg) if option.startswith("change_facing") else int(Side.parse(arg))
    return bearing_off(heading + 60.0 * sides, bearing)
