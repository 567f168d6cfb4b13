"""The games' tables (SQLAlchemy 2 rows) and the Core statements built once on them.

A game is stored as its setup and seed, every input (plans, phase answers, decisions)
and every resolved step: :mod:`dogfight.server.db.store` reads and writes these rows. The
statements are built here once, at import: the hot path does not build statements.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    UniqueConstraint,
    bindparam,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import BindParameter

from dogfight.storage.sql import Listed

Json = dict[str, Any]


class Base(DeclarativeBase):
    pass


class GameRow(Listed, Base):
    """One game: its setup (situation JSON) and seed; ``over`` for listings."""

    __tablename__ = "games"

    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[Json] = mapped_column(JSON)
    engine: Mapped[int] = mapped_column(Integer)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Counts the game's writes: each write checks and bumps it in the same transaction
    (so a process holding a stale copy of the game cannot write over a newer one)."""


class SeatRow(Base):
    """A seat: who plays which vehicles, the hash of its private token, and whether a
    person or a computer player holds it."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(100))
    side: Mapped[str] = mapped_column(String(40))
    vehicles: Mapped[list[str]] = mapped_column(JSON)
    token_hash: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    auto_fire: Mapped[bool] = mapped_column(Boolean, default=False)


class PlanRow(Base):
    """A seat's plans for one turn (vehicle id -> plan JSON); at most one per turn."""

    __tablename__ = "plans"
    __table_args__ = (UniqueConstraint("game_id", "turn", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(40))
    plans: Mapped[Json] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class AnswerRow(Base):
    """A seat's inputs to one phase: fire answers (vehicle -> weapon -> target) and, for
    computer players, tripod action tokens and automated tripods' cards."""

    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("game_id", "turn", "phase", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(40))
    answer: Mapped[Json] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class DecisionRow(Base):
    """A seat's answer to one engine decision inside a phase (a reorder after tailing, a
    bomber's pick: :mod:`dogfight.rules.decisions`), by the decision's id."""

    __tablename__ = "decisions"
    __table_args__ = (UniqueConstraint("game_id", "decision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(40))
    decision: Mapped[str] = mapped_column(String(200))
    answer: Mapped[Json] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class StepRow(Base):
    """A resolved step: phase 0 is the start of a turn (plans revealed as laid down),
    1..3 the action phases; ``events`` are the referee's (unredacted) events."""

    __tablename__ = "steps"
    __table_args__ = (UniqueConstraint("game_id", "turn", "phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[int] = mapped_column(Integer)
    events: Mapped[list[Json]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


GAMES = cast(Table, GameRow.__table__)
"""The tables as Core sees them: the hot writes go through Core, not the unit of work."""
PLANS = cast(Table, PlanRow.__table__)
ANSWERS = cast(Table, AnswerRow.__table__)
DECISIONS = cast(Table, DecisionRow.__table__)
STEPS = cast(Table, StepRow.__table__)


CLAIM_ANY = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game"))
    .values(revision=GAMES.c.revision + 1)
    .returning(GAMES.c.revision)
)
"""Bump a game's revision (built once: the hot path does not build statements)."""
CLAIM = CLAIM_ANY.where(GAMES.c.revision == bindparam("revision"))
"""Bump a game's revision if it is still the one the writer knows."""
NOTIFY = text("SELECT pg_notify(:channel, :payload)")


SEATS = cast(Table, SeatRow.__table__)
_GAME: BindParameter[str] = bindparam("game")
LOAD_GAME = select(GAMES).where(GAMES.c.id == _GAME)
LOAD_SEATS = select(SEATS).where(SEATS.c.game_id == _GAME).order_by(SEATS.c.position)
LOAD_PLANS = select(PLANS).where(PLANS.c.game_id == _GAME).order_by(PLANS.c.id)
LOAD_ANSWERS = select(ANSWERS).where(ANSWERS.c.game_id == _GAME).order_by(ANSWERS.c.id)
LOAD_DECISIONS = select(DECISIONS).where(DECISIONS.c.game_id == _GAME).order_by(DECISIONS.c.id)
LOAD_STEPS = select(STEPS).where(STEPS.c.game_id == _GAME).order_by(STEPS.c.turn, STEPS.c.phase)
