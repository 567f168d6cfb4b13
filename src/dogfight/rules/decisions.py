"""Decisions a player takes inside an action phase: one engine type for all of them.

Some rules stop the table in the middle of a phase to let one player choose, with
information only he has: after tailing, the tailing player sees the tailed plane's next
card and may reorder his own (002, "Tailing"); a bomber picks among the cards it drew.
Each is a :class:`Decision`: which vehicle's seat must answer, what kind of choice it is,
the options, the default taken when nobody answers, what the seat is shown to decide
(hidden from every other seat) and the rule quoted.

How a phase pauses and resumes. A step asks its decisions with :func:`ask`. When the
phase is resolved interactively (:func:`dogfight.rules.engine.pending_decisions`) and an
answer is missing, the phase stops there with :class:`Paused`, nothing kept; the table
asks the seats, and the phase is resolved again from its start with the answers given
so far (the same generator gives the same draws, so the replay is exact) until every
decision is answered. Resolved non-interactively (:func:`dogfight.rules.engine.resolve_phase`
without all the answers, as `simulate`, `adjudicate` and the golden games do), a missing
answer takes the decision's default.

Answers are tuples of option strings keyed by :attr:`Decision.id`:

- ``mode = "order"``: the options in a new order (every option once, none added);
- ``mode = "pick"``: ``count`` distinct options.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dogfight.errors import IllegalPlanError
from dogfight.words.terms import plural

Answer = tuple[str, ...]
Answers = Mapping[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice a seat must make inside a phase, visible only to that seat."""

    kind: str
    """What is decided: ``"tailing"`` (reorder the remaining cards), ``"bomb_pick"``…"""
    vehicle: str
    """The vehicle whose seat answers (and alone sees the decision)."""
    turn: int
    phase: int
    """The phase being resolved when the decision is asked."""
    mode: Literal["order", "pick"]
    options: tuple[str, ...]
    default: tuple[str, ...]
    """The answer taken when nobody answers (bots off, simulations, adjudication)."""
    rule: str
    """The rule that asks it, quoted."""
    count: int = 0
    """``pick``: how many options to pick."""
    shown: dict[str, Any] = field(default_factory=dict)
    """What the seat is shown to decide (e.g. the tailed planes' cards): private."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Answers the rules refuse now, each with why (the rule quoted): an action token
    the card or the console forbids. Private to the seat, like the decision."""

    @classmethod
    def one_of(
        cls,
        kind: str,
        vehicle: str,
        when: tuple[int, int],
        options: Sequence[str],
        default: str,
        rule: str,
        shown: dict[str, Any],
        reasons: dict[str, str] | None = None,
    ) -> Decision:
        """A choice of one option (``mode = "pick"``, ``count = 1``) in the phase ``when``
        (turn, phase): guns or rockets, a skill used or kept, the bomb loads dropped."""
        return cls(
            kind, vehicle, when[0], when[1], "pick", tuple(options), (default,), rule, 1,
            shown, reasons or {},
        )  # fmt: skip

    @property
    def id(self) -> str:
        """Unique within a phase: ``kind:vehicle@turn.phase``."""
        return f"{self.kind}:{self.vehicle}@{self.turn}.{self.phase}"

    def check(self, answer: Sequence[str]) -> Answer:
        """The answer as a tuple, or :class:`IllegalPlanError` quoting the rule."""
        given = tuple(str(a) for a in answer)
        if self.mode == "order":
            if sorted(given) != sorted(self.options):
                raise IllegalPlanError(
                    f"{self.vehicle}: {self.kind} asks for the cards "
                    f"{', '.join(self.options)} in a new order (none added or dropped), "
                    f"got {', '.join(given) or 'nothing'}: {self.rule}"
                )
            return given
        if len(given) != self.count or len(set(given)) != len(given):
            raise IllegalPlanError(
                f"{self.vehicle}: {self.kind} asks for {plural(self.count, 'different choice')}, "
                f"got {', '.join(given) or 'nothing'}: {self.rule}"
            )
        unknown = [g for g in given if g not in self.options]
        refused = [g for g in unknown if g in self.reasons]
        if refused:
            raise IllegalPlanError(
                f"{self.vehicle}: {self.kind}: {refused[0]} refused: {self.reasons[refused[0]]}"
            )
        if unknown:
            raise IllegalPlanError(
                f"{self.vehicle}: {self.kind}: {', '.join(unknown)} not among "
                f"{', '.join(self.options)}: {self.rule}"
            )
        return given

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "kind": self.kind,
            "vehicle": self.vehicle,
            "turn": self.turn,
            "phase": self.phase,
            "mode": self.mode,
            "count": self.count,
            "options": list(self.options),
            "default": list(self.default),
            "shown": self.shown,
            "rule": self.rule,
        }
        if self.reasons:  # only decisions that refuse some answers carry them
            out["reasons"] = dict(self.reasons)
        return out


class Paused(Exception):
    """A phase resolved interactively reached decisions nobody has answered yet."""

    def __init__(self, decisions: list[Decision]) -> None:
        super().__init__(", ".join(d.id for d in decisions))
        self.decisions = decisions


@dataclass
class Asking:
    """The answers a phase is resolved with, and the decisions its steps asked."""

    answers: Mapping[str, Sequence[str]]
    interactive: bool = False
    asked: list[Decision] = field(default_factory=list)

    def ask(self, decisions: Iterable[Decision]) -> dict[str, Answer]:
        """Answers to decisions asked together (the seats answer them at the same time).
        Interactive: pause on any unanswered one. Otherwise missing answers default."""
        batch = list(decisions)
        self.asked.extend(batch)
        missing = [d for d in batch if d.id not in self.answers]
        if missing and self.interactive:
            raise Paused(missing)
        return {
            d.id: d.check(self.answers[d.id]) if d.id in self.answers else d.default for d in batch
        }

    def check_all_used(self) -> None:
        """An answer to a decision no step asked is refused: a reorder by a plane that is
        not tailing, or an answer for another phase."""
        if not self.answers:
            return  # nothing answered (most phases): nothing to refuse
        asked = {d.id for d in self.asked}
        extra = sorted(a for a in self.answers if a not in asked)
        if extra:
            raise IllegalPlanError(
                f"no such decision in this phase: {', '.join(extra)}"
                + (f"; asked: {', '.join(sorted(asked))}" if asked else "; none is asked")
            )


def for_seat(decisions: Iterable[Decision], seat: Collection[str] | None) -> list[Decision]:
    """The decisions a seat may see (only its own; the referee sees all)."""
    return [d for d in decisions if seat is None or d.vehicle in seat]
