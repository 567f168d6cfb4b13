"""The shipped airplanes use the published figures of ``../shared/facts.md`` where one is
known, and say so; every other airplane says it is an approximation (issue 11, "Data")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dogfight.catalog import load_catalog
from dogfight.catalog.models import Airplane

ROOT = Path(__file__).resolve().parent.parent
# ../shared from the project's root; a git worktree one level further down
FACTS = next(
    (
        p
        for p in (ROOT.parent / "shared/facts.md", ROOT.parent.parent / "shared/facts.md")
        if p.exists()
    ),
    None,
)


def facts_rows() -> dict[str, dict[str, str]]:
    """facts.md's airplane table: name -> deck, fires, damage, climb, trust."""
    if FACTS is None:
        pytest.skip("../shared/facts.md is not beside this checkout")
    text = FACTS.read_text(encoding="utf-8")
    table = text.split("## Airplanes", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, dict[str, str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("airplane", "") or set(cells[0]) <= {"-"}:
            continue
        name, deck, fires, damage, climb, trust = cells
        rows[name] = {
            "deck": deck,
            "fires": fires,
            "damage": damage,
            "climb": climb,
            "trust": trust.split()[0],
        }
    assert rows, "no airplane table found in facts.md"
    return rows


def firepower(fires: str) -> list[str]:
    """'A' -> ['A']; 'A front, A rear' -> ['A', 'A']."""
    return [part.split()[0] for part in fires.split(",")]


def airplanes() -> list[Airplane]:
    return sorted(load_catalog().airplanes.values(), key=lambda a: a.id)


def test_published_figures_match_facts() -> None:
    rows = facts_rows()
    published = [a for a in airplanes() if a.published is not None]
    assert published, "no shipped airplane uses a published figure"
    for plane in published:
        assert plane.published is not None
        row = rows.get(plane.published.source)
        assert row is not None, f"{plane.id}: {plane.published.source!r} is not in facts.md"
        assert plane.published.trust == row["trust"], plane.id
        if "damage" in plane.published.figures:
            assert plane.damage == int(row["damage"]), plane.id
        if "firepower" in plane.published.figures:
            assert plane.firepower == firepower(row["fires"]), plane.id


def test_every_known_airplane_uses_its_published_figures() -> None:
    """A facts.md airplane the catalog ships (same name, the variant in brackets aside)
    takes its figures from one of facts.md's rows for that type."""
    rows = facts_rows()
    by_name = {a.name: a for a in airplanes()}
    for name in rows:
        plane = by_name.get(re.sub(r"\s*\(.*\)$", "", name))
        if plane is None:
            continue
        assert plane.published is not None, f"{plane.id} ignores facts.md's {name!r}"
        assert re.sub(r"\s*\(.*\)$", "", plane.published.source) == plane.name


def test_each_airplane_says_where_its_figures_come_from() -> None:
    for plane in airplanes():
        if plane.published is not None:
            assert "Published figure" in plane.note and "facts.md" in plane.note, plane.id
            assert "approximation" in plane.note, plane.id  # its deck still is
        else:
            assert "pproximation" in plane.note, plane.id
