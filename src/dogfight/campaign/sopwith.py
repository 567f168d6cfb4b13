"""Sopwith campaigns: a league of postal games between the same players, run by a Games
Master with the Sopwith tool.

004 already carries a player's score from game to game ("When an ace starts in a new
game, the fact that he is an ace will be published"); a campaign makes that a record: a
TOML file names the players (their planes' names, pilots and airfields), the ruleset and
how many games make the campaign. Each game of the campaign is an ordinary Sopwith game
(``dogfight sopwith orders`` / ``turn``); when it is over its result is written back to
the campaign once: every player's carried score, the planes he shot down, whether he was
shot down or crashed, who won, who became an Ace or lost it. The campaign is won by the
highest carried score after the last game.

Pure: the Games Master's commands (``dogfight campaign``) read and write the stores.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dogfight.campaign.record import (
    Campaign,
    CampaignError,
    Entry,
    MissionResult,
    Pilot,
    mission_seed,
)
from dogfight.campaign.spec import validated
from dogfight.errors import DataError
from dogfight.sopwith.board import Board
from dogfight.sopwith.game import GameState, PlaneSetup, Status
from dogfight.sopwith.rules import DEFAULT, Ruleset, load_ruleset

SHIPPED = Path(__file__).parent / "data" / "sopwith"
SQUADRON = "sopwith"
"""The squadron every Sopwith player's record carries (each player is his own side)."""
IMMELMANN = "immelmann"
"""004: an Ace "is allowed to use the Immelman Turn": the skill a Sopwith Ace holds."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Strict):
    """A player of the league: his plane's name (the name orders are filed under), the
    pilot he flies as, his home airfield and the score he brings in."""

    name: str = Field(min_length=1, max_length=40)
    pilot: str | None = Field(default=None, max_length=60)
    airfield: str | None = None
    score: int = Field(default=0, ge=0, le=10_000)


class SopwithCampaignSpec(_Strict):
    """A Sopwith campaign file."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", max_length=40)
    title: str
    note: str = ""
    game: Literal["sopwith"]
    ruleset: str = DEFAULT
    games: int = Field(ge=1, le=50, description="how many games make the campaign")
    clouds: int = Field(default=2, ge=0, le=12, description="clouds placed at random per game")
    players: list[Player] = Field(min_length=2, max_length=26)

    @model_validator(mode="after")
    def _distinct(self) -> SopwithCampaignSpec:
        seen: set[str] = set()
        for p in self.players:
            if p.name.casefold() in seen:
                raise ValueError(f"two players are named {p.name!r}")
            seen.add(p.name.casefold())
        return self

    def rules(self) -> Ruleset:
        return load_ruleset(self.ruleset)


def is_sopwith(text: str) -> bool:
    """Whether a campaign file's text is a Sopwith campaign (``game = "sopwith"``)."""
    try:
        return tomllib.loads(text).get("game") == "sopwith"
    except tomllib.TOMLDecodeError:
        return False


def available() -> dict[str, Path]:
    """The shipped Sopwith campaigns by id."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.toml"))}


def parse_sopwith_campaign(text: str, source: str) -> SopwithCampaignSpec:
    """A Sopwith campaign from its TOML text; :class:`DataError` names the file, the
    field and the value (an airfield the board does not have, two players of one name,
    an unknown ruleset)."""
    spec = validated(text, source, SopwithCampaignSpec)
    try:
        rules = spec.rules()
    except DataError as exc:
        raise DataError(source, "ruleset", spec.ruleset, str(exc)) from None
    fields = Board(rules.board_side).airfields
    for i, p in enumerate(spec.players):
        if p.airfield is not None and p.airfield not in fields:
            raise DataError(
                source, f"players[{i}].airfield", p.airfield, "airfields: " + ", ".join(fields)
            )
    return spec


def start(spec: SopwithCampaignSpec, seed: int) -> Campaign:
    """A new league: every player on the roster with the score he brings in."""
    rules = spec.rules()
    pilots = [
        Pilot(
            p.name,
            SQUADRON,
            p.name,
            points=p.score,
            skills=[IMMELMANN] if _ace(rules, p.score) else [],
        )
        for p in spec.players
    ]
    return Campaign(spec.id, seed, pilots, current=game_id(1))


def game_id(number: int) -> str:
    return f"game-{number}"


def game_name(campaign_id: str, number: int) -> str:
    """The Sopwith game's name for game ``number`` of a stored campaign."""
    return f"{campaign_id}-{game_id(number)}"


def game_seed(seed: int, number: int) -> int:
    """The seed of the campaign's game ``number`` (its random clouds and cloud moves)."""
    return mission_seed(seed, number)


def setups(spec: SopwithCampaignSpec, campaign: Campaign) -> list[PlaneSetup]:
    """The next game's planes: every player, at his airfield, with his carried score."""
    if campaign.over:
        raise CampaignError("the campaign is over: there is no next game")
    return [
        PlaneSetup(p.name, p.airfield, p.pilot, campaign.pilot(p.name).points) for p in spec.players
    ]


def _ace(rules: Ruleset, score: int) -> bool:
    return rules.ace_basis == "career" and score >= rules.ace_threshold


def apply_game(
    spec: SopwithCampaignSpec,
    campaign: Campaign,
    number: int,
    game: str,
    final: GameState,
    events: Iterable[Mapping[str, Any]],
) -> tuple[Campaign, MissionResult]:
    """The campaign after game ``number`` (named ``game``, over in ``final``; ``events``
    every event of it as JSON): each player's carried score, the planes he shot down,
    his being shot down or crashing, his Ace status; the next game, or the end and its
    winner (the highest carried score; a tie: none); with the result as the campaign
    store keeps it.

    Raises :class:`CampaignError` (nothing changed) when the campaign is over, the game
    is not over, or it is not the campaign's current game (a result is written once)."""
    if campaign.over:
        raise CampaignError("the campaign is over: no game result can be written")
    if number != campaign.number or game_id(number) != campaign.current:
        raise CampaignError(
            f"this result is for game {number}; the campaign waits for game {campaign.number}: "
            "a result is written once"
        )
    if not final.over:
        raise CampaignError(f"game {game!r} is not over (turn {final.turn} to play)")
    rules = spec.rules()
    new = Campaign.from_json(campaign.to_json())
    credits: dict[str, int] = {}
    for event in events:
        if event.get("kind") == "shot_down":
            for shooter in event.get("by", []):
                credits[shooter] = credits.get(shooter, 0) + 1
    said: list[str] = []
    points: dict[str, int] = {}
    for plane in final.planes:
        pilot = new.pilot(plane.name)
        pilot.missions += 1
        pilot.damage_taken += rules.damage_capacity - plane.strength
        points[plane.name] = plane.game_points
        won = credits.get(plane.name, 0)
        if won:
            pilot.victories += won
            said.append(f"{plane.name} shot down {won} plane{'s' if won > 1 else ''}")
        if plane.status is Status.SHOT_DOWN:
            pilot.shot_down += 1
            said.append(f"{plane.name} was shot down")
        elif plane.status is Status.CRASHED:
            said.append(f"{plane.name} crashed")
        was_ace = bool(pilot.skills)
        pilot.points = plane.score
        now_ace = _ace(rules, plane.score)
        pilot.skills = [IMMELMANN] if now_ace else []
        if now_ace and not was_ace:
            said.append(f"{plane.name} is an Ace with {plane.score} points")
        elif was_ace and not now_ace:
            said.append(f"{plane.name} falls below the mark and loses his Ace status")
    new.history.append(
        Entry(
            number,
            game_id(number),
            f"Game {number}",
            game,
            final.winner,
            "over",
            points,
            [
                {"vehicle": p.name, "type": "sopwith", "side": p.name, "pilot": p.name}
                for p in final.planes
            ],
            said,
        )
    )
    new.flights = []
    result = MissionResult(
        number,
        game_id(number),
        final.winner,
        points,
        {p.name: rules.damage_capacity - p.strength for p in final.planes},
        [p.name for p in final.planes if p.status is Status.SHOT_DOWN],
        credits,
        game,
    )
    if len(new.history) >= spec.games:
        new.current = None
        best = max(p.points for p in new.pilots)
        leaders = [p.name for p in new.pilots if p.points == best]
        new.winner = leaders[0] if len(leaders) == 1 else None
    else:
        new.current = game_id(number + 1)
    return new, result
