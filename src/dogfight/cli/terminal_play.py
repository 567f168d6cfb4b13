"""A human against a bot on the terminal: each turn the human types three card ids per
airplane (and a tripod's action tokens), the bot plans from its own seat's observation,
and the phases are narrated as the human's seat sees them.

:func:`play_in_terminal` takes its input and output as functions so that a test (or
another front end) can drive it; ``dogfight play --vs BOT`` calls it with ``input`` and
``print``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.panel import Panel

from dogfight.bots.base import Bot, explanation, make, why_events
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError, DogfightError, IllegalPlanError
from dogfight.rules.action_tokens import KIND as TOKEN
from dogfight.rules.action_tokens import decode
from dogfight.rules.bombs import DROP
from dogfight.rules.chance import step_rng
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.damage import SNIPER
from dogfight.rules.decisions import Decision
from dogfight.rules.engine import allowed_symbols, pending_decisions, resolve_phase, start_turn
from dogfight.rules.events import Event, GameOver
from dogfight.rules.foresight import ghosts, warnings
from dogfight.rules.observation import observe, side_seat, visible_events
from dogfight.rules.plans import Action, Plan, check_plan_shape, plan_problems
from dogfight.rules.rockets import KIND as ROCKETS
from dogfight.rules.skill_choice import KIND as SKILL
from dogfight.rules.standard import acting
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripod_reveal import KIND as DIRECTION
from dogfight.rules.tripods import planned_cards
from dogfight.sim.run import MAX_TURNS, sides_of
from dogfight.situation.format import Situation, build
from dogfight.words.narration import describe, ending
from dogfight.words.terms import card_words, plural

QUIT = ("q", "quit", "exit")


class Quit(Exception):
    """The human asked to stop."""


def _ask(input_fn: Callable[[str], str], prompt: str) -> str:
    try:
        answer = input_fn(prompt)
    except EOFError:
        raise Quit from None
    if answer.strip().lower() in QUIT:
        raise Quit
    return answer.strip()


def _cards_line(state: GameState, vehicle: Vehicle) -> str:
    """The cards the vehicle may plan, named as the browser names them
    (:mod:`dogfight.words.terms`): ``2 straight · fast, 10 sideslip left · medium``."""
    if vehicle.tripod is not None:
        deck = state.rules.tripod_deck_of(vehicle.type)
        return ", ".join(
            card_words(c, deck) + (" · stop" if c.stop else "") + (" · Energy" if c.energy else "")
            for c in deck.cards
        )
    airplane_deck = state.rules.deck_of(vehicle.type)
    symbols = allowed_symbols(state)
    return ", ".join(
        card_words(c, airplane_deck)
        + (" · steep" if c.is_steep and c.symbol.value != "steep" else "")
        for c in airplane_deck.cards
        if c.symbol in symbols
    )


def _where(vehicle: Vehicle) -> str:
    pose = vehicle.pose
    text = f"({pose.x:.1f}, {pose.y:.1f}) heading {pose.heading:.0f}"
    if vehicle.tripod is not None:
        text += f", Energy {vehicle.tripod.energy}/{vehicle.tripod.rating}"
        if vehicle.tripod.toppled:
            text += f", toppled ({plural(vehicle.tripod.toppled, 'token')})"
    else:
        text += f", damage {vehicle.damage}/{vehicle.resistance}"
        if vehicle.previous is not None:
            text += f", last maneuver {vehicle.previous.symbol.value}"
        if vehicle.rockets:
            text += f", {plural(vehicle.rockets, 'rocket')}"
        if vehicle.bombs:
            text += f", {plural(vehicle.bombs, 'load')} of bombs"
    return text


def _parse_action(text: str) -> Action | None:
    """``-`` (none) or an action token as the phase's decision names it
    (:func:`dogfight.rules.action_tokens.decode`: ``heat_ray:front@TARGET``,
    ``recharge[:objective]``, ``change_facing:-1``, ``black_smoke:rear``, ``blank``...)."""
    try:
        return decode(text)
    except IllegalPlanError as exc:
        raise DataError("terminal", "action", text, str(exc)) from None


def _fire_choices(state: GameState, vehicle: Vehicle, text: str) -> tuple[str, ...]:
    """``auto``, ``none`` or an enemy id per phase (missing phases: ``auto``)."""
    enemies = {v.id for v in state.in_play() if v.side != vehicle.side}
    choices = tuple([*text.split(), "auto", "auto", "auto"][:3])
    for choice in choices:
        if choice not in ("auto", "none") and choice not in enemies:
            raise DataError(
                "terminal",
                "fire",
                choice,
                "auto, none or an enemy: " + ", ".join(sorted(enemies)),
            )
    return choices


def _confirm(input_fn: Callable[[str], str], question: str) -> bool:
    """Yes unless the answer starts with n (the default keeps the plan)."""
    return not _ask(input_fn, f"  {question} [Y/n]> ").lower().startswith("n")


def _human_plan(
    state: GameState,
    vehicle: Vehicle,
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
) -> Plan:
    count = planned_cards(state, vehicle) if vehicle.tripod is not None else 3
    output_fn(f"{vehicle.id} ({vehicle.type}) at {_where(vehicle)}")
    output_fn(f"  cards: {_cards_line(state, vehicle)}")
    if vehicle.tripod is not None and count < 3 - vehicle.tripod.toppled:
        output_fn(
            f"  its damage leaves it {plural(count, 'card')} it may plan: all of them, for the "
            "last phases; it stands still without a card before them (ruling SR10)"
        )
    if vehicle.clock == ONE_PHASE:
        return _human_ww2_plan(state, vehicle, input_fn, output_fn)
    if vehicle.tripod is None:
        output_fn("  fire: after the cards, '/' and auto, none or a target per phase")
    while True:
        answer = _ask(input_fn, f"  {vehicle.id}: {count} card ids> ")
        card_text, _, fire_text = answer.partition("/")
        cards = tuple(card_text.replace(",", " ").split())
        if len(cards) != count or len(set(cards)) != count:
            output_fn(f"  give {count} different card ids, separated by spaces (q to quit)")
            continue
        try:
            if vehicle.tripod is not None:
                deck = state.rules.tripod_deck_of(vehicle.type)
                for card in cards:
                    deck.card(card)
                actions: tuple[Action | None, ...] = (None, None, None)
                if state.rules.switches.actions_at_planning:  # else asked phase by phase
                    line = _ask(input_fn, "  actions for phases 1-3 (e.g. '- heat_ray:front -')> ")
                    parts = line.split() if line else []
                    actions = tuple(_parse_action(p) for p in [*parts, "-", "-", "-"][:3])
                if _warn(state, vehicle, cards, output_fn) and not _confirm(
                    input_fn, "keep this plan?"
                ):
                    continue
                return Plan(cards=cards, actions=actions)
            # the engine's own check: its refusals list only the ids that may be planned
            chosen = check_plan_shape(
                vehicle.id,
                Plan(cards=cards),
                state.rules.deck_of(vehicle.type),
                allowed_symbols(state),
                count,
            )
            fire = _fire_choices(state, vehicle, fire_text)
        except (DogfightError, ValueError) as exc:
            output_fn(f"  {exc}")
            continue
        problems = plan_problems(vehicle.previous, chosen, state.rules.restrictions)
        for problem in problems:
            output_fn(f"  illegal: card {problem.card} breaks a restriction: {problem.text}")
        found = _warn(state, vehicle, cards, output_fn)
        if (problems or found) and not _confirm(input_fn, "keep this plan?"):
            continue
        # a bomber's drop is asked in each phase, before the reveal (001), not planned
        return Plan(cards=cards, fire=fire)


def _human_ww2_plan(
    state: GameState,
    vehicle: Vehicle,
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
) -> Plan:
    """A WW2 airplane's Earthling turn: one card and one speed marker (001, "PLANNING");
    the engine refuses a speed the airplane cannot fly and the turn asks again."""
    speeds = state.rules.airplane(vehicle.type).speeds
    while True:
        answer = _ask(
            input_fn,
            f"  {vehicle.id}: one card id and a speed ({', '.join(map(str, speeds))})> ",
        )
        parts = answer.replace(",", " ").split()
        if len(parts) != 2 or not parts[1].isdigit():
            output_fn("  give a card id and a speed, e.g. '5 3' (q to quit)")
            continue
        try:
            card = state.rules.deck_of(vehicle.type).card(parts[0])
        except DogfightError as exc:
            output_fn(f"  {exc}")
            continue
        problems = plan_problems(vehicle.previous, [card], state.rules.restrictions)
        for problem in problems:
            output_fn(f"  illegal: card {problem.card} breaks a restriction: {problem.text}")
        if problems and not _confirm(input_fn, "keep this plan?"):
            continue
        return Plan(cards=(card.id,), speeds=(int(parts[1]),))


def _warn(
    state: GameState, vehicle: Vehicle, cards: tuple[str, ...], output_fn: Callable[[str], None]
) -> bool:
    """Print the plan's warnings (the browser's: off the table, black smoke, an
    Automated Tripod left unopposed); whether there were any."""
    found = warnings(state, {vehicle.id: ghosts(state, vehicle, cards)})[vehicle.id]
    for w in found:
        output_fn(f"  warning: {w.text}")
    return bool(found)


def play_in_terminal(
    situation: Situation,
    catalog: Catalog,
    human_side: str,
    bot_name: str,
    seed: int = 0,
    input_fn: Callable[[str], str] = input,
    output_fn: Callable[[str], None] = print,
    max_turns: int = MAX_TURNS,
    events_out: list[Event] | None = None,
    explain: bool = False,
) -> GameState:
    """Play ``situation`` with the human on ``human_side`` against ``bot_name`` on every
    other side; returns the final state (also when the human quits). ``events_out``
    receives every event of the game (a campaign credits victories from them). With
    ``explain``, after each turn: why the bot chose its plans (its three best with their
    values, the browser's "why"), for a bot that explains itself."""
    state = build(situation, catalog, seed)
    sides = sides_of(state)
    if human_side not in sides:
        raise DataError("--as", "side", human_side, "sides: " + ", ".join(sides))
    make(bot_name, "--vs")
    bots: dict[str, Bot] = {s: make(bot_name) for s in sides if s != human_side}
    rngs = {
        s: np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 7, k])))
        for k, s in enumerate(sides)
    }
    output_fn(f"You fly the {human_side} side against the {bot_name} bot (seed {seed}).")
    ended: GameOver | None = None
    whys: list[Event] | None = [] if explain else None
    try:
        while not state.over and state.turn <= max_turns:
            output_fn(f"--- Turn {state.turn} ---")
            mine = side_seat(state, human_side)
            output_fn(table_map(state, mine))
            for line in _enemies(state, mine):
                output_fn(line)
            while not state.over:
                if state.awaiting_plans():
                    # every planning phase: a whole turn's, or a WW2 Earthling turn's (001)
                    state = _planning(
                        state, bots, rngs, mine, input_fn, output_fn, events_out, whys
                    )
                    if state.over:
                        break
                phase = state.phase + 1
                actions: dict[str, Action | None] = {}
                cards: dict[str, str] = {}
                for side, bot in bots.items():
                    seat = side_seat(state, side)
                    if not any(state.vehicles[v].in_play for v in seat):
                        continue
                    acts, drawn = bot.phase_actions(
                        observe(state, seat), state.rules, seat, phase, rngs[side]
                    )
                    actions.update({v: a for v, a in acts.items() if v in seat})
                    cards.update({v: c for v, c in drawn.items() if v in seat})
                answers = _phase_decisions(
                    state, phase, seed, actions, cards, bots, rngs, mine, input_fn, output_fn
                )
                state, events = resolve_phase(
                    state,
                    step_rng(seed, state.turn, phase),
                    actions or None,
                    cards=cards or None,
                    answers=answers,
                )
                _narrate(events, mine, output_fn, state)
                ended = next((e for e in events if isinstance(e, GameOver)), ended)
                if events_out is not None:
                    events_out.extend(events)
                if state.phase == 0:
                    break
            if whys:  # the turn is over: the bot's plans are public
                _narrate(whys, mine, output_fn, state)
                whys.clear()
    except Quit:
        output_fn("Game left unfinished.")
        return state
    if ended is not None:
        said = ending(ended)
        output_fn(f"{said['heading']}. {said['reason']}".rstrip(". ") + ".")
    elif state.over:
        output_fn(f"Winner: {state.winner}" if state.winner else "The game is a draw.")
    else:
        output_fn(f"No result after {max_turns} turns.")
    return state


def _planning(
    state: GameState,
    bots: dict[str, Bot],
    rngs: dict[str, np.random.Generator],
    mine: frozenset[str],
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
    events_out: list[Event] | None,
    whys: list[Event] | None = None,
) -> GameState:
    """One planning phase: the bots' plans, then the human's for each of his vehicles
    that plans now (asked again while the engine refuses them). Before a Martian turn
    every vehicle plans; before its second and third action phases only the WW2
    airplanes do, one card and a speed each (001, "PLANNING"). ``whys`` (when asked)
    receives why each bot chose its plans, to be said once the turn is over."""
    due = set(state.planning_due())
    plans: dict[str, Plan] = {}
    for side, bot in bots.items():
        seat = side_seat(state, side)
        if due & seat:
            proposed = bot.plan_turn(observe(state, seat), state.rules, seat, rngs[side])
            taken = {v: p for v, p in proposed.items() if v in seat and v in due}
            plans.update(taken)
            if whys is not None:
                whys.extend(why_events(state.turn, bot.name, explanation(bot, taken)))
    if state.phase:
        output_fn(f"--- Earthling turn: planning phase {state.phase + 1} ---")
    while True:
        for vehicle in sorted(state.in_play(), key=lambda v: v.id):
            if vehicle.id in mine and vehicle.id in due:
                plans[vehicle.id] = _human_plan(state, vehicle, input_fn, output_fn)
        try:
            state, events = start_turn(state, plans)
            break
        except IllegalPlanError as exc:
            output_fn(f"refused: {exc}")
    _narrate(events, mine, output_fn, state)
    if events_out is not None:
        events_out.extend(events)
    return state


def _phase_decisions(
    state: GameState,
    phase: int,
    seed: int,
    actions: dict[str, Action | None],
    cards: dict[str, str],
    bots: dict[str, Bot],
    rngs: dict[str, np.random.Generator],
    mine: frozenset[str],
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
) -> dict[str, tuple[str, ...]]:
    """Ask every decision the phase waits for (a reorder after tailing...): the player's
    own at the prompt, the bots' from the bots, until none is left."""
    from dogfight.bots.decide import decide

    answers: dict[str, tuple[str, ...]] = {}
    for _ in range(12):
        pending = pending_decisions(
            state,
            step_rng(seed, state.turn, phase),
            actions or None,
            cards=cards or None,
            answers=answers,
        )
        if not pending:
            break
        for side, bot in bots.items():
            seat = side_seat(state, side)
            theirs = [d for d in pending if d.vehicle in seat]
            if theirs:
                answers.update(
                    decide(bot, observe(state, seat, theirs), state.rules, seat, theirs, rngs[side])
                )
        for d in pending:
            if d.vehicle in mine:
                answers[d.id] = _human_decision(state, d, input_fn, output_fn)
            elif d.id not in answers:
                answers[d.id] = d.default
    return answers


def _human_decision(
    state: GameState,
    decision: Decision,
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
) -> tuple[str, ...]:
    """Ask the player one decision at the prompt (Enter keeps the default)."""
    if decision.kind == "tailing":
        for shown in decision.shown.get("tailed", []):
            tailed = state.vehicles[shown["vehicle"]]
            card = state.rules.deck_of(tailed.type).card(shown["card"])
            output_fn(
                f"  {decision.vehicle} is tailing {tailed.id}: it shows you its card for phase "
                f"{shown['phase']}: {card.id} ({card.symbol.value})."
            )
        prompt = (
            f"  {decision.vehicle}: your remaining cards {' '.join(decision.options)}; "
            "new order (Enter keeps it)> "
        )
    elif decision.kind == DIRECTION:
        for shown in decision.shown.get("revealed", []):
            what = (
                "no action card"
                if shown["card"] == "none"
                else f"a {shown['card'].replace('_', ' ')} card"
            )
            more = f" ({shown['detail']})" if shown["detail"] else ""
            output_fn(f"  #{shown['order']}: {shown['vehicle']} showed {what}{more}.")
        shown_card = str(decision.shown.get("card", "")).replace("_", " ")
        which = (
            "turn (+n left, -n right)"
            if decision.shown.get("card") == "change_facing"
            else ("projector")
        )
        prompt = (
            f"  {decision.vehicle} shows its {shown_card} card: place the token, {which} "
            f"{' '.join(decision.options)} (Enter: {decision.default[0]})> "
        )
    elif decision.kind == SNIPER:
        faces = ", ".join(
            f"{option} ({face})"
            for option, face in zip(decision.options, decision.shown["faces"], strict=True)
        )
        output_fn(
            f"  {decision.vehicle} is a Sniper: it drew two damage cards for "
            f"{decision.shown['target']}: {faces}."
        )
        prompt = (
            f"  {decision.vehicle}: the card to give {decision.shown['target']} "
            f"(Enter: {decision.default[0]})> "
        )
    elif decision.kind == ROCKETS:
        shown = decision.shown
        following = f"; your next maneuver: {shown['following']}" if shown["following"] else ""
        output_fn(
            f"  {decision.vehicle}'s front guns reach {shown['target']} ({shown['range']} range, "
            f"{shown['distance']:g}); {plural(shown['rockets'], 'Rocket counter')} left{following}."
        )
        prompt = (
            f"  {decision.vehicle}: guns or rockets {' '.join(decision.options)} "
            f"(Enter: {decision.default[0]})> "
        )
    elif decision.kind == DROP:
        shown = decision.shown
        output_fn(
            f"  {decision.vehicle} carries {plural(shown['loads'], 'load')} of bombs; this phase's "
            f"card: {shown['card']}; the loads it may drop now: {' '.join(decision.options)}."
        )
        for option, why in decision.reasons.items():
            if option != str(int(shown["loads"]) + 1):
                output_fn(f"  not {option}: {why}")
                break
        prompt = f"  {decision.vehicle}: loads to drop (Enter: {decision.default[0]})> "
    elif decision.kind == SKILL:
        shown = decision.shown
        danger = "; an enemy's guns reach you" if shown["threatened"] else ""
        output_fn(
            f"  {decision.vehicle}'s {str(shown['skill']).replace('_', ' ')} is ready: the shot "
            f"at {shown['target']} is at {shown['range']} range{danger}."
        )
        prompt = f"  {decision.vehicle}: use or keep (Enter: {decision.default[0]})> "
    elif decision.kind == TOKEN:
        shown = decision.shown
        face = "face down (secret until its reveal)" if shown["face"] == "down" else "face up"
        output_fn(
            f"  {decision.vehicle}: phase {decision.phase} card {shown['card']} "
            f"({shown['symbol']}{', Stop icon' if shown['stop'] else ''}), "
            f"Energy {shown['energy']}; the token is placed {face}."
        )
        output_fn(f"  options: {' '.join(decision.options)}")
        prompt = f"  {decision.vehicle}: action token (Enter: {decision.default[0]})> "
    else:
        prompt = (
            f"  {decision.vehicle}: {decision.kind}: choose {decision.count or 'an order'} "
            f"of {' '.join(decision.options)} (Enter: {' '.join(decision.default)})> "
        )
    while True:
        line = _ask(input_fn, prompt)
        if not line:
            return decision.default
        try:
            return decision.check(line.replace(",", " ").split())
        except DogfightError as exc:
            output_fn(f"  {exc}")


def _enemies(state: GameState, mine: frozenset[str]) -> list[str]:
    """Where each enemy stands, and how far from the nearest of the human's vehicles."""
    own = [state.vehicles[v] for v in mine if state.vehicles[v].in_play]
    lines = []
    for enemy in sorted(state.in_play(), key=lambda v: v.id):
        if enemy.id in mine:
            continue
        text = f"enemy {enemy.id} ({enemy.type}) at {_public_where(enemy)}"
        if own:
            near = min(own, key=lambda v: math.dist(v.pose.point, enemy.pose.point))
            gap = math.dist(near.pose.point, enemy.pose.point)
            text += f", {gap:.0f} cm from {near.id}"
        lines.append(text)
    return lines


def _public_where(vehicle: Vehicle) -> str:
    pose = vehicle.pose
    text = f"({pose.x:.1f}, {pose.y:.1f}) heading {pose.heading:.0f}"
    if vehicle.tripod is not None:
        text += f", Energy {vehicle.tripod.energy}/{vehicle.tripod.rating}"
    return text


ARROWS = "→↗↑↖←↙↓↘"


def table_map(state: GameState, mine: frozenset[str], columns: int = 36) -> str:
    """A small map of the table (Rich panel, as text): each vehicle as an arrow of its
    heading, its first letter beside it (upper case: yours), objectives as ``o``, target
    cards of missions as ``T`` (``t`` once accomplished), black smoke as ``*``; north up."""
    width, height = state.rules.table_width, state.rules.table_height
    rows = max(6, round(columns * height / width / 2))
    grid = [["·"] * columns for _ in range(rows)]

    def cell(x: float, y: float) -> tuple[int, int] | None:
        c = int(x / width * columns)
        r = rows - 1 - int(y / height * rows)
        return (r, c) if 0 <= c < columns and 0 <= r < rows else None

    for cloud in state.clouds:
        at = cell(cloud.x, cloud.y)
        if at:
            grid[at[0]][at[1]] = "*"
    for o in state.objectives.values():
        at = cell(o.x, o.y)
        if at:
            grid[at[0]][at[1]] = "x" if o.destroyed else "o"
    for card in state.targets.values():  # 002's target cards: T, t once the mission is done
        at = cell(*card.pose.point)
        if at:
            grid[at[0]][at[1]] = "t" if card.done_by else "T"
    for v in sorted(state.in_play(), key=lambda v: v.id):
        at = cell(*v.pose.point)
        if at is None:
            continue
        r, c = at
        grid[r][c] = ARROWS[round(v.pose.heading / 45.0) % 8]
        if c + 1 < columns:
            letter = v.id[0]
            grid[r][c + 1] = letter.upper() if v.id in mine else letter.lower()
    out = io.StringIO()
    console = Console(file=out, width=columns + 4, color_system=None)
    body = "\n".join("".join(row) for row in grid)
    console.print(Panel(body, title="north", subtitle="south", expand=False))
    return out.getvalue().rstrip("\n")


def _narrate(
    events: list[Event],
    seat: frozenset[str],
    output_fn: Callable[[str], None],
    state: GameState,
) -> None:
    for event in visible_events(events, seat):
        output_fn(describe(event, state.rules.catalog, acting(state)))
