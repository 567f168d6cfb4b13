"""A Gymnasium ``VectorEnv`` of many airplane tables played by the batched simulator.

``num_envs`` copies of one airplane table (a situation of the ``wog``, ``wow`` or
``wow-basic`` rulesets); the airplanes of ``side`` are the seats that learn, the other
sides are played by a batch policy (``random`` or ``easy``). One step is one game turn.

- **Seats**: the learning side's airplanes, in id order (``env.seats``) — the agents of
  the PettingZoo environment (:mod:`dogfight.research.pettingzoo_env`), with a leading
  table axis.
- **Actions**: ``MultiDiscrete`` with one plan per seat: an index into every ordered
  triple of distinct cards of the seat's deck (``env.plans(seat)``). The legal plans of
  the turn are flagged by ``action_mask``; an illegal index (or one for an airplane out
  of play) flies the first legal plan.
- **Observations**: per seat, built only from what that seat may see (its own pose,
  damage, jams and last maneuver; the enemies' poses relative to it — never their
  damage, which is secret): ``{"observation": (num_envs, seats, SIZE) float32,
  "action_mask": (num_envs, seats, plans) int8}``.
- **Rewards**: the table's reward is the sum over its seats of damage points dealt minus
  taken in the turn; ``info["seat_rewards"]`` gives them per seat.
- **Episodes** end when the game is over (terminated) or after ``max_turns``
  (truncated); a finished table starts a new game at the next step (Gymnasium's
  next-step autoreset), that step's actions being ignored.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv

from dogfight.batch import easy as _easy  # noqa: F401  (registers the easy bot)
from dogfight.batch import special
from dogfight.batch.bridge import from_states
from dogfight.batch.game import resolve_phase
from dogfight.batch.plan_kinds import kind
from dogfight.batch.policies import POLICIES, sequences
from dogfight.batch.spec import Floats
from dogfight.batch.state import BatchState, reset, tile
from dogfight.batch.tailing import bots_reorder
from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.errors import DataError
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import Situation, build

ENEMIES = 3
OWN_SIZE = 14
ENEMY_SIZE = 8
SIZE = OWN_SIZE + ENEMIES * ENEMY_SIZE


class DogfightVectorEnv(VectorEnv):
    """``num_envs`` tables of ``situation`` (default: the duel); ``side`` learns
    (default: the first side), ``opponent`` (a batch policy) plays the others."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        situation: Situation | None = None,
        side: str | None = None,
        opponent: str = "random",
        max_turns: int = 20,
        catalog: Catalog | None = None,
        seed: int = 0,
    ) -> None:
        catalog = catalog or load_catalog()
        self.template = from_states([build(situation or duel_situation(), catalog, seed)])
        if self.template.spec.one_card:
            # its actions are three-card plans, one step a turn (docs/batch.md, Limits)
            raise DataError("env", "ruleset", "ww2", "WW2 airplanes (a card and a speed per phase)")
        if self.template.tripod.any():
            # its seats are airplanes with airplane plans (docs/batch.md, Limits)
            names = self.template.names[0]
            tripods = [names[n] for n in range(len(names)) if self.template.tripod[0, n]]
            raise DataError("env", "vehicles", ", ".join(tripods), "airplanes only (no tripod)")
        names = self.template.side_names
        self.side = side or names[0]
        if self.side not in names:
            raise DataError("env", "side", self.side, "sides of this table: " + ", ".join(names))
        if opponent not in POLICIES:
            raise DataError("env", "opponent", opponent, "batch bots: " + ", ".join(POLICIES))
        self.opponent = opponent
        self.max_turns = max_turns
        self.num_envs = num_envs
        me = names.index(self.side)
        self.seat_slots = np.flatnonzero(self.template.present[0] & (self.template.side[0] == me))
        self.seats = tuple(self.template.names[0][int(n)] for n in self.seat_slots)
        self.batch_spec = self.template.spec
        self.seqs = sequences(self.batch_spec)
        plans = self.seqs.rows.shape[1]
        seat_count = len(self.seat_slots)
        self.single_observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-4.0, 4.0, (seat_count, SIZE), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (seat_count, plans), np.int8),
            }
        )
        self.single_action_space = gymnasium.spaces.MultiDiscrete([plans] * seat_count)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.rng = np.random.default_rng(seed)
        self.state: BatchState = tile(self.template, num_envs)
        self._ended = np.zeros(num_envs, dtype=np.bool_)

    def plans(self, seat: str) -> list[tuple[str, str, str]]:
        """The card ids of each action index for ``seat``."""
        n = int(self.seat_slots[self.seats.index(seat)])
        deck = int(self.batch_spec.type_deck[self.template.type[0, n]])
        rows = self.seqs.rows[deck, : self.seqs.count[deck]]
        ids = self.batch_spec.card_ids
        return [(ids[a], ids[b], ids[c]) for a, b, c in rows.tolist()]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        reset(self.state, np.arange(self.num_envs), self.template, self.rng)
        self._ended[:] = False
        return self._observe(), {"agents": self.seats}

    def action_mask(self) -> npt.NDArray[np.int8]:
        """(num_envs, seats, plans): the legal plans of each seat this turn."""
        s = self.state
        b = np.arange(self.num_envs)[:, None]
        n = self.seat_slots[None, :]
        deck = self.batch_spec.type_deck[s.type[b, n]]
        kinds = kind(self.batch_spec, s.prev_symbol[b, n], s.prev_steep[b, n])
        mask = self.seqs.legal[deck, kinds] & s.alive[b, n][..., None]
        forbid, need = special.needs(s, *np.broadcast_arrays(b, n))
        mask &= special.allowed(self.seqs.feature[deck], forbid[..., None], need[..., None])
        out: npt.NDArray[np.int8] = mask.astype(np.int8)
        return out

    def step(self, actions: Any) -> tuple[dict[str, Any], Floats, Any, Any, dict[str, Any]]:
        s = self.state
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs, -1)
        restart = np.flatnonzero(self._ended)
        if len(restart):
            reset(s, restart, self.template, self.rng)
        playing = ~self._ended
        mask = self.action_mask().astype(np.bool_)
        b = np.arange(self.num_envs)[:, None]
        n = self.seat_slots[None, :]
        pick = np.clip(actions, 0, mask.shape[2] - 1)
        ok = np.take_along_axis(mask, pick[..., None], axis=2)[..., 0]
        pick = np.where(ok, pick, mask.argmax(axis=2))
        deck = self.batch_spec.type_deck[s.type[b, n]]
        mine = s.alive[b, n] & playing[:, None]
        rows = self.seqs.rows[deck, pick]
        s.plan[b, n] = np.where(mine[..., None], rows, s.plan[b, n])
        others = (s.side != self.template.side_names.index(self.side)) & playing[:, None]
        POLICIES[self.opponent](s, self.rng, others)
        s.over |= ~playing  # finished tables wait for their reset
        dealt = s.dealt.sum(axis=2)
        before_taken = s.damage.copy()
        before_dealt = dealt.copy()
        for _ in range(3):
            # a tailing airplane (002) of either seat reorders as the bots do
            resolve_phase(s, self.rng, reorder=bots_reorder)
        s.over[restart] = False
        gained = s.dealt.sum(axis=2)[b, n] - before_dealt[b, n]
        lost = s.damage[b, n] - before_taken[b, n]
        seat_rewards = np.where(playing[:, None], gained - lost, 0).astype(np.float64)
        terminated = s.over & playing
        truncated = playing & ~s.over & (s.turn > self.max_turns)
        self._ended = terminated | truncated
        info = {"agents": self.seats, "seat_rewards": seat_rewards}
        return self._observe(), seat_rewards.sum(axis=1), terminated, truncated, info

    def _observe(self) -> dict[str, Any]:
        s, spec = self.state, self.batch_spec
        b = np.arange(self.num_envs)[:, None]
        n = self.seat_slots[None, :]
        out = np.zeros((self.num_envs, len(self.seat_slots), SIZE), dtype=np.float32)
        x, y, h = s.x[b, n], s.y[b, n], np.radians(s.heading[b, n])
        out[..., 0] = x / spec.width
        out[..., 1] = y / spec.height
        out[..., 2] = np.cos(h)
        out[..., 3] = np.sin(h)
        out[..., 4] = s.damage[b, n] / s.resistance[b, n]
        out[..., 5:7] = s.jams[b, n] / max(1, spec.jam_maneuvers)
        kinds = kind(spec, s.prev_symbol[b, n], s.prev_steep[b, n])
        # a left or right turn (kind 7, for 003's steep rule) shows as another card
        out[..., 7:14] = np.eye(7, dtype=np.float32)[np.minimum(kinds, 6)]
        out[..., 4:14] *= s.alive[b, n][..., None]
        # the nearest enemies in the seat's own frame (public: poses, nothing secret)
        enemy = s.alive[:, None, :] & (s.side[:, None, :] != s.side[b, n][..., None])
        dx = s.x[:, None, :] - x[..., None]
        dy = s.y[:, None, :] - y[..., None]
        dist = np.where(enemy, np.hypot(dx, dy), np.inf)
        order = np.argsort(dist, axis=2)[..., :ENEMIES]
        c, si = np.cos(h)[..., None], np.sin(h)[..., None]
        for k in range(min(ENEMIES, s.slots)):
            j = order[..., k]
            there = np.isfinite(np.take_along_axis(dist, j[..., None], axis=2)[..., 0])
            ex = np.take_along_axis(dx, j[..., None], axis=2)[..., 0]
            ey = np.take_along_axis(dy, j[..., None], axis=2)[..., 0]
            eh = np.radians(s.heading[b, j])
            fwd = ex * c[..., 0] + ey * si[..., 0]
            left = -ex * si[..., 0] + ey * c[..., 0]
            d = np.hypot(ex, ey)
            rel = eh - h
            base = OWN_SIZE + k * ENEMY_SIZE
            block = np.stack(
                [
                    np.clip(fwd / spec.ruler, -4, 4),
                    np.clip(left / spec.ruler, -4, 4),
                    np.cos(rel),
                    np.sin(rel),
                    np.clip(d / spec.ruler, 0, 4),
                    np.abs(np.arctan2(left, fwd)) <= np.radians(spec.arc_half[0]),
                    np.abs(
                        np.arctan2(
                            -ey * np.cos(eh) + ex * np.sin(eh), -ex * np.cos(eh) - ey * np.sin(eh)
                        )
                    )
                    <= np.radians(spec.arc_half[0]),
                    np.ones_like(d),
                ],
                axis=-1,
            )
            out[..., base : base + ENEMY_SIZE] = np.where(there[..., None], block, 0.0)
        out[~s.alive[b, n]] = 0.0
        return {"observation": out, "action_mask": self.action_mask()}
