"""Transcripts: a game as JSON lines, byte for byte the same for the same inputs.

The first line is a header (engine version, seed, anything the caller adds); then one
event per line, keys sorted, no spaces (:func:`dogfight.output.encoding.sorted_text`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dogfight import ENGINE_VERSION
from dogfight.output.encoding import sorted_text
from dogfight.rules.events import Event


def transcript(events: Iterable[Event], **header: Any) -> str:
    lines = [sorted_text({"kind": "header", "engine": ENGINE_VERSION, **header})]
    lines.extend(sorted_text(e.to_json()) for e in events)
    return "\n".join(lines) + "\n"
