"""Every event reads as a sentence in the log."""

from __future__ import annotations

import dataclasses
import typing

from dogfight.geometry.pose import Pose
from dogfight.rules import events as ev
from dogfight.words.narration import describe


def sample(cls: type[ev.Event]) -> ev.Event:
    """An instance with plausible values for each field, by its annotated type."""
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        hint = str(hints[field.name])
        if "Pose" in hint:
            values[field.name] = Pose(1.0, 2.0, 90.0)
        elif "tuple[float, float]" in hint:
            values[field.name] = (1.0, 2.0)
        elif "tuple[str" in hint:
            values[field.name] = ("A1",)
        elif "dict" in hint:
            values[field.name] = {"allies": 2}
        elif "bool" in hint:
            values[field.name] = True
        elif "int" in hint:
            values[field.name] = 1
        elif "float" in hint:
            values[field.name] = 1.5
        else:
            values[field.name] = "x"
    return cls(**values)


def test_every_event_kind_is_narrated() -> None:
    for kind, cls in ev.EVENT_TYPES.items():
        line = describe(sample(cls))
        assert line != kind, f"no sentence for {kind}"
        assert line.endswith((".", "!")), line
