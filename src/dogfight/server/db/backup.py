"""A backup of the browser games as JSON lines, and its restore into another database
(``dogfight backup`` / ``dogfight restore``; ``docs/web.md``, "Backup and restore").

The file holds the games' rows as stored — the game, its status, its seats (with the
hashes of their tokens: every player's link works again after a restore), its plans,
answers, decisions and steps — so a restored game goes on where it stood, in any
database (SQLite or PostgreSQL) of the same schema. Unlike ``dogfight export`` (a
transcript to read, with the setup and events) nothing is worked out again: the rows
are copied.

Line 1 is a header naming the format, the engine version and the schema revision; one
line per row follows (``{"table": ..., "row": {...}}``, the row's own ``id`` left out:
the restoring database numbers its rows); the last line says how many rows came
(a file cut short has none). A restore reads and checks the whole file first and writes
everything in one transaction: a refused file (missing, cut short, of another engine
or schema, a game already in the database) writes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Engine, Table, select
from sqlalchemy.exc import SQLAlchemyError

from dogfight import ENGINE_VERSION
from dogfight.errors import DataError
from dogfight.output import encoding
from dogfight.server.db import migrations
from dogfight.server.db.status import GameStatusRow
from dogfight.server.db.tables import (
    ANSWERS,
    DECISIONS,
    GAMES,
    PLANS,
    STEPS,
    SeatRow,
)

FORMAT = "dogfight-backup"
VERSION = 1

TABLES: list[Table] = [
    GAMES,
    cast(Table, GameStatusRow.__table__),
    cast(Table, SeatRow.__table__),
    PLANS,
    ANSWERS,
    DECISIONS,
    STEPS,
]
"""The tables of a game, in the order they are written and restored (the game first:
the others' rows name it)."""

BY_NAME = {table.name: table for table in TABLES}


def _game_column(table: Table) -> Any:
    return table.c.id if table is GAMES else table.c.game_id


def _numbered(table: Table) -> bool:
    """Whether the table's rows are numbered by the database (an ``id`` of their own)."""
    return table is not GAMES and "id" in table.c


def rows(engine: Engine, game_id: str | None) -> Iterator[dict[str, Any]]:
    """Every line of the backup after the header: ``{"table", "row"}`` (one game or
    all)."""
    with engine.connect() as connection:
        for table in TABLES:
            query = select(table)
            if game_id is not None:
                query = query.where(_game_column(table) == game_id)
            if _numbered(table):
                query = query.order_by(table.c.id)
            for row in connection.execute(query).mappings():
                # str(): SQLAlchemy's names are a subclass of str the encoder refuses
                values = {str(key): value for key, value in row.items()}
                if _numbered(table):
                    values.pop("id")
                yield {"table": str(table.name), "row": values}


def write_backup(engine: Engine, out: Path, game_id: str | None) -> int:
    """Write the backup to ``out`` (through a file beside it, renamed when whole: no half
    written backup ever has the name); the number of games in it."""
    version = migrations.current(engine)
    if not version.current:
        raise DataError(
            "--db", "schema", version.name, f"back up a database at revision {version.head}"
        )
    if game_id is not None:
        with engine.connect() as connection:
            found = connection.execute(select(GAMES.c.id).where(GAMES.c.id == game_id)).first()
        if found is None:
            raise DataError("--game", "game", game_id, "no such game in the database")
    header = {"kind": FORMAT, "format": VERSION, "engine": ENGINE_VERSION, "schema": version.head}
    partial = out.with_name(out.name + ".partial")
    games = count = 0
    try:
        with partial.open("w", encoding="utf-8") as f:
            f.write(encoding.text(header) + "\n")
            for line in rows(engine, game_id):
                f.write(encoding.text(line) + "\n")
                count += 1
                games += line["table"] == GAMES.name
            f.write(encoding.text({"kind": "end", "rows": count}) + "\n")
        os.replace(partial, out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise DataError("--out", "out", str(out), f"cannot be written ({exc.strerror})") from None
    return games


def read_backup(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The rows of a backup file by table, checked whole (format, engine, schema, every
    line, the end line's count): :class:`DataError` names what is wrong."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise DataError(source, "file", source, f"cannot be read ({why})") from None
    lines = text.splitlines()
    try:
        parsed = []
        for line in lines:
            parsed.append(encoding.decode(line))
    except encoding.DecodeError:
        raise DataError(
            source, "line", line[:40], "not JSON: the file is cut short or not a backup"
        ) from None
    if not parsed or not isinstance(parsed[0], dict) or parsed[0].get("kind") != FORMAT:
        raise DataError(
            source, "kind", None, f"not a dogfight backup (its first line names {FORMAT!r})"
        )
    header = parsed[0]
    head = migrations.head()
    expected = {
        "format": (VERSION, f"this dogfight reads format {VERSION}"),
        "engine": (
            ENGINE_VERSION,
            f"made by a dogfight of another engine version (this one is {ENGINE_VERSION}): "
            "its games would not replay the same; restore it with that dogfight",
        ),
        "schema": (
            head,
            f"made at another schema revision (this dogfight's is {head}): restore it with "
            "the dogfight that made it, then 'dogfight db upgrade'",
        ),
    }
    for name, (wanted, why) in expected.items():
        if header.get(name) != wanted:
            raise DataError(source, name, header.get(name), why)
    end = parsed[-1]
    body = parsed[1:-1]
    if not isinstance(end, dict) or end.get("kind") != "end" or end.get("rows") != len(body):
        raise DataError(source, "end", None, "the file is cut short (no end line for its rows)")
    tables: dict[str, list[dict[str, Any]]] = {name: [] for name in BY_NAME}
    for number, line in enumerate(body, start=2):
        table = line.get("table") if isinstance(line, dict) else None
        row = line.get("row") if isinstance(line, dict) else None
        if table not in BY_NAME or not isinstance(row, dict):
            raise DataError(source, f"line {number}", table, "a row {table, row} of a game's table")
        tables[str(table)].append(row)
    return tables


def restore(engine: Engine, tables: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Write the backup's rows (:func:`read_backup`) into the database in one
    transaction; the games' ids. A game already there refuses the whole restore."""
    migrations.check(engine)  # an empty database is made at this dogfight's schema
    games = [str(row["id"]) for row in tables[GAMES.name]]
    with engine.begin() as connection:
        if games:
            there = connection.execute(select(GAMES.c.id).where(GAMES.c.id.in_(games))).scalars()
            taken = sorted(there)
            if taken:
                raise DataError(
                    "restore",
                    "game",
                    taken[0],
                    f"already in {migrations.where(engine)} ({len(taken)} of the backup's "
                    "games are): nothing was restored",
                )
        for table in TABLES:
            chosen = tables[table.name]
            if chosen:
                try:
                    connection.execute(table.insert(), chosen)
                except SQLAlchemyError as exc:
                    raise DataError(
                        "restore",
                        table.name,
                        type(exc).__name__,
                        "a row the database refused: nothing was restored",
                    ) from None
    return games
