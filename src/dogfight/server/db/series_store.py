"""Match series in SQL, beside the games of the same database.

A series row holds the game every one of its games is made from (the body of
``POST /api/games`` without a seed: the same players, the same setup), the sides and how
many games were agreed. Each game has a row keyed by (series, number): the game it was
started as, and its result (winner and match points per side) once written. A result is
written once: a second attempt changes nothing, whoever tries it first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Engine, Integer, String
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from dogfight.storage.numbered_games import NumberedGame, NumberedGamesStore
from dogfight.storage.sql import FIRST, Listed

Json = dict[str, Any]


class Base(DeclarativeBase):
    pass


class SeriesRow(Listed, Base):
    __tablename__ = "series"

    template: Mapped[Json] = mapped_column(JSON)
    """The game each game of the series is made from (``CreateGame`` without a seed)."""
    sides: Mapped[list[str]] = mapped_column(JSON)
    games: Mapped[int] = mapped_column(Integer)
    """How many games the players agreed on (003: "局数由玩家自行决定")."""
    scoring: Mapped[str] = mapped_column(String(20))
    """The match_scoring switch of its games (002's "winner" or 003's "every_side")."""


class SeriesGameRow(NumberedGame, Base):
    """``result``: ``{"winner": side or None, "points": {side: points}}`` once the game
    is over."""

    __tablename__ = "series_games"

    series_id: Mapped[str] = mapped_column(String(40), primary_key=True, sort_order=FIRST)
    game_id: Mapped[str] = mapped_column(String(40))


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


class SeriesStore(NumberedGamesStore[SeriesRow, SeriesGameRow, Series]):
    """The match series of one database (any SQLAlchemy engine)."""

    head = SeriesRow
    game = SeriesGameRow
    key = "series_id"
    prefix = "s-"

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, Base.metadata)

    def create(
        self, title: str, template: Json, sides: list[str], games: int, scoring: str, first: str
    ) -> str:
        """A new series whose first game, ``first``, has already been made."""
        row = self.new_head(title, template=template, sides=sides, games=games, scoring=scoring)
        return self.add(row, SeriesGameRow(series_id=row.id, number=1, game_id=first))

    def held(self, head: SeriesRow, games: list[SeriesGameRow]) -> Series:
        """The series with its games in order."""
        return Series(
            head.id,
            head.title,
            head.created,
            head.template,
            list(head.sides),
            head.games,
            head.scoring,
            games,
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
