"""``dogfight campaign new | list | status | next``: campaigns from the terminal.

Campaigns are stored in the same database as the browser games (``--db``, default the
SQLite file of ``dogfight serve``), so a campaign begun here can be continued in the
browser and the other way round.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from dogfight.errors import DataError

app = typer.Typer(help="Campaigns: pilots who live from game to game.", no_args_is_help=True)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Any SQLAlchemy URL or an SQLite file (default: the server's)."),
]
SopwithDbOption = Annotated[
    str | None,
    typer.Option(
        "--sopwith-db",
        help="Sopwith campaigns: the Sopwith games' database (default: dogfight sopwith's).",
    ),
]
OutOption = Annotated[
    str, typer.Option("--out", help="Sopwith campaigns: the folder for the start sheet.")
]


def _store(db: str | None) -> Any:
    from dogfight.campaign.store import CampaignStore
    from dogfight.cli.db import open_engine
    from dogfight.server.db import migrations

    engine = open_engine(db)
    migrations.check(engine)  # made if empty; refused if older or newer
    return CampaignStore(engine)


def _open(store: Any, campaign_id: str) -> Any:
    """The stored campaign and its file (an airplane campaign's spec, or a Sopwith
    league's)."""
    from dogfight.campaign.sopwith import is_sopwith, parse_sopwith_campaign
    from dogfight.campaign.spec import parse_campaign
    from dogfight.cli.catalog_option import catalog

    stored = store.load(campaign_id)
    if stored is None:
        ids = ", ".join(i for i, _, _ in store.ids()) or "none yet (dogfight campaign new)"
        raise DataError("CAMPAIGN", "campaign", campaign_id, "a stored campaign: " + ids)
    source = f"campaign {campaign_id}"
    if is_sopwith(stored.source):
        return stored, parse_sopwith_campaign(stored.source, source)
    return stored, parse_campaign(stored.source, source, catalog())


def _sopwith_file(name: str) -> tuple[Any, str] | None:
    """A Sopwith campaign by shipped id or file, or None for an airplane campaign."""
    from pathlib import Path

    from dogfight.campaign import sopwith

    path = sopwith.available().get(name) or Path(name)
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # the airplane loader says what is wrong with it
    if not sopwith.is_sopwith(text):
        return None
    return sopwith.parse_sopwith_campaign(text, str(path)), text


@app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="A shipped campaign id or a campaign TOML file.")],
    seed: Annotated[int, typer.Option("--seed", help="The campaign's seed.")] = 0,
    db: DbOption = None,
) -> None:
    """Start a campaign (airplanes, the Martian invasion, or a Sopwith league played by
    post); prints its id."""
    from dogfight.campaign.record import start
    from dogfight.campaign.spec import load_campaign
    from dogfight.cli.catalog_option import catalog

    league = _sopwith_file(name)
    if league is not None:
        from dogfight.cli import campaign_sopwith

        campaign_sopwith.new(_store(db), league[0], league[1], seed)
        return
    spec, text = load_campaign(name, catalog())
    store = _store(db)
    campaign_id = store.create(spec.title, text, start(spec, seed))
    typer.echo(f"{campaign_id}: {spec.title} ({len(spec.missions)} missions, seed {seed})")


@app.command("list")
def list_campaigns(db: DbOption = None) -> None:
    """The stored campaigns, and the shipped campaign files."""
    from dogfight.campaign import sopwith
    from dogfight.campaign.spec import available

    store = _store(db)
    for campaign_id, title, _ in store.ids():
        stored = store.load(campaign_id)
        state = "over" if stored.campaign.over else f"next: {stored.campaign.current}"
        typer.echo(f"{campaign_id}  {title}  ({state})")
    typer.echo("shipped: " + ", ".join([*available(), *sopwith.available()]))


@app.command("status")
def status(
    campaign_id: Annotated[str, typer.Argument(help="A stored campaign's id.")],
    db: DbOption = None,
    sopwith_db: SopwithDbOption = None,
) -> None:
    """Roster, history and the next mission (a Sopwith campaign's finished game is
    written back here first)."""
    from rich.console import Console

    from dogfight.campaign.sopwith import SopwithCampaignSpec

    store = _store(db)
    stored, spec = _open(store, campaign_id)
    if isinstance(spec, SopwithCampaignSpec):
        from dogfight.cli import campaign_sopwith

        games = campaign_sopwith.sopwith_store(sopwith_db)
        campaign_sopwith.status(store, stored, spec, games)
        return
    console = Console()
    for table in campaign_tables(spec, stored.campaign):
        console.print(table)
    campaign = stored.campaign
    if campaign.over:
        console.print(f"The campaign is over: {campaign.winner or 'a draw'}.")
    else:
        mission = spec.mission(str(campaign.current))
        console.print(f"Next: mission {campaign.number}, {mission.title or mission.id}.")


@app.command("next")
def next_mission(
    campaign_id: Annotated[str, typer.Argument(help="A stored campaign's id.")],
    vs: Annotated[
        str | None,
        typer.Option("--vs", help="Fly the mission yourself in the terminal against this bot."),
    ] = None,
    side: Annotated[
        str | None, typer.Option("--as", help="Your campaign side (default: the first).")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Without --vs: SIDE=BOT pairs for a computer-only mission."),
    ] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1)] = 30,
    db: DbOption = None,
    sopwith_db: SopwithDbOption = None,
    out: OutOption = ".",
) -> None:
    """Play the next mission (yourself with --vs, else bot against bot) and write its
    result to the campaign. A Sopwith campaign's next game is started in the Sopwith
    database for the Games Master to play by post."""
    from dogfight.campaign.missions import prepare, result_of
    from dogfight.campaign.record import apply_result, mission_seed
    from dogfight.campaign.sopwith import SopwithCampaignSpec
    from dogfight.cli.catalog_option import catalog
    from dogfight.cli.simulate import parse_bots
    from dogfight.rules.events import Event
    from dogfight.situation.format import build

    store = _store(db)
    stored, spec = _open(store, campaign_id)
    if isinstance(spec, SopwithCampaignSpec):
        from dogfight.cli import campaign_sopwith

        if vs is not None or bots is not None:
            raise DataError(
                "--vs" if vs is not None else "--bots",
                "option",
                vs or bots,
                "a Sopwith campaign is played by post: its games have no bots",
            )
        games = campaign_sopwith.sopwith_store(sopwith_db, create=True)
        campaign_sopwith.next_game(store, stored, spec, games, out)
        return
    cat = catalog()
    campaign, situation = prepare(spec, stored.campaign, cat)
    mission = spec.mission(str(campaign.current))
    game_seed = mission_seed(campaign.seed, campaign.number)
    initial = build(situation, cat, game_seed)
    sides = {v.id: v.side for v in (*initial.vehicles.values(), *initial.reserves.values())}
    game_sides = sorted(set(sides.values()))
    store.start_mission(
        stored, campaign, None, situation.model_dump(mode="json", exclude_defaults=True)
    )
    stored = store.load(campaign_id)
    events: list[Event] = []
    typer.echo(f"Mission {campaign.number}: {mission.title or mission.id}")
    for flight in campaign.flights:
        pilot = flight.pilot or "(no pilot)"
        typer.echo(f"  {flight.side}: {pilot} flies {flight.type} ({flight.vehicle})")
    if vs is not None:
        from dogfight.cli.terminal_play import play_in_terminal

        mine = side or spec.sides[0]
        if mine not in spec.sides:
            raise DataError("--as", "side", mine, "campaign sides: " + ", ".join(spec.sides))
        human = next((s for s in game_sides if spec.campaign_side(mission, s) == mine), None)
        if human is None:
            raise DataError("--as", "side", mine, f"no {mine} vehicle flies this mission")
        final = play_in_terminal(
            situation, cat, human, vs, game_seed, max_turns=max_turns, events_out=events
        )
        if not final.over:
            typer.echo("The mission was left unfinished: the campaign waits for it.")
            raise typer.Exit(0)
        winner = final.winner
    else:
        import numpy as np

        from dogfight.sim.run import play_game

        chosen = {}
        if bots:
            by_campaign = parse_bots(bots, list(spec.sides))
            chosen = {
                s: by_campaign[spec.campaign_side(mission, s)]
                for s in game_sides
                if spec.campaign_side(mission, s) in by_campaign
            }
        result = play_game(
            situation, cat, chosen, np.random.SeedSequence(game_seed), 0, max_turns, events
        )
        winner = result.winner
    outcome = result_of(spec, campaign, events, winner, sides, game=f"seed {game_seed}")
    after = apply_result(spec, campaign, outcome)
    store.write_result(stored, after, outcome)
    entry = after.history[-1]
    typer.echo(f"Result: {entry.outcome} for {spec.sides[0]} ({entry.winner or 'no winner'})")
    for line in entry.events:
        typer.echo(f"  {line}")
    if after.over:
        typer.echo(f"The campaign is over: {after.winner or 'a draw'}.")


def campaign_tables(spec: Any, campaign: Any) -> list[Any]:
    """Rich tables: the roster with each pilot's record, and the missions flown."""
    from rich.table import Table

    roster = Table(title=f"{spec.title}: pilots")
    for column in ("pilot", "side", "status", "missions", "victories", "damage", "ace skills"):
        roster.add_column(column)
    for p in campaign.pilots:
        state = p.status + (f" ({p.out_for} more)" if p.status == "wounded" else "")
        roster.add_row(
            p.name,
            p.side,
            state,
            str(p.missions),
            str(p.victories),
            str(p.damage_taken),
            ", ".join(s.replace("_", " ") for s in p.skills),
        )
    history = Table(title="missions")
    for column in ("#", "mission", "result", "points", "what happened"):
        history.add_column(column)
    for e in campaign.history:
        points = ", ".join(f"{s} {n}" for s, n in e.points.items())
        history.add_row(str(e.number), e.title, e.outcome, points, "; ".join(e.events))
    return [roster, history]
