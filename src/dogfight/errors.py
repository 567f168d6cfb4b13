"""Typed exceptions raised by the rules core and the data loaders.

Every error a user can cause subclasses :class:`DogfightError` (itself a ``ValueError``),
so the command line can turn any of them into one clear message and exit status 2.
"""

from __future__ import annotations


class DogfightError(ValueError):
    """Base class of every error caused by bad input rather than a bug."""


class DataError(DogfightError):
    """A data file (deck, airplane, ruleset, situation) is malformed.

    The message names the file, the field, the value and what is allowed.
    """

    def __init__(self, source: str, field: str, value: object, allowed: str) -> None:
        self.source = source
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{source}: field '{field}' has value {value!r}: {allowed}")


class UnknownCardError(DogfightError):
    """A card id that is not in the deck it was asked of."""

    def __init__(self, deck: str, card: str, valid: list[str], vehicle: str | None = None) -> None:
        self.deck = deck
        self.card = card
        self.valid = valid
        prefix = f"{vehicle}: " if vehicle else ""
        super().__init__(
            f"{prefix}card {card!r} is not in maneuver deck {deck}; valid ids: {', '.join(valid)}"
        )


class IllegalPlanError(DogfightError):
    """A plan that can never be flown (wrong number of cards, a card used twice, ...).

    Plans that break a flight restriction (two steep maneuvers in a row, ...) are *not*
    refused: the rules say what happens when such a card is revealed.
    """


class OrdersError(DogfightError):
    """Written orders that cannot be read: says where (file, line, column) and what was
    expected there, so the Games Master can send it back to the player."""

    def __init__(self, source: str, line: int, column: int, found: str, expected: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.found = found
        self.expected = expected
        super().__init__(f"{source}:{line}:{column}: found {found!r}, expected {expected}")


class UnusedFieldError(IllegalPlanError):
    """A field given to a vehicle that does not read it (a WW2 speed marker in a WW1
    airplane's plan, a tripod's airplane status...): refused rather than ignored or, worse,
    applied (``rules/field_use.py``). Names the vehicle, the field and who reads it."""

    def __init__(self, vehicle: str, field: str, who: str, kind: str) -> None:
        self.vehicle = vehicle
        self.field = field
        super().__init__(
            f"{vehicle}: '{field}' is for {who}, and {vehicle} is {kind}: a field a vehicle "
            "does not use is refused, not ignored"
        )
