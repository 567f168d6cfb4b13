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
from dogfight.batch.tripod_plans import choosers, option, plan_tripods, random_tokens
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
    HeatRay,
    Moved,
    ObjectiveDestroyed,
    ProtectedHit,
    Recharged,
    SkillUsed,
    SpecialDamage,
    Tailing,
    Toppled,
)
from dogfight.rules.state import GameState
from dogfight.situation.format import Situation, build, parse_situation
from dogfight.situation.scenarios import scenario_situation

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


def random_tripod_table(
    catalog: Catalog, rng: np.random.Generator, standard: bool = False
) -> dict[str, Any]:
    """A random table of 000's basic tripod rules: a tripod of a random model with a
    random console (Energy, toppled tokens, the heat-ray cooling, a reverse pending, some
    damage) against 1 to 4 airplanes close enough to fire at it and be reached by its
    heat-rays, now and then with an airplane on its side (guns at airplanes, the tripod's
    base hiding some). ``standard``: under the Standard Rules (000's special damage
    table), the airplanes now and then with lasting special damage (a tripod's is
    dealt in play: the situation format refuses it; :func:`run` gives it some) and half
    of them with an ace skill (Itchy Trigger Finger or Sniper)."""
    types = sorted(a.id for a in catalog.airplanes.values() if a.era == "ww1")
    models = sorted(catalog.tripods)
    kind = models[int(rng.integers(len(models)))]
    model = catalog.tripods[kind]
    spread = float(rng.choice([10.0, 18.0, 28.0]))

    def pose() -> dict[str, float]:
        return {
            "x": 45.0 + float(rng.uniform(-spread, spread)),
            "y": 45.0 + float(rng.uniform(-spread, spread)),
            "heading": float(rng.uniform(0.0, 360.0)),
        }

    tripod: dict[str, Any] = {
        "id": "t0",
        "type": kind,
        "side": "martians",
        "pose": pose(),
        "energy": int(rng.integers(0, model.energy + 1)),
        "damage": int(rng.integers(0, model.damage)) if rng.random() < 0.4 else 0,
        "toppled": int(rng.choice([0, 0, 0, 0, 1, 2])),
        "cooling": int(rng.random() < 0.2),
        "reverse": bool(rng.random() < 0.15),
    }
    vehicles = [tripod]
    for i in range(int(rng.integers(1, 5))):
        plane = types[int(rng.integers(len(types)))]
        v: dict[str, Any] = {
            "id": f"v{i}",
            "type": plane,
            "side": "martians" if i > 0 and rng.random() < 0.2 else "earth",
            "pose": pose(),
        }
        if rng.random() < 0.3:
            v["damage"] = int(rng.integers(0, catalog.airplanes[plane].damage))
        if rng.random() < 0.1:
            v["jams"] = {"front": int(rng.integers(1, 4))}
        status = _random_status(catalog, "wog", rng, standard)
        if status:
            v["status"] = status
        if standard and rng.random() < 0.5:
            v["skills"] = [str(rng.choice(["itchy_trigger_finger", "sniper"]))]
        vehicles.append(v)
    if all(v["side"] == "martians" for v in vehicles):
        vehicles[-1]["side"] = "earth"
    # objective tokens around the tripod, now and then (recharged from, destroyed)
    x, y = tripod["pose"]["x"], tripod["pose"]["y"]
    objectives = [
        {
            "id": f"o{k}",
            "x": x + float(rng.uniform(-3.0, 3.0)),
            "y": y + float(rng.uniform(-3.0, 3.0)),
            "charges": int(rng.integers(0, 3)),
        }
        for k in range(int(rng.choice([0, 0, 1, 2, 3])))
    ]
    out: dict[str, Any] = {"ruleset": "wog", "vehicles": vehicles, "objectives": objectives}
    if standard:
        out["switches"] = {"standard_rules": True}
    return out


def _tripod_status(rng: np.random.Generator) -> dict[str, int]:
    """A tripod's lasting special damage under 000's table: a wound, one or two engine
    hits, a fire, its gyroscope out this turn or next, its reverse mechanism or black
    smoke generator gone."""
    key = str(rng.choice(["wounded", "engine", "engine2", "fire", "gyroscope", "reverse", "smoke"]))
    if key == "engine2":
        return {"engine": 2}
    if key == "fire":
        return {"fire": int(rng.integers(1, 4))}
    if key == "gyroscope":
        return {"gyroscope": int(rng.integers(1, 3))}
    if key == "reverse":
        return {"reverse_destroyed": 1}
    if key == "smoke":
        return {"smoke_generator": 1}
    return {key: 1}


def _random_status(
    catalog: Catalog, ruleset: str, rng: np.random.Generator, standard: bool = False
) -> dict[str, int]:
    """Lasting special damage of the ruleset's special damage rules (``standard``: 000's
    table), now and then: an engine hit, a smoke trail or a fire, the observer out (a
    wounded pilot under 000's), a rudder jammed this turn."""
    switches = catalog.rulesets[ruleset].switches
    specials = switches.special_damage or ("000" if switches.standard_rules or standard else None)
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
    """Special damage icons applied (002, 003, 000)."""
    tripod_specials: int = 0
    """Of those, 000's icons on tripods (the Standard Rules)."""
    skills: int = 0
    """Ace skills used (000: Itchy Trigger Finger, Sniper)."""
    blind: int = 0
    """Rear-gun shots refused by the blind spot (002)."""
    rays: int = 0
    """Heat-rays that hit (000's tripods)."""
    protected: int = 0
    """Shots at a tripod stopped by its electrified armour."""
    toppled: int = 0
    """Tripods that toppled."""
    objectives: int = 0
    """Objectives destroyed or recharged from."""
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
        self.tripod_specials += other.tripod_specials
        self.skills += other.skills
        self.blind += other.blind
        self.rays += other.rays
        self.protected += other.protected
        self.toppled += other.toppled
        self.objectives += other.objectives
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
            "tripod_specials": self.tripod_specials,
            "skills": self.skills,
            "blind_spot": self.blind,
            "heat_rays": self.rays,
            "protected_hits": self.protected,
            "toppled": self.toppled,
            "objectives": self.objectives,
            "examples": self.examples,
        }


def _batch_view(
    batch: BatchState, log: PhaseLog, b: int, on_table: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """Table ``b``'s phase as the batch played it (``on_table``: its objectives' ids)."""
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
    consoles: dict[str, tuple[float, ...]] = {}
    if log.tripod is not None:
        _tripod_view(batch, log, b, moved, shots, draws, consoles)
    for k, oid in enumerate(batch.objective_ids):
        if oid in on_table:
            consoles[oid] = (
                float(batch.obj_x[b, k]),
                float(batch.obj_y[b, k]),
                0.0,
                int(batch.obj_charges[b, k]),
                int(batch.obj_destroyed[b, k]),
                0,
                0,
                0,
                0,
            )
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
        "consoles": consoles,
    }


def _tripod_view(
    batch: BatchState,
    log: PhaseLog,
    b: int,
    moved: dict[str, Any],
    shots: dict[tuple[str, str], Any],
    draws: dict[str, tuple[tuple[str, ...], int]],
    consoles: dict[str, tuple[float, ...]],
) -> None:
    """Table ``b``'s tripods in the views: their walks, heat-rays, protected hits (the
    cards drawn, keyed by firer) and consoles after the phase."""
    assert log.tripod is not None
    spec = batch.spec
    tri = spec.tripods
    names = batch.names[b]
    tlog = log.tripod
    for n, vid in enumerate(names):
        if not batch.present[b, n]:
            continue
        if batch.tripod[b, n]:
            card = int(tlog.card[b, n])
            if card >= 0 and tri.card_moves[card]:
                moved[vid] = (tri.card_ids[card], *_pose_of(log, b, n))
            target = int(tlog.shots.ray_target[b, n])
            if target >= 0:
                shots[(vid, "heat-ray")] = (
                    names[target],
                    "short" if tlog.shots.ray_short[b, n] else "long",
                    float(tlog.shots.ray_distance[b, n]),
                    False,
                )
                d = int(tri.type_ray_deck[batch.ttype[b, n]])
                cards = tuple(spec.damage_cards[d][int(s)] for s in tlog.ray_slots[b, n] if s >= 0)
                draws[f"{vid} heat-ray"] = (cards, int(tlog.ray_points[b, n]))
            if batch.alive[b, n] or log.eliminated[b, n]:
                consoles[vid] = _console(batch, b, n)
            continue
        protected: tuple[str, ...] = ()
        for w in (0, 1):
            if tlog.shots.protected[b, n, w] and log.target[b, n, w] >= 0:
                d = int(batch.weapon_deck()[b, n, w])
                protected += tuple(
                    spec.damage_cards[d][int(s)] for s in log.slots[b, n, w] if s >= 0
                )
                draws.pop(f"{vid} {WEAPONS[w]}", None)
        if protected:
            draws[f"{vid} protected"] = (protected, -1)


def _pose_of(log: PhaseLog, b: int, n: int) -> tuple[float, float, float]:
    """Where the phase left slot ``n`` (a walking tripod turns no further)."""
    return float(log.x[b, n]), float(log.y[b, n]), float(log.heading[b, n])


def _console(batch: BatchState, b: int, n: int) -> tuple[float, ...]:
    """A tripod's pose, console and damage after the phase (compared with tolerance on
    the pose)."""
    return (
        float(batch.x[b, n]),
        float(batch.y[b, n]),
        float(batch.heading[b, n]),
        int(batch.energy[b, n]),
        int(batch.rating[b, n]),
        int(batch.toppled[b, n]),
        int(batch.cooling[b, n]),
        int(batch.reverse[b, n]),
        int(batch.damage[b, n]),
    )


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


def token_answers(batch: BatchState, b: int, turn: int, phase: int) -> dict[str, tuple[str, ...]]:
    """The tokens the batch chose for table ``b``'s tripods this phase, as answers to the
    referee's decisions (``action_token:<vehicle>@<turn>.<phase>``)."""
    names = batch.names[b]
    return {
        f"action_token:{names[n]}@{turn}.{phase}": (option(batch, b, int(n)),)
        for n in np.flatnonzero(choosers(batch)[b])
    }


def _referee_view(
    events: list[Event], after: GameState, before: GameState | None = None
) -> tuple[dict[str, Any], bool]:
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
        elif isinstance(e, HeatRay) and e.target is not None:
            assert e.range is not None and e.distance is not None
            shots[(e.firer, "heat-ray")] = (e.target, e.range, e.distance, False)
        elif isinstance(e, ProtectedHit):
            if shuffled:
                late_draw = True
            key = f"{e.firer} protected"
            draws[key] = (draws.get(key, ((), -1))[0] + e.cards, -1)
    status = {vid: dict(v.status) for vid, v in after.vehicles.items()}
    consoles = {}
    for vid, v in after.vehicles.items():
        console = v.tripod
        if console is None or (before is not None and not before.vehicles[vid].in_play):
            continue
        consoles[vid] = (
            v.pose.x,
            v.pose.y,
            v.pose.heading,
            console.energy,
            console.rating,
            console.toppled,
            console.cooling,
            int(console.reverse_pending),
            v.damage,
        )
    for oid, o in sorted(after.objectives.items()):
        consoles[oid] = (o.x, o.y, 0.0, o.charges, int(o.destroyed), 0, 0, 0, 0)
    view = {
        "moved": moved,
        "shots": shots,
        "draws": draws,
        "gone": gone,
        "over": over,
        "tails": tails,
        "status": status,
        "consoles": consoles,
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
    if a["consoles"].keys() != b["consoles"].keys():
        return False, False
    for k, mine in a["consoles"].items():
        theirs = b["consoles"][k]
        dh = abs((mine[2] - theirs[2] + 180.0) % 360.0 - 180.0)
        if (
            abs(mine[0] - theirs[0]) > POSE_TOLERANCE
            or abs(mine[1] - theirs[1]) > POSE_TOLERANCE
            or dh > 1e-6
            or mine[3:] != theirs[3:]
        ):
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
        tokens = token_answers(before, int(b), state.turn, state.phase + 1)
        # a tripod its flames eliminate as the turn begins (000's fire) is asked no token
        # by the referee: the batch's token for it goes unused
        burning = {
            k for k in tokens if state.vehicles[k.split(":")[1].split("@")[0]].status.get("fire")
        }
        try:
            try:
                after, events = referee_phase(state, rng, answers={**given, **tokens})
            except IllegalPlanError:
                if not burning:
                    raise
                state = to_state(before, int(b), templates[b])
                rng = step_rng(seed + int(b), state.turn, state.phase + 1)
                kept = {k: v for k, v in tokens.items() if k not in burning}
                after, events = referee_phase(state, rng, answers={**given, **kept})
                ids = [k.split(":")[1].split("@")[0] for k in burning]
                if any(after.vehicles[v].eliminated != "burned" for v in ids):
                    # not the tripod's flames but an enemy's: the token named it
                    raise
        except IllegalPlanError as exc:
            report.phases += 1
            if burning_foe(before, int(b)) and "action_token:" in str(exc):
                # the batch's policies choose the tokens before the flames' A cards of
                # the turn's start, the referee after: an enemy they shot down is no
                # longer among its options (docs/batch.md, "Limits")
                report.classes["flames before tokens"] += 1
                continue
            # the referee asked other tailing decisions than the batch answered
            report.classes["unexplained"] += 1
            report.examples.append(f"table {b} turn {state.turn}: {exc}")
            continue
        ref, late_draw = _referee_view(events, after, state)
        mine = _batch_view(batch, log, int(b), frozenset(state.objectives))
        report.phases += 1
        report.shots += len(ref["shots"])
        report.tails += len(ref["tails"])
        report.reorders += sum(
            state.vehicles[k.split(":")[1].split("@")[0]].plan.cards[state.phase :] != v  # type: ignore[union-attr]
            for k, v in given.items()
        )
        report.specials += sum(isinstance(e, SpecialDamage) for e in events)
        report.skills += sum(isinstance(e, SkillUsed) for e in events)
        report.tripod_specials += sum(
            isinstance(e, SpecialDamage) and state.vehicles[e.vehicle].tripod is not None
            for e in events
        )
        report.rays += sum(isinstance(e, HeatRay) and e.target is not None for e in events)
        report.protected += sum(isinstance(e, ProtectedHit) for e in events)
        report.toppled += sum(isinstance(e, Toppled) for e in events)
        report.objectives += sum(
            isinstance(e, ObjectiveDestroyed)
            or (isinstance(e, Recharged) and e.objective is not None)
            for e in events
        )
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


def burning_foe(batch: BatchState, b: int) -> bool:
    """Whether an airplane of table ``b`` burns as this phase begins (a turn's first
    phase, a flame counter left)."""
    return bool(
        batch.phase[b] == 0 and (batch.alive[b] & ~batch.tripod[b] & (batch.fire[b] > 0)).any()
    )


def run(
    catalog: Catalog,
    tables: int,
    seed: int = 0,
    ruleset: str = "wog",
    max_turns: int = 8,
    illegal_share: float = 0.15,
    tripods: bool = False,
    standard: bool = False,
    scenario: str | None = None,
) -> Report:
    """Play ``tables`` random tables with random plans (a share of them breaking the
    flight restrictions), comparing every phase with the referee. ``tripods``: tables of
    000's basic tripod rules (:func:`random_tripod_table`, ruleset ``wog``), a share of
    the tripods' plans drawn with no care for toppling and random legal tokens;
    ``standard``: those tables under the Standard Rules (000's special damage);
    ``scenario``: that scenario's setups as ``simulate`` varies them (its placement,
    objectives, skills and victory conditions)."""
    rng = np.random.default_rng([seed, 7])
    data: list[Situation] | list[dict[str, Any]]
    if scenario is not None:
        data = [scenario_situation(catalog, scenario, rng) for _ in range(tables)]
        tripods = True
    else:
        data = [
            random_tripod_table(catalog, rng, standard)
            if tripods
            else random_table(catalog, ruleset, rng, i)
            for i in range(tables)
        ]
    states = [
        as_batch_plays(
            build(d if isinstance(d, Situation) else parse_situation(d), catalog, seed + i)
        )
        for i, d in enumerate(data)
    ]
    if standard:
        for state in states:
            if rng.random() < 0.4:
                state.vehicles["t0"].status = _tripod_status(rng)
    batch = from_states(states)
    seeds = seed + np.arange(tables)
    report = Report(tables=tables)
    while not batch.over.all() and batch.turn.max() <= max_turns:
        if tripods:
            plan_tripods(batch, rng, wild=2 * illegal_share)
        random_plans(batch, rng)
        if tripods:
            random_tokens(batch, rng)  # every legal token, not only the bots' choices
        if batch.phase.max() == 0 or batch.spec.one_card:  # WW2: a card every phase
            illegal_plans(batch, rng, illegal_share)
        before = batch.copy()
        log = resolve_phase(batch, rng, seeds, reorder=bots_reorder)
        report.merge(compare_phase(batch, before, log, states, seed))
    return report
