"""The parts of the table as a seat sees it that are made for every new state, written
straight into their JSON text: each vehicle's open part (what every seat sees of it)
and its own part (what only the seat playing it sees), the table's head (the turn...)
and what lies open on it.

Made as dicts by :mod:`dogfight.rules.observation` and put in JSON, the four parts of a
duel's airplanes cost ~260k instructions at every state, most of it rounding the poses
(``round`` and then the encoder's ``repr``: two conversions of each float to decimal)
and pydantic's dump of each own plan; written, ~60k. The observation's dicts stay what
a seat may see: each writer here gives the very text of ``to_json`` of its dict (a test
holds them so over games of every preset), and leaves to it what it does not write (a
tripod's or a bomber's console, a vehicle on a clock of its own, a table with
objectives, targets, clouds or rockets in flight).
"""

from __future__ import annotations

from dogfight.rules.clocks import THREE_PHASES
from dogfight.rules.context import Rules
from dogfight.rules.observation import (
    open_table_view,
    open_vehicle_view,
    own_vehicle_view,
)
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import secret_action_cards
from dogfight.server.play.plan_texts import PlansText
from dogfight.server.play.viewcache import four_decimals, scalar_json, str_json, to_json


def rules_head_text(rules: Rules) -> str:
    """What :func:`~dogfight.rules.observation.table_view` shows first, the same at
    every state of a game (the ruleset, the table's size), as JSON text without its
    closing brace: made once per rules object (its two sizes alone, floats put in
    JSON, cost as much as writing the rest of the head)."""
    return to_json(
        {
            "ruleset": rules.ruleset.name,
            "table": {"width": rules.table_width, "height": rules.table_height},
        }
    )[:-1]


def table_head_text(state: GameState, rules_head: str) -> str:
    """``to_json(table_view(state))`` without its closing brace, written after
    ``rules_head`` (:func:`rules_head_text` of the state's rules)."""
    planning = to_json(state.planning_due()) if state.phase > 0 else "[]"
    return "".join(
        (
            rules_head, ',"turn":', scalar_json(state.turn), ',"phase":', scalar_json(state.phase),
            ',"planning":', planning, ',"over":', scalar_json(state.over),
            ',"winner":', scalar_json(state.winner),
        )
    )  # fmt: skip


def open_table_text(state: GameState) -> str:
    """``to_json(open_table_view(state))`` without its braces: written when nothing but
    the action cards' secrecy lies open on the table (an airplanes' duel), else put in
    JSON whole."""
    if state.objectives or state.targets or state.clouds or state.salvos:
        return to_json(open_table_view(state))[1:-1]
    return '"objectives":[],"targets":[],"clouds":[],"salvos":[],"action_cards":' + scalar_json(
        secret_action_cards(state)
    )


def open_vehicle_text(state: GameState, v: Vehicle) -> str:
    """``to_json(open_vehicle_view(state, v))``, written key by key for an airplane (no
    tripod's console, no bombs, the usual clock): the pose's numbers each converted
    once, the keys' texts as they are; the jams and the aim markers, seldom there, put
    in JSON as the observation makes them."""
    if v.tripod is not None or v.bomber or v.clock != THREE_PHASES:
        return to_json(open_vehicle_view(state, v))
    pose, previous, plan = v.pose, v.previous, v.plan
    parts = [
        '{"id":', str_json(v.id), ',"type":', str_json(v.type), ',"side":', str_json(v.side),
        ',"pose":{"x":', _rounded(pose.x), ',"y":', _rounded(pose.y),
        ',"heading":', _rounded(pose.heading), '},"eliminated":', scalar_json(v.eliminated),
        ',"jams":', to_json(dict(sorted(v.jams.items()))) if v.jams else "{}",
        ',"rockets":', scalar_json(v.rockets),
        ',"previous":', "null" if previous is None else "".join(
            (
                '{"symbol":', str_json(previous.symbol.value),
                ',"steep":', "true" if previous.steep else "false", "}",
            )
        ),
        ',"aim":', to_json(
            {w: {"target": t, "phase": n} for w, (t, n) in sorted(v.aim.items())}
        ) if v.aim else "{}",
    ]  # fmt: skip
    if plan is not None:
        revealed = state.phase
        parts += (',"revealed":[', ",".join([str_json(c) for c in plan.cards[:revealed]]), "]")
        if plan.speeds:
            parts += (',"revealed_speeds":', to_json(list(plan.speeds[:revealed])))
    parts.append("}")
    return "".join(parts)


def own_vehicle_text(v: Vehicle) -> str:
    """``to_json(own_vehicle_view(v))``, written key by key, the plan as the seats'
    pages write a plan (:class:`~dogfight.server.play.plan_texts.PlansText`, without
    pydantic's dump of a plan of cards only)."""
    if type(v.resistance) is not int or type(v.damage) is not int:
        return to_json(own_vehicle_view(v))
    plan = v.plan
    parts = [
        '{"resistance":', int.__repr__(v.resistance), ',"damage":', int.__repr__(v.damage),
        ',"damage_cards":[', ",".join([str_json(f"{deck}:{card}") for deck, card in v.held]),
        '],"status":', to_json(dict(sorted(v.status.items()))) if v.status else "{}",
    ]  # fmt: skip
    if plan is not None:
        parts += (',"plan":', page_plans.plan(plan))
    parts.append("}")
    return "".join(parts)


page_plans = PlansText(to_json, str_json, ",", ":")
"""``to_json`` of a seat's plans (``{vehicle: plan.model_dump(mode="json")}``) or, with
``page_plans.plan``, of one plan, as the seats' pages are sent them (a plan's dump and
its encoding cost ~50k instructions, the written text ~11k)."""


def _rounded(value: float) -> str:
    """``to_json(round(value, 4))``, as the observation writes a pose's number
    (:func:`four_decimals` for a float below 1e10 in size; a test holds the two to the
    same text)."""
    if type(value) is float and -1e10 < value < 1e10:
        return four_decimals(value)
    return to_json(round(value, 4))
