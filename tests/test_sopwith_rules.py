"""Sopwith rulesets: 004's switches as data, the original game's values, and messages
that name the file, the field and the value."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from dogfight.errors import DataError
from dogfight.sopwith.rules import (
    SHIPPED,
    Ruleset,
    known_rulesets,
    load_ruleset,
    with_switches,
)


def test_shipped_rulesets() -> None:
    assert known_rulesets() == ["gm-tweedy", "original"]
    for name in known_rulesets():
        assert load_ruleset(name).name == name


def test_004_values() -> None:
    """004: "16 ammo; 12 dge"; "three bursts of fire per turn"; "The range is 4 hexes";
    "Four damage if the target is at one hexagon distance"; "40 hits/points"; "two damage
    points" a complete turn, "not ... higher than eight points"; NMR "will fly AHEAD";
    a crash into a cloud; "5 bonus points"."""
    r = load_ruleset()
    assert (r.ammo, r.damage_capacity, r.bursts_per_turn, r.range) == (16, 12, 3, 4)
    assert (r.damage_at_one_hex, r.ace_damage_bonus) == (4, 1)
    assert (r.ace_threshold, r.ace_basis) == (40, "career")
    assert (r.repair_per_turn, r.repair_cap) == (2, 8)
    assert (r.nmr, r.cloud_entry, r.clouds_move) == ("ahead", "crash", "random")
    assert (r.last_plane_bonus, r.points_per_damage, r.crash_share) == (5, 1, True)
    assert r.board_side == 10


def test_original_differs_where_the_issue_says() -> None:
    """Issue 6: where 004 differs from the original game (Ace threshold, repair cap,
    clouds) there is a switch; original.toml says which values are assumed."""
    tweedy, original = load_ruleset(), load_ruleset("original")
    differ = {
        k
        for k, v in tweedy.model_dump().items()
        if v != original.model_dump()[k] and k not in ("name", "title", "source")
    }
    assert differ == {"ace_threshold", "ace_basis", "repair_cap", "cloud_entry", "crash_share"}
    text = (SHIPPED / "original.toml").read_text(encoding="utf-8")
    assert "OUR ASSUMPTION" in text and "assumed" in text


def test_every_field_is_in_every_shipped_file() -> None:
    """Data is data: no switch is left to a default in code."""
    fields = set(Ruleset.model_fields)
    for path in SHIPPED.glob("*.toml"):
        assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == fields, path.name


def test_bad_file_names_file_field_and_value(tmp_path: Path) -> None:
    data = (SHIPPED / "gm-tweedy.toml").read_text(encoding="utf-8")
    bad = tmp_path / "house.toml"
    bad.write_text(data.replace('nmr = "ahead"', 'nmr = "sideways"'), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_ruleset(str(bad))
    assert info.value.source == str(bad)
    assert info.value.field == "nmr" and info.value.value == "sideways"
    bad.write_text(data.replace("ammo = 16", "amo = 16"), encoding="utf-8")
    with pytest.raises(DataError, match="field 'ammo' has value None: Field required"):
        load_ruleset(str(bad))
    bad.write_text("name = ", encoding="utf-8")
    with pytest.raises(DataError, match="not valid TOML"):
        load_ruleset(str(bad))


def test_unknown_ruleset() -> None:
    with pytest.raises(DataError, match="unknown ruleset; shipped: gm-tweedy, original"):
        load_ruleset("tweedy")


def test_switches_override_and_are_checked() -> None:
    r = with_switches(load_ruleset(), {"repair_cap": "10", "fire_hits": "nearest"}, "--switch")
    assert (r.repair_cap, r.fire_hits) == (10, "nearest")
    with pytest.raises(DataError, match="'range' has value -1"):
        with_switches(load_ruleset(), {"range": "-1"}, "--switch")
    with pytest.raises(DataError, match="damage_at_one_hex"):
        with_switches(load_ruleset(), {"range": "6"}, "--switch")
    with pytest.raises(DataError, match="unknown field"):
        with_switches(load_ruleset(), {"rnage": "3"}, "--switch")
