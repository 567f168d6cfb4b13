"""One way to put things in JSON: msgspec's encoder, for everything that leaves a run as
JSON text — the server's views, updates, events and stored rows, the transcripts, and
the command line's JSON outputs that are data rather than reports for a person.

Compact (no spaces), UTF-8 as it is (no ``\\u`` escapes but for control characters),
every float written as the shortest text that reads back as that float (``repr``'s,
for every number the game makes: they are rounded where they are made, to 1e-4 cm for
a pose). ``sorted_text`` sorts every object's keys: the transcripts, byte for byte the
same for the same inputs. A part put in JSON once and sent many times is kept as
:class:`Raw` and put inside a bigger value as it is (no JSON text is assembled by
hand). Why msgspec rather than orjson, and the measures: ``docs/architecture.md``,
"One encoder".

A float that is not a number (NaN, an infinity) is written ``null``, as JSON has no
such number: every input is checked to be finite, so one is a bug, never refused here.
"""

from __future__ import annotations

from typing import Any

import msgspec

Raw = msgspec.Raw
"""A value already put in JSON (:func:`raw`), put inside a bigger one as it is."""

DecodeError = msgspec.DecodeError
"""What :func:`decode` raises on text that is not JSON."""

_ENCODER = msgspec.json.Encoder()
_SORTED = msgspec.json.Encoder(order="sorted")


def encode(value: Any) -> bytes:
    """``value`` as compact JSON bytes (dicts, lists, strings, numbers, None, booleans,
    :class:`Raw` parts, msgspec Structs and dataclasses)."""
    return _ENCODER.encode(value)


def text(value: Any) -> str:
    """:func:`encode` as text (what a WebSocket message and a file are sent)."""
    return _ENCODER.encode(value).decode()


def raw(value: Any) -> Raw:
    """``value`` put in JSON once, to be put as it is inside the bigger values it is
    sent in (a cached part of a view)."""
    return Raw(_ENCODER.encode(value))


def sorted_text(value: Any) -> str:
    """:func:`text` with every object's keys sorted (a transcript's line)."""
    return _SORTED.encode(value).decode()


def decode(data: bytes | str) -> Any:
    """JSON text read back into plain values (a part kept as :class:`Raw`...)."""
    return msgspec.json.decode(data)
