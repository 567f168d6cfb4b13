"""The shape shared by the SQL stores of a titled list of numbered games, beside the
games of the same database: campaigns (their missions) and match series (their games).

A head row is listed by its id, title and creation time
(:class:`~dogfight.storage.sql.Listed`); each of its games has a row keyed by (head,
number) that holds the game's result once written (:class:`NumberedGame`);
:class:`NumberedGamesStore` makes the head's id, lists the heads and reads a head with
its games. The columns keep the names, types and order of the tables they were written
for, so a database made before opens as it is.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Generic, TypeVar

from sqlalchemy import JSON, Engine, Integer, MetaData, inspect, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from dogfight.storage.sql import FIRST, Listed, create_tables

Json = dict[str, Any]

LAST = 10
"""``sort_order`` of the result, after every other column."""


class NumberedGame:
    """A game of a head (mixin of a declarative row class, which adds the head's key
    column, declared with ``sort_order=FIRST``, and its game): its number, part of the
    primary key after the head's, and its result once written (None before)."""

    number: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=FIRST + 1)
    result: Mapped[Json | None] = mapped_column(JSON, nullable=True, sort_order=LAST)


H = TypeVar("H", bound=Listed)
G = TypeVar("G", bound=NumberedGame)
T = TypeVar("T")


class NumberedGamesStore(Generic[H, G, T]):
    """The heads of one kind and their games in one database (any SQLAlchemy engine):
    ``head`` and ``game`` are the row classes, ``key`` the game row's column naming its
    head, ``prefix`` what a new head's id starts with; a head is loaded as a ``T``
    (:meth:`held`)."""

    head: type[H]
    game: type[G]
    key: str
    prefix: str

    def __init__(self, engine: Engine, metadata: MetaData) -> None:
        self.engine = engine
        create_tables(engine, metadata)

    def new_head(self, title: str, **fields: Any) -> H:
        """A head row not stored yet: a fresh id, ``title``, created now, ``fields``."""
        return self.head(
            id=self.prefix + secrets.token_hex(5), title=title, created=time.time(), **fields
        )

    def add(self, head: H, *games: G) -> str:
        """Store a new head and its first games in one transaction; the head's id."""
        head_id = head.id
        with Session(self.engine) as session, session.begin():
            session.add_all([head, *games])
        return head_id

    def ids(self) -> list[tuple[str, str, float]]:
        """Every head's (id, title, creation time), oldest first."""
        head = self.head
        with Session(self.engine) as session:
            rows = session.execute(select(head.id, head.title, head.created).order_by(head.created))
            return [(r[0], r[1], r[2]) for r in rows]

    def held(self, head: H, games: list[G]) -> T:
        """A head and its games (in number order) as the store's users hold them."""
        raise NotImplementedError

    def load(self, head_id: str) -> T | None:
        """The head and its games, read detached from the session (None: no such
        head)."""
        with Session(self.engine) as session:
            row: H | None = session.get(self.head, head_id)
            if row is None:
                return None
            games: list[G] = list(
                session.scalars(
                    select(self.game)
                    .where(inspect(self.game).columns[self.key] == head_id)
                    .order_by(self.game.number)
                ).all()
            )
            session.expunge_all()
        return self.held(row, games)
