"""The server's refusals: an :class:`ApiError` becomes a 4xx with a JSON body naming
the field at fault; a game whose step the referee could not resolve answers 409."""

from __future__ import annotations

from typing import Any

from dogfight.errors import readable, shown_field
from dogfight.server.status import Failure

Json = dict[str, Any]


class ApiError(Exception):
    """A refused request: HTTP status, what is wrong, and the field at fault."""

    def __init__(self, status: int, error: str, field: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = readable(error)
        self.field = None if field is None else shown_field(field)

    def body(self) -> Json:
        return {"error": self.error, "field": self.field}


class GameFailed(ApiError):
    """A game whose step the referee could not resolve: it answers 409 with the reason
    until the operator rolls it back (``dogfight doctor``)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(409, failure.public(), "game_id")
        self.failure = failure

    def body(self) -> Json:
        return {
            **super().body(),
            "failed": {
                "turn": self.failure.turn,
                "phase": self.failure.phase,
                "error": self.failure.kind,
            },
        }


class StepError(Exception):
    """The engine raised while replaying or resolving (turn, phase): a bug or an input
    stored before it was validated. Never reaches a client: the game is marked failed."""

    def __init__(self, turn: int, phase: int, cause: BaseException) -> None:
        super().__init__(f"turn {turn} phase {phase}: {type(cause).__name__}: {cause}")
        self.turn = turn
        self.phase = phase
        self.cause = cause
