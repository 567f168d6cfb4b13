"""The same game: random tables played phase by phase by the batch and by the referee.

Before every phase each table of the batch is handed to the referee as a ``GameState``
(its poses, damage, reminders, jams, aim, plans and stacked damage piles); both resolve
the phase and must agree on every move (card and pose), every shot (target, range,
short or long, aim), every damage draw (the cards and the points) and every
elimination. A phase that disagrees is put in a class (docs/batch.md, "The same
game"): ``reshuffle`` when a pile was shuffled during the phase before a later draw (the
two engines shuffle with their own generators), ``boundary`` when a measure lies within
1e-6 cm of the ruler or the half mark (floating-point rounding), else ``unexplained``.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dogfight.batch.bridge import from_states, status_of, to_state
from dogfight.batch.game import PhaseLog, resolve_phase
from dogfight.batch.policies import illegal_plans, random_plans
from dogfight.batch.spec import KNOWN_SWITCHES
from dogfight.batch.state import REASONS, WEAPONS, BatchState
from dogfight.batch.tailing import bots_reorder
from dogfight.catalog.loader import Catalog
from dogfight.errors import IllegalPlanError
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase as referee_phase
from dogfight.rules.events import (
    DamageDrawn,
    DeckReshuffled,
    Eliminated,
    Event,
    Fired,
    GameOver,
    Moved,
    SpecialDamage,
    Tailing,
)
from dogfight.rules.state import GameState
from dogfight.situation.format import build, parse_situation

POSE_TOLERANCE = 1e-6
BOUNDARY = 1e-6


def random_table(
    catalog: Catalog, ruleset: str, rng: np.random.Generator, index: int
) -> dict[str, Any]:
    """A random airplane table: 2 to 6 airplanes of random models on two sides, close
    enough together to fire at and hide each other, some damaged, jammed or with a
    reminder of their last maneuver."""
    # the airplanes of the ruleset's era: WW2 airplanes fly only in ww2 (001)
    era = catalog.rulesets[ruleset].switches.era
    types = sorted(a.id for a in catalog.airplanes.values() if a.era == era)
    count = int(rng.integers(2, 7))
    spread = float(rng.choice([12.0, 20.0, 35.0]))
    vehicles: list[dict[str, Any]] = []
    for i in range(count):
        kind = types[int(rng.integers(len(types)))]
        model = catalog.airplanes[kind]
        v: dict[str, Any] = {
            "id": f"v{i}",
            "type": kind,
            "side": "allies" if i % 2 == 0 else "central",
            "pose": {
                "x": 45.0 + float(rng.uniform(-spread, spread)),
                "y": 45.0 + float(rng.uniform(-spread, spread)),
                "heading": float(rng.uniform(0.0, 360.0)),
            },
            "damage": int(rng.integers(0, model.damage)) if rng.random() < 0.4 else 0,
        }
        if rng.random() < 0.15:
            v["jams"] = {"front": int(rng.integers(1, 4))}
        if rng.random() < 0.4:
            v["previous"] = {
                "symbol": str(rng.choice(["straight", "left", "steep", "immelmann", "stall"]))
            }
        status = _random_status(catalog, ruleset, rng)
        if not model.two_seater:
            status.pop("observer", None)  # only a two-seater has one (a field it reads)
        if status:
            v["status"] = status
        vehicles.append(v)
    return {"ruleset": ruleset, "vehicles": vehicles}


def _random_status(catalog: Catalog, ruleset: str, rng: np.random.Generator) -> dict[str, int]:
    """Lasting special damage of the ruleset's special damage rules, now and then: an
    engine hit, a smoke trail or a fire, the observer out, a rudder jammed this turn."""
    switches = catalog.rulesets[ruleset].switches
    specials = switches.special_damage or ("000" if switches.standard_rules else None)
    status: dict[str, int] = {}
    if specials is None or rng.random() >= 0.3:
        return status
    keys = ["engine"] if specials == "003" else ["engine", "smoke", "fire", "observer", "rudder"]
    if specials == "000":  # WW2 airplanes (docs/ww2.md): a wounded pilot, no observer
        keys = ["engine", "smoke", "fire", "wounded", "rudder"]
    key = str(rng.choice(keys))
    if key in ("smoke", "fire"):
        status[key] = int(rng.integers(1, 4))
    elif key == "rudder":
        status[str(rng.choice(["rudder_left", "rudder_right"]))] = 1
    else:
        status[key] = 1
    return status


def as_batch_plays(state: GameState) -> GameState:
    """The table with the switches the batch does not play set back to their defaults:
    the ruleset as the batch plays it (``docs/batch.md``, "What it covers")."""
    switches = state.rules.switches
    update = {
        name: info.default
        for name, info in type(switches).model_fields.items()
        if name not in KNOWN_SWITCHES and getattr(switches, name) != info.default
    }
    if update:
        state.rules = dataclasses.replace(state.rules, switches=switches.model_copy(update=update))
    return state


@dataclass
class Report:
    """Counts of compared phases and of disagreements by class."""

    tables: int = 0
    phases: int = 0
    agree: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    shots: int = 0
    covered_shots: int = 0
    tails: int = 0
    """Tailing rulers that held (002)."""
    reorders: int = 0
    """Tailing airplanes that reordered their cards (the bots' answer, fed to both)."""
    specials: int = 0
    """Special damage icons applied (002, 003)."""
    blind: int = 0
    """Rear-gun shots refused by the blind spot (002)."""
    examples: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.agree / self.phases if self.phases else 1.0

    def merge(self, other: Report) -> None:
        self.tables += other.tables
        self.phases += other.phases
        self.agree += other.agree
        self.classes.update(other.classes)
        self.shots += other.shots
        self.covered_shots += other.covered_shots
        self.tails += other.tails
        self.reorders += other.reorders
        self.specials += other.specials
        self.blind += other.blind
        self.examples.extend(other.examples[: max(0, 10 - len(self.examples))])

    def to_json(self) -> dict[str, Any]:
        return {
            "tables": self.tables,
            "phases": self.phases,
            "agree": self.agree,
            "rate": round(self.rate, 6),
            "disagreements": dict(self.classes),
            "shots": self.shots,
            "tails": self.tails,
            "reorders": self.reorders,
            "specials": self.specials,
            "blind_spot": self.blind,
            "examples": self.examples,
        }


def _batch_view(batch: BatchState, log: PhaseLog, b: int) -> dict[str, Any]:
    spec = batch.spec
    names = batch.names[b]
    moved = {}
    for n, vid in enumerate(names):
        if log.card[b, n] >= 0:
            moved[vid] = (
                spec.card_ids[int(log.card[b, n])],
                float(log.x[b, n]),
                float(log.y[b, n]),
                float(log.heading[b, n]),
            )
    shots = {}
    draws: dict[str, tuple[tuple[str, ...], int]] = {}
    decks = batch.weapon_deck()
    for n, vid in enumerate(names):
        for w in (0, 1):
            t = int(log.target[b, n, w])
            if t < 0:
                continue
            shots[(vid, WEAPONS[w])] = (
                names[t],
                "short" if log.short[b, n, w] else "long",
                float(log.distance[b, n, w]),
                bool(log.aimed[b, n, w]),
            )
            d = int(decks[b, n, w])
            cards = tuple(spec.damage_cards[d][int(s)] for s in log.slots[b, n, w] if s >= 0)
            draws[f"{vid} {WEAPONS[w]}"] = (cards, int(log.points[b, n, w]))
        if log.illegal_slot[b, n] >= 0:
            card = spec.damage_cards[spec.illegal_deck][int(log.illegal_slot[b, n])]
            draws[f"{vid} illegal"] = ((card,), -1)
        if log.burn_slot[b, n] >= 0:
            card = spec.damage_cards[spec.fire_deck][int(log.burn_slot[b, n])]
            draws[f"{vid} fire"] = ((card,), -1)
    gone = {names[n]: REASONS[int(r)] for n, r in enumerate(log.eliminated[b]) if r}
    winner = None
    if batch.over[b]:
        w = int(batch.winner[b])
        winner = ("winner", batch.side_names[w] if w >= 0 else None)
    tails = {(names[i], names[j]) for i, j in zip(*np.nonzero(log.tails[b]), strict=True)}
    return {
        "moved": moved,
        "shots": shots,
        "draws": draws,
        "gone": gone,
        "over": winner,
        "tails": tails,
        "status": _batch_status(batch, b),
    }


def _batch_status(batch: BatchState, b: int) -> dict[str, dict[str, int]]:
    out = {}
    for n, vid in enumerate(batch.names[b]):
        if batch.present[b, n]:
            out[vid] = status_of(batch, b, n)
    return out


def answers(
    batch: BatchState, log: PhaseLog, b: int, turn: int, phase: int
) -> dict[str, tuple[str, ...]]:
    """The batch's answers to table ``b``'s tailing decisions in phase ``phase`` (1 or
    2) of ``turn``, as the referee asks them (``tailing:<vehicle>@<turn>.<phase>``)."""
    spec = batch.spec
    names = batch.names[b]
    return {
        f"tailing:{names[i]}@{turn}.{phase}": tuple(
            spec.card_ids[int(c)] for c in log.plan[b, i, phase - 1 :]
        )
        for i in np.flatnonzero(log.tails[b].any(axis=1))
    }


def _referee_view(events: list[Event], after: GameState) -> tuple[dict[str, Any], bool]:
    moved = {}
    tails = set()
    shots = {}
    draws: dict[str, tuple[tuple[str, ...], int]] = {}
    gone = {}
    over = None
    shuffled = False
    late_draw = False
    for e in events:
        if isinstance(e, Moved):
            moved[e.vehicle] = (e.card, e.end.x, e.end.y, e.end.heading)
        elif isinstance(e, Fired):
            shots[(e.firer, e.weapon)] = (e.target, e.range, e.distance, e.aimed)
        elif isinstance(e, DamageDrawn):
            if shuffled:
                late_draw = True
            if e.source == "illegal maneuver":
                draws[f"{e.vehicle} illegal"] = (e.cards, -1)
            elif e.source == "fire":
                draws[f"{e.vehicle} fire"] = (e.cards, -1)
            else:
                draws[e.source] = (e.cards, e.points)
        elif isinstance(e, DeckReshuffled):
            shuffled = True
        elif isinstance(e, Eliminated):
            gone[e.vehicle] = e.reason
        elif isinstance(e, GameOver):
            over = ("winner", e.winner)
        elif isinstance(e, Tailing):
            tails.add((e.tailer, e.tailed))
    status = {vid: dict(v.status) for vid, v in after.vehicles.items()}
    view = {
        "moved": moved,
        "shots": shots,
        "draws": draws,
        "gone": gone,
        "over": over,
        "tails": tails,
        "status": status,
    }
    return view, late_draw


def _same(a: dict[str, Any], b: dict[str, Any]) -> tuple[bool, bool]:
    """(all agree, all but the cards drawn agree)."""
    if a["moved"].keys() != b["moved"].keys() or a["tails"] != b["tails"]:
        return False, False
    for k, (card, x, y, h) in a["moved"].items():
        c2, x2, y2, h2 = b["moved"][k]
        dh = abs((h - h2 + 180.0) % 360.0 - 180.0)
        if card != c2 or abs(x - x2) > POSE_TOLERANCE or abs(y - y2) > POSE_TOLERANCE or dh > 1e-6:
            return False, False
    if a["shots"].keys() != b["shots"].keys():
        return False, False
    for k, (t, r, d, aim) in a["shots"].items():
        t2, r2, d2, aim2 = b["shots"][k]
        if t != t2 or r != r2 or aim != aim2 or not math.isclose(d, d2, abs_tol=1e-6):
            return False, False
    geometry = True
    cards = (
        a["draws"] == b["draws"]
        and a["gone"] == b["gone"]
        and a["over"] == b["over"]
        and a["status"] == b["status"]
    )
    return cards and geometry, geometry


def _near_boundary(batch: BatchState, log: PhaseLog, b: int, state: GameState) -> bool:
    spec = batch.spec
    d = log.distance[b][np.isfinite(log.distance[b])]
    marks = np.array([spec.ruler, spec.half])
    if d.size and (np.abs(d[:, None] - marks[None, :]) < BOUNDARY).any():
        return True
    # a moved dot on the table's edge
    moved = log.card[b] >= 0
    x, y = log.x[b][moved], log.y[b][moved]
    edges = np.concatenate([np.abs(x), np.abs(y), np.abs(x - spec.width), np.abs(y - spec.height)])
    return bool((edges < BOUNDARY).any())


def compare_phase(
    batch: BatchState, before: BatchState, log: PhaseLog, templates: list[GameState], seed: int
) -> Report:
    """Resolve the phase ``before`` -> ``batch`` with the referee, table by table."""
    report = Report()
    for b in np.flatnonzero(log.active):
        state = to_state(before, int(b), templates[b])
        rng = step_rng(seed + int(b), state.turn, state.phase + 1)
        given = answers(batch, log, int(b), state.turn, state.phase + 1)
        try:
            after, events = referee_phase(state, rng, answers=given)
        except IllegalPlanError as exc:
            # the referee asked other tailing decisions than the batch answered
            report.phases += 1
            report.classes["unexplained"] += 1
            report.examples.append(f"table {b} turn {state.turn}: {exc}")
            continue
        ref, late_draw = _referee_view(events, after)
        mine = _batch_view(batch, log, int(b))
        report.phases += 1
        report.shots += len(ref["shots"])
        report.tails += len(ref["tails"])
        report.reorders += sum(
            state.vehicles[k.split(":")[1].split("@")[0]].plan.cards[state.phase :] != v  # type: ignore[union-attr]
            for k, v in given.items()
        )
        report.specials += sum(isinstance(e, SpecialDamage) for e in events)
        report.blind += int(log.blind[b].sum())
        same, geometry = _same(mine, ref)
        if same:
            report.agree += 1
            continue
        if geometry and late_draw:
            kind = "reshuffle"
        elif _near_boundary(batch, log, int(b), state):
            kind = "boundary"
        else:
            kind = "unexplained"
        report.classes[kind] += 1
        if kind == "unexplained" and len(report.examples) < 10:
            report.examples.append(
                f"table {b} turn {state.turn} phase {state.phase + 1}: batch {mine} referee {ref}"
            )
    return report


def run(
    catalog: Catalog,
    tables: int,
    seed: int = 0,
    ruleset: str = "wog",
    max_turns: int = 8,
    illegal_share: float = 0.15,
) -> Report:
    """Play ``tables`` random tables with random plans (a share of them breaking the
    flight restrictions), comparing every phase with the referee."""
    rng = np.random.default_rng([seed, 7])
    data = [random_table(catalog, ruleset, rng, i) for i in range(tables)]
    states = [
        as_batch_plays(build(parse_situation(d), catalog, seed + i)) for i, d in enumerate(data)
    ]
    batch = from_states(states)
    seeds = seed + np.arange(tables)
    report = Report(tables=tables)
    while not batch.over.all() and batch.turn.max() <= max_turns:
        random_plans(batch, rng)
        if batch.phase.max() == 0 or batch.spec.one_card:  # WW2: a card every phase
            illegal_plans(batch, rng, illegal_share)
        before = batch.copy()
        log = resolve_phase(batch, rng, seeds, reorder=bots_reorder)
        report.merge(compare_phase(batch, before, log, states, seed))
    return report
