"""What a campaign remembers between games, and how one mission's result changes it.

Pure: :func:`apply_result` takes the campaign's record and a mission's result and gives
the next record; every roll (a shot-down pilot's fate, an ace's skill) comes from a
generator seeded by the campaign's seed and the mission's number, so a campaign replays
exactly. A result carries the number of the mission it ends; a second result for the
same mission is refused and changes nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from dogfight.campaign.spec import END, CampaignSpec, Fate
from dogfight.errors import DogfightError
from dogfight.words.terms import plural

Json = dict[str, Any]


class CampaignError(DogfightError):
    """A campaign action that cannot be taken (the campaign is over, a result is written
    twice, a mission is not the current one)."""


@dataclass
class Pilot:
    """One pilot's record."""

    name: str
    squadron: str
    side: str
    status: str = "active"
    """``active``, ``wounded`` (misses ``out_for`` more missions), ``captured`` or
    ``killed``."""
    out_for: int = 0
    missions: int = 0
    victories: int = 0
    damage_taken: int = 0
    shot_down: int = 0
    skills: list[str] = field(default_factory=list)
    points: int = 0
    """Sopwith campaigns: the player's carried score (004's Ace list)."""

    @property
    def can_fly(self) -> bool:
        return self.status == "active"

    @property
    def ace(self) -> bool:
        return bool(self.skills)


@dataclass(frozen=True)
class Flight:
    """One vehicle of a mission and who flew it."""

    vehicle: str
    type: str
    side: str
    pilot: str | None
    """None for a vehicle the campaign has no pilot for (a tripod, a scenario's
    replacement airplane)."""


@dataclass(frozen=True)
class MissionResult:
    """What a finished game says about the campaign: who won, the points, and for each
    vehicle its damage, whether it was shot down and its victories."""

    number: int
    """Which mission of the campaign this is (1 = the first)."""
    mission: str
    winner: str | None
    """The winning campaign side (None: a draw or no result)."""
    points: dict[str, int]
    damage: dict[str, int]
    shot_down: list[str]
    victories: dict[str, int]
    game: str = ""
    """The game's id (a stored game) or seed (a simulated one), for the history."""

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Json) -> MissionResult:
        return cls(**data)


@dataclass
class Entry:
    """One mission in the campaign's history."""

    number: int
    mission: str
    title: str
    game: str
    winner: str | None
    outcome: str
    """``win``, ``loss`` or ``draw``, for the campaign's first side."""
    points: dict[str, int]
    flights: list[Json]
    events: list[str]
    """What happened to the pilots, in words (victories, aces, wounds, deaths)."""


@dataclass
class Campaign:
    """A campaign's record: its file's id, seed, pilots, history and next mission."""

    spec: str
    seed: int
    pilots: list[Pilot]
    history: list[Entry] = field(default_factory=list)
    current: str | None = None
    """The next mission's id; None once the campaign is over."""
    flights: list[Flight] = field(default_factory=list)
    """Who flies what in the current mission, once it has been set up."""
    winner: str | None = None
    recruits: int = 0

    @property
    def over(self) -> bool:
        return self.current is None

    @property
    def number(self) -> int:
        """The number of the current (next) mission."""
        return len(self.history) + 1

    def pilot(self, name: str) -> Pilot:
        return next(p for p in self.pilots if p.name == name)

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Json) -> Campaign:
        return cls(
            spec=data["spec"],
            seed=data["seed"],
            pilots=[Pilot(**p) for p in data["pilots"]],
            history=[Entry(**e) for e in data["history"]],
            current=data["current"],
            flights=[Flight(**f) for f in data["flights"]],
            winner=data["winner"],
            recruits=data["recruits"],
        )


def start(spec: CampaignSpec, seed: int) -> Campaign:
    """A new campaign: every squadron's pilots on the roster, the first mission next."""
    pilots = [Pilot(name, sq.id, sq.side) for sq in spec.squadrons for name in sq.pilots]
    return Campaign(spec.id, seed, pilots, current=spec.start)


def roll(campaign: Campaign, number: int, purpose: int) -> np.random.Generator:
    """The generator for one kind of roll after mission ``number``."""
    return np.random.Generator(
        np.random.PCG64(np.random.SeedSequence([campaign.seed, number, purpose]))
    )


def mission_seed(seed: int, number: int) -> int:
    """The game seed of mission ``number`` of a campaign seeded ``seed``."""
    sequence = np.random.SeedSequence([seed, number, 4])
    return int(sequence.generate_state(1, dtype=np.uint32)[0])


def recruit(spec: CampaignSpec, campaign: Campaign, side: str) -> Pilot:
    """A replacement pilot for ``side``'s first squadron: the next name of its
    ``replacements``, else 'Replacement N'."""
    squadron = spec.squadrons_of(side)[0]
    taken = {p.name for p in campaign.pilots}
    name = next((n for n in squadron.replacements if n not in taken), None)
    while name is None or name in taken:
        campaign.recruits += 1
        name = f"Replacement {campaign.recruits}"
    pilot = Pilot(name, squadron.id, side)
    campaign.pilots.append(pilot)
    return pilot


def apply_result(spec: CampaignSpec, campaign: Campaign, result: MissionResult) -> Campaign:
    """The campaign after ``result``: records, fates of pilots shot down (a seeded roll on
    the casualty table), new aces, wounds healing, and the next mission.

    Raises :class:`CampaignError` (nothing changed) when the campaign is over or the
    result is not for its current mission."""
    if campaign.over:
        raise CampaignError("the campaign is over: no mission result can be written")
    if result.number != campaign.number or result.mission != campaign.current:
        raise CampaignError(
            f"this result is for mission {result.number} ({result.mission}); the campaign "
            f"waits for mission {campaign.number} ({campaign.current}): a result is written once"
        )
    new = Campaign.from_json(campaign.to_json())
    mission = spec.mission(result.mission)
    said: list[str] = []
    flying = {f.pilot for f in new.flights if f.pilot is not None}
    for pilot in new.pilots:
        if pilot.status == "wounded" and pilot.name not in flying:
            pilot.out_for -= 1
            if pilot.out_for <= 0:
                pilot.status, pilot.out_for = "active", 0
                said.append(f"{pilot.name} is back from hospital")
    fates = roll(new, result.number, 1)
    skills = roll(new, result.number, 2)
    weights = np.array([c.weight for c in spec.casualties], dtype=float)
    for flight in new.flights:
        if flight.pilot is None:
            continue
        pilot = new.pilot(flight.pilot)
        pilot.missions += 1
        pilot.damage_taken += result.damage.get(flight.vehicle, 0)
        won = result.victories.get(flight.vehicle, 0)
        if won:
            pilot.victories += won
            said.append(f"{pilot.name} scores {won} victor{'y' if won == 1 else 'ies'}")
        if pilot.victories >= spec.ace.victories * (len(pilot.skills) + 1):
            choices = [s.value for s in spec.ace.skills if s.value not in pilot.skills]
            if choices:
                skill = choices[int(skills.integers(len(choices)))]
                pilot.skills.append(skill)
                said.append(f"{pilot.name} is an ace: {skill.replace('_', ' ')}")
        if flight.vehicle in result.shot_down:
            pilot.shot_down += 1
            row = spec.casualties[int(fates.choice(len(weights), p=weights / weights.sum()))]
            if row.fate is Fate.WOUNDED:
                pilot.status, pilot.out_for = "wounded", max(1, row.missions_out)
                said.append(f"{pilot.name} is wounded: out for {plural(pilot.out_for, 'mission')}")
            elif row.fate is not Fate.UNHURT:
                pilot.status = row.fate.value
                said.append(f"{pilot.name} is {row.fate.value}")
            else:
                said.append(f"{pilot.name} was shot down and walks away unhurt")
    first = spec.sides[0]
    outcome = "draw" if result.winner is None else ("win" if result.winner == first else "loss")
    new.history.append(
        Entry(
            result.number,
            mission.id,
            mission.title or mission.id,
            result.game,
            result.winner,
            outcome,
            dict(result.points),
            [asdict(f) for f in new.flights],
            said,
        )
    )
    new.flights = []
    follow = _next(mission.next, outcome, result.points.get(first, 0))
    if follow == END or len(new.history) >= spec.max_missions:
        new.current = None
        new.winner = _winner(spec, new)
    else:
        new.current = follow
    return new


def _next(rule: Any, outcome: str, points: int) -> str:
    if rule.points_at_least is not None and points >= rule.points_at_least:
        return str(rule.on_points)
    if outcome == "win":
        return str(rule.win)
    if outcome == "draw" and rule.draw is not None:
        return str(rule.draw)
    return str(rule.loss)


def _winner(spec: CampaignSpec, campaign: Campaign) -> str | None:
    """The side with more missions won; on a tie, more victory points; else a draw."""
    wins = {s: sum(1 for e in campaign.history if e.winner == s) for s in spec.sides}
    points = {s: sum(e.points.get(s, 0) for e in campaign.history) for s in spec.sides}
    a, b = spec.sides
    key_a, key_b = (wins[a], points[a]), (wins[b], points[b])
    if key_a == key_b:
        return None
    return a if key_a > key_b else b
