"""Policies others can load for the PettingZoo environment's airplane agents: any
registered computer player (``hard``, ``easy``, ``random``, ``learned`` once it is
registered...) flying one agent.

A policy is a callable taking the environment and an agent and returning the agent's
action in the environment's ``Discrete`` space::

    from dogfight.research import policies
    from dogfight.research.pettingzoo_env import parallel_env

    env = parallel_env()
    env.reset(seed=1)
    policy = policies.load("hard", seed=0)
    while env.agents:
        env.step({agent: policy(env, agent) for agent in env.agents})

The bot sees only the agent's own seat: :func:`dogfight.rules.observation.observe` for
that one airplane (never another seat's secrets, not even a friend's damage cards), as
in a game. Its plan is turned into the action that flies it (rockets are not among the
environment's actions); a plan the action mask does not allow becomes the first legal
action, as the environment itself would fly it. In a decision step the bot answers the
agent's decision (a reorder after tailing, a choice of one option) and the policy gives
the action of that answer. Each call's generator comes from the policy's seed, the turn,
the phase and the agent, so that the same seeds replay the same episode.
"""

from __future__ import annotations

import numpy as np

from dogfight.bots.base import Bot, Explanation, explanation, flies, make
from dogfight.bots.decide import decide
from dogfight.errors import DataError
from dogfight.research import decisions as asked
from dogfight.research.pettingzoo_env import DogfightParallelEnv
from dogfight.rules.observation import observe
from dogfight.rules.plans import Plan


def load(name: str, seed: int = 0) -> BotPolicy:
    """The policy of the registered computer player ``name``; a
    :class:`~dogfight.errors.DataError` for an unknown name, one that flies no airplane,
    or one that cannot be made (a learned bot's weights unreadable)."""
    return BotPolicy(name, seed)


class BotPolicy:
    """A registered bot as a policy of the PettingZoo environment (see the module)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        make(name, "policy")  # an unknown or unreadable bot is refused here, not mid-game
        if not flies(name, frozenset({"airplane"})):
            from dogfight.bots.base import FLIES

            fly = sorted(b for b, kinds in FLIES.items() if "airplane" in kinds)
            raise DataError("policy", "bot", name, "bots that fly airplanes: " + ", ".join(fly))
        self.name = name
        self.seed = seed
        self._bots: dict[tuple[int, str], tuple[Bot, tuple[int, int]]] = {}
        self._why: dict[str, Explanation] = {}

    def __call__(self, env: DogfightParallelEnv, agent: str) -> int:
        state = env.state_
        seat = frozenset({agent})
        bot = self._bot(env, agent)
        rng = self._rng(env, agent)
        decision = env.decision(agent)
        if decision is not None:
            seen = observe(state, seat, [decision])
            got = decide(bot, seen, state.rules, seat, [decision], rng)
            return asked.action_of(decision, got.get(decision.id, decision.default))
        mask = env.action_mask(agent)
        if agent not in state.planning_due() or state.over:
            return int(np.argmax(mask))
        plan = bot.plan_turn(observe(state, seat), state.rules, seat, rng).get(agent)
        self._why[agent] = explanation(bot) if plan is None else explanation(bot, {agent: plan})
        action = None if plan is None else _action(env, agent, plan)
        return action if action is not None and mask[action] else int(np.argmax(mask))

    def why(self, agent: str) -> Explanation:
        """Why the bot chose ``agent``'s last plan (its best plans with their values, for
        a bot that explains itself: :func:`dogfight.bots.base.explanation`)."""
        return self._why.get(agent, {})

    def _bot(self, env: DogfightParallelEnv, agent: str) -> Bot:
        """The agent's bot in this environment; a new one for a new episode (a bot keeps
        what it has seen of its game): at its start (nothing has happened yet) or when
        the game is back at an earlier turn."""
        key = (id(env), agent)
        now = (env.state_.turn, env.state_.phase)
        held = self._bots.get(key)
        starting = not env.events and env.decision(agent) is None
        if held is None or starting or now < held[1]:
            held = (make(self.name, "policy"), now)
        self._bots[key] = (held[0], now)
        return held[0]

    def _rng(self, env: DogfightParallelEnv, agent: str) -> np.random.Generator:
        state = env.state_
        place = env.possible_agents.index(agent) if agent in env.possible_agents else 0
        return np.random.default_rng([self.seed, state.turn, state.phase, place])


def _action(env: DogfightParallelEnv, agent: str, plan: Plan) -> int | None:
    """The environment's action that flies ``plan`` (None: no action does)."""
    if env.ww2:
        option = (plan.cards[0], plan.speeds[0]) if plan.cards and plan.speeds else None
        options = env.choices(agent)
        return options.index(option) if option in options else None
    rows = env.plans(agent)
    cards = tuple(plan.cards)
    return rows.index(cards) if cards in rows else None
