"""A PettingZoo ``ParallelEnv`` for the airplane side of a table.

One environment step is one game turn: every airplane of the learning side (the agents)
picks a plan at once, the other side is played by a bot, and the engine resolves the
three phases.

- **Agents**: the ids of the side's airplanes (reinforcements join when they enter).
- **Actions**: ``Discrete(n)`` over every three-card permutation of the airplane's deck
  (cards in play), in a fixed order (:meth:`DogfightParallelEnv.plans`); the legal ones
  for this turn (flight restrictions, known damage restrictions) are flagged by the
  ``action_mask`` given in the observation and in the info. An action outside the mask
  flies the first legal plan instead. Guns fire at the nearest enemy; no rockets; a
  bomber (001) drops its loads where the bots would (:func:`dogfight.bots.invasion.aim_drops`).
- **Observations**: ``{"observation": Box, "action_mask": Box}``; the vector is built from
  :func:`dogfight.rules.observation.observe` for the agent's own seat only (its pose,
  damage, jams, rockets and last maneuver; the nearest enemies, friends and objectives
  in its own frame; 002's target cards: where, whose mission, whether the agent carries
  it and whether it is still to do), so nothing hidden leaks.
- **Decisions** (:mod:`dogfight.research.decisions`): when the engine asks an agent a
  reorder after tailing (002), the turn pauses before that action phase and the next step
  is a decision step: the agent asked sees the tailed card in its observation's
  ``decision`` vector (and its info's ``decision``), its mask covers the reorders of its
  remaining cards, and its action picks one; every other agent sees zeros, its mask
  only the no-op 0. The agents are airplanes: the opponent bots answer their own
  decisions, unseen (a tripod's action token at the start of each phase, 000/001, and
  its direction at the reveal, 001), the Martian bot those of the side's tripods. An
  agent's choices of one option are decision steps too (``decisions.PICKS``): guns or
  rockets in the firing step (000), a skill used or kept and the Sniper's card (000), a
  bomber's drop in each phase (001); its action ``i`` is the ``i``-th option, its mask
  covers the options. A bomber agent's pick of half its bombs' C cards is the engine's
  default, the half that harms most.
- **Rewards**: damage points the airplane dealt minus those it took during the step.
- **Episodes** end when the game is over (terminated) or after ``max_turns`` (truncated).
  ``reset(seed=s)`` replays exactly: the decks, the engine's chance and the opponent
  bot's choices all come from ``numpy.random.SeedSequence(s)``.
"""

from __future__ import annotations

import functools
import math
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import ParallelEnv

from dogfight.bots.base import Bot, make
from dogfight.bots.decide import decide
from dogfight.bots.invasion import aim_drops
from dogfight.bots.view import airplane_sequences, all_sequences, rebuild
from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.catalog.models import ManeuverDeck, Symbol
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.research import decisions as asked
from dogfight.rules.chance import step_rng
from dogfight.rules.clocks import ONE_PHASE
from dogfight.rules.decisions import Answer, Decision
from dogfight.rules.engine import allowed_symbols, may_ask, pending_decisions, resolve_phase
from dogfight.rules.events import DamageDrawn, Event
from dogfight.rules.observation import observe, side_seat
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.sim.duel import duel_situation
from dogfight.sim.run import default_bot, start_refereed
from dogfight.situation.format import Situation, build
from dogfight.situation.scenarios import scenario_situation

ENEMIES = 3
FRIENDS = 2
OBJECTIVES = 4
OWN_SIZE = 13
ENEMY_SIZE = 9
FRIEND_SIZE = 5
OBJECTIVE_SIZE = 4
TARGETS = 2
TARGET_SIZE = 6
SIZE = (
    OWN_SIZE
    + ENEMIES * ENEMY_SIZE
    + FRIENDS * FRIEND_SIZE
    + OBJECTIVES * OBJECTIVE_SIZE
    + TARGETS * TARGET_SIZE
)
BOUND = 4.0

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class DogfightParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The airplanes of ``side`` learn; ``opponent`` (a bot name, default: ``martian``
    against tripods, else ``hard``) plays every other side."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "dogfight_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        situation: Situation | str | None = None,
        side: str | None = None,
        opponent: str | None = None,
        max_turns: int = 20,
        catalog: Catalog | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.vary = False
        if isinstance(situation, str):
            self.situation = scenario_situation(self.catalog, situation)
            self.vary = True
        else:
            self.situation = situation or duel_situation()
        probe = build(self.situation, self.catalog, 0)
        sides = sorted({v.side for v in (*probe.vehicles.values(), *probe.reserves.values())})
        planes = [
            v for v in (*probe.vehicles.values(), *probe.reserves.values()) if v.tripod is None
        ]
        self.side = side or min(sides, key=lambda s: (not any(p.side == s for p in planes), s))
        if self.side not in sides:
            raise DataError("env", "side", self.side, "sides: " + ", ".join(sides))
        self.possible_agents = sorted(p.id for p in planes if p.side == self.side)
        if not self.possible_agents:
            raise DataError("env", "side", self.side, "this side has no airplane")
        # WW2 airplanes (001): one step is one Earthling turn, an action one card and speed
        self.ww2 = all(v.clock == ONE_PHASE for v in planes if v.id in set(self.possible_agents))
        self.opponents = {s: opponent or default_bot(probe, s) for s in sides if s != self.side}
        for name in self.opponents.values():
            make(name)
        self.max_turns = max_turns
        self.render_mode = render_mode
        self._types = {v.id: v.type for v in (*probe.vehicles.values(), *probe.reserves.values())}
        self._root: np.random.SeedSequence | None = None
        self.agents: list[str] = []
        self.state_: GameState = probe
        self._seed = 0
        self._bots: dict[str, Bot] = {}
        self._helper: Bot = make("martian")
        self._rngs: dict[str, np.random.Generator] = {}
        self.events: list[Event] = []
        # a turn paused for the agents' decisions: what they are asked, the answers of
        # this phase so far, and the bots' choices of this phase (made once)
        self._pending: list[Decision] = []
        self._answers: dict[str, Answer] = {}
        self._inputs: tuple[dict[str, Action | None], dict[str, str]] | None = None

    # --- spaces ---------------------------------------------------------------------------

    def _deck(self, agent: str) -> ManeuverDeck:
        return self.state_.rules.deck_of(self._types[agent])

    def choices(self, agent: str) -> list[tuple[str, int]]:
        """WW2: the (card id, speed) of every action of ``agent``, in action order."""
        deck = self._deck(agent)
        symbols = allowed_symbols(self.state_)
        speeds = self.state_.rules.airplane(self._types[agent]).speeds
        return [(c.id, s) for c in deck.cards if c.symbol in symbols for s in speeds]

    def plans(self, agent: str) -> list[tuple[str, str, str]]:
        """The card ids of every action of ``agent``, in action order."""
        deck = self._deck(agent)
        rows = all_sequences(deck, allowed_symbols(self.state_))
        return [
            (deck.cards[int(a)].id, deck.cards[int(b)].id, deck.cards[int(c)].id)
            for a, b, c in rows
        ]

    @functools.cache  # noqa: B019 -- one space object per agent
    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        if self.ww2:
            return gymnasium.spaces.Discrete(len(self.choices(agent)))
        count = len(all_sequences(self._deck(agent), allowed_symbols(self.state_)))
        return gymnasium.spaces.Discrete(count)

    @functools.cache  # noqa: B019
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        count = int(self.action_space(agent).n)
        return gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-BOUND, BOUND, (SIZE,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (count,), np.int8),
                "decision": gymnasium.spaces.Box(-BOUND, BOUND, (asked.SIZE,), np.float32),
            }
        )

    # --- episodes -------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        if seed is not None or self._root is None:
            self._root = np.random.SeedSequence(seed)
        game = self._root.spawn(1)[0]
        self._seed = int(game.generate_state(1, dtype=np.uint32)[0])
        situation = self.situation
        if self.vary and situation.scenario is not None:
            setup = np.random.Generator(
                np.random.PCG64(
                    np.random.SeedSequence(game.entropy, spawn_key=(*game.spawn_key, 99))
                )
            )
            situation = scenario_situation(self.catalog, situation.scenario, setup)
        self.state_ = build(situation, self.catalog, self._seed)
        self._bots = {s: make(name) for s, name in sorted(self.opponents.items())}
        self._rngs = {
            s: np.random.Generator(
                np.random.PCG64(
                    np.random.SeedSequence(game.entropy, spawn_key=(*game.spawn_key, k))
                )
            )
            for k, s in enumerate(sorted([*self.opponents, self.side]))
        }
        self._helper = make("martian")
        self.events = []
        self._pending, self._answers, self._inputs = [], {}, None
        self.agents = self._live()
        return (
            {a: self._observe(a) for a in self.agents},
            {a: self._info(a) for a in self.agents},
        )

    def _live(self) -> list[str]:
        return [
            a
            for a in self.possible_agents
            if a in self.state_.vehicles and self.state_.vehicles[a].in_play
        ]

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.state_
        before = list(self.agents)
        if self._pending:
            # a decision step: the agents asked answer, the paused phase goes on
            for decision in self._pending:
                self._answers[decision.id] = asked.answer(decision, actions.get(decision.vehicle))
            self._pending = []
            return self._play(state, [], before)
        # a planning phase: before a turn everything plans; before the second and third
        # action phases of a Martian turn only the WW2 airplanes (001)
        due = set(state.planning_due())
        plans: dict[str, Plan] = {}
        for agent in before:
            if agent in due:
                plans[agent] = self._plan(agent, actions.get(agent))
        seat = side_seat(state, self.side)
        if any(v.id in seat and v.id in due and v.id not in plans for v in state.in_play()):
            # the side's tripods, if any, are played by the Martian bot
            extra = self._helper.plan_turn(
                observe(state, seat), state.rules, seat, self._rngs[self.side]
            )
            plans.update({k: v for k, v in extra.items() if k not in plans and k in due})
        for side, bot in self._bots.items():
            other = side_seat(state, side)
            if any(state.vehicles[v].in_play for v in other if v in due):
                proposed = bot.plan_turn(
                    observe(state, other), state.rules, other, self._rngs[side]
                )
                plans.update({v: p for v, p in proposed.items() if v in other and v in due})
        state, events, _ = start_refereed(state, plans)
        return self._play(state, list(events), before)

    def _play(
        self, state: GameState, events: list[Event], before: list[str]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Resolve the turn's action phases until it ends, or pauses for the agents'
        decisions (then nobody terminates and the next step answers them)."""
        while not state.over:
            phase = state.phase + 1
            if self._inputs is None:
                self._inputs = self._phase_inputs(state, phase)
            acts, cards = self._inputs
            self._pending = self._decisions(state, phase, acts, cards)
            if self._pending:
                self.state_ = state
                self.events.extend(events)
                rewards = {a: self._reward(a, events) for a in before}
                return (
                    {a: self._observe(a) for a in before},
                    rewards,
                    dict.fromkeys(before, False),
                    dict.fromkeys(before, False),
                    {a: self._info(a) for a in before},
                )
            state, more = resolve_phase(
                state,
                step_rng(self._seed, state.turn, phase),
                acts or None,
                cards=cards or None,
                answers=self._answers,
            )
            self._answers, self._inputs = {}, None
            events.extend(more)
            if state.phase == 0 or self.ww2:
                break  # a WW2 step is one Earthling turn: one action phase
        self.state_ = state
        self.events.extend(events)
        truncate = not state.over and state.turn > self.max_turns
        live = self._live() if not (state.over or truncate) else []
        everyone = list(dict.fromkeys([*before, *self._live()]))
        rewards = {a: self._reward(a, events) for a in everyone}
        terminated = {a: state.over or (a not in live and not truncate) for a in everyone}
        truncated = {a: truncate and not state.over for a in everyone}
        self.agents = live
        observations = {a: self._observe(a) for a in everyone}
        infos = {a: self._info(a) for a in everyone}
        return observations, rewards, terminated, truncated, infos

    def _phase_inputs(
        self, state: GameState, phase: int
    ) -> tuple[dict[str, Action | None], dict[str, str]]:
        """The opponent bots' tripod actions and automated cards for this phase."""
        acts: dict[str, Action | None] = {}
        cards: dict[str, str] = {}
        for side, bot in self._bots.items():
            other = side_seat(state, side)
            if not any(state.vehicles[v].in_play for v in other):
                continue
            a, c = bot.phase_actions(
                observe(state, other), state.rules, other, phase, self._rngs[side]
            )
            acts.update({v: x for v, x in a.items() if v in other})
            cards.update({v: x for v, x in c.items() if v in other})
        return acts, cards

    def _decisions(
        self,
        state: GameState,
        phase: int,
        acts: dict[str, Action | None],
        cards: dict[str, str],
    ) -> list[Decision]:
        """The agents' decisions this phase waits for (empty: resolve it): their reorders
        after tailing and their choices of one option (``decisions.ASKED``). The opponent
        bots answer theirs from their own observation, the Martian bot those of the side's
        tripods (a direction at the reveal); an agent's pick of its bombs' cards takes
        the engine's default."""
        if not may_ask(state, phase):
            return []
        agents = set(self.possible_agents)
        deciders = {**self._bots, self.side: self._helper}
        for _ in range(8):
            pending = pending_decisions(
                state,
                step_rng(self._seed, state.turn, phase),
                acts or None,
                cards=cards or None,
                answers=self._answers,
            )
            if not pending:
                return []
            for side, bot in deciders.items():
                seat = side_seat(state, side)
                theirs = [d for d in pending if d.vehicle in seat and d.vehicle not in agents]
                if theirs:
                    seen = observe(state, seat, theirs)
                    got = decide(bot, seen, state.rules, seat, theirs, self._rngs[side])
                    self._answers.update(got)
            mine = [d for d in pending if d.vehicle in agents and d.kind in asked.ASKED]
            if mine:
                return mine
            self._answers.update({d.id: d.default for d in pending if d.id not in self._answers})
        return []

    def decision(self, agent: str) -> Decision | None:
        """The decision ``agent`` is asked now, if any (its own: no other agent's)."""
        return next((d for d in self._pending if d.vehicle == agent), None)

    def _plan(self, agent: str, action: Any) -> Plan:
        mask = self.action_mask(agent)
        index = -1 if action is None else int(action)
        if self.ww2:
            options = self.choices(agent)
            if not (0 <= index < len(options)) or not mask[index]:
                index = int(np.argmax(mask))
            card, speed = options[index]
            return Plan(cards=(card,), speeds=(speed,))
        rows = self.plans(agent)
        if not (0 <= index < len(rows)) or not mask[index]:
            index = int(np.argmax(mask))
        # 001's bombers drop their loads as the bots aim them, by eye
        return aim_drops(self.state_, self.state_.vehicles[agent], Plan(cards=rows[index]))

    def _reward(self, agent: str, events: list[Event]) -> float:
        dealt = taken = 0
        for event in events:
            if isinstance(event, DamageDrawn):
                if event.vehicle == agent:
                    taken += event.points
                elif event.source.split(" ", 1)[0] == agent:
                    dealt += event.points
        return float(dealt - taken)

    # --- what an agent sees ------------------------------------------------------------------

    def action_mask(self, agent: str) -> Mask:
        """1 for the plans this airplane may fly this turn, as its own seat knows it; in a
        decision step, its reorders (or the no-op when it is not asked)."""
        count = int(self.action_space(agent).n)
        if self._pending:
            return asked.mask(self.decision(agent), count)
        mask = np.zeros(count, dtype=np.int8)
        state = self.state_
        if agent not in state.vehicles or not state.vehicles[agent].in_play or state.over:
            mask[0] = 1
            return mask
        seat = side_seat(state, self.side)
        view = rebuild(observe(state, seat), state.rules, seat)
        vehicle = view.vehicles[agent]
        if self.ww2:
            from dogfight.bots.ww2_airplanes import choices

            legal = {(c.id, s) for c, s in choices(view, vehicle)}
            for i, option in enumerate(self.choices(agent)):
                mask[i] = option in legal
            if not mask.any():
                mask[0] = 1
            return mask
        deck = self._deck(agent)
        index = _index(deck, allowed_symbols(state))
        for row in airplane_sequences(view, vehicle):
            mask[index[(int(row[0]), int(row[1]), int(row[2]))]] = 1
        return mask

    def _info(self, agent: str) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_mask(agent), "turn": self.state_.turn}
        mine = self.decision(agent)
        if mine is not None:
            info["decision"] = mine.to_json()
        return info

    def _observe(self, agent: str) -> dict[str, Any]:
        mine = self.decision(agent)
        seat = side_seat(self.state_, self.side)
        seen = observe(self.state_, seat, [] if mine is None else [mine])
        return {
            "observation": self.vector(agent),
            "action_mask": self.action_mask(agent),
            "decision": asked.vector(mine, seen, self.state_.rules),
        }

    def vector(self, agent: str) -> Vector:
        """The agent's observation vector (see the module docstring)."""
        state = self.state_
        seat = side_seat(state, self.side)
        seen = observe(state, seat)
        rules = state.rules
        w, h = rules.table_width, rules.table_height
        span = max(w, h)
        out = np.zeros(SIZE, dtype=np.float32)
        vehicles = {v["id"]: v for v in seen["vehicles"]}
        me = vehicles.get(agent)
        if me is None or me["eliminated"] is not None:
            return out
        pose = Pose(me["pose"]["x"], me["pose"]["y"], me["pose"]["heading"])
        previous = me["previous"] or {}
        symbol = previous.get("symbol")
        own = [
            pose.x / w,
            pose.y / h,
            math.cos(math.radians(pose.heading)),
            math.sin(math.radians(pose.heading)),
            me.get("damage", 0) / max(1, me.get("resistance", 1)),
            me.get("resistance", 0) / 20.0,
            me["jams"].get("front", 0) / 3.0,
            me["jams"].get("rear", 0) / 3.0,
            me["rockets"] / 2.0,
            float(symbol == Symbol.STRAIGHT.value),
            float(bool(previous.get("steep"))),
            float(symbol == Symbol.IMMELMANN.value),
            min(1.0, seen["turn"] / max(1, self.max_turns)),
        ]
        out[:OWN_SIZE] = own

        def relative(x: float, y: float) -> tuple[float, float, float]:
            forward, left = pose.to_local((x, y))
            return forward / span, left / span, math.hypot(forward, left) / span

        enemies = sorted(
            (v for v in seen["vehicles"] if v["side"] != self.side and v["eliminated"] is None),
            key=lambda v: (math.dist((v["pose"]["x"], v["pose"]["y"]), pose.point), v["id"]),
        )
        at = OWN_SIZE
        for v in enemies[:ENEMIES]:
            fx, fy, d = relative(v["pose"]["x"], v["pose"]["y"])
            turn = math.radians(v["pose"]["heading"] - pose.heading)
            tripod = "energy" in v
            out[at : at + ENEMY_SIZE] = [
                1.0,
                fx,
                fy,
                d,
                math.cos(turn),
                math.sin(turn),
                float(tripod),
                v["energy"] / max(1, v["energy_rating"]) if tripod else 0.0,
                v["jams"].get("front", 0) / 3.0,
            ]
            at += ENEMY_SIZE
        at = OWN_SIZE + ENEMIES * ENEMY_SIZE
        friends = sorted(
            (
                v
                for v in seen["vehicles"]
                if v["side"] == self.side and v["id"] != agent and v["eliminated"] is None
            ),
            key=lambda v: v["id"],
        )
        for v in friends[:FRIENDS]:
            fx, fy, _ = relative(v["pose"]["x"], v["pose"]["y"])
            turn = math.radians(v["pose"]["heading"] - pose.heading)
            out[at : at + FRIEND_SIZE] = [1.0, fx, fy, math.cos(turn), math.sin(turn)]
            at += FRIEND_SIZE
        at = OWN_SIZE + ENEMIES * ENEMY_SIZE + FRIENDS * FRIEND_SIZE
        for o in sorted(seen["objectives"], key=lambda o: o["id"])[:OBJECTIVES]:
            fx, fy, _ = relative(o["x"], o["y"])
            open_ = float(o["charges"] > 0 and not o["destroyed"])
            out[at : at + OBJECTIVE_SIZE] = [1.0, fx, fy, open_]
            at += OBJECTIVE_SIZE
        at = OWN_SIZE + ENEMIES * ENEMY_SIZE + FRIENDS * FRIEND_SIZE + OBJECTIVES * OBJECTIVE_SIZE
        # 002's target cards lie open on the table: whose mission, whether this agent
        # carries it, whether it is still to do
        for t in sorted(seen.get("targets", []), key=lambda t: t["id"])[:TARGETS]:
            fx, fy, _ = relative(t["x"], t["y"])
            carries = t["side"] == self.side and (not t["carriers"] or agent in t["carriers"])
            out[at : at + TARGET_SIZE] = [
                1.0,
                fx,
                fy,
                float(t["side"] == self.side),
                float(carries),
                float(t["done_by"] is None),
            ]
            at += TARGET_SIZE
        clipped: Vector = np.clip(out, -BOUND, BOUND)
        return clipped

    def render(self) -> str | None:
        """``ansi``: the turn and every vehicle's pose, one line each."""
        if self.render_mode != "ansi":
            return None
        lines = [f"turn {self.state_.turn}"]
        for v in sorted(self.state_.vehicles.values(), key=lambda v: v.id):
            where = f"({v.pose.x:.1f}, {v.pose.y:.1f}) heading {v.pose.heading:.0f}"
            lines.append(f"{v.id} [{v.side}] {where} {v.eliminated or ''}".rstrip())
        return "\n".join(lines)

    def close(self) -> None:
        return None


_INDEX: dict[tuple[int, frozenset[Symbol]], tuple[object, dict[tuple[int, int, int], int]]] = {}


def _index(deck: ManeuverDeck, symbols: set[Symbol]) -> dict[tuple[int, int, int], int]:
    key = (id(deck), frozenset(symbols))
    hit = _INDEX.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    rows = all_sequences(deck, symbols)
    index = {(int(a), int(b), int(c)): i for i, (a, b, c) in enumerate(rows)}
    _INDEX[key] = (deck, index)
    return index


def parallel_env(**kwargs: Any) -> DogfightParallelEnv:
    """PettingZoo's conventional constructor name."""
    return DogfightParallelEnv(**kwargs)
