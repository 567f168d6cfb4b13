"""The SQL of the hot writes (a plan, a phase's answers, a resolved step) in each
dialect's parameter style, written once: :meth:`dogfight.server.db.store.Store.add_batch`
sends it to the database driver directly. (PostgreSQL writes a whole batch in one
statement instead: :func:`dogfight.server.db.pg_statements.pg_write`.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dogfight.output.encoding import text


@dataclass(frozen=True)
class Writes:
    """The SQL of the hot writes in one dialect's parameter style (``?`` for SQLite,
    ``%s`` for psycopg), and how a JSON column's value is sent. PostgreSQL writes a
    batch in one statement instead (:func:`~dogfight.server.db.pg_statements.pg_write`), with its
    notification."""

    claim_any: str
    """Bump the game's revision, whatever it is (one row changed: the game exists)."""
    claim: str
    """Bump the game's revision if it is still the one given (no row changed: Stale)."""
    plans: str
    answers: str
    decisions: str
    steps: str
    over: str
    dump: Callable[[Any], str]

    @classmethod
    def of(cls, dialect: str) -> Writes:
        mark = "?" if dialect == "sqlite" else "%s"
        json_mark = mark if dialect == "sqlite" else "%s::json"

        def insert(table: str, *columns: str) -> str:
            marks = ", ".join(json_mark if c in JSON_COLUMNS else mark for c in columns)
            return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"

        # the claim's success is read from the count of rows changed, not RETURNING:
        # SQLite puts the rows an UPDATE returns in a temporary table, opened and
        # closed for each statement (more than half of the claim's cost)
        claim_any = f"UPDATE games SET revision = revision + 1 WHERE id = {mark}"
        return cls(
            claim_any=claim_any,
            claim=f"{claim_any} AND revision = {mark}",
            plans=insert("plans", "game_id", "turn", "seat", "plans", "created"),
            answers=insert("answers", "game_id", "turn", "phase", "seat", "answer", "created"),
            decisions=insert(
                "decisions", "game_id", "turn", "phase", "seat", "decision", "answer", "created"
            ),
            steps=insert("steps", "game_id", "turn", "phase", "events", "created"),
            over=f'UPDATE games SET "over" = {mark} WHERE id = {mark}',  # a keyword in SQL
            dump=text,
        )


JSON_COLUMNS = {"plans", "answer", "events"}
"""The JSON columns of the hot writes (stored as SQLAlchemy's JSON type stores them)."""
