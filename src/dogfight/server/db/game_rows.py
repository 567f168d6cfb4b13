"""A game as the store holds it: the rows written together (:class:`Batch`), how far a
process has read a game's rows (:class:`Marks`), and a game read back
(:class:`GameRecord`), from the database's rows or a notification's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dogfight.output.encoding import text
from dogfight.rules.plans import Plan
from dogfight.server.db.records import Seat

Json = dict[str, Any]


@dataclass
class Batch:
    """Rows written together in one transaction: computer players' plans (turn, seat,
    plans) and answers (turn, phase, seat, answer), and the steps (turn, phase, events)
    they let be resolved."""

    plans: list[tuple[int, str, Json | str]] = field(default_factory=list)
    """(turn, seat, plans): vehicle -> plan as JSON, or its text already encoded
    (:func:`plans_text`)."""
    answers: list[tuple[int, int, str, Json]] = field(default_factory=list)
    decisions: list[tuple[int, int, str, dict[str, list[str]]]] = field(default_factory=list)
    """(turn, phase, seat, decision id -> answer)."""
    steps: list[tuple[int, int, list[Json] | str]] = field(default_factory=list)
    """(turn, phase, events): a JSON list, or its text already encoded."""
    over: bool = False

    def __bool__(self) -> bool:
        return bool(self.plans or self.answers or self.decisions or self.steps)


def plans_text(plans: Mapping[str, Plan]) -> str:
    """A seat's plans as stored: ``{vehicle: plan.to_json()}`` put in JSON."""
    return text({vid: plan.to_json() for vid, plan in plans.items()})


@dataclass(frozen=True)
class Marks:
    """How far a process has read a game's rows: the greatest id of its plans, answers,
    decisions and steps read so far. Within one game the ids follow the commits (every
    write first locks the game's row, ``claim``), so the rows with greater ids are all
    those stored since, and perhaps some of the reader's own writes (recognised by their
    unique keys)."""

    plans: int = 0
    answers: int = 0
    decisions: int = 0
    steps: int = 0

    def after(self, *ids: Iterable[int]) -> Marks:
        """These marks moved past the ids of the plans, answers, decisions and steps
        just read."""
        now = (self.plans, self.answers, self.decisions, self.steps)
        return Marks(*(max([mark, *read]) for mark, read in zip(now, ids, strict=True)))


def seat_of(row: Any) -> Seat:
    """A seat as the games hold it, from its stored row (a :class:`SeatRow`, or a
    read-back's row: attributes of the same names)."""
    return Seat(
        row.seat,
        row.position,
        row.label,
        row.side,
        list(row.vehicles),
        row.token_hash,
        row.bot,
        bool(row.auto_fire),
    )


@dataclass(frozen=True)
class GameRecord:
    """Everything stored about one game, in order (or, read with ``Store.load_since``,
    its seats and the rows stored after given ones)."""

    id: str
    title: str
    created: float
    seed: int
    setup: Json
    engine: int
    over: bool
    revision: int
    seats: list[Seat]
    """The seats as stored (a game takes copies: it changes their settings)."""
    plans: list[tuple[int, str, Json]]
    """(turn, seat, plans)."""
    answers: list[tuple[int, int, str, Json]]
    """(turn, phase, seat, answer)."""
    decisions: list[tuple[int, int, str, str, list[str]]]
    """(turn, phase, seat, decision id, answer)."""
    steps: list[tuple[int, int, list[Json] | str]]
    """(turn, phase, events): the events as a JSON list, or (PostgreSQL) its stored
    text."""
    marks: Marks = Marks()
    """The greatest id of each kind of row read (or those given, when none was newer)."""
    flags: tuple[bool, bool] | None = None
    """Read with the rest on PostgreSQL: whether the game is an open analysis game and
    whether it failed (``dogfight.server.db.status``); None: not read."""


def record_of(
    game: Any,
    seats: Sequence[Any],
    plans: Sequence[Any] = (),
    answers: Sequence[Any] = (),
    decided: Sequence[Any] = (),
    steps: Sequence[Any] = (),
    marks: Marks = Marks(),
) -> GameRecord:
    """A game as held in memory, from its rows: those a read-back selects, or the
    :class:`GameRow` and :class:`SeatRow` of a game just created (attributes of the
    same names; a revision not yet given is 0)."""
    return GameRecord(
        id=game.id,
        title=game.title,
        created=game.created,
        seed=game.seed,
        setup=game.setup,
        engine=game.engine,
        over=game.over,
        revision=game.revision or 0,
        seats=[seat_of(s) for s in seats],
        plans=[(p.turn, p.seat, p.plans) for p in plans],
        answers=[(a.turn, a.phase, a.seat, a.answer) for a in answers],
        decisions=[(d.turn, d.phase, d.seat, d.decision, list(d.answer)) for d in decided],
        steps=[(s.turn, s.phase, list(s.events)) for s in steps],
        marks=marks.after(*([r.id for r in rows] for rows in (plans, answers, decided, steps))),
    )


def rows_read(
    plans: list[Any], answers: list[Any], decided: list[Any], steps: list[Any], marks: Marks
) -> tuple[
    list[tuple[int, str, Json]],
    list[tuple[int, int, str, Json]],
    list[tuple[int, int, str, str, list[str]]],
    list[tuple[int, int, list[Json] | str]],
    Marks,
]:
    """PostgreSQL's rows of a game as a :class:`GameRecord` holds them, each row led by
    its id (plans: id, turn, seat, plans; answers: id, turn, phase, seat, answer;
    decisions: id, turn, phase, seat, decision, answer; steps: id, turn, phase, events),
    and the marks after them. Read (``Store._pg_read``) or carried by a notification
    (``Store.noticed``): the same layout."""
    return (
        [(t, s, p) for _, t, s, p in plans],
        [(t, ph, s, a) for _, t, ph, s, a in answers],
        [(t, ph, s, d, list(a)) for _, t, ph, s, d, a in decided],
        [(t, ph, e) for _, t, ph, e in steps],
        marks.after(*([r[0] for r in k] for k in (plans, answers, decided, steps))),
    )
