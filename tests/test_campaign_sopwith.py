"""Sopwith campaigns by post (issue 15: "by post through the Sopwith GM tool for Sopwith
campaigns"): ``dogfight campaign new | next | status`` on a Sopwith league, each game
played with ``dogfight sopwith orders`` / ``turn``, its result written back once, the
score carried to the next game (004's Ace list)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_sopwith_cli import dogfight, ok, refused

from dogfight.campaign.sopwith import available, parse_sopwith_campaign
from dogfight.errors import DataError

LEAGUE = """\
id = "duellists"
title = "The Duellists"
game = "sopwith"
games = 2
clouds = 0

[[players]]
name = "a"
score = 30

[[players]]
name = "b"
pilot = "Lt. B"
"""

DB = ["--db", "c.db", "--sopwith-db", "s.db"]


def _play_one_game(folder: Path, game: str) -> str:
    """b takes off and turns off the board's edge on turn 2: a, the last plane flying,
    wins (004: "The last surviving 'plane is the winner (and is awarded 5 bonus
    points)"), with b's damage points shared."""
    sdb = ["--db", "s.db"]
    (folder / "a.txt").write_text("Turn 1:\nMove 1: A\nMove 2: A\nMove 3: A\n", encoding="utf-8")
    (folder / "b.txt").write_text(
        "Turn 1: GAMMA airstrip\nMove 1: A\nMove 2: A\nMove 3: A\n", encoding="utf-8"
    )
    ok(dogfight("sopwith", "orders", game, "a.txt", "b.txt", *sdb, cwd=folder))
    ok(dogfight("sopwith", "turn", game, *sdb, "--out", "sheets", cwd=folder))
    (folder / "b.txt").write_text("Turn 2:\nMove 1: RT\nMove 2: A\nMove 3: A\n", encoding="utf-8")
    ok(dogfight("sopwith", "orders", game, "b.txt", *sdb, cwd=folder))
    return ok(dogfight("sopwith", "turn", game, *sdb, "--out", "sheets", cwd=folder))


def test_a_league_of_two_games_by_post(tmp_path: Path) -> None:
    """The campaign starts each game with the players' carried scores, writes a finished
    game back once (scores, planes shot down or crashed, the Ace made at 40 points) and
    ends after its last game with the highest carried score."""
    (tmp_path / "league.toml").write_text(LEAGUE, encoding="utf-8")
    made = ok(dogfight("campaign", "new", "league.toml", "--db", "c.db", cwd=tmp_path))
    cid = made.split(":")[0]
    first = ok(dogfight("campaign", "next", cid, *DB, "--out", "sheets", cwd=tmp_path))
    game = f"{cid}-game-1"
    assert f"Sopwith game {game!r}" in first and "a: airfield" in first
    assert re.search(r"A a: airfield \w+, score 30", first)
    assert (tmp_path / "sheets" / f"{game}-turn-00.txt").is_file()
    # a second game cannot start while the first is played
    refused(dogfight("campaign", "next", cid, *DB, cwd=tmp_path), "finish it first")
    assert "the game is over: a wins" in _play_one_game(tmp_path, game)

    status = ok(dogfight("campaign", "status", cid, *DB, cwd=tmp_path))
    assert "a is an Ace with" in status and "b crashed" in status
    # the result is written once: asking again changes nothing
    again = ok(dogfight("campaign", "status", cid, *DB, cwd=tmp_path))
    assert again == status

    second = ok(dogfight("campaign", "next", cid, *DB, "--out", "sheets", cwd=tmp_path))
    carried = int(re.search(r"A a: airfield \w+, score (\d+)", second).group(1))  # type: ignore[union-attr]
    assert carried >= 40  # 30 brought in, 5 bonus and b's shared damage points
    # 004: "When an ace starts in a new game, the fact that he is an ace will be published"
    assert "none yet" not in second.split("Aces:")[1]
    assert "a wins" in _play_one_game(tmp_path, f"{cid}-game-2")
    final = ok(dogfight("campaign", "status", cid, *DB, cwd=tmp_path))
    assert "The campaign is over: a." in final
    refused(dogfight("campaign", "next", cid, *DB, cwd=tmp_path), "over")
    listed = ok(dogfight("campaign", "list", "--db", "c.db", cwd=tmp_path))
    assert f"{cid}  The Duellists  (over)" in listed


def test_a_sopwith_campaign_takes_no_bots(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(LEAGUE, encoding="utf-8")
    cid = ok(dogfight("campaign", "new", "league.toml", "--db", "c.db", cwd=tmp_path))
    cid = cid.split(":")[0]
    refused(dogfight("campaign", "next", cid, *DB, "--bots", "a=hard", cwd=tmp_path), "by post")
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize(
    ("change", "field", "value"),
    [
        ('name = "b"', "players", None),  # two players named a
        ('pilot = "Lt. B"', "players[1].airfield", "Q"),
        ("games = 2", "games", "0"),
        ('game = "sopwith"', "ruleset", "house"),
    ],
)
def test_a_bad_league_file_names_file_field_and_value(
    tmp_path: Path, change: str, field: str, value: str | None
) -> None:
    """Refused on load with the file, the field and the value; exit 2, nothing stored."""
    text = {
        'name = "b"': LEAGUE.replace('name = "b"', 'name = "A"'),
        'pilot = "Lt. B"': LEAGUE.replace('pilot = "Lt. B"', 'pilot = "Lt. B"\nairfield = "Q"'),
        "games = 2": LEAGUE.replace("games = 2", "games = 0"),
        'game = "sopwith"': LEAGUE.replace(
            'game = "sopwith"', 'game = "sopwith"\nruleset = "house"'
        ),
    }[change]
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        parse_sopwith_campaign(text, str(path))
    message = str(caught.value)
    assert str(path) in message and field in message
    if value is not None:
        assert value in message
    refused(dogfight("campaign", "new", "bad.toml", "--db", "c.db", cwd=tmp_path), "bad.toml")
    listed = ok(dogfight("campaign", "list", "--db", "c.db", cwd=tmp_path))
    assert "c-" not in listed


def test_the_shipped_league_loads() -> None:
    path = available()["the-postal-circus"]
    spec = parse_sopwith_campaign(path.read_text(encoding="utf-8"), str(path))
    assert len(spec.players) == 6 and spec.games == 4
