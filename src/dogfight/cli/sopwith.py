"""``dogfight sopwith``: the Games Master's tool for Sopwith by post (004).

A week of play::

    dogfight sopwith new spring17 --plane Biggles --plane Kraut --plane Sid --cloud J10
    dogfight sopwith orders spring17 biggles.txt kraut.txt     # as the letters come in
    dogfight sopwith turn spring17                             # reports into --out
    dogfight sopwith report spring17 --turn 1                  # re-issue, byte for byte

Games live in an SQLite file (``./sopwith.sqlite``, or ``--db`` with a file name or any
SQLAlchemy URL). Bad input is one message and exit status 2; nothing is stored and no
file is written then.
"""

from __future__ import annotations

import sys
import zlib
from typing import Annotated

import typer

from dogfight.errors import DataError
from dogfight.output.files import make_folder
from dogfight.sopwith.board import Cloud
from dogfight.sopwith.game import GameError, GameState, PlaneSetup
from dogfight.sopwith.hexes import FACING_NAMES, Hex, label, parse_facing, parse_label
from dogfight.sopwith.orders import format_orders
from dogfight.sopwith.referee import (
    Batch,
    files_of,
    find_plane,
    play,
    read_batch,
    write_files,
)
from dogfight.sopwith.report import ace_lines, standings, who
from dogfight.sopwith.rules import DEFAULT, load_ruleset, with_switches
from dogfight.sopwith.starting import start_game
from dogfight.sopwith.store import NoOrders, Store, database_url, describe_url

app = typer.Typer(
    no_args_is_help=True,
    help="Sopwith by post (004): create a game, file orders, resolve turns, issue reports.",
)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="SQLite file or SQLAlchemy URL [default: ./sopwith.sqlite]."),
]
OutOption = Annotated[str, typer.Option("--out", help="Folder for the report files.")]


def _store(db: str | None, create: bool = False) -> Store:
    url = database_url(db)
    store = Store(url, create=create)
    sys.stderr.write(f"database: {describe_url(url)}\n")
    return store


def _pairs(values: list[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise DataError(option, "value", item, "expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def _clouds(values: list[str], side: int) -> list[Cloud]:
    clouds = []
    for i, text in enumerate(values, 1):
        hexes: list[Hex] = []
        for part in text.replace(",", "+").split("+"):
            try:
                hexes.append(parse_label(part, side))
            except ValueError as exc:
                raise DataError("--cloud", f"cloud {i}", text, str(exc)) from None
        clouds.append(Cloud(i, tuple(hexes)))
    return clouds


def cloud_entry(text: str | None, state: GameState) -> dict[int, int | None] | None:
    """``--clouds "1:NE,2:0"``: where the Games Master moves each cloud (0: it stays)."""
    if text is None or text.strip().lower() == "random":
        return None
    numbers = {c.number: c for c in state.clouds}
    out: dict[int, int | None] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        number, sep, way = item.partition(":")
        try:
            n = int(number)
        except ValueError:
            n = -1
        if not sep or n not in numbers:
            raise DataError(
                "--clouds",
                "entry",
                item.strip(),
                "expected CLOUD:DIRECTION with a cloud number "
                f"({', '.join(map(str, numbers)) or 'no clouds'}) and one of "
                f"{', '.join(FACING_NAMES)} or 0",
            )
        if way.strip() in ("0", "-", ""):
            out[n] = None
            continue
        try:
            facing = parse_facing(way)
        except ValueError as exc:
            raise DataError("--clouds", f"cloud {n}", way.strip(), str(exc)) from None
        moved = numbers[n].moved(facing)
        if not all(state.board.on_board(h) for h in moved.hexes):
            raise DataError("--clouds", f"cloud {n}", way.strip(), "would leave the board")
        out[n] = facing
    return out


@app.command()
def new(
    game: Annotated[str, typer.Argument(help="A name for the game.")],
    plane: Annotated[
        list[str], typer.Option("--plane", help="A player's plane (repeat, 2 to 26).")
    ],
    airfield: Annotated[
        list[str] | None, typer.Option(help="PLANE=AIRFIELD (N, NE, SE, S, SW, NW).")
    ] = None,
    pilot: Annotated[list[str] | None, typer.Option(help="PLANE=NAME flown under.")] = None,
    score: Annotated[
        list[str] | None, typer.Option(help="PLANE=POINTS carried in (default: stored).")
    ] = None,
    ruleset: Annotated[
        str, typer.Option(help="gm-tweedy (004), original, or a TOML file.")
    ] = DEFAULT,
    switch: Annotated[
        list[str] | None, typer.Option(help="KEY=VALUE overriding a ruleset switch.")
    ] = None,
    cloud: Annotated[
        list[str] | None, typer.Option(help="A cloud's hexes, e.g. J10 or K5+K6 (repeat).")
    ] = None,
    random_cloud_count: Annotated[
        int, typer.Option("--random-clouds", min=0, help="Place this many clouds at random.")
    ] = 0,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the cloud moves [default: from the name].")
    ] = None,
    db: DbOption = None,
    out: OutOption = ".",
) -> None:
    """Create a game: planes on the ground at their airfields, clouds placed; writes the
    start sheet (turn 0) with the map and prints the Ace list."""
    if not game.strip() or len(game) > 100:
        raise DataError("GAME", "name", game, "a name of 1 to 100 characters")
    make_folder(out)
    rules = with_switches(load_ruleset(ruleset), _pairs(switch or [], "--switch"), "--switch")
    side = rules.board_side
    store = _store(db, create=True)
    careers = store.careers()
    airfields = _pairs(airfield or [], "--airfield")
    pilots = _pairs(pilot or [], "--pilot")
    scores = _pairs(score or [], "--score")
    names = {n.casefold(): n for n in plane}
    for option, given in (("--airfield", airfields), ("--pilot", pilots), ("--score", scores)):
        for key in given:
            if key.casefold() not in names:
                raise DataError(option, "plane", key, "not one of the --plane names")

    def get(given: dict[str, str], name: str) -> str | None:
        return next((v for k, v in given.items() if k.casefold() == name.casefold()), None)

    setups = []
    for name in plane:
        carried = get(scores, name)
        if carried is not None:
            try:
                points = int(carried)
            except ValueError:
                raise DataError("--score", name, carried, "a whole number") from None
        else:
            points = careers.get(name.casefold(), (name, 0))[1]
        setups.append(PlaneSetup(name, get(airfields, name), get(pilots, name), points))
    chosen = seed if seed is not None else zlib.crc32(game.encode("utf-8"))
    state, issued, aces = start_game(
        store, game, rules, setups, _clouds(cloud or [], side), random_cloud_count, chosen
    )
    written = write_files(out, files_of(game, issued))
    typer.echo(
        f"game {game!r} created: {len(state.planes)} planes, rules {rules.name}, seed {chosen}"
    )
    for p in state.planes:
        typer.echo(f"  {p.letter} {who(p)}: airfield {p.airfield}, score {p.score}")
    typer.echo("Aces:")
    for line in ace_lines(aces, rules.ace_threshold):
        typer.echo(line)
    for path in written:
        typer.echo(f"wrote {path}")


@app.command()
def orders(
    game: Annotated[str, typer.Argument(help="The game.")],
    files: Annotated[
        list[str], typer.Argument(help="Orders files, one player each ('-': standard input).")
    ],
    player: Annotated[
        str | None, typer.Option(help="The player of the one file [default: its name].")
    ] = None,
    nmr: Annotated[
        bool,
        typer.Option(
            "--nmr",
            help="Put a player whose orders file cannot be read down as NMR (no orders "
            "received: 004's default) instead of refusing the file.",
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """File players' orders for the turn to play (a later file replaces a player's
    earlier orders). Each file is kept whole or refused whole: the good files of a batch
    are kept, the bad ones reported in one message (exit status 2). With --nmr, a file
    that cannot be read as orders puts its player down as NMR instead."""
    store = _store(db)
    stored = store.game(game)
    state = stored.state
    if state.over:
        raise GameError(f"game {game!r} is over: it takes no more orders")
    batch = read_batch(state, files, player)
    defaulted = [
        NoOrders(r.player, r.source, r.text or "", r.reason)
        for r in batch.refused
        if nmr and r.malformed and r.player is not None
    ]
    refused = [r for r in batch.refused if not (nmr and r.malformed and r.player is not None)]
    store.add_orders(game, batch.accepted, defaulted)
    for o, _ in batch.accepted:
        typer.echo(f"accepted {o.player} ({o.source}):")
        for line in format_orders(o).splitlines():
            typer.echo(f"  {line}")
    for d in defaulted:
        typer.echo(f"NMR {d.player} ({d.source}): the orders cannot be read: {d.reason}")
    have = store.orders(game, state.turn)
    missing = [p.name for p in state.in_game() if p.name not in have]
    typer.echo(
        f"turn {state.turn}: orders from {len(have)} of {len(state.in_game())} planes"
        + (f"; still missing (NMR at the turn): {', '.join(missing)}" if missing else "")
    )
    if refused:
        raise GameError(Batch(batch.accepted, refused).summary())


@app.command()
def turn(
    game: Annotated[str, typer.Argument(help="The game.")],
    clouds: Annotated[
        str | None,
        typer.Option(help="Cloud moves, e.g. '1:NE,2:0' (0: stays) [default: random]."),
    ] = None,
    db: DbOption = None,
    out: OutOption = ".",
) -> None:
    """Resolve the turn to play with the orders filed (no orders: NMR) and write every
    player's result, the published report and the map."""
    make_folder(out)
    store = _store(db)
    stored = store.game(game)
    before = stored.state
    entry = cloud_entry(clouds, before)
    filed = store.orders(game, before.turn)
    played = play(game, stored.seed, before, filed, entry)
    store.record_turn(game, before, played.after, entry, played.issued)
    missing = [p.name for p in before.in_game() if p.name not in filed]
    typer.echo(
        f"turn {before.turn} of {game!r} resolved"
        + (f"; NMR: {', '.join(missing)}" if missing else "")
    )
    for path in write_files(out, files_of(game, played.issued)):
        typer.echo(f"wrote {path}")
    if played.after.over:
        winner = played.after.winner
        typer.echo("the game is over: " + (f"{winner} wins" if winner else "no winner"))


@app.command()
def report(
    game: Annotated[str, typer.Argument(help="The game.")],
    turn_number: Annotated[
        int | None, typer.Option("--turn", min=0, help="The turn [default: the latest].")
    ] = None,
    print_: Annotated[
        bool, typer.Option("--print", help="Print the report instead of writing files.")
    ] = False,
    player: Annotated[str | None, typer.Option(help="With --print: this player's result.")] = None,
    db: DbOption = None,
    out: OutOption = ".",
) -> None:
    """Re-issue a turn's reports exactly as they were issued (turn 0: the start sheet)."""
    print_ = print_ or player is not None
    if not print_:
        make_folder(out)
    store = _store(db)
    issued = store.issued(game, turn_number)
    if print_:
        if player is None:
            sys.stdout.write(issued.report)
            return
        name = find_plane(store.game(game).state, player, "--player")
        if name not in issued.results:
            raise DataError("--player", "player", player, f"no result for turn {issued.turn}")
        sys.stdout.write(issued.results[name])
        return
    for path in write_files(out, files_of(game, issued)):
        typer.echo(f"wrote {path}")


@app.command()
def show(
    game: Annotated[str, typer.Argument(help="The game.")],
    texts: Annotated[
        bool, typer.Option("--orders", help="Also print every orders text received.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Where a game stands: the turn to play, whose orders are in, standings, clouds."""
    store = _store(db)
    stored = store.game(game)
    state = stored.state
    rules = state.ruleset
    typer.echo(f"game {game!r}: rules {rules.name}, seed {stored.seed}")
    if state.over:
        typer.echo(f"over after turn {state.turn - 1}: " + (state.winner or "no winner"))
    else:
        have = store.orders(game, state.turn)
        nmrs = store.nmrs(game, state.turn)
        typer.echo(f"turn to play: {state.turn}")
        for p in state.in_game():
            status = "orders in" if p.name in have else "no orders yet"
            if p.name in nmrs:
                status = f"NMR (orders could not be read: {nmrs[p.name]})"
            typer.echo(f"  {p.name}: {status}")
        if texts:
            for name, source, text in store.orders_texts(game, state.turn):
                typer.echo(f"--- {name} ({source})")
                typer.echo(text.rstrip("\n"))
    typer.echo("standings:")
    for line in standings(state):
        typer.echo(line)
    typer.echo(
        "clouds: "
        + (
            "; ".join(
                f"{c.number} " + " ".join(label(h, rules.board_side) for h in c.hexes)
                for c in state.clouds
            )
            or "none"
        )
    )


@app.command()
def games(db: DbOption = None) -> None:
    """The games in the database."""
    store = _store(db)
    for g in store.games():
        s = g.state
        status = "over" if s.over else f"turn {s.turn} to play"
        typer.echo(f"{g.name}: {len(s.planes)} planes, {s.ruleset.name}, {status}")


@app.command()
def aces(
    threshold: Annotated[int, typer.Option(help="Points that make an Ace (004: 40).", min=0)] = 40,
    db: DbOption = None,
) -> None:
    """004's Ace list: every player whose carried score reaches the mark."""
    store = _store(db)
    found = sorted(
        ((n, s) for n, s in store.careers().values() if s >= threshold),
        key=lambda a: (-a[1], a[0].casefold()),
    )
    for line in ace_lines(found, threshold):
        typer.echo(line)
