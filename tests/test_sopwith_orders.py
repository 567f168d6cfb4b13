"""Sopwith written orders (004 "ORDERS"): the parser, its errors and the canonical writer.

Source: 004, the GM's house rules for Sopwith by post.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.errors import DogfightError, OrdersError
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders, Strip
from dogfight.sopwith.orders import format_orders, parse_orders

A, LT, RT, LS, RS, NO, IMM = (
    Manoeuvre.AHEAD,
    Manoeuvre.LEFT_TURN,
    Manoeuvre.RIGHT_TURN,
    Manoeuvre.LEFT_SLIP,
    Manoeuvre.RIGHT_SLIP,
    Manoeuvre.NO_MOVE,
    Manoeuvre.IMMELMANN,
)
L, R, AH = Line.LEFT, Line.RIGHT, Line.AHEAD


def one(text: str) -> Orders:
    """The single turn in ``text``."""
    orders = parse_orders(text, "Camel-1")
    assert len(orders) == 1
    return orders[0]


def fail(text: str) -> OrdersError:
    with pytest.raises(OrdersError) as info:
        parse_orders(text, "Camel-1")
    return info.value


def move(body: str, number: int = 1) -> MoveOrder:
    """Parse ``body`` as move ``number`` of an otherwise plain turn."""
    moves = ["A", "A", "A"]
    moves[number - 1] = body
    text = "Turn 5:\n" + "".join(f"Move {n}: {b}\n" for n, b in enumerate(moves, 1))
    return one(text).moves[number - 1]


def bare(o: Orders) -> Orders:
    """``o`` without the text positions (move line numbers)."""
    moves = tuple(dataclasses.replace(m, line=0) for m in o.moves)
    return dataclasses.replace(o, moves=(moves[0], moves[1], moves[2]))


# --- 004's own examples ----------------------------------------------------------------


def test_004_firing_example_verbatim() -> None:
    o = one("Turn 2:\nMove 1: A - fire A\nMove 2: LT - fire R\nMove 3: RS - fire L\n")
    assert o.turn == 2
    assert o.player == "Camel-1"
    assert o.source == "orders"
    assert o.moves == (
        MoveOrder(A, (AH,), False, 2),
        MoveOrder(LT, (R,), False, 3),
        MoveOrder(RS, (L,), False, 4),
    )
    assert (o.pilot, o.take_off, o.land, o.strip) == (None, False, False, None)


def test_004_airstrip_example() -> None:
    o = one("Turn 1: BETA airstrip\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert o.turn == 1
    assert o.strip is Strip.BETA
    assert [m.manoeuvre for m in o.moves] == [A, A, A]
    assert all(m.fire == () and not m.ambiguous_fire for m in o.moves)


def test_004_airstrip_template_verbatim_is_refused_where_it_offers_a_choice() -> None:
    # The template line offers three airstrips: a player must pick one.
    e = fail("Turn 1: ALPHA/BETA/GAMMA airstrip [or Left, Centre, Right]\nMove 1: A\n")
    assert (e.line, e.column, e.found) == (1, 15, "BETA")
    assert "ALPHA" in e.expected
    # ... and its "Move 3: ?" is not a manoeuvre.
    e = fail("Turn 1: BETA airstrip\nMove 1: A\nMove 2: A\nMove 3: ?\n")
    assert (e.line, e.column, e.found) == (4, 9, "?")
    assert e.expected.startswith("a manoeuvre: A, LT, RT, LS, RS, 0 (or N) or I")


def test_004_fire_all_in_one_move_and_gm_notation() -> None:
    assert move("A - fire L+R+A").fire == (L, R, AH)
    # 004: "An asterisk in front of your fire (i.e. A -*fire A) means you have made a hit"
    assert move("A -*fire A") == MoveOrder(A, (AH,), False, 2)
    # 004: "A bracketed 'Move' (i.e. [A] - fire 0) means you have been hit that move"
    assert move("[A] - fire 0") == MoveOrder(A, (), False, 2)


def test_004_ambiguous_fire_is_flagged_not_resolved() -> None:
    # 004: 'All ambiguous firing orders (e.g. "A - FIRE") will be centralised' - by the
    # resolver, which knows how many bursts are left.
    assert move("A - FIRE") == MoveOrder(A, (), True, 2)


# --- variants --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "manoeuvre", "fire", "ambiguous"),
    [
        ("A - fire A", A, (AH,), False),
        ("a - FIRE a", A, (AH,), False),
        ("A - fire L+R+A", A, (L, R, AH), False),
        ("A - fire A+A", A, (AH, AH), False),
        ("LT fire R", LT, (R,), False),
        ("ls, fire r+l", LS, (R, L), False),
        ("RS - fire L, R", RS, (L, R), False),
        ("RS - fire L & R", RS, (L, R), False),
        ("RS - fire L and R and A", RS, (L, R, AH), False),
        ("RS - fire L R", RS, (L, R), False),
        ("RS - fire: left + right", RS, (L, R), False),
        ("RS - fire ahead", RS, (AH,), False),
        ("RT", RT, (), False),
        ("RT.", RT, (), False),
        ("0", NO, (), False),
        ("N", NO, (), False),
        ("no move", NO, (), False),
        ("A - no fire", A, (), False),
        ("A - fire 0", A, (), False),
        ("A - fire none", A, (), False),
        ("A - FIRE", A, (), True),
        ("A - fire.", A, (), True),
        ("Ahead - fire A", A, (AH,), False),
        ("straight ahead", A, (), False),
        ("Left Turn - fire R", LT, (R,), False),
        ("turn right", RT, (), False),
        ("Left Slip", LS, (), False),
        ("Right Slip, fire L", RS, (L,), False),
        ("right-slip", RS, (), False),
        ("I", IMM, (), False),
        ("Immelman", IMM, (), False),
        ("Immelmann turn - fire A", IMM, (AH,), False),
        ("[LT] -*fire R", LT, (R,), False),
        ("A \u2013 fire A", A, (AH,), False),
        ("A\t-\tfire\tA", A, (AH,), False),
    ],
)
def test_move_variants(
    body: str, manoeuvre: Manoeuvre, fire: tuple[Line, ...], ambiguous: bool
) -> None:
    m = move(body)
    assert (m.manoeuvre, m.fire, m.ambiguous_fire) == (manoeuvre, fire, ambiguous)


@pytest.mark.parametrize(
    "prefixes",
    [
        ("Move 1:", "Move 2:", "Move 3:"),
        ("M1:", "M2:", "M3:"),
        ("1:", "2.", "3)"),
        ("Move 1 -", "Move 2 -", "Move 3 -"),
        ("move 1 :", "MOVE 2:", "  move3:"),
        ("Move1", "m 2", "Mv 3:"),
    ],
)
def test_move_number_variants(prefixes: tuple[str, str, str]) -> None:
    text = f"Turn 4\n{prefixes[0]} A\n{prefixes[1]} LT fire R\n{prefixes[2]} 0\n"
    o = one(text)
    assert [m.manoeuvre for m in o.moves] == [A, LT, NO]
    assert [m.line for m in o.moves] == [2, 3, 4]


def test_move_2_nought_with_move_3_nought() -> None:
    o = one("Turn 3\nMove 1: A\nMove 2 - 0\nMove 3: N\n")
    assert [m.manoeuvre for m in o.moves] == [A, NO, NO]


@pytest.mark.parametrize(
    ("turn_line", "strip"),
    [
        ("Turn 1: BETA airstrip", Strip.BETA),
        ("Turn 1: Beta", Strip.BETA),
        ("TURN 1 - gamma", Strip.GAMMA),
        ("Turn 1: Centre airstrip", Strip.BETA),
        ("Turn 1: Center", Strip.BETA),
        ("Turn 1: middle strip", Strip.BETA),
        ("Turn 1: Left", Strip.ALPHA),
        ("Turn 1: Right airstrip", Strip.GAMMA),
        ("Turn 1: ALPHA airstrip.", Strip.ALPHA),
        ("Turn 1:", None),
        ("turn1", None),
        ("Turn no. 1", None),
    ],
)
def test_turn_line_airstrip(turn_line: str, strip: Strip | None) -> None:
    o = one(f"{turn_line}\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert o.turn == 1
    assert o.strip is strip
    assert not o.take_off and not o.land


@pytest.mark.parametrize(
    ("line", "take_off", "land", "strip"),
    [
        ("Take off: GAMMA", True, False, Strip.GAMMA),
        ("Takeoff from Alpha airstrip", True, False, Strip.ALPHA),
        ("Take-off", True, False, None),
        ("Taking off (BETA)", True, False, Strip.BETA),
        ("Land: ALPHA", False, True, Strip.ALPHA),
        ("Landing on Gamma airstrip", False, True, Strip.GAMMA),
        ("I intend to land on BETA", False, True, Strip.BETA),
        ("I'm landing on the right airstrip", False, True, Strip.GAMMA),
        ("Airstrip: centre", False, False, Strip.BETA),
    ],
)
def test_declarations(line: str, take_off: bool, land: bool, strip: Strip | None) -> None:
    for text in (
        f"Turn 1:\n{line}\nMove 1: A\nMove 2: A\nMove 3: A\n",
        f"{line}\nTurn 1:\nMove 1: A\nMove 2: A\nMove 3: A\n",
        f"Turn 1:\nMove 1: A\nMove 2: A\nMove 3: A\n{line}\n",
    ):
        o = one(text)
        assert (o.take_off, o.land, o.strip) == (take_off, land, strip), text


def test_turn_line_airstrip_belongs_to_the_declaration() -> None:
    o = one("Turn 1: GAMMA airstrip\nTake off\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert (o.take_off, o.strip) == (True, Strip.GAMMA)
    o = one("Turn 7: Left\nLanding\nMove 1: A\nMove 2: A\nMove 3: 0\n")
    assert (o.land, o.strip) == (True, Strip.ALPHA)
    o = one("Turn 7: take off from beta\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert (o.take_off, o.strip) == (True, Strip.BETA)


def test_same_strip_twice_is_fine() -> None:
    o = one("Turn 1: BETA airstrip\nTake off: Centre\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert (o.take_off, o.strip) == (True, Strip.BETA)


@pytest.mark.parametrize(
    "line",
    ["Pilot: Hissing Sid", "pilot - Hissing Sid", "Name: Hissing Sid", "Flying as Hissing Sid",
     'Pilot name: "Hissing Sid"', "Pilot's name is Hissing Sid"],
)  # fmt: skip
def test_pilot_name(line: str) -> None:
    before = one(f"{line}\nTurn 1:\nMove 1: A\nMove 2: A\nMove 3: A\n")
    after = one(f"Turn 1:\n{line}\nMove 1: A\nMove 2: A\nMove 3: A\n")
    assert before.pilot == after.pilot == "Hissing Sid"


def test_email_noise_is_ignored_around_the_orders() -> None:
    text = """From: sid@example.org
To: gm@example.org
Subject: Re: Sopwith turn 2 orders
Date: Sat, 4 May 1991 10:00:00

Dear GM,

> Turn 1: BETA airstrip
> Move 1: A
Here are my orders, sorry they are late.

Pilot: Kraut Von Hinkle
Turn 2:
Move 1: A - fire A
Move 2: LT - fire R
Move 3: RS - fire L

Regards,
Sid
--
Name: Sidney Smith, 12 Acacia Avenue
Turn 4: who knows
"""
    o = one(text)
    assert o.turn == 2
    assert o.pilot == "Kraut Von Hinkle"
    assert [m.line for m in o.moves] == [14, 15, 16]


def test_several_turns_share_the_pilot() -> None:
    text = (
        "Pilot: Biggles\r\n"
        "Turn 3: Landing on BETA\r\nMove 1: A\r\nMove 2: A\r\nMove 3: 0\r\n\r\n"
        "Turn 4:\r\nMove 1: 0\r\nMove 2: 0\r\nMove 3: 0\r\n"
    )
    first, second = parse_orders(text, "Camel-1", source="sid.txt")
    assert (first.turn, first.land, first.strip, first.pilot) == (3, True, Strip.BETA, "Biggles")
    assert (second.turn, second.land, second.strip, second.pilot) == (4, False, None, "Biggles")
    assert first.source == second.source == "sid.txt"


# --- errors ----------------------------------------------------------------------------

T = "Turn 2:\n"
OK3 = "Move 1: A\nMove 2: A\nMove 3: A\n"


@pytest.mark.parametrize(
    ("text", "line", "column", "found", "expected"),
    [
        ("", 1, 1, "", "a 'Turn N:' line"),
        ("Dear GM,\nno orders this week\n", 1, 1, "Dear GM,", "a 'Turn N:' line"),
        ("Move 1: A\n", 1, 1, "Move 1", "a 'Turn N:' line (e.g. 'Turn 2:') before the moves"),
        ("Turn: 2\n" + OK3, 1, 5, ":", "a turn number"),
        ("Turn 0\n" + OK3, 1, 6, "0", "a turn number from 1"),
        ("Turn 2: soon\n" + OK3, 1, 9, "soon", "an airstrip"),
        (T + "Move 1: X\n", 2, 9, "X", "a manoeuvre: A, LT, RT, LS, RS, 0 (or N) or I"),
        (T + "Move 1:\n", 2, 8, "", "a manoeuvre"),
        (T + "Move 1: Left - fire R\n", 2, 9, "Left", "could be a turn or a slip"),
        (T + "Move 1: A A\n", 2, 11, "A", "'- fire' and lines of fire"),
        (T + "Move 1: A -\n", 2, 12, "", "'- fire' and lines of fire"),
        (T + "Move 1: A - fire X\n", 2, 18, "X", "a line of fire: L, R or A"),
        (T + "Move 1: A - fire LR\n", 2, 18, "LR", "a line of fire: L, R or A"),
        (T + "Move 1: A - fire L+\n", 2, 20, "", "a line of fire"),
        (T + "Move 1: A - fire L - R\n", 2, 20, "-", "another line of fire"),
        (T + "Move 1: A - fire 0 L\n", 2, 20, "L", "the end of the line"),
        (T + "Move 1: [A - fire A\n", 2, 12, "-", "']' closing"),
        (T + "Move 2: A\n", 2, 6, "2", "'Move 1:' (Move 1 is missing"),
        (T + "Move 1: A\nMove 1: A\n", 3, 6, "1", "'Move 2:' (Move 1 is already given on line 2)"),
        (T + "Move 1: A\nMove 2: A\nMove 4: A\n", 4, 6, "4", "exactly three moves"),
        (T + "Move 1: A\nMove 3: A\n", 3, 6, "3", "'Move 2:'"),
        (T + "Move 1: A\nMove 2: A\n", 3, 10, "", "a 'Move 3:' line (Turn 2 on line 1 has 2"),
        (T + "Move 1: A\n\nTurn 3:\n", 4, 1, "Turn 3", "a 'Move 2:' line"),
        (T + "Move 1: A\nplease\n", 3, 1, "please", "'Move 2:' and a manoeuvre"),
        (T + OK3 + "Move 4: A\n", 5, 1, "Move 4", "Turn 2 on line 1 already has its three moves"),
        (T + OK3 + "Turn 2:\n" + OK3, 5, 6, "2", "Turn 2 is on line 1"),
        (T + "Move 1: A\nMove 2: 0\nMove 3: A - fire L\n", 4, 9, "A", "0 (or N), as in Move 2"),
        ("Turn 2: BETA\nLand on GAMMA\n" + OK3, 2, 9, "GAMMA", "BETA, the airstrip already"),
        ("Land on BETA\nTurn 2: Right\n" + OK3, 2, 9, "Right", "BETA, the airstrip already"),
        ("Turn 2:\nLanding\n" + OK3, 2, 1, "Landing", "the airstrip to land on"),
        ("Turn 2:\nTake on BETA\n" + OK3, 2, 1, "Take on BETA", "'Move 1:'"),
        ("Turn 2:\nTake-off now\n" + OK3, 2, 10, "now", "an airstrip"),
        ("Turn 2:\nAirstrip:\n" + OK3, 2, 10, "", "an airstrip"),
        ("Pilot Sid\n" + T + OK3, 1, 7, "Sid", "':' and the pilot's name"),
        ("Pilot:\n" + T + OK3, 1, 7, "", "the pilot's name"),
        ("Pilot: Sid\n" + T + OK3 + "Name: Bob\n", 6, 7, "Bob", "'Sid', the pilot name"),
    ],
)
def test_errors(text: str, line: int, column: int, found: str, expected: str) -> None:
    e = fail(text)
    assert (e.line, e.column, e.found) == (line, column, found), str(e)
    assert expected in e.expected, str(e)
    assert str(e).startswith(f"orders:{line}:{column}: found {found!r}, expected ")
    assert isinstance(e, DogfightError)


def test_no_move_error_quotes_004() -> None:
    e = fail(T + "Move 1: A\nMove 2: N\nMove 3: LT\n")
    assert (e.line, e.column) == (4, 9)
    assert "If this move used in 'Move 2' must also be used in 'Move 3'" in e.expected
    assert "line 3" in e.expected


def test_error_names_the_source() -> None:
    with pytest.raises(OrdersError, match=r"^sid\.txt:2:9: "):
        parse_orders("Turn 1\nMove 1: Q\n", "Camel-1", source="sid.txt")


def test_quoted_order_lines_are_not_orders() -> None:
    # A quoted reply is skipped even inside a turn; an unquoted one is read.
    o = one(T + "Move 1: A\n> Move 2: LT\nMove 2: RT\nMove 3: A\n")
    assert [m.manoeuvre for m in o.moves] == [A, RT, A]


# --- the canonical writer --------------------------------------------------------------


def test_format_orders_canonical_form() -> None:
    o = Orders(
        player="Camel-1",
        turn=2,
        moves=(
            MoveOrder(A, (AH,)),
            MoveOrder(LT, (L, R)),
            MoveOrder(NO),
        ),
        pilot="Hissing Sid",
        land=True,
        strip=Strip.BETA,
    )
    assert format_orders(o) == (
        "Pilot: Hissing Sid\n"
        "Turn 2: BETA airstrip\n"
        "Land: BETA\n"
        "Move 1: A - fire A\n"
        "Move 2: LT - fire L+R\n"
        "Move 3: 0\n"
    )
    plain = Orders("Camel-1", 1, (MoveOrder(A), MoveOrder(RS, (), True), MoveOrder(IMM)))
    assert format_orders(plain) == "Turn 1:\nMove 1: A\nMove 2: RS - fire\nMove 3: I\n"
    take_off = Orders("Camel-1", 1, (MoveOrder(A), MoveOrder(A), MoveOrder(A)), take_off=True)
    assert format_orders(take_off) == "Turn 1:\nTake off\nMove 1: A\nMove 2: A\nMove 3: A\n"


# --- hypothesis: fuzzing ---------------------------------------------------------------

_MESSAGE = re.compile(r"^orders:(\d+):(\d+): found .*, expected .+", re.DOTALL)

_FRAGMENTS = [
    "Turn", "turn 2", "Move", "move 1", "M2", "3", "1:", "2.", ":", "-", " - ", "fire", "FIRE",
    "no fire", "A", "LT", "RT", "LS", "RS", "0", "N", "I", "L", "R", "+", ",", "&", "and",
    "left", "Right", "Slip", "turn", "Immelmann", "BETA", "alpha", "Centre", "airstrip",
    "Land", "Landing on", "Take off", "taking off", "I intend to", "Pilot:", "Name:",
    "Flying as", ">", "[", "]", "*", "(", ")", "?", "--", "4", "99999999999999999999", "\n",
    "\n", "\n", " ", "\t", "\r\n", "\u2028", "\u2013", "\u00a0", "\ufeff", "\u0130", "\u212a",
    "Regards", "From:",
]  # fmt: skip


def _check_error(text: str) -> None:
    try:
        parse_orders(text, "Camel-1")
    except OrdersError as e:
        m = _MESSAGE.match(str(e))
        assert m is not None, str(e)
        line, column = int(m.group(1)), int(m.group(2))
        assert (line, column) == (e.line, e.column)
        assert 1 <= line <= max(1, len(text.splitlines())), (str(e), text)
        assert column >= 1


@settings(deadline=None, max_examples=200)
@given(st.text())
def test_fuzz_arbitrary_text_only_orders_errors(text: str) -> None:
    _check_error(text)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=60).map(" ".join))
def test_fuzz_order_like_text_only_orders_errors(text: str) -> None:
    _check_error(text)


@settings(deadline=None, max_examples=200)
@given(
    st.lists(
        st.sampled_from(
            [
                "Turn 2:", "Turn 3: BETA", "Move 1: A", "Move 2: LT - fire R", "Move 2: 0",
                "Move 3: RS - fire L", "Move 3: N", "Move 3: A - FIRE", "Land: ALPHA",
                "Take off", "Pilot: Sid", "Name: Bob", "> Move 1: A", "Regards", "", "--",
                "Move 1: [A] -*fire 0", "Move 4: A", "Turn 2: GAMMA",
            ]
        ),
        max_size=14,
    ).map("\n".join)
)  # fmt: skip
def test_fuzz_shuffled_order_lines_only_orders_errors(text: str) -> None:
    _check_error(text)


# --- hypothesis: round trip ------------------------------------------------------------

_MANOEUVRE_SPELLINGS: dict[Manoeuvre, list[str]] = {
    A: ["A", "Ahead", "straight ahead"],
    LT: ["LT", "Left Turn", "turn left"],
    RT: ["RT", "Right Turn", "turn right"],
    LS: ["LS", "Left Slip", "slip left"],
    RS: ["RS", "Right Slip", "slip right"],
    NO: ["0", "N", "no move"],
    IMM: ["I", "Immelman", "Immelmann"],
}
_LINE_SPELLINGS: dict[Line, list[str]] = {L: ["L", "Left"], R: ["R", "Right"], AH: ["A", "Ahead"]}
_STRIP_SPELLINGS: dict[Strip, list[str]] = {
    Strip.ALPHA: ["ALPHA", "Alpha", "Left"],
    Strip.BETA: ["BETA", "Centre", "Center", "middle"],
    Strip.GAMMA: ["GAMMA", "gamma", "Right"],
}
_CASES: list[Callable[[str], str]] = [str, str.upper, str.lower, str.title]
_NAMES = ["Hissing Sid", "Kraut Von Hinkle", "Biggles", "Capt. W. E. Johns", "Baron von R"]


@st.composite
def move_orders(draw: st.DrawFn, manoeuvre: st.SearchStrategy[Manoeuvre]) -> MoveOrder:
    m = draw(manoeuvre)
    fire = tuple(draw(st.lists(st.sampled_from(list(Line)), max_size=4)))
    ambiguous = not fire and draw(st.booleans())
    return MoveOrder(m, fire, ambiguous)


@st.composite
def turn_orders(draw: st.DrawFn, number: int, pilot: str | None) -> Orders:
    any_manoeuvre = st.sampled_from(list(Manoeuvre))
    first = draw(move_orders(any_manoeuvre))
    second = draw(move_orders(any_manoeuvre))
    third = draw(move_orders(st.just(NO) if second.manoeuvre is NO else any_manoeuvre))
    take_off, land = draw(st.booleans()), draw(st.booleans())
    strip = (
        draw(st.sampled_from(list(Strip)))
        if land
        else draw(st.none() | st.sampled_from(list(Strip)))
    )
    moves = (first, second, third)
    return Orders("Camel-1", number, moves, pilot, take_off, land, strip, "orders")


@st.composite
def orders_lists(draw: st.DrawFn) -> list[Orders]:
    numbers = draw(st.lists(st.integers(1, 60), min_size=1, max_size=3, unique=True))
    pilot = draw(st.none() | st.sampled_from(_NAMES))
    return [draw(turn_orders(n, pilot)) for n in numbers]


def _write_move(data: st.DataObject, number: int, m: MoveOrder) -> str:
    draw = data.draw
    case = draw(st.sampled_from(_CASES))
    sp = draw(st.sampled_from(["", " ", "  ", "\t"]))
    prefix = draw(
        st.sampled_from([f"Move {number}:", f"M{number}:", f"{number}:", f"Move {number} -",
                         f"move {number} :", f"MOVE{number} ", f"{number})"])
    )  # fmt: skip
    body = case(draw(st.sampled_from(_MANOEUVRE_SPELLINGS[m.manoeuvre])))
    if draw(st.booleans()) and m.fire == () and not m.ambiguous_fire:
        body = f"[{body}]"
    if m.fire:
        sep = draw(st.sampled_from([" - ", " -*", ", ", " ", " and "]))
        joins = [
            draw(st.sampled_from(["+", " + ", ",", ", ", " & ", " and ", " "])) for _ in m.fire
        ]
        lines = [case(draw(st.sampled_from(_LINE_SPELLINGS[f]))) for f in m.fire]
        body += sep + case("fire") + " " + lines[0]
        body += "".join(j + x for j, x in zip(joins[1:], lines[1:], strict=True))
    elif m.ambiguous_fire:
        body += draw(st.sampled_from([" - FIRE", " - fire", ", fire.", " fire"]))
    else:
        body += draw(st.sampled_from(["", " - no fire", " - fire 0", " - fire none", "."]))
    return f"{sp}{prefix}{sp}{body}{sp}"


_TAKE_OFF = ["Take off:", "Takeoff from", "Taking off"]
_LAND = ["Land:", "Landing on", "I intend to land on"]


def _write_turn(data: st.DataObject, o: Orders, with_pilot: bool) -> list[str]:
    """``o`` as a player might write it: random spellings, case, spacing and layout."""
    draw = data.draw
    case = draw(st.sampled_from(_CASES))
    out: list[str] = []
    pilot_line = ""
    if with_pilot and o.pilot is not None:
        pilot_line = draw(st.sampled_from(["Pilot: ", "Name: ", "Flying as ", "pilot - "]))
        pilot_line += o.pilot
    if pilot_line and draw(st.booleans()):
        out.append(pilot_line)
        pilot_line = ""
    strip = case(draw(st.sampled_from(_STRIP_SPELLINGS[o.strip]))) if o.strip else None
    strip_on_turn = strip is not None and draw(st.booleans())
    turn = case("Turn") + draw(st.sampled_from([" ", "  ", ""])) + str(o.turn)
    turn += draw(st.sampled_from([":", "", " -", "."]))
    if strip_on_turn:
        turn += f" {strip}" + draw(st.sampled_from(["", " airstrip", " strip"]))
    out.append(turn)
    where = "" if strip_on_turn or strip is None else f" {strip}"
    declarations: list[str] = []
    if o.take_off:
        declarations.append(case(draw(st.sampled_from(_TAKE_OFF))) + where)
    if o.land:
        declarations.append(case(draw(st.sampled_from(_LAND))) + where)
    if strip is not None and not strip_on_turn and not declarations:
        declarations.append(f"Airstrip: {strip}")
    moves = [_write_move(data, n, m) for n, m in enumerate(o.moves, 1)]
    position = draw(st.sampled_from(["before", "after"]))
    body = declarations + moves if position == "before" else moves + declarations
    if pilot_line:
        body.insert(draw(st.integers(0, len(body))), pilot_line)
    return out + [x for line in body for x in (line, *([""] if draw(st.booleans()) else []))]


@settings(deadline=None, max_examples=200)
@given(orders_lists(), st.data())
def test_round_trip_through_player_variants(orders: list[Orders], data: st.DataObject) -> None:
    lines: list[str] = []
    if data.draw(st.booleans()):
        lines += ["From: sid@example.org", "Subject: orders", "", "> Move 1: Q", "Dear GM,", ""]
    for index, o in enumerate(orders):
        lines += _write_turn(data, o, with_pilot=index == 0)
    if data.draw(st.booleans()):
        lines += ["", "Regards,", "Sid"]
    text = data.draw(st.sampled_from(["\n", "\r\n"])).join(lines)
    parsed = parse_orders(text, "Camel-1")
    assert [bare(p) for p in parsed] == orders, text


@settings(deadline=None, max_examples=200)
@given(orders_lists())
def test_round_trip_through_format_orders(orders: list[Orders]) -> None:
    for o in orders:
        text = format_orders(o)
        (parsed,) = parse_orders(text, "Camel-1")
        assert bare(parsed) == o, text
