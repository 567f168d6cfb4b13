"""Sopwith's hex board and the manoeuvre table (004 MOVEMENT), for every facing.

Hexes are named by their map labels; the centre of a side-10 board is J10 and its six
neighbours are J9 (N), K9 (NE), K10 (SE), J11 (S), I10 (SW) and I9 (NW).
"""

from __future__ import annotations

import pytest

from dogfight.sopwith.board import Board, default_airfields
from dogfight.sopwith.game import fly
from dogfight.sopwith.hexes import (
    FACING_NAMES,
    Hex,
    board_hexes,
    distance,
    label,
    neighbour,
    on_board,
    parse_facing,
    parse_label,
)
from dogfight.sopwith.model import Manoeuvre, Strip

SIDE = 10


def at(text: str) -> Hex:
    return parse_label(text, SIDE)


def test_board_of_side_ten_has_271_hexes() -> None:
    """Issue 6: "a hexagonal board of hexes, 10 hexes a side by default (271 hexes, size
    configurable)": 3n(n-1)+1 hexes for side n."""
    assert len(board_hexes(10)) == 271
    for side in range(3, 14):
        assert len(board_hexes(side)) == 3 * side * (side - 1) + 1


def test_labels_name_every_hex_once_and_read_back() -> None:
    hexes = board_hexes(SIDE)
    labels = [label(h, SIDE) for h in hexes]
    assert len(set(labels)) == 271
    assert all(parse_label(t, SIDE) == h for t, h in zip(labels, hexes, strict=True))
    assert label(Hex(0, 0), SIDE) == "J10"
    assert parse_label(" j10 ", SIDE) == Hex(0, 0)


@pytest.mark.parametrize("text", ["Z1", "J20", "A1", "10J", "", "J"])
def test_labels_off_the_board_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_label(text, SIDE)


def test_neighbours_of_the_centre() -> None:
    """Planes "face a hex side": the six facings are the six neighbours, clockwise."""
    names = [label(neighbour(at("J10"), f), SIDE) for f in range(6)]
    assert names == ["J9", "K9", "K10", "J11", "I10", "I9"]
    assert [parse_facing(n) for n in FACING_NAMES] == list(range(6))


def test_distance_counts_hexes() -> None:
    assert distance(at("J10"), at("J10")) == 0
    for f in range(6):
        for k in range(1, 6):
            assert distance(at("J10"), neighbour(at("J10"), f, k)) == k
    assert distance(at("J1"), at("J19")) == 18


def test_on_board_edge() -> None:
    assert on_board(at("J1"), SIDE)
    assert not on_board(neighbour(at("J1"), 0), SIDE)


# The manoeuvre table: start J10, every facing, every manoeuvre -> (end hex, facing).
# 004: "In each case the plane finished facing in the direction shown by the arrow."
TABLE = {
    "N": {
        "A": ("J9", "N"),
        "LT": ("I9", "NW"),
        "RT": ("K9", "NE"),
        "LS": ("I9", "N"),
        "RS": ("K9", "N"),
        "0": ("J10", "N"),
        "I": ("J9", "S"),
    },
    "NE": {
        "A": ("K9", "NE"),
        "LT": ("J9", "N"),
        "RT": ("K10", "SE"),
        "LS": ("J9", "NE"),
        "RS": ("K10", "NE"),
        "0": ("J10", "NE"),
        "I": ("K9", "SW"),
    },
    "SE": {
        "A": ("K10", "SE"),
        "LT": ("K9", "NE"),
        "RT": ("J11", "S"),
        "LS": ("K9", "SE"),
        "RS": ("J11", "SE"),
        "0": ("J10", "SE"),
        "I": ("K10", "NW"),
    },
    "S": {
        "A": ("J11", "S"),
        "LT": ("K10", "SE"),
        "RT": ("I10", "SW"),
        "LS": ("K10", "S"),
        "RS": ("I10", "S"),
        "0": ("J10", "S"),
        "I": ("J11", "N"),
    },
    "SW": {
        "A": ("I10", "SW"),
        "LT": ("J11", "S"),
        "RT": ("I9", "NW"),
        "LS": ("J11", "SW"),
        "RS": ("I9", "SW"),
        "0": ("J10", "SW"),
        "I": ("I10", "NE"),
    },
    "NW": {
        "A": ("I9", "NW"),
        "LT": ("I10", "SW"),
        "RT": ("J9", "N"),
        "LS": ("I10", "NW"),
        "RS": ("J9", "NW"),
        "0": ("J10", "NW"),
        "I": ("I9", "SE"),
    },
}


@pytest.mark.parametrize(
    ("facing", "manoeuvre"),
    [(f, m) for f in TABLE for m in TABLE[f]],
)
def test_manoeuvre_table(facing: str, manoeuvre: str) -> None:
    """004: "A = Ahead; LT = Left Turn; LS = Left Slip; 0 or N = No Move; I = Immelman
    Turn". Turns change facing by 60 degrees and move one hex (into the hex they turn
    to); slips move to the front-left or front-right hex keeping the facing; I moves
    ahead and faces the opposite way (ruling S1)."""
    end, new_facing = fly(at("J10"), parse_facing(facing), Manoeuvre(manoeuvre))
    assert (label(end, SIDE), FACING_NAMES[new_facing]) == TABLE[facing][manoeuvre]


def test_manoeuvres_turn_with_the_board() -> None:
    """Every manoeuvre rotates with the plane: the table from any hex is the table from
    J10 shifted."""
    start = at("E8")
    for f in range(6):
        for m in Manoeuvre:
            end0, face0 = fly(at("J10"), f, m)
            end, face = fly(start, f, m)
            assert face == face0
            assert (end.q - start.q, end.r - start.r) == (end0.q, end0.r)


def test_airfields_in_the_six_corners_with_three_strips_of_two_hexes() -> None:
    """Board game: "In each corner is located an airfield, each having three runways,
    one running towards the center and one along each of the sides forming the corner";
    004: "from left to right, as ALPHA, BETA, GAMMA"."""
    board = Board(SIDE)
    assert sorted(board.airfields) == sorted(FACING_NAMES)
    south = board.airfield("S")
    assert label(south.corner, SIDE) == "J19"
    strips = {
        s.strip: ([label(h, SIDE) for h in s.hexes], FACING_NAMES[s.facing]) for s in south.strips
    }
    # seen by a plane taking off towards the centre (north): ALPHA left, GAMMA right
    assert strips == {
        Strip.ALPHA: (["I18", "H18"], "NW"),
        Strip.BETA: (["J18", "J17"], "N"),
        Strip.GAMMA: (["K18", "L18"], "NE"),
    }
    for field in board.airfields.values():
        beta = field.strip(Strip.BETA)
        assert distance(neighbour(beta.hexes[1], beta.facing, 7), Hex(0, 0)) == 0
        for strip in field.strips:
            assert all(board.on_board(h) for h in strip.hexes)
            assert strip.hexes[0] == neighbour(field.corner, strip.facing)
            assert strip.hexes[1] == neighbour(field.corner, strip.facing, 2)


def test_default_airfields_spread_the_planes() -> None:
    assert default_airfields(2) == ["S", "N"]
    assert default_airfields(4) == ["S", "N", "NE", "SW"]
    assert len(set(default_airfields(6))) == 6
    assert default_airfields(8)[6:] == ["S", "N"]
