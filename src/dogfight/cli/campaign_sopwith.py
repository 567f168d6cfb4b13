"""Sopwith campaigns at the Games Master's desk: ``dogfight campaign new | status | next``
on a Sopwith campaign file (``game = "sopwith"``).

``next`` starts the campaign's next game in the Sopwith database (every player at his
airfield with his carried score) and writes its start sheet; the Games Master then plays
it with ``dogfight sopwith orders`` / ``turn`` as any postal game. ``status`` (and
``next``) write a finished game's result back to the campaign, once, in one
transaction. The campaign record lives in the campaign database (``--db``), the games in
the Sopwith one (``--sopwith-db``).
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from dogfight.campaign import sopwith as league
from dogfight.campaign.record import CampaignError
from dogfight.errors import DataError
from dogfight.sopwith.game import GameError
from dogfight.sopwith.referee import files_of, write_files
from dogfight.sopwith.report import ace_lines
from dogfight.sopwith.starting import start_game
from dogfight.sopwith.store import Store, database_url


def sopwith_store(db: str | None, create: bool = False) -> Store:
    return Store(database_url(db), create=create)


def settle(store: Any, stored: Any, spec: league.SopwithCampaignSpec, games: Store) -> Any:
    """Write the current game's result if it is over; the campaign as stored after."""
    campaign = stored.campaign
    row = stored.missions.get(campaign.number)
    if campaign.over or row is None or row.game_id is None or row.result is not None:
        return stored
    try:
        game = games.game(row.game_id)
    except GameError:
        raise DataError(
            "--sopwith-db",
            "game",
            row.game_id,
            "the campaign's current game is not in this Sopwith database",
        ) from None
    if not game.state.over:
        return stored
    events = [e for t in range(1, game.state.turn) for e in games.issued(row.game_id, t).events]
    after, result = league.apply_game(
        spec, campaign, campaign.number, row.game_id, game.state, events
    )
    store.write_result(stored, after, result)
    return store.load(stored.id)


def new(store: Any, spec: league.SopwithCampaignSpec, text: str, seed: int) -> None:
    campaign_id = store.create(spec.title, text, league.start(spec, seed))
    typer.echo(
        f"{campaign_id}: {spec.title} (Sopwith, {len(spec.players)} players, "
        f"{spec.games} games, seed {seed})"
    )


def status(store: Any, stored: Any, spec: league.SopwithCampaignSpec, games: Store) -> None:
    stored = settle(store, stored, spec, games)
    campaign = stored.campaign
    console = Console()
    for table in tables(spec, campaign):
        console.print(table)
    if campaign.over:
        console.print(f"The campaign is over: {campaign.winner or 'a tie'}.")
        return
    row = stored.missions.get(campaign.number)
    if row is not None and row.game_id is not None:
        state = games.game(row.game_id).state
        console.print(
            f"Game {campaign.number} is being played as {row.game_id!r} (turn {state.turn} to "
            "play): dogfight sopwith orders / turn."
        )
    else:
        console.print(f"Next: game {campaign.number} of {spec.games} (dogfight campaign next).")


def next_game(
    store: Any,
    stored: Any,
    spec: league.SopwithCampaignSpec,
    games: Store,
    out: str,
) -> None:
    """Start the campaign's next game and write its start sheet into ``out``."""
    from dogfight.output.files import make_folder

    stored = settle(store, stored, spec, games)
    campaign = stored.campaign
    if campaign.over:
        raise CampaignError("the campaign is over: there is no next game")
    row = stored.missions.get(campaign.number)
    if row is not None and row.game_id is not None and row.result is None:
        raise CampaignError(
            f"game {campaign.number} is being played as {row.game_id!r}: finish it first "
            "(dogfight sopwith orders / turn)"
        )
    make_folder(out)
    name = league.game_name(stored.id, campaign.number)
    rules = spec.rules()
    seed = league.game_seed(campaign.seed, campaign.number)
    state, issued, aces = start_game(
        games, name, rules, league.setups(spec, campaign), [], spec.clouds, seed
    )
    setup = {"sopwith_game": name, "players": [p.name for p in state.planes]}
    store.start_mission(stored, campaign, name, setup)
    typer.echo(f"Game {campaign.number} of {spec.games}: Sopwith game {name!r} (seed {seed})")
    for p in state.planes:
        typer.echo(f"  {p.letter} {p.name}: airfield {p.airfield}, score {p.score}")
    typer.echo("Aces:")
    for line in ace_lines(aces, rules.ace_threshold):
        typer.echo(line)
    for path in write_files(out, files_of(name, issued)):
        typer.echo(f"wrote {path}")


def tables(spec: league.SopwithCampaignSpec, campaign: Any) -> list[Table]:
    """The players' records and the games played."""
    roster = Table(title=f"{spec.title}: players")
    for column in ("player", "games", "score", "ace", "shot down planes", "shot down"):
        roster.add_column(column)
    for p in sorted(campaign.pilots, key=lambda p: (-p.points, p.name.casefold())):
        roster.add_row(
            p.name,
            str(p.missions),
            str(p.points),
            "Ace" if p.skills else "",
            str(p.victories),
            str(p.shot_down),
        )
    history = Table(title="games")
    for column in ("#", "game", "winner", "points made", "what happened"):
        history.add_column(column)
    for e in campaign.history:
        points = ", ".join(f"{n} {v}" for n, v in e.points.items())
        history.add_row(str(e.number), e.game, e.winner or "-", points, "; ".join(e.events))
    return [roster, history]
