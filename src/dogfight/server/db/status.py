"""What the store knows about a game beyond its inputs: whether it was made as an open
analysis game, and whether a step of it failed (the referee raised) and why.

One row per game in its own table (made by schema revision 1 with the others, see
:mod:`dogfight.server.db.migrations`; a game of a database from before this table has no
row): a game without a row is an ordinary game that has not failed. A failed game is
never advanced (nor loaded, but up to its failure for its replay:
``dogfight.server.play.failed_games``) until ``dogfight doctor --rollback`` takes it
back to the start of the failed step's turn (deleting that turn's plans, answers and
steps) and clears the mark.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from dogfight.server.db.store import Store
from dogfight.server.db.tables import AnswerRow, Base, GameRow, PlanRow, StepRow


class GameStatusRow(Base):
    """A game's flags: ``analysis`` (its seed was given by its creator and is public) and
    the failure of a step (turn, phase, the error) when the referee raised."""

    __tablename__ = "game_status"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    analysis: Mapped[bool] = mapped_column(Boolean, default=False)
    failed_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    failed_phase: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    failed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    failed_kind: Mapped[str | None] = mapped_column(String(80), nullable=True)


@dataclass(frozen=True)
class Failure:
    """A failed game: the step whose resolution (or replay) raised, and the error."""

    game_id: str
    title: str
    turn: int
    phase: int
    kind: str
    """The exception's type: what the public is told."""
    error: str
    """The whole message: for the operator only (``dogfight doctor``)."""
    at: float

    def public_json(self) -> dict[str, int | str]:
        """What the public is told of the failure in a JSON body: the step and the
        exception's type (a refused request's ``failed``, a replay's)."""
        return {"turn": self.turn, "phase": self.phase, "error": self.kind}

    def public(self) -> str:
        return (
            f"the referee could not resolve turn {self.turn} phase {self.phase} of this game "
            f"({self.kind}); the server's operator can roll it back with "
            f"'dogfight doctor --rollback {self.game_id}'"
        )


def status_row(game_id: str, analysis: bool) -> GameStatusRow:
    """The row stored with a new game (in the same transaction as the game)."""
    return GameStatusRow(game_id=game_id, analysis=analysis)


def is_analysis(store: Store, game_id: str) -> bool:
    with Session(store.engine) as session:
        row = session.get(GameStatusRow, game_id)
        return bool(row is not None and row.analysis)


def mark_failed(store: Store, game_id: str, turn: int, phase: int, exc: BaseException) -> Failure:
    """Record that resolving (turn, phase) raised ``exc``; the first failure is kept."""
    kind = type(exc).__name__[:80]
    error = f"{kind}: {exc}"[:4000]
    now = time.time()
    with Session(store.engine) as session, session.begin():
        row = session.get(GameStatusRow, game_id)
        if row is None:
            row = GameStatusRow(game_id=game_id, analysis=False)
            session.add(row)
        if row.failed_turn is None:
            row.failed_turn, row.failed_phase = turn, phase
            row.error, row.failed_kind, row.failed_at = error, kind, now
    found = failure(store, game_id)
    assert found is not None
    return found


def failure(store: Store, game_id: str) -> Failure | None:
    """The game's failure, if it failed."""
    found = failures(store, game_id)
    return found[0] if found else None


def failures(store: Store, game_id: str | None = None) -> list[Failure]:
    """Every failed game (or only ``game_id``), oldest failure first."""
    with Session(store.engine) as session:
        query = (
            select(GameStatusRow, GameRow.title)
            .join(GameRow, GameRow.id == GameStatusRow.game_id)
            .where(GameStatusRow.failed_turn.is_not(None))
            .order_by(GameStatusRow.failed_at)
        )
        if game_id is not None:
            query = query.where(GameStatusRow.game_id == game_id)
        out = []
        for row, title in session.execute(query).all():
            out.append(
                Failure(
                    game_id=row.game_id,
                    title=title,
                    turn=int(row.failed_turn or 0),
                    phase=int(row.failed_phase or 0),
                    kind=row.failed_kind or "error",
                    error=row.error or "",
                    at=float(row.failed_at or 0.0),
                )
            )
        return out


def rollback(store: Store, game_id: str) -> tuple[int, int]:
    """Take a failed game back to the planning of the failed step's turn: delete that
    turn's (and any later) plans, answers and steps, clear the mark and the game's
    ``over`` flag, in one transaction. Returns (turn, rows deleted)."""
    found = failure(store, game_id)
    if found is None:
        raise KeyError(game_id)
    turn = found.turn
    with Session(store.engine) as session, session.begin():
        store.claim(session, game_id, None)  # processes holding the game reload it
        deleted = 0
        for model in (StepRow, AnswerRow, PlanRow):
            result = session.execute(
                delete(model).where(model.game_id == game_id, model.turn >= turn)
            )
            deleted += int(getattr(result, "rowcount", 0) or 0)
        row = session.get(GameStatusRow, game_id)
        assert row is not None
        row.failed_turn = row.failed_phase = None
        row.error = row.failed_kind = None
        row.failed_at = None
        game = session.get(GameRow, game_id)
        if game is not None:
            game.over = False
    return turn, deleted


def failed_ids(store: Store) -> set[str]:
    with Session(store.engine) as session:
        return set(
            session.scalars(
                select(GameStatusRow.game_id).where(GameStatusRow.failed_turn.is_not(None))
            )
        )
