"""Databases as older dogfights left them, for the upgrade tests: the fixture
``fixtures/schema_722619d/games.json`` (made by that commit's own server, see its
``make.py``) loaded into SQLite or PostgreSQL with that version's DDL and rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Boolean, MetaData, create_engine, text

from dogfight.server.db.store import driver_url

Json = dict[str, Any]

FIXTURE = Path(__file__).parent / "fixtures" / "schema_722619d" / "games.json"


def fixture() -> Json:
    data: Json = json.loads(FIXTURE.read_text())
    return data


def _postgres_ddl(sql: str) -> str:
    """722619d's SQLite DDL as its SQLAlchemy wrote it for PostgreSQL: integer keys
    SERIAL, the reserved ``over`` quoted."""
    return sql.replace("\tid INTEGER NOT NULL", "\tid SERIAL NOT NULL").replace(
        "\tover BOOLEAN", '\t"over" BOOLEAN'
    )


def build_722619d(url: str) -> Json:
    """Write 722619d's tables and rows into the empty database ``url``; the games'
    ids and seats' tokens (``{name: {"id": game, "seats": {label: [seat, token]}}}``)."""
    data = fixture()
    engine = create_engine(driver_url(url))
    postgres = engine.dialect.name == "postgresql"
    try:
        with engine.begin() as connection:
            for sql in data["schema"]:
                connection.exec_driver_sql(_postgres_ddl(sql) if postgres else sql)
            meta = MetaData()
            meta.reflect(connection)
            for name, rows in data["tables"].items():
                table = meta.tables[name]
                decoded = [
                    {column.name: _value(column.type, row[column.name]) for column in table.columns}
                    for row in rows
                ]
                if decoded:
                    connection.execute(table.insert(), decoded)
                if postgres and "id" in table.columns and name != "games":
                    connection.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                            f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)"
                        )
                    )
    finally:
        engine.dispose()
    tokens: Json = data["tokens"]
    return tokens


def _value(kind: Any, value: Any) -> Any:
    """A value read from 722619d's SQLite file as the column takes it."""
    if isinstance(kind, JSON) and isinstance(value, str):
        return json.loads(value)
    if isinstance(kind, Boolean) and value is not None:
        return bool(value)
    return value
