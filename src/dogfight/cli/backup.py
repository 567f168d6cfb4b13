"""``dogfight backup`` / ``dogfight restore``: the browser games (one or all) copied to a
JSON-lines file and back into a database (:mod:`dogfight.server.db.backup`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dogfight.cli.db import DbOption, open_engine


def register(app: typer.Typer) -> None:
    @app.command()
    def backup(
        out: Annotated[Path, typer.Option("--out", help="The backup file (JSON lines).")],
        db: DbOption = None,
        game: Annotated[
            str | None, typer.Option("--game", help="Only this game (default: every game).")
        ] = None,
    ) -> None:
        """Copy the browser games (their seats, plans, answers and steps) to a file that
        `dogfight restore` puts back into any database of this schema."""
        from dogfight.server.db.backup import write_backup

        engine = open_engine(db)
        try:
            games = write_backup(engine, out, game)
        finally:
            engine.dispose()
        print(f"dogfight: {games} game{'s' if games != 1 else ''} backed up to {out}")

    @app.command()
    def restore(
        file: Annotated[Path, typer.Argument(help="A file `dogfight backup` wrote.")],
        db: DbOption = None,
    ) -> None:
        """Put the games of a backup into the database (made if empty), all or nothing:
        every seat's link works again and the games go on where they stood."""
        from dogfight.server.db import migrations
        from dogfight.server.db.backup import read_backup
        from dogfight.server.db.backup import restore as restore_games

        tables = read_backup(file)  # checked whole before the database is opened
        engine = open_engine(db)
        try:
            games = restore_games(engine, tables)
            where = migrations.where(engine)
        finally:
            engine.dispose()
        print(f"dogfight: {len(games)} game{'s' if len(games) != 1 else ''} restored into {where}")
