"""Revision 1: the schema of 2026-11-29 (games, seats, plans, answers, decisions, steps,
game_status; campaigns and their missions; match series and their games), made from
nothing or from the tables of any dogfight before schema versions.

Before this revision a database had no ``alembic_version`` table: each store created its
tables (``create_all``) as it met them, and one column was added in place. So an
unversioned database holds some of these tables, each whole as it was first written, and
is brought here by:

- creating every table it lacks (the first release with a database, 722619d, had games,
  seats, plans, answers and steps; decisions, game_status, campaigns, campaign_missions,
  series and series_games came later, each created whole);
- adding ``games.revision`` (written since several processes share a database) where
  missing, 0 for every game;
- on PostgreSQL, widening ``games.seed`` to BIGINT (the seed became a 62-bit secret).

The tables are written out here as they were, not imported from the row classes: a later
change of a row class is a later revision.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    text,
)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _listed(name: str, meta: MetaData, *columns: Column[object]) -> Table:
    """A table listed by id, title and creation time, these columns first."""
    return Table(
        name,
        meta,
        Column("id", String(40), primary_key=True),
        Column("title", String(200), nullable=False),
        Column("created", Float, nullable=False),
        *columns,
    )


def _numbered(name: str, meta: MetaData, head: str, *columns: Column[object]) -> Table:
    """The numbered games of a listed table (``head``: campaign, series), keyed by the
    head's id and the number, these columns first."""
    return Table(
        name,
        meta,
        Column(f"{head}_id", String(40), primary_key=True),
        Column("number", Integer, primary_key=True),
        *columns,
    )


def _per_game(
    name: str, meta: MetaData, *columns: Column[object], unique: tuple[str, ...]
) -> Table:
    """A table of a game's inputs or steps: a serial id, the game (indexed), ``columns``
    and their creation time, unique by ``unique``."""
    return Table(
        name,
        meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", String(40), ForeignKey("games.id"), nullable=False, index=True),
        *columns,
        Column("created", Float, nullable=False),
        UniqueConstraint(*unique),
    )


def tables() -> MetaData:
    """Every table of revision 1."""
    meta = MetaData()
    _listed(
        "games",
        meta,
        Column("seed", BigInteger, nullable=False),
        Column("setup", JSON, nullable=False),
        Column("engine", Integer, nullable=False),
        Column("over", Boolean, nullable=False),
        Column("revision", Integer, nullable=False, server_default="0"),
    )
    Table(
        "seats",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("seat", String(40), primary_key=True),
        Column("position", Integer, nullable=False),
        Column("label", String(100), nullable=False),
        Column("side", String(40), nullable=False),
        Column("vehicles", JSON, nullable=False),
        Column("token_hash", String(64), nullable=False),
        Column("bot", String(40), nullable=True),
        Column("auto_fire", Boolean, nullable=False),
    )
    turn = ("turn", Integer)
    _per_game(
        "plans",
        meta,
        Column(*turn, nullable=False),
        Column("seat", String(40), nullable=False),
        Column("plans", JSON, nullable=False),
        unique=("game_id", "turn", "seat"),
    )
    _per_game(
        "answers",
        meta,
        Column(*turn, nullable=False),
        Column("phase", Integer, nullable=False),
        Column("seat", String(40), nullable=False),
        Column("answer", JSON, nullable=False),
        unique=("game_id", "turn", "phase", "seat"),
    )
    _per_game(
        "decisions",
        meta,
        Column(*turn, nullable=False),
        Column("phase", Integer, nullable=False),
        Column("seat", String(40), nullable=False),
        Column("decision", String(200), nullable=False),
        Column("answer", JSON, nullable=False),
        unique=("game_id", "decision"),
    )
    _per_game(
        "steps",
        meta,
        Column(*turn, nullable=False),
        Column("phase", Integer, nullable=False),
        Column("events", JSON, nullable=False),
        unique=("game_id", "turn", "phase"),
    )
    Table(
        "game_status",
        meta,
        Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
        Column("analysis", Boolean, nullable=False),
        Column("failed_turn", Integer, nullable=True),
        Column("failed_phase", Integer, nullable=True),
        Column("error", Text, nullable=True),
        Column("failed_at", Float, nullable=True),
        Column("failed_kind", String(80), nullable=True),
    )
    _listed(
        "campaigns",
        meta,
        Column("source", Text, nullable=False),
        Column("record", JSON, nullable=False),
        Column("version", Integer, nullable=False),
    )
    _numbered(
        "campaign_missions",
        meta,
        "campaign",
        Column("game_id", String(40), nullable=True),
        Column("setup", JSON, nullable=True),
        Column("result", JSON, nullable=True),
    )
    _listed(
        "series",
        meta,
        Column("template", JSON, nullable=False),
        Column("sides", JSON, nullable=False),
        Column("games", Integer, nullable=False),
        Column("scoring", String(20), nullable=False),
    )
    _numbered(
        "series_games",
        meta,
        "series",
        Column("game_id", String(40), nullable=False),
        Column("result", JSON, nullable=True),
    )
    return meta


def upgrade() -> None:
    bind = op.get_bind()
    tables().create_all(bind, checkfirst=True)
    games = {c["name"]: c for c in inspect(bind).get_columns("games")}
    if "revision" not in games:  # a database made before revisions were counted
        op.execute(text("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"))
    if bind.dialect.name == "postgresql" and not isinstance(games["seed"]["type"], BigInteger):
        op.alter_column("games", "seed", type_=BigInteger, existing_nullable=False)
