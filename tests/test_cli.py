"""The command line: every command runs, bad input is one message and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"


def dogfight(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def assert_clean_refusal(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


def test_info_json_lists_catalog_and_constants() -> None:
    result = dogfight("info", "--json")
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["constants"]["ruler"] == {"length": 30.0, "half": 15.0}
    ids = {a["id"] for a in info["airplanes"]}
    for needed in (
        "nieuport-11",
        "nieuport-16",
        "nieuport-17",
        "spad-xiii",
        "sopwith-camel",
        "fokker-dr1",
        "albatros-d5a",
        "hanriot-hd1",
        "macchi-m5",
        "caproni-ca3",
        "breguet-14",
    ):
        assert needed in ids
    assert set(info["damage_decks"]) >= {"A", "B", "C", "D", "Z"}
    assert set(info["rulesets"]) == {"wog", "wow", "wow-basic", "ww2"}


def test_info_table() -> None:
    result = dogfight("info")
    assert result.returncode == 0 and "Airplanes" in result.stdout


def test_adjudicate_example(tmp_path: Path) -> None:
    out = tmp_path / "ruling.json"
    result = dogfight("adjudicate", str(EXAMPLES / "duel.json"), "--seed", "3", "-o", str(out))
    assert result.returncode == 0, result.stderr
    ruling = json.loads(out.read_text())
    assert ruling["events"][0]["kind"] == "turn_started"
    assert {v["id"] for v in ruling["state"]["vehicles"]} == {"camel", "albatros"}


def test_adjudicate_as_side_hides_enemy_damage() -> None:
    result = dogfight("adjudicate", str(EXAMPLES / "duel.json"), "--seed", "3", "--as", "allies")
    assert result.returncode == 0, result.stderr
    ruling = json.loads(result.stdout)
    enemy = next(v for v in ruling["state"]["vehicles"] if v["id"] == "albatros")
    assert "damage" not in enemy and "plan" not in enemy
    for event in ruling["events"]:
        if event["kind"] == "damage_drawn":
            assert event["vehicle"] == "camel"


def test_schema_situation() -> None:
    result = dogfight("schema", "situation")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert "vehicles" in schema["properties"]


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        ("{not json", ["not valid JSON"]),
        ('{"vehicles": []}', ["vehicles", "at least 1"]),
        (
            '{"vehicles": [{"id": "a", "type": "zeppelin", "side": "x",'
            ' "pose": {"x": 1, "y": 1}}]}',
            ["vehicles[0].type", "zeppelin", "known airplanes"],
        ),
        (
            '{"vehicles": [{"id": "a", "type": "spad-xiii", "side": "x", "pose": {"x": "far"}}]}',
            ["vehicles[0].pose"],
        ),
        (
            '{"vehicles": [{"id": "a", "type": "spad-xiii", "side": "x", "pose": {"x": 1, "y": 1},'
            ' "plans": [{"cards": ["1", "2", "99"]}]}]}',
            ["'99'", "valid ids: 1, 2"],
        ),
        (
            '{"ruleset": "chess", "vehicles": [{"id": "a", "type": "spad-xiii", "side": "x",'
            ' "pose": {"x": 1, "y": 1}}]}',
            ["ruleset", "chess", "wog"],
        ),
        (
            '{"switches": {"explosion": "fireworks"}, "vehicles": [{"id": "a", "type": "spad-xiii",'
            ' "side": "x", "pose": {"x": 1, "y": 1}}]}',
            ["switches.explosion", "fireworks"],
        ),
        (
            '{"damage_decks": {"A": ["nope"]}, "vehicles": [{"id": "a", "type": "spad-xiii",'
            ' "side": "x", "pose": {"x": 1, "y": 1}}]}',
            ["damage_decks.A[0]", "nope"],
        ),
    ],
)
def test_bad_situations_exit_2_with_one_message(
    tmp_path: Path, content: str, needles: list[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = tmp_path / "out.json"
    result = dogfight("adjudicate", str(path), "-o", str(out))
    assert_clean_refusal(result, str(path), *needles)
    assert not out.exists(), "no half-written output"
    assert len(result.stderr.strip().splitlines()) <= 3


def test_missing_situation_file(tmp_path: Path) -> None:
    assert_clean_refusal(dogfight("adjudicate", str(tmp_path / "none.json")), "cannot be read")


def test_bad_data_folder_exit_2(tmp_path: Path) -> None:
    (tmp_path / "maneuvers").mkdir()
    (tmp_path / "maneuvers" / "A.toml").write_text(
        'deck = "A"\ncard_length = 10\ncard_width = 8\nstraight = "1"\n'
        '[[card]]\nid = "1"\nsymbol = "loop"\nforward = 5\n'
    )
    result = dogfight("--data", str(tmp_path), "info")
    assert_clean_refusal(result, "A.toml", "card[0].symbol", "loop")


def test_user_data_folder_extends_catalog(tmp_path: Path) -> None:
    (tmp_path / "airplanes").mkdir()
    (tmp_path / "airplanes" / "mine.toml").write_text(
        '[[airplane]]\nid = "my-pup"\nname = "Sopwith Pup"\nmaneuver_deck = "B"\n'
        'firepower = ["B"]\ndamage = 11\n'
    )
    result = dogfight("--data", str(tmp_path), "info", "--json")
    assert result.returncode == 0, result.stderr
    assert "my-pup" in {a["id"] for a in json.loads(result.stdout)["airplanes"]}


def test_demo_runs_and_draws(tmp_path: Path) -> None:
    result = dogfight("demo", "--seed", "3", "-o", str(tmp_path / "final.svg"))
    assert result.returncode == 0, result.stderr
    assert "Turn 1" in result.stdout
    assert (tmp_path / "final.svg").read_text().startswith("<?xml") or (
        tmp_path / "final.svg"
    ).read_text().startswith("<svg")


def test_bench_quick_prints_json() -> None:
    result = dogfight("bench", "--quick")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)["figures"]
    assert {"phase_4_median_us", "phase_32_median_us", "games_per_second"} <= set(figures)
    assert "phase_2_tripods_4_airplanes_median_us" in figures


def test_play_vs_bot_in_the_terminal() -> None:
    """`dogfight play --vs BOT` plays the preset in the terminal; 'q' quits."""
    result = subprocess.run(
        [sys.executable, "-m", "dogfight", "play", "duel", "--vs", "hard"],
        input="1 2 3\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Turn 1, phase 1." in result.stdout


def test_terminal_play_names_cards_as_the_browser_does_and_draws_a_new_seed() -> None:
    """Issue 29 item 10: "cards listed as the browser names them ("sideslip left ·
    medium"); a random seed unless `--seed` is given; "valid ids" lists only ids that are
    valid"."""

    def play(*extra: str, answers: str = "q\n") -> str:
        result = subprocess.run(
            [sys.executable, "-m", "dogfight", "play", "duel", "--vs", "hard", *extra],
            input=answers,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    first = play()
    assert "2 straight · fast" in first and "bank left · " in first
    assert "sideslip" not in first or "sideslip left · " in first or "sideslip right · " in first
    seeds = {first.split("(seed ")[1].split(")")[0], play().split("(seed ")[1].split(")")[0]}
    assert len(seeds) == 2  # two games, two seeds
    assert "(seed 7)" in play("--seed", "7")
    wrong = play(answers="1 2 99\nq\n")
    listed = wrong.split("valid ids: ")[1].splitlines()[0].split(", ")
    from dogfight.catalog import load_catalog

    catalog = load_catalog()
    deck = catalog.maneuver_decks[catalog.airplanes["sopwith-camel"].maneuver_deck]
    altitude = [c.id for c in deck.cards if c.symbol.value in ("climb", "dive")]
    assert altitude and not set(altitude) & set(listed)  # the climbs and dives: not in play
    assert len(listed) == len(deck.cards) - len(altitude)


def test_play_vs_unknown_bot_exits_2() -> None:
    result = dogfight("play", "duel", "--vs", "genius")
    assert_clean_refusal(result, "genius", "known bots")


def test_play_vs_the_automated_tripod_seats_the_human_with_the_airplanes() -> None:
    """`play a-lonely-invader --vs automated-tripod`: the bot plays the tripod, the human
    the Earthling airplane; the turn starts with the map and the enemy's position."""
    result = subprocess.run(
        [sys.executable, "-m", "dogfight", "play", "a-lonely-invader", "--vs", "automated-tripod"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "You fly the earth side" in result.stdout
    assert "north" in result.stdout and "enemy locust" in result.stdout


def test_simulate_takes_the_duel_preset(tmp_path: Path) -> None:
    result = dogfight(
        "simulate", "duel", "--games", "2", "--workers", "1", "--out", str(tmp_path / "sim")
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sim" / "win_rates.png").exists()


@pytest.mark.parametrize(
    "args,option",
    [
        (["simulate", "duel", "--games", "2", "--out", "/proc/dogfight-x"], "--out"),
        (["adjudicate", str(EXAMPLES / "duel.json"), "-o", "/proc/dogfight-x/y.json"], "--output"),
        (["render", str(EXAMPLES / "duel.json"), "-o", "/proc/dogfight-x.svg"], "--output"),
        (["play", "duel", "--vs", "hrad"], "--vs"),
        (["play", "duel", "--computer", "allies=hrad", "--no-browser"], "--computer"),
        (["simulate", "duel", "--games", "2", "--bots", "hrad"], "--bots"),
    ],
)
def test_every_option_names_itself_in_its_error(
    tmp_path: Path, args: list[str], option: str
) -> None:
    """Issue 29 item 4: "`--out /proc/x` prints a traceback (exit 1); `--vs hrad` is blamed
    on `--bots` ... Every option names itself in its error." An output that cannot be
    written is refused before anything is computed, one line naming the option."""
    result = dogfight(*args, "--db", str(tmp_path / "g.db")) if "--computer" in args else None
    result = result or dogfight(*args, cwd=tmp_path)
    assert_clean_refusal(result, f"{option}:")
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_an_unknown_table_lists_the_ready_made_setups_too() -> None:
    """Issue 29 item 4: "`simulate dual` lists the scenarios without `duel`"."""
    result = dogfight("simulate", "dual", "--games", "2")
    assert_clean_refusal(result, "SCENARIO:", "'dual'", "duel,", "a-lonely-invader")
