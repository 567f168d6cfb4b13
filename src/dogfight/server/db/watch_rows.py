"""A game's watch link (issue 32 item 4): the hash of its random watch token (the token
itself is shown once, in the answer that made the game, as a seat's is) and whether
spectators see the game one turn behind. No row (a game made before revision 3): the
game has no watch link."""

from __future__ import annotations

from typing import cast

from sqlalchemy import ForeignKey, Integer, String, Table, select
from sqlalchemy.orm import Mapped, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import Base


class WatchRow(Base):
    """A game's watch token's SHA-256 and its spectators' delay in turns (0 or 1)."""

    __tablename__ = "game_watch"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    delay: Mapped[int] = mapped_column(Integer)


WATCH = cast(Table, WatchRow.__table__)


def watch_of(store: Store, game_id: str) -> tuple[str, int] | None:
    """The game's watch token hash and delay, or None (no watch link)."""
    with store.engine.connect() as connection:
        got = connection.execute(
            select(WATCH.c.token_hash, WATCH.c.delay).where(WATCH.c.game_id == game_id)
        ).first()
    return None if got is None else (str(got[0]), int(got[1]))
