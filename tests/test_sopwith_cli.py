"""``dogfight sopwith`` end to end in a temporary folder: new → orders → turn → report
(re-issued byte for byte), and every refusal as one message with exit status 2 that
leaves the game as it was.

The game is the golden game of ``test_sopwith_report.py``, so the turn-1 report the
command writes is the golden file.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_sopwith_report import GOLDEN, ORDERS

from dogfight.cli.app import main

NEW = [
    "sopwith",
    "new",
    "golden",
    "--plane",
    "Biggles",
    "--plane",
    "Kraut",
    "--plane",
    "Sid",
    "--plane",
    "Fritz",
    "--airfield",
    "Biggles=S",
    "--airfield",
    "Kraut=SE",
    "--airfield",
    "Sid=NW",
    "--airfield",
    "Fritz=N",
    "--pilot",
    "Kraut=Kraut Von Hinkle",
    "--cloud",
    "J10",
    "--cloud",
    "E8+E9",
    "--seed",
    "17",
]


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def dogfight(*args: str, cwd: Path, stdin: str | None = None) -> Result:
    """Run the command line's entry point in this process (as ``dogfight ARGS`` run in
    ``cwd``): much faster than a new interpreter per command. ``test_entry_point`` runs
    one command as a real process."""
    out, err = io.StringIO(), io.StringIO()
    saved = (os.getcwd(), sys.argv, sys.stdin)
    os.chdir(cwd)
    sys.argv = ["dogfight", *args]
    sys.stdin = io.StringIO(stdin or "")
    code: int | str | None = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code
    finally:
        os.chdir(saved[0])
        sys.argv, sys.stdin = saved[1], saved[2]
    return Result(code if isinstance(code, int) else 1, out.getvalue(), err.getvalue())


def ok(result: Result) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def refused(result: Result, *needles: str) -> None:
    """Exit status 2, no traceback, one error line naming the problem."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    for needle in needles:
        assert needle in errors[0], errors[0]


def write_orders(folder: Path, turn: int) -> list[str]:
    names = []
    for player, text in ORDERS[turn].items():
        path = folder / f"{player.lower()}.txt"
        path.write_text(text, encoding="utf-8")
        names.append(path.name)
    return names


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the golden game created and turn 1 played."""
    folder = tmp_path_factory.mktemp("gm")
    created = dogfight(*NEW, cwd=folder)
    assert "game 'golden' created" in ok(created)
    assert "sopwith.sqlite" in created.stderr  # the database is printed
    ok(dogfight("sopwith", "orders", "golden", *write_orders(folder, 1), cwd=folder))
    ok(dogfight("sopwith", "turn", "golden", "--clouds", "2:0", cwd=folder))
    return folder


def test_new_writes_the_start_sheet(table: Path) -> None:
    """Issue 6: "the Ace list is published at each new game"; 004: cloud positions are
    notified "at the start of the game"."""
    sheet = (table / "golden-turn-00.txt").read_text(encoding="utf-8")
    assert sheet == (GOLDEN / "golden-turn-00.txt").read_text(encoding="utf-8")
    assert (table / "golden-turn-00.png").read_bytes()[:4] == b"\x89PNG"


def test_turn_writes_every_report(table: Path) -> None:
    """Issue 6: "`dogfight sopwith turn GAME` → each player's result in 004's notation, a
    published report with the map (SVG and PNG, and a plain-text map for e-mail)"."""
    for name in ("golden-turn-01.txt", *(f"golden-turn-01-{p}.txt" for p in ORDERS[2])):
        assert (table / name).read_text(encoding="utf-8") == (GOLDEN / name).read_text(
            encoding="utf-8"
        )
    assert (table / "golden-turn-01.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert (table / "golden-turn-01.png").read_bytes()[:4] == b"\x89PNG"


def test_report_is_reissued_byte_for_byte(table: Path, tmp_path: Path) -> None:
    """Issue 6: "a GM ... can re-issue any earlier report"."""
    ok(dogfight("sopwith", "report", "golden", "--turn", "1", "--out", str(tmp_path), cwd=table))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 3 + 4
    for name in names:
        assert (tmp_path / name).read_bytes() == (table / name).read_bytes(), name
    printed = ok(dogfight("sopwith", "report", "golden", "--turn", "0", "--print", cwd=table))
    assert printed == (table / "golden-turn-00.txt").read_text(encoding="utf-8")
    mine = ok(
        dogfight(
            "sopwith", "report", "golden", "--turn", "1", "--print", "--player", "sid", cwd=table
        )
    )
    assert mine == (table / "golden-turn-01-Sid.txt").read_text(encoding="utf-8")


def test_show_games_and_aces(table: Path) -> None:
    shown = ok(dogfight("sopwith", "show", "golden", "--orders", cwd=table))
    assert "turn to play: 2" in shown and "Biggles: no orders yet" in shown
    assert "golden: 4 planes, gm-tweedy, turn 2 to play" in ok(
        dogfight("sopwith", "games", cwd=table)
    )
    assert "none yet" in ok(dogfight("sopwith", "aces", cwd=table))


def test_refusals_leave_the_game_as_it_was(table: Path, tmp_path: Path) -> None:
    """Bad input is one message and exit status 2; nothing is stored."""
    before = ok(dogfight("sopwith", "show", "golden", cwd=table))
    (table / "biggles.txt").write_text(ORDERS[2]["Biggles"], encoding="utf-8")
    (table / "bad").mkdir()
    (table / "bad" / "sid.txt").write_text("Turn 2:\nMove 1: XX\n", encoding="utf-8")
    (table / "late.txt").write_text(ORDERS[3]["Kraut"], encoding="utf-8")
    (table / "zed.txt").write_text(ORDERS[2]["Kraut"], encoding="utf-8")
    # unreadable orders
    refused(
        dogfight("sopwith", "orders", "golden", "bad/sid.txt", "--db", "sopwith.sqlite", cwd=table),
        "bad/sid.txt:2",
    )
    # orders for a turn that is not the current one
    refused(
        dogfight("sopwith", "orders", "golden", "late.txt", "--player", "Kraut", cwd=table),
        "orders for turn 3, but the turn to play is 2",
    )
    # an order from a plane not in the game
    refused(dogfight("sopwith", "orders", "golden", "zed.txt", cwd=table), "no plane 'zed'")
    refused(dogfight("sopwith", "orders", "golden", "nofile.txt", cwd=table), "cannot be read")
    refused(dogfight("sopwith", "orders", "golden", "-", cwd=table, stdin="x"), "--player")
    # unknown game, unknown turn, bad cloud entry, no database
    refused(dogfight("sopwith", "turn", "nosuch", cwd=table), "no game named 'nosuch'", "golden")
    refused(dogfight("sopwith", "report", "golden", "--turn", "9", cwd=table), "no turn 9")
    refused(dogfight("sopwith", "turn", "golden", "--clouds", "7:N", cwd=table), "--clouds")
    refused(
        dogfight("sopwith", "turn", "golden", "--clouds", "1:UP", cwd=table), "'UP' is not a facing"
    )
    refused(dogfight("sopwith", "show", "golden", cwd=tmp_path), "no games database")
    # a turn into a file, not a folder, is refused before anything is stored
    (table / "afile").write_text("x")
    refused(dogfight("sopwith", "turn", "golden", "--out", "afile", cwd=table), "is a file")
    assert ok(dogfight("sopwith", "show", "golden", cwd=table)) == before


def test_refused_new_games_are_not_created(table: Path) -> None:
    refused(dogfight(*NEW, cwd=table), "already a game named 'golden'")
    refused(
        dogfight(
            "sopwith", "new", "g2", "--plane", "a", "--plane", "b", "--switch", "ammo=-1", cwd=table
        ),
        "--switch",
        "ammo",
    )
    refused(
        dogfight(
            "sopwith", "new", "g2", "--plane", "a", "--plane", "b", "--cloud", "Z99", cwd=table
        ),
        "Z99",
    )
    refused(
        dogfight(
            "sopwith", "new", "g2", "--plane", "a", "--plane", "b", "--ruleset", "nope", cwd=table
        ),
        "unknown ruleset",
    )
    (table / "afile").write_text("x")
    refused(
        dogfight(
            "sopwith", "new", "g2", "--plane", "a", "--plane", "b", "--out", "afile", cwd=table
        ),
        "afile",
    )
    refused(dogfight("sopwith", "new", "g2", "--plane", "a", cwd=table), "at least two planes")
    games = ok(dogfight("sopwith", "games", cwd=table))
    assert "g2" not in games


def test_out_folders_are_created(table: Path) -> None:
    """`--out` names a folder that need not exist yet: it is made, parents too."""
    ok(
        dogfight(
            "sopwith", "new", "g3", "--plane", "a", "--plane", "b", "--out", "deep/er", cwd=table
        )
    )
    assert (table / "deep" / "er").is_dir()


def test_a_whole_game_to_the_end(tmp_path: Path) -> None:
    """Two planes: b turns off the board's edge and crashes; a, the last plane flying,
    wins with b's 12 damage points shared and 004's five bonus points."""
    db = ["--db", "d.db"]
    ok(dogfight("sopwith", "new", "duel", "--plane", "a", "--plane", "b", *db, cwd=tmp_path))
    (tmp_path / "a.txt").write_text("Turn 1:\nMove 1: A\nMove 2: A\nMove 3: A\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(
        "Turn 1: GAMMA airstrip\nMove 1: A\nMove 2: A\nMove 3: A\n", encoding="utf-8"
    )
    ok(dogfight("sopwith", "orders", "duel", "a.txt", "b.txt", *db, cwd=tmp_path))
    assert "the game is over" not in ok(dogfight("sopwith", "turn", "duel", *db, cwd=tmp_path))
    (tmp_path / "b.txt").write_text("Turn 2:\nMove 1: RT\nMove 2: A\nMove 3: A\n", encoding="utf-8")
    ok(dogfight("sopwith", "orders", "duel", "b.txt", *db, cwd=tmp_path))
    played = ok(dogfight("sopwith", "turn", "duel", *db, cwd=tmp_path))
    assert "NMR: a" in played and "the game is over: a wins" in played
    refused(dogfight("sopwith", "orders", "duel", "a.txt", *db, cwd=tmp_path), "over")
    refused(dogfight("sopwith", "turn", "duel", *db, cwd=tmp_path), "over")
    shown = ok(dogfight("sopwith", "show", "duel", *db, cwd=tmp_path))
    assert "over after turn 2: a" in shown
    assert "  A a     17   12" in shown


def test_entry_point(tmp_path: Path) -> None:
    """The installed command, as a process: output, the database printed, exit 2."""
    run = subprocess.run(
        [sys.executable, "-m", "dogfight", *NEW],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert str(tmp_path / "sopwith.sqlite") in run.stderr
    again = subprocess.run(
        [sys.executable, "-m", "dogfight", *NEW],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert "already a game named 'golden'" in again.stderr


def test_scores_carry_into_new_games_and_aces_are_published(tmp_path: Path) -> None:
    """004: "If, after being shot down etc, his score falls below the 40 mark, the player
    loses his Ace status. When an ace starts in a new game, the fact that he is an ace
    will be published for the benefit of new players" (ruling S19)."""
    db = ["--db", "d.db"]
    ok(dogfight("sopwith", "new", "one", "--plane", "a", "--plane", "b", *db, cwd=tmp_path))
    (tmp_path / "b.txt").write_text(
        "Turn 1: GAMMA airstrip\nMove 1: A\nMove 2: A\nMove 3: RT\n", encoding="utf-8"
    )
    ok(dogfight("sopwith", "orders", "one", "b.txt", *db, cwd=tmp_path))
    assert "--- b (b.txt)\nTurn 1: GAMMA airstrip" in ok(
        dogfight("sopwith", "show", "one", "--orders", *db, cwd=tmp_path)
    )
    assert "a wins" in ok(dogfight("sopwith", "turn", "one", *db, cwd=tmp_path))
    two = ok(dogfight("sopwith", "new", "two", "--plane", "A", "--plane", "c", *db, cwd=tmp_path))
    assert "A A: airfield S, score 17" in two and "none yet" in two
    three = ok(
        dogfight(
            "sopwith",
            "new",
            "three",
            "--plane",
            "a",
            "--plane",
            "d",
            "--score",
            "a=45",
            *db,
            cwd=tmp_path,
        )
    )
    assert "  a (45 points)" in three
    assert "ACES\n  a (45 points)" in (tmp_path / "three-turn-00.txt").read_text(encoding="utf-8")
    assert ok(dogfight("sopwith", "aces", *db, cwd=tmp_path)) == "  a (45 points)\n"


def test_a_batch_keeps_the_good_files_and_reports_the_bad(tmp_path: Path) -> None:
    """A batch of orders files: each good file is kept, the bad ones are named in one
    message (exit status 2); with --nmr an unreadable file puts its player down as NMR
    (004: "If a player NMR's while his 'plane is in flight, his 'plane will fly AHEAD for
    the three moves of his turn"), a file for no plane of the game is still refused."""
    ok(dogfight(*NEW, cwd=tmp_path))
    names = write_orders(tmp_path, 1)
    (tmp_path / "sid.txt").write_text("Turn 1:\nMove 1: XX\n", encoding="utf-8")
    (tmp_path / "zed.txt").write_text(ORDERS[1]["Kraut"], encoding="utf-8")
    good = [n for n in names if n != "sid.txt"]
    result = dogfight("sopwith", "orders", "golden", *good, "sid.txt", "zed.txt", cwd=tmp_path)
    refused(result, "2 orders files refused", "sid.txt:2", "no plane 'zed'")
    assert "accepted Biggles" in result.stdout and "still missing (NMR at the turn): Sid" in (
        result.stdout
    )
    show = ok(dogfight("sopwith", "show", "golden", cwd=tmp_path))
    assert "Biggles: orders in" in show and "Sid: no orders yet" in show
    # the GM applies the NMR default to the unreadable file; the unknown plane is refused
    result = dogfight("sopwith", "orders", "golden", "sid.txt", "zed.txt", "--nmr", cwd=tmp_path)
    refused(result, "1 orders file refused", "no plane 'zed'")
    assert "NMR Sid (sid.txt)" in result.stdout
    assert "Sid: NMR (orders could not be read: sid.txt:2" in ok(
        dogfight("sopwith", "show", "golden", cwd=tmp_path)
    )
    # the turn resolves Sid as an NMR: in flight he would fly Ahead; on the ground he stays
    played = ok(dogfight("sopwith", "turn", "golden", "--clouds", "2:0", cwd=tmp_path))
    assert "NMR: Sid" in played
    # good orders sent later replace an NMR
    (tmp_path / "sid.txt").write_text("Turn 2:\nMove 1: A - fire Q\n", encoding="utf-8")
    ok(dogfight("sopwith", "orders", "golden", "sid.txt", "--nmr", cwd=tmp_path))
    assert "Sid: NMR" in ok(dogfight("sopwith", "show", "golden", cwd=tmp_path))
    (tmp_path / "sid.txt").write_text(ORDERS[2]["Sid"], encoding="utf-8")
    ok(dogfight("sopwith", "orders", "golden", "sid.txt", cwd=tmp_path))
    assert "Sid: orders in" in ok(dogfight("sopwith", "show", "golden", cwd=tmp_path))
