"""What a computer player is: it sees one seat's observation and answers for that seat.

A bot never receives the game state itself, only :func:`dogfight.rules.observation.observe`
for its seat (hidden information by construction) and the rules in force (the catalog,
the switches and the measures, which are public). Every random choice comes from the
generator it is given, so a seeded game replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from dogfight.rules.context import Rules
from dogfight.rules.events import PlanExplained
from dogfight.rules.plans import Action, Plan

Observation = dict[str, Any]
"""What :func:`dogfight.rules.observation.observe` returns for the bot's seat."""


EXPLAINED = 3
"""How many of its best plans a bot gives when asked why it chose its plan."""

Ranked = list[tuple[tuple[str, ...], float]]
"""Plans as their card ids with their values, best first."""

Explanation = dict[str, Ranked]
"""Why a bot chose its last plans: per vehicle id, its best plans (card ids) with their
values, best first (three at most; the first is the plan it chose)."""


class Bot(Protocol):
    """A computer player for one seat (a set of vehicles).

    A bot may also say why it chose its plans: the optional method of
    :class:`Explains`, read through :func:`explanation` (which is empty for a bot that
    has none)."""

    name: str

    def plan_turn(
        self, observation: Observation, rules: Rules, seat: frozenset[str], rng: np.random.Generator
    ) -> dict[str, Plan]:
        """The plans of the seat's vehicles in play for the coming turn."""
        ...

    def phase_actions(
        self,
        observation: Observation,
        rules: Rules,
        seat: frozenset[str],
        phase: int,
        rng: np.random.Generator,
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        """At the start of a movement step: the tripods' action tokens and, for automated
        tripods, the card each plays (empty dicts when the plans already say it all)."""
        ...


@runtime_checkable
class Explains(Protocol):
    """A bot that can say why it chose its plans (the optional part of :class:`Bot`)."""

    def explain(self) -> Explanation:
        """After :meth:`Bot.plan_turn`: for each vehicle it planned and can explain, its
        three best plans (card ids) with their values, best first. Values compare
        plans of one vehicle of one bot only; their scale is the bot's own."""
        ...


def explanation(bot: object, plans: Mapping[str, Plan] | None = None) -> Explanation:
    """What ``bot`` says of its last :meth:`Bot.plan_turn`: its :meth:`Explains.explain`
    as plain card ids and floats, three plans at most per vehicle; with ``plans`` (what
    the game took of that turn), only the vehicles whose first ranked plan is their plan.
    Nothing when it cannot explain itself (a random bot) or answers with what is not an
    explanation (a computer player's bug never stops a game)."""
    if not isinstance(bot, Explains):
        return {}
    why: Explanation = {}
    try:
        for vid, ranked in sorted(bot.explain().items()):
            rows = [(tuple(str(c) for c in cards), float(value)) for cards, value in ranked]
            rows = rows[:EXPLAINED]
            if rows and (plans is None or (vid in plans and rows[0][0] == plans[vid].cards)):
                why[str(vid)] = rows
    except Exception:  # a computer player's bug never stops a game, nor loses its plans
        return {}
    return why


def why_events(turn: int, bot: str, why: Explanation) -> list[PlanExplained]:
    """The log's ``plan_explained`` events of a seat's ``why`` for ``turn``, by vehicle
    id; a game's driver logs them once the turn is over (its plans are public then)."""
    return [
        PlanExplained(vid, turn, bot, tuple((cards, value) for cards, value in ranked))
        for vid, ranked in sorted(why.items())
    ]


BotFactory = Callable[[], Bot]

REGISTRY: dict[str, BotFactory] = {}
"""Bots by name (``random``, ``easy``, ``hard``, ``martian``, ``automated-tripod``…),
filled by the modules that define them."""


VehicleKind = str
"""What a computer player may fly: ``"airplane"`` (WW1 or WW2), ``"tripod"`` (a tripod
with a pilot: Martian, or human on a captured one) or ``"automated"`` (001's Automated
Tripod, which plays itself by its own rules)."""

FLIES: dict[str, frozenset[VehicleKind]] = {}
"""The vehicle kinds each registered bot flies (a seat is offered only the bots that
fly all of its vehicles)."""


def register(
    name: str, factory: BotFactory, flies: tuple[VehicleKind, ...] = ("airplane", "tripod")
) -> None:
    REGISTRY[name] = factory
    FLIES[name] = frozenset(flies)


def flies(name: str, kinds: frozenset[VehicleKind]) -> bool:
    """Whether the bot ``name`` flies every vehicle kind of ``kinds``."""
    return kinds <= FLIES.get(name, frozenset())


def make(name: str, option: str = "--bots") -> Bot:
    """A new bot by name; raises :class:`dogfight.errors.DataError` listing the names,
    blamed on ``option`` (the command-line option or body field that gave the name)."""
    from dogfight.bots import load_all
    from dogfight.errors import DataError

    load_all()
    if name not in REGISTRY:
        raise DataError(option, "bot", name, "known bots: " + ", ".join(sorted(REGISTRY)))
    return REGISTRY[name]()
