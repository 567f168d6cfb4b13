"""``dogfight info`` lists the rule switches: each ruleset's value and a one-line
explanation of each, taken from the switches model's field docstrings (data, not CLI
text)."""

from __future__ import annotations

import io
import json

from rich.console import Console
from test_cli import assert_clean_refusal, dogfight

from dogfight.catalog import load_catalog
from dogfight.catalog.models import Switches
from dogfight.cli.tables import print_info


def test_every_switch_has_a_one_line_explanation() -> None:
    explained = Switches.explanations()
    assert list(explained) == list(Switches.model_fields)
    for name, text in explained.items():
        assert text, f"switch {name} has no docstring"
        assert "\n" not in text and "``" not in text and ":mod:" not in text


def test_info_prints_every_switch_with_its_values_and_explanation() -> None:
    buffer = io.StringIO()
    print_info(load_catalog(), Console(file=buffer, width=200))
    text = buffer.getvalue()
    assert "Rule switches" in text
    explained = Switches.explanations()
    for name, line in explained.items():
        assert f"{name} — {line}" in text
    # the values row of a switch the rulesets disagree on: tailing is on in wow only
    row = next(r for r in text.splitlines() if r.startswith("│ tailing "))
    assert [c.strip() for c in row.strip("│").split("│")][1:] == ["off", "on", "off", "off"]


def test_info_ruleset_lists_its_switches_with_value_and_explanation() -> None:
    result = dogfight("info", "--ruleset", "wow", "--json")
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["ruleset"] == "wow"
    assert body["switches"]["tailing"]["value"] is True
    assert body["switches"]["blind_spot"]["value"] is True
    assert "rear gun" in body["switches"]["blind_spot"]["explanation"]
    plain = dogfight("info", "--ruleset", "wow-basic")
    assert plain.returncode == 0, plain.stderr
    assert "blocking = friendly — Which planes" in plain.stdout
    assert_clean_refusal(dogfight("info", "--ruleset", "chess"), "--ruleset", "chess", "wog")


def test_info_json_explains_the_switches() -> None:
    result = dogfight("info", "--json")
    assert result.returncode == 0, result.stderr
    switches = json.loads(result.stdout)["switches"]
    assert switches == Switches.explanations()
