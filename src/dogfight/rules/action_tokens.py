"""A tripod's action token chosen at the start of each action phase (000, 001): a decision.

000: "At the start of each Movement step, all Tripod players may choose an Action token
and place it face up in the space of the tripod's console corresponding to the first
planned maneuver"; "During the second action phase, all Tripod players may choose to play
an Action token on the second planned maneuver card." 001, where action cards are secret
(:func:`dogfight.rules.tripods.secret_action_cards`): "in each movement phase each
tripod's player must choose their action card in secret and place it face down", shown
later in initiative order (:mod:`dogfight.rules.tripod_reveal`); "A tripod player can
place a blank card to pretend he is executing an action when he is not."

So the token is a :class:`~dogfight.rules.decisions.Decision` of the tripod's seat, asked
when the phase begins (after the previous one resolved, the table as it stands), one per
standing tripod with a card this phase, all asked together ("The Tripod players are free
to discuss and coordinate their choices"). Under 000 the token is public once placed
(:class:`~dogfight.rules.events.ActionTokenPlaced`); under 001 the card is secret to its
seat until its reveal (the same event, seen whole by its seat alone).

The rule switch ``actions_at_planning`` (a house rule for games played a turn a day)
keeps the old way: the three tokens are written in the plan and nothing is asked. With
it off an action written in a plan is only the decision's default (what a table that
resolves without asking — ``adjudicate``, ``simulate`` — takes).

The answer is one option string (:func:`encode` / :func:`decode`; the same text terminal
play reads):

- ``none``: no token; ``blank``: 001's blank card (only with secret action cards);
- ``heat_ray:SIDE`` (the nearest target it reaches) or ``heat_ray:SIDE@TARGET`` (an enemy,
  or a bomber's falling bombs ``bombs:ID``);
- ``black_smoke:SIDE`` (the cloud towards the nearest enemy airplane) or
  ``black_smoke:SIDE@AIRPLANE`` (towards that airplane; ``@X,Y``: towards a point);
- ``change_facing:+N`` (N sides to the left) / ``change_facing:-N`` (to the right);
- ``recharge`` / ``recharge:OBJECTIVE``; ``destroy_objective`` / ``destroy_objective:OBJECTIVE``.

The options are the legal ones only: a token the rules forbid now (the STOP icon, a
green token on a card that is not standing still, a heat-ray cooling down, no Energy, a
wounded pilot firing while moving, the gyroscopes out of order...) is refused with the
rule quoted (:attr:`~dogfight.rules.decisions.Decision.reasons`).
"""

from __future__ import annotations

from typing import Any

from dogfight.catalog.models import TripodSymbol
from dogfight.errors import IllegalPlanError
from dogfight.rules import events as ev
from dogfight.rules import standard
from dogfight.rules.decisions import Decision
from dogfight.rules.phase import Phase
from dogfight.rules.plans import AUTO, GREEN_TOKENS, Action
from dogfight.rules.state import BY_ID, GameState, Vehicle
from dogfight.rules.tripods import (
    BOMBS_PREFIX,
    card_of_phase,
    check_action,
    secret_action_cards,
)

KIND = "action_token"
"""The kind of the decision (:attr:`Decision.kind`)."""

NONE = "none"
BLANK = "blank"

RULE_FACE_UP = (
    '000: "At the start of each Movement step, all Tripod players may choose an Action '
    "token and place it face up in the space of the tripod's console corresponding to the "
    'first planned maneuver"'
)
RULE_FACE_DOWN = (
    "001: \"in each movement phase each tripod's player must choose their action card in "
    'secret and place it face down"; "A tripod player can place a blank card to pretend he '
    'is executing an action when he is not."'
)
STOP_RULE = (
    '000: "A Tripod player is not allowed to place an Action token if the planned card has '
    'the [STOP] icon."'
)
GREEN_RULE = (
    '000: "A Tripod player can place a green Action token (Change Facing, Recharge, Destroy '
    'Objective) only when the planned card is a standing still card."'
)
BLANK_RULE = (
    'the blank action card is played only with secret action cards (001: "When two opposite '
    'factions have at least one tripod each" / "When bombers are involved")'
)
COOLING_RULE = (
    "000: \"When a tripod's console has no recovery tokens at the beginning of a phase, "
    'then the tripod is ready"'
)
ENERGY_RULE = '000: a projector fires by putting 1 Energy on it ("it does not fire" without)'


def asked(state: GameState) -> bool:
    """Whether tokens are chosen phase by phase (the printed rules), not at planning."""
    return not state.rules.switches.actions_at_planning


def encode(action: Action | None) -> str:
    """An action as its option string (the inverse of :func:`decode`)."""
    if action is None:
        return NONE
    token = action.token
    if token == "blank":
        return BLANK
    if token == "heat_ray":
        aim = "" if action.target == AUTO else f"@{action.target}"
        return f"heat_ray:{action.projector}{aim}"
    if token == "black_smoke":
        at = "" if action.at is None else f"@{action.at[0]:g},{action.at[1]:g}"
        return f"black_smoke:{action.projector}{at}"
    if token == "change_facing":
        return f"change_facing:{action.sides or 0:+d}"
    return token if action.objective is None else f"{token}:{action.objective}"


def decode(text: str, state: GameState | None = None) -> Action | None:
    """The action an option string names; ``state`` places ``black_smoke:SIDE@AIRPLANE``
    at that airplane. :class:`IllegalPlanError` for text that names no token."""
    text = text.strip()
    if text in ("", "-", NONE):
        return None
    if text == BLANK:
        return Action(token="blank")
    token, _, arg = text.partition(":")
    try:
        if token == "heat_ray":
            side, _, target = arg.partition("@")
            return Action.model_validate(
                {"token": token, "projector": side or "front", "target": target or AUTO}
            )
        if token == "black_smoke":
            side, _, where = arg.partition("@")
            at: tuple[float, float] | None = None
            if where and state is not None and where in state.vehicles:
                at = state.vehicles[where].pose.point
            elif where:
                x, _, y = where.partition(",")
                at = (float(x), float(y))
            return Action.model_validate({"token": token, "projector": side or "rear", "at": at})
        if token == "change_facing":
            return Action.model_validate({"token": token, "sides": int(arg or "1")})
        if token in ("recharge", "destroy_objective"):
            return Action.model_validate({"token": token, "objective": arg or None})
    except ValueError as exc:  # pydantic's ValidationError is one
        raise IllegalPlanError(f"action {text!r}: {exc}") from None
    raise IllegalPlanError(
        f"action {text!r}: none, blank, heat_ray:SIDE[@TARGET], black_smoke:SIDE[@AIRPLANE], "
        "change_facing:+N/-N, recharge[:OBJECTIVE] or destroy_objective[:OBJECTIVE]"
    )


def _candidates(state: GameState, vehicle: Vehicle) -> list[str]:
    """Every token with its parameters this tripod could ever place now, before the
    restrictions of this phase's card and console."""
    model = state.rules.tripod(vehicle.type)
    enemies = sorted(v.id for v in state.in_play() if v.side != vehicle.side)
    targets = [
        *enemies,
        *(
            f"{BOMBS_PREFIX}{b.id}"
            for b in sorted(state.in_play(), key=BY_ID)
            if b.bomber and b.side != vehicle.side
        ),
    ]
    planes = [v.id for v in state.in_play() if v.side != vehicle.side and v.tripod is None]
    planes.sort()
    out = [NONE, BLANK]  # the blank card is refused where tokens are open
    for side in model.projectors:
        out.append(f"heat_ray:{side}")
        out.extend(f"heat_ray:{side}@{t}" for t in targets)
    if state.rules.switches.standard_rules:
        for side in model.smoke_projectors:
            out.append(f"black_smoke:{side}")
            out.extend(f"black_smoke:{side}@{p}" for p in planes)
    for n in range(1, model.facing_limit + 1):
        out.extend((f"change_facing:{n:+d}", f"change_facing:{-n:+d}"))
    objectives = sorted(o for o, obj in state.objectives.items() if not obj.destroyed)
    for token in ("recharge", "destroy_objective"):
        out.append(token)
        out.extend(f"{token}:{o}" for o in objectives)
    return out


def why_not(state: GameState, vehicle: Vehicle, phase: int, action: Action) -> str | None:
    """Why this token cannot be placed on this phase's card now (None: it can), the
    rule quoted."""
    tripod = vehicle.tripod
    card = card_of_phase(state, vehicle, phase)
    assert tripod is not None and card is not None
    token = action.token
    if token == "blank":
        return None if secret_action_cards(state) else BLANK_RULE
    if card.stop:
        return f"card {card.id} has the Stop icon: {STOP_RULE}"
    if token in GREEN_TOKENS and card.symbol is not TripodSymbol.STAND:
        return f"card {card.id} is not a standing still card: {GREEN_RULE}"
    if token in ("heat_ray", "black_smoke"):
        if (tripod.cooling if token == "heat_ray" else tripod.smoke_recovery) > 0:
            what = "heat-ray" if token == "heat_ray" else "black smoke generator"
            return f"the {what} is recovering: {COOLING_RULE}"
        if tripod.energy < 1:
            return f"no Energy: {ENERGY_RULE}"
    secret = standard.secretly_forbidden(state, vehicle, token)  # its own seat is asked
    if secret is not None:
        return secret
    if standard.action_forbidden(state, vehicle, token, card) is not None:
        return (
            'a wounded pilot: 000: "A wounded tripod pilot cannot choose a firing Action '
            'token (Heat-ray or Black Smoke) in combination with a movement maneuver."'
        )
    try:
        check_action(state, vehicle, action, phase)
    except IllegalPlanError as exc:
        return str(exc)
    return None


def decision(state: GameState, phase: int, vehicle: Vehicle, default: Action | None) -> Decision:
    """The token ``vehicle``'s seat places this phase: the legal options, the refused
    ones with their reason, the planned action (or none) as the default."""
    options: list[str] = []
    reasons: dict[str, str] = {}
    for option in _candidates(state, vehicle):
        action = decode(option, state)
        why = None if action is None else why_not(state, vehicle, phase, action)
        if why is None:
            options.append(option)
        else:
            reasons[option] = why
    written = encode(default)
    if (
        written not in options
        and written not in reasons
        and default is not None
        and why_not(state, vehicle, phase, default) is None
    ):
        options.append(written)  # pencilled with parameters no option names (a smoke point)
    card = card_of_phase(state, vehicle, phase)
    assert card is not None and vehicle.tripod is not None
    secret = secret_action_cards(state)
    shown: dict[str, Any] = {
        "card": card.id,
        "symbol": card.symbol.value,
        "stop": card.stop,
        "energy": vehicle.tripod.energy,
        "face": "down" if secret else "up",
    }
    return Decision.one_of(
        KIND,
        vehicle.id,
        (state.turn, phase),
        options,
        written if written in options else NONE,
        RULE_FACE_DOWN if secret else RULE_FACE_UP,
        shown,
        reasons,
    )


def choosers(state: GameState, phase: int) -> list[Vehicle]:
    """The tripods whose seat chooses a token this phase: standing (or standing up as the
    phase begins) with a card planned for it, not automated (the Automated Tripod's token
    follows 001's procedure, given with its card)."""
    out = []
    for v in sorted(state.in_play(), key=BY_ID):
        tripod = v.tripod
        if tripod is None or v.plan is None or v.plan.automated or tripod.toppled > 1:
            continue
        if card_of_phase(state, v, phase) is not None:
            out.append(v)
    return out


def choose(ph: Phase) -> None:
    """Ask each tripod's seat its token for this phase (all at once) and place them: face
    up (000) or face down (001's secret action cards)."""
    state = ph.state
    if not asked(state):
        return
    tripods = choosers(state, ph.phase)
    if not tripods:
        return
    asked_now = [decision(state, ph.phase, v, ph.chosen.get(v.id)) for v in tripods]
    answers = ph.asking.ask(asked_now)
    secret = secret_action_cards(state)
    for d in asked_now:
        (text,) = answers[d.id]
        action = decode(text, state)
        aim = ph.aims.get(d.vehicle)
        if aim is not None:
            # a target named once the table knew who the ray reaches (the firing step)
            if action is None or action.token != "heat_ray":
                raise IllegalPlanError(f"{d.vehicle}: no heat-ray this phase to aim at {aim!r}")
            action = action.model_copy(update={"target": aim})
            check_action(state, state.vehicles[d.vehicle], action, ph.phase)
        ph.chosen[d.vehicle] = action
        # no card at all leaves the console's space empty, for every seat to see
        face_down = secret and action is not None
        ph.events.append(ev.ActionTokenPlaced(d.vehicle, ph.phase, text, face_down))
