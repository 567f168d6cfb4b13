"""The reveal of secret action cards (001, "Tripods vs. Tripods"): one tripod at a time in
initiative order, each placing its action token for a direction when its card needs one.

001: "When it's time to act, the player controlling a tripod shows its action card and,
if required, places the action token to specify its facing change or fire direction."
A revealed heat-ray card (which projector fires) or change-of-facing card (how many
sides, which way) asks its seat a decision (:mod:`dogfight.rules.decisions`) when its
turn to reveal comes, shown the cards revealed before it. Tripods of one team with the
same initiative "act at the same time": their decisions are asked together. The default
is the direction written with the card in the plan, so a phase nobody answers resolves
as the plan says (docs/rulings.md V2).
"""

from __future__ import annotations

from typing import Any

from dogfight.rules import events as ev
from dogfight.rules.decisions import Answer, Decision
from dogfight.rules.phase import Phase
from dogfight.rules.plans import Action
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import card_of_phase, secret_action_cards
from dogfight.rules.versus import reveal_order

KIND = "action_direction"
"""The kind of the decision (:attr:`Decision.kind`)."""

RULE = (
    "001: \"When it's time to act, the player controlling a tripod shows its action card "
    "and, if required, places the action token to specify its facing change or fire "
    'direction."'
)


def detail(action: Action | None) -> str:
    """What a revealed card says beside its name: the projector, the turn, the objective."""
    if action is None:
        return "no card"
    if action.token in ("heat_ray", "black_smoke"):
        return f"{action.projector}"
    if action.token == "change_facing":
        return f"{action.sides:+d} sides"
    return action.objective or ""


def directions(state: GameState, vehicle: Vehicle, action: Action) -> tuple[str, ...]:
    """The directions the card lets the token give: a heat-ray card, the model's
    projectors; a change of facing, 1 to the model's limit of sides either way (``+n``
    to the left, ``-n`` to the right). Empty: the card needs no direction."""
    model = state.rules.tripod(vehicle.type)
    if action.token == "heat_ray":
        return tuple(model.projectors)
    if action.token == "change_facing":
        return tuple(f"{sign * n:+d}" for n in range(1, model.facing_limit + 1) for sign in (1, -1))
    return ()


def written(action: Action) -> str:
    """The direction written with the card in the plan: the decision's default."""
    if action.token == "change_facing":
        return f"{action.sides:+d}"
    return f"{action.projector}"


def placed(action: Action, answer: Answer) -> Action:
    """The action with the direction the token was placed in."""
    (chosen,) = answer
    if chosen == written(action):
        return action
    if action.token == "change_facing":
        return action.model_copy(update={"sides": int(chosen)})
    return action.model_copy(update={"projector": chosen})


def decision(
    state: GameState,
    phase: int,
    vehicle: Vehicle,
    action: Action,
    before: list[dict[str, Any]],
) -> Decision | None:
    """The direction a revealed card asks of its seat (None: nothing to choose)."""
    if vehicle.plan is None or vehicle.plan.automated:
        return None  # the Automated Tripod's direction follows 001's procedure
    options = directions(state, vehicle, action)
    if len(options) < 2:
        return None
    default = written(action)
    return Decision.one_of(
        KIND,
        vehicle.id,
        (state.turn, phase),
        options,
        default,
        RULE,
        {
            "card": action.token,
            "target": action.target if action.token == "heat_ray" else None,
            "revealed": [dict(r) for r in before],
        },
    )


def reveal(ph: Phase) -> None:
    """Show every standing tripod's action card in initiative order, each group of a team
    with the same initiative placing its direction tokens after seeing the cards shown
    before it; the effects come afterwards, all together, in the tripods' actions step."""
    state = ph.state
    if not secret_action_cards(state):
        return
    standing = [
        v
        for v in state.in_play()
        if v.tripod is not None
        and v.tripod.toppled < 2
        and card_of_phase(state, v, ph.phase) is not None
    ]
    before: list[dict[str, Any]] = []
    for order, (value, drawn, group) in enumerate(reveal_order(state, standing, ph.rng), start=1):
        members = sorted(group, key=lambda v: v.id)
        asked: list[Decision] = []
        for vehicle in members:
            action = ph.chosen.get(vehicle.id)
            if action is None:
                continue
            d = decision(state, ph.phase, vehicle, action, before)
            if d is not None:
                asked.append(d)
        answers = ph.asking.ask(asked) if asked else {}
        for d in asked:
            action = ph.chosen[d.vehicle]
            assert action is not None
            ph.chosen[d.vehicle] = placed(action, answers[d.id])
        for vehicle in members:
            action = ph.chosen.get(vehicle.id)
            token = "none" if action is None else action.token
            shown = detail(action)
            ph.events.append(ev.ActionCardRevealed(vehicle.id, token, shown, value, order, drawn))
            before.append(
                {
                    "vehicle": vehicle.id,
                    "card": token,
                    "detail": "" if action is None else shown,
                    "order": order,
                }
            )
