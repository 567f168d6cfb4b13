"""Typed exceptions raised by the rules core and the data loaders.

Every error a user can cause subclasses :class:`DogfightError` (itself a ``ValueError``),
so the command line can turn any of them into one clear message and exit status 2.
"""

from __future__ import annotations

SHOWN = 60
"""How many characters of a value an error message quotes: enough to recognise it,
never a whole 10 MB input echoed back to a terminal or a web client."""


def shown(value: object, limit: int = SHOWN) -> str:
    """``value`` as an error message quotes it: its ``repr``, cut to ``limit`` characters
    with its size said (``'aaaa…' (10,485,760 characters)``, ``['x', …] (2,000,000
    items)``). The one writer of a user's value into a message: every :class:`DataError`,
    :class:`UnknownCardError` and :class:`OrdersError` (so the command line's stderr and the
    web's JSON bodies alike) quotes values through it."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        # repr of a 4,300-digit int raises; the digits are counted from the bit length
        digits = int(value.bit_length() * 0.30103) + 1
        return f"a whole number of about {digits:,} digits"
    try:  # a long string or list is written out only as far as it can be shown
        text = repr(value[: limit + 1] if isinstance(value, str | list | tuple) else value)
    except (RecursionError, ValueError):
        return f"a deeply nested {type(value).__name__}"
    if len(text) <= limit:  # (a longer string or list writes out longer)
        return text
    if isinstance(value, str):
        size = f"{len(value):,} characters"
    elif isinstance(value, list | tuple | dict | set):
        size = f"{len(value):,} items"
    else:
        size = f"{len(text):,} characters written out"
    return f"{text[: limit - 1]}… ({size})"


def shown_field(field: str, limit: int = 2 * SHOWN) -> str:
    """A field's path for a message (``vehicles[0].jams.<key>``): a key the user wrote
    can be as long as any value, so a long path is cut as :func:`shown` cuts a value."""
    if len(field) <= limit:
        return field
    return f"{field[: limit - 1]}… ({len(field):,} characters)"


MESSAGE = 2000
"""The longest message a user is shown (the command line's stderr, a web error body):
room for the longest list of known names a refusal gives (the catalog's airplanes)."""


def readable(message: str, limit: int = MESSAGE) -> str:
    """A whole message cut to ``limit`` characters, its beginning and end kept and its
    length said: the last guard, where the command line prints a :class:`DogfightError`
    and where the web writes an error body, for a message that quoted a long value without
    :func:`shown` (a 20,000-character game id in a URL)."""
    if len(message) <= limit:
        return message
    tail = limit // 4
    return f"{message[: limit - tail]}… ({len(message):,} characters) …{message[-tail:]}"


class DogfightError(ValueError):
    """Base class of every error caused by bad input rather than a bug."""


class DataError(DogfightError):
    """A data file (deck, airplane, ruleset, situation) is malformed.

    The message names the file, the field, the value and what is allowed.
    """

    def __init__(self, source: str, field: str, value: object, allowed: str) -> None:
        self.source = source
        self.field = shown_field(field)
        self.value = value
        self.allowed = allowed
        super().__init__(f"{source}: field '{self.field}' has value {shown(value)}: {allowed}")


class UnknownCardError(DogfightError):
    """A card id that is not in the deck it was asked of."""

    def __init__(self, deck: str, card: str, valid: list[str], vehicle: str | None = None) -> None:
        self.deck = deck
        self.card = card
        self.valid = valid
        prefix = f"{vehicle}: " if vehicle else ""
        super().__init__(
            f"{prefix}card {shown(card)} is not in maneuver deck {deck}; "
            f"valid ids: {', '.join(valid)}"
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
        super().__init__(f"{source}:{line}:{column}: found {shown(found)}, expected {expected}")


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
