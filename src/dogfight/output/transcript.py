"""Transcripts: a game as JSON lines, byte for byte the same for the same inputs.

The first line is a header (engine version, seed, anything the caller adds); then one
event per line, keys sorted, no spaces.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from dogfight import ENGINE_VERSION
from dogfight.rules.events import Event


def transcript(events: Iterable[Event], **header: Any) -> str:
    lines = [
        json.dumps(
            {"kind": "header", "engine": ENGINE_VERSION, **header},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
    ]
    lines.extend(
        json.dumps(e.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        for e in events
    )
    return "\n".join(lines) + "\n"
