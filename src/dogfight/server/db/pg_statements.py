"""PostgreSQL's one-statement reads and writes of a game, and its NOTIFY channel.

On PostgreSQL a catch-up read is ONE statement (one round trip, one snapshot), a write
is ONE statement sent alone (the revision's claim, the rows, the notification), and the
notification carries the rows it wrote when they fit: :class:`dogfight.server.db.store.Store`
sends these texts, built here once per shape.
"""

from __future__ import annotations

import functools

CHANNEL = "dogfight"
"""PostgreSQL's NOTIFY channel: every write to a game sends ``"<game id> <revision>"``
(a batch: followed by its rows and origin, see :func:`pg_write`) when it commits, so
every server process knows at once which games changed."""


def pg_read(full: bool) -> str:
    """A game's rows after given ids, in ONE PostgreSQL statement (one round trip, one
    snapshot: read statement by statement, a commit landing in between could show the
    steps a plan led to without the plan); ``full``: with the game's setup. The steps'
    events come as their stored text (an array of text), parsed by the one reader that
    needs them (:meth:`LiveGame._resolve_stored`), not inside a JSON aggregate."""

    def rows(table: str, order: str, *columns: str) -> str:
        return (
            f"(SELECT json_agg(json_build_array({', '.join(columns)}) ORDER BY {order}) "
            f"FROM {table} WHERE game_id = g.id AND id > %({table})s)"
        )

    return (
        'SELECT g.title, g.created, g.seed, g.engine, g."over", g.revision, '
        + (
            "g.setup, (SELECT json_build_array(analysis, failed_turn IS NOT NULL) "
            "FROM game_status WHERE game_id = g.id), "
            if full
            else "NULL, NULL, "
        )
        + "(SELECT json_agg(json_build_array(seat, position, label, side, vehicles, "
        "token_hash, bot, auto_fire) ORDER BY position) FROM seats WHERE game_id = g.id), "
        + rows("plans", "id", "id", "turn", "seat", "plans")
        + ", "
        + rows("answers", "id", "id", "turn", "phase", "seat", "answer")
        + ", "
        + rows("decisions", "id", "id", "turn", "phase", "seat", "decision", "answer")
        + ", "
        + rows("steps", "turn, phase", "id", "turn", "phase")
        + ", (SELECT array_agg(events::text ORDER BY turn, phase) FROM steps "
        "WHERE game_id = g.id AND id > %(steps)s)" + " FROM games g WHERE g.id = %(game)s"
    )


PG_LOAD = pg_read(full=True)
PG_LOAD_SINCE = pg_read(full=False)

PG_ROWS = {
    "plans": ("plans", (("turn", "int"), ("seat", "text"), ("plans", "json"))),
    "answers": (
        "answers",
        (("turn", "int"), ("phase", "int"), ("seat", "text"), ("answer", "json")),
    ),
    "decisions": (
        "decisions",
        (
            ("turn", "int"),
            ("phase", "int"),
            ("seat", "text"),
            ("decision", "text"),
            ("answer", "json"),
        ),
    ),
    "steps": ("steps", (("turn", "int"), ("phase", "int"), ("events", "json"))),
}
"""The rows a batch writes on PostgreSQL: the table, and each column with its type."""


@functools.cache
def pg_write(any_revision: bool, over: bool, kinds: tuple[str, ...]) -> str:
    """A batch's write in ONE PostgreSQL statement (sent alone, it is its own
    transaction: one round trip instead of BEGIN, the claim, an INSERT per kind of row
    and COMMIT). The claim bumps the game's revision (``any_revision``: whatever it is;
    else only if it is still ``%(revision)s``), marks it ``over``, and sends the
    notification in its ``RETURNING``. Each kind of row in ``kinds`` comes as one JSON
    array of rows (``%(plans)s``...: each row an array of its columns, a JSON column's
    text as it is, kept verbatim by the ``json`` type) and is inserted in order
    (``WITH ORDINALITY``: the ids keep the batch's order), joined to the claim: when
    the claim finds the game moved on, nothing is inserted and no row comes back. The
    inserts read the claim's row, so they take their ids once the game's row is locked:
    within a game the ids still follow the commits (:class:`Marks`).

    The notification's payload is ``"<game id> <revision> <rows>"``: ``rows`` a JSON
    array of the plans, answers, decisions and steps written (each an array of rows, or
    null) followed by the writing :class:`Store`'s ``%(origin)s``, or, when they do not
    fit, the origin alone (``["<origin>"]``). A process recognises its own writes by
    their origin and does not catch up with them (:meth:`Store.own`)."""
    claim = (
        "UPDATE games SET revision = revision + 1"
        + (', "over" = true' if over else "")
        + " WHERE id = %(game)s"
        + ("" if any_revision else " AND revision = %(revision)s")
        + " RETURNING id, revision"
    )
    parts = [f"claim AS ({claim})"]
    delta = []
    for kind in PG_ROWS:
        names = ", ".join(["id", *(c for c, _ in PG_ROWS[kind][1])])
        delta.append(
            f"(SELECT json_agg(json_build_array({names}) ORDER BY id) FROM new_{kind})"
            if kind in kinds
            else "NULL"
        )
    for kind in kinds:
        table, columns = PG_ROWS[kind]
        names = ", ".join(c for c, _ in columns)
        values = ", ".join(
            f"x.r->{i}" if sql_type == "json" else f"(x.r->>{i})::{sql_type}"
            for i, (_, sql_type) in enumerate(columns)
        )
        parts.append(
            f"new_{kind} AS (INSERT INTO {table} (game_id, {names}, created) "
            f"SELECT claim.id, {values}, %(now)s FROM claim, "
            f"json_array_elements(%({kind})s::json) WITH ORDINALITY AS x(r, n) ORDER BY x.n "
            f"RETURNING id, {names})"
        )
    # the notification: the game and its revision, then the rows written when they fit
    # in a notification's payload (at most 8000 bytes), and the writer's origin last
    return (
        "WITH " + ", ".join(parts) + ", "
        f"delta AS (SELECT json_build_array({', '.join(delta)}, %(origin)s::text)::text "
        "AS rows) "
        f"SELECT revision, pg_notify('{CHANNEL}', claim.id || ' ' || claim.revision::text "
        f"|| ' ' || CASE WHEN octet_length(delta.rows) <= {NOTICE_ROWS} THEN delta.rows "
        "ELSE json_build_array(%(origin)s::text)::text END) FROM claim, delta"
    )


NOTICE_ROWS = 7800
"""The longest rows (bytes of JSON, the origin included) a notification carries, below
PostgreSQL's 8000-byte payload limit with the game's id and revision before them."""
