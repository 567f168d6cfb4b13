"""Match series in SQL, beside the games of the same database.

A series row holds the game every one of its games is made from (the body of
``POST /api/games`` without a seed: the same players, the same setup), the sides and how
many games were agreed. Each game has a row keyed by (series, number): the game it was
started as, and its result (winner and match points per side) once written. A result is
written once: a second attempt changes nothing, whoever tries it first.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Engine, Float, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from dogfight.storage.sql import create_tables

Json = dict[str, Any]


class Base(DeclarativeBase):
    pass


class SeriesRow(Base):
    __tablename__ = "series"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)
    template: Mapped[Json] = mapped_column(JSON)
    """The game each game of the series is made from (``CreateGame`` without a seed)."""
    sides: Mapped[list[str]] = mapped_column(JSON)
    games: Mapped[int] = mapped_column(Integer)
    """How many games the players agreed on (003: "局数由玩家自行决定")."""
    scoring: Mapped[str] = mapped_column(String(20))
    """The match_scoring switch of its games (002's "winner" or 003's "every_side")."""


class SeriesGameRow(Base):
    __tablename__ = "series_games"

    series_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(40))
    result: Mapped[Json | None] = mapped_column(JSON, nullable=True)
    """``{"winner": side or None, "points": {side: points}}`` once the game is over."""


@dataclass(frozen=True)
class Series:
    id: str
    title: str
    created: float
    template: Json
    sides: list[str]
    games: int
    scoring: str
    played: list[SeriesGameRow]
    """Its games in order."""


class SeriesStore:
    """The match series of one database (any SQLAlchemy engine)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, Base.metadata)

    def create(
        self, title: str, template: Json, sides: list[str], games: int, scoring: str, first: str
    ) -> str:
        """A new series whose first game, ``first``, has already been made."""
        series_id = "s-" + secrets.token_hex(5)
        with Session(self.engine) as session, session.begin():
            session.add(
                SeriesRow(
                    id=series_id,
                    title=title,
                    created=time.time(),
                    template=template,
                    sides=sides,
                    games=games,
                    scoring=scoring,
                )
            )
            session.add(SeriesGameRow(series_id=series_id, number=1, game_id=first))
        return series_id

    def ids(self) -> list[tuple[str, str, float]]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeriesRow.id, SeriesRow.title, SeriesRow.created).order_by(SeriesRow.created)
            )
            return [(r[0], r[1], r[2]) for r in rows]

    def load(self, series_id: str) -> Series | None:
        with Session(self.engine) as session:
            row = session.get(SeriesRow, series_id)
            if row is None:
                return None
            played = session.scalars(
                select(SeriesGameRow)
                .where(SeriesGameRow.series_id == series_id)
                .order_by(SeriesGameRow.number)
            ).all()
            session.expunge_all()
            return Series(
                row.id,
                row.title,
                row.created,
                row.template,
                list(row.sides),
                row.games,
                row.scoring,
                list(played),
            )

    def add_game(self, series_id: str, number: int, game_id: str) -> bool:
        """Record game ``number`` of the series; False when it exists already (another
        request started it first)."""
        try:
            with Session(self.engine) as session, session.begin():
                if session.get(SeriesGameRow, (series_id, number)) is not None:
                    return False
                session.add(SeriesGameRow(series_id=series_id, number=number, game_id=game_id))
        except IntegrityError:
            return False
        return True

    def write_result(self, series_id: str, number: int, result: Json) -> None:
        """A finished game's result; one already written is kept as it is."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SeriesGameRow, (series_id, number))
            if row is not None and row.result is None:
                row.result = result
