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
        elif "tuple[tuple[tuple[str" in hint:  # plans with their values
            values[field.name] = ((("1", "2", "3"), 4.25),)
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


def test_a_drawn_card_tells_only_the_icons_that_act() -> None:
    """Issue 29 item 8: no special-damage icon beside "Special damage is off". The log's
    face of a drawn card names only the icons that take effect in the game
    (``standard.ACTING``): a wounded pilot is told under 000's Standard Rules, not in a
    game without special damage, where jams still act (R23)."""
    from dogfight.catalog.loader import load_catalog
    from dogfight.rules.standard import ACTING

    catalog = load_catalog()
    drawn = ev.DamageDrawn("camel", "A", ("A1-wound", "A0-jam"), 1, 1, "fokker front")
    assert "(1 and wounded pilot, 0 and jammed)" in describe(drawn, catalog, ACTING["000"])
    assert "(1, 0 and jammed)" in describe(drawn, catalog, ACTING[None])


def test_counts_of_cards_are_words_not_card_s() -> None:
    """Issue 29 item 8: English prose, "1 A damage card", "2 C cards", never "card(s)"."""
    for cls in (ev.DamageCardsTaken, ev.BombsLanded, ev.RocketsHit):
        for count in (1, 2):
            event = sample(cls)
            name = next(f.name for f in dataclasses.fields(event) if f.name in ("count", "cards"))
            if not isinstance(getattr(event, name), int):
                continue
            said = describe(dataclasses.replace(event, **{name: count}))
            assert "(s)" not in said, said
            assert ("cards" in said) == (count == 2), said


def test_no_message_of_the_package_says_s_in_brackets() -> None:
    """Issue 29 item 8, finished: refusals and operator messages count in prose too
    ("2 orders files refused", "plans exactly 2 maneuver cards"), never "file(s)". Every
    string the package builds (not its docstrings, which quote the rule texts) is read."""
    import ast
    import re
    from pathlib import Path

    import dogfight

    root = Path(dogfight.__file__).parent
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {  # a string standing alone: a module's, class's, function's or name's
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docstrings:
                    continue
                for hit in re.findall(r"\w+\(s\)", node.value):
                    if hit != "http(s)":
                        found.append(f"{path.relative_to(root)}:{node.lineno}: {hit}")
    assert found == []
