"""Written Sopwith orders: read the form of 004 and write it back.

Players send their orders by post or e-mail in the form 004 prescribes::

    Pilot: Hissing Sid
    Turn 1: BETA airstrip
    Take off: BETA
    Move 1: A
    Move 2: LT - fire R
    Move 3: RS - fire L+R

:func:`parse_orders` reads one or more turns from such a text and :func:`format_orders`
writes one turn back in the canonical form. The parser is a small line parser: each line
is classified by its first words (``Turn``, ``Move``/``M1``/``1:``, ``Pilot:``/``Name:``/
``Flying as``, ``Land``/``Take off``/``I intend to land``, ``Airstrip:``) and the rest of
the line is split into tokens (words, numbers, single punctuation marks) that a
hand-written recursive-descent reader consumes. Matching is case-insensitive and spacing
is free; en and em dashes count as ``-``.

What is *not* an order line is noise (e-mail headers, ``>`` quoted replies, greetings,
signatures) and is skipped, but only outside a turn that still lacks moves: inside one,
any line must be an order line. A line that looks like an order and cannot be read is
never skipped nor guessed at: :class:`~dogfight.errors.OrdersError` says where (line and
column, 1-based) and what would have been valid there, so that the Games Master can send
it back to the player. The only defaults applied are 004's, and not here: an NMR, a bare
"FIRE" (``ambiguous_fire``) and a take-off without an airstrip are left to the resolver.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dogfight.errors import OrdersError
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders, Strip

__all__ = ["format_orders", "parse_orders"]

# --- what the messages say was expected ------------------------------------------------

MANOEUVRE = "a manoeuvre: A, LT, RT, LS, RS, 0 (or N) or I"
LINE_OF_FIRE = "a line of fire: L, R or A (several joined by +, e.g. 'fire L+R')"
AFTER_MANOEUVRE = (
    "'- fire' and lines of fire (e.g. '- fire L+R'), 'no fire', or the end of the line"
)
AFTER_FIRE = "another line of fire after +, or the end of the line"
STRIP = "an airstrip: ALPHA, BETA or GAMMA (or Left, Centre, Right)"
TURN = "a 'Turn N:' line (e.g. 'Turn 2:')"
NO_MOVE_RULE = (
    "004: \"0 or N = No Move (N.B. If this move used in 'Move 2' must also be used in 'Move 3')\""
)

# --- vocabulary ------------------------------------------------------------------------

_FLAGS = re.IGNORECASE | re.ASCII

_MANOEUVRE_WORDS: dict[tuple[str, ...], Manoeuvre] = {
    ("a",): Manoeuvre.AHEAD,
    ("ahead",): Manoeuvre.AHEAD,
    ("straight",): Manoeuvre.AHEAD,
    ("straight", "ahead"): Manoeuvre.AHEAD,
    ("lt",): Manoeuvre.LEFT_TURN,
    ("left", "turn"): Manoeuvre.LEFT_TURN,
    ("turn", "left"): Manoeuvre.LEFT_TURN,
    ("rt",): Manoeuvre.RIGHT_TURN,
    ("right", "turn"): Manoeuvre.RIGHT_TURN,
    ("turn", "right"): Manoeuvre.RIGHT_TURN,
    ("ls",): Manoeuvre.LEFT_SLIP,
    ("left", "slip"): Manoeuvre.LEFT_SLIP,
    ("slip", "left"): Manoeuvre.LEFT_SLIP,
    ("rs",): Manoeuvre.RIGHT_SLIP,
    ("right", "slip"): Manoeuvre.RIGHT_SLIP,
    ("slip", "right"): Manoeuvre.RIGHT_SLIP,
    ("0",): Manoeuvre.NO_MOVE,
    ("n",): Manoeuvre.NO_MOVE,
    ("no", "move"): Manoeuvre.NO_MOVE,
    ("none",): Manoeuvre.NO_MOVE,
    ("stand", "still"): Manoeuvre.NO_MOVE,
    ("i",): Manoeuvre.IMMELMANN,
    ("immelman",): Manoeuvre.IMMELMANN,
    ("immelmann",): Manoeuvre.IMMELMANN,
    ("immelman", "turn"): Manoeuvre.IMMELMANN,
    ("immelmann", "turn"): Manoeuvre.IMMELMANN,
}

_LINE_WORDS: dict[str, Line] = {
    "l": Line.LEFT,
    "left": Line.LEFT,
    "r": Line.RIGHT,
    "right": Line.RIGHT,
    "a": Line.AHEAD,
    "ahead": Line.AHEAD,
}

_FIRE_WORDS = frozenset({"fire", "fires", "firing", "shoot", "shoots", "shooting"})
_NO_FIRE_VALUES = frozenset({"0", "none", "nil", "nothing"})
# Between the manoeuvre and "fire": "A - fire A", "A, fire A", "A -*fire A" (GM's hit mark).
_BEFORE_FIRE = frozenset({"-", ",", ";", "/", ":", "*", "&", "and", "with", "then"})
_BETWEEN_LINES = frozenset({"+", ",", "&", "/", "and"})
_TRAILING = frozenset({".", ";", "!"})

_STRIP_WORDS: dict[str, Strip] = {
    "alpha": Strip.ALPHA,
    "left": Strip.ALPHA,
    "beta": Strip.BETA,
    "centre": Strip.BETA,
    "center": Strip.BETA,
    "middle": Strip.BETA,
    "gamma": Strip.GAMMA,
    "right": Strip.GAMMA,
}
# Words that may surround an airstrip or a declaration without changing its meaning.
_FILLERS = frozenset(
    {
        "on", "at", "from", "using", "use", "onto", "to", "the", "in", "via", "of",
        "airstrip", "strip", "air", "runway", "airfield", "field", "own", "my", "this",
        "turn", "orders", "i", "m", "am", "intend", "will", "wish", "want", "plan",
        "shall", "going", "please",
    }
)  # fmt: skip
_PHRASE_PUNCTUATION = frozenset(":()[],.-=!/;'\u2018\u2019\"\u201c\u201d")

# --- line classes ----------------------------------------------------------------------

_TURN_RE = re.compile(r"\s*turn(?![a-z])\s*(?:no\.?|number|\#)?\s*", _FLAGS)
_MOVE_RE = re.compile(
    r"\s*(?:move(?![a-z])|mv(?![a-z])|m(?=[\s.]*[0-9]))\s*\.?\s*(?:no\.?|\#)?\s*", _FLAGS
)
_BARE_MOVE_RE = re.compile(r"\s*(?=[0-9]{1,3}\s*(?::|\.(?![0-9])|\)|-\s))", _FLAGS)
_NUMBER_RE = re.compile(r"[0-9]+")
_AFTER_NUMBER_RE = re.compile(r"\s*(?:[:.)=\-]\s*)?")
_PILOT_START_RE = re.compile(
    r"\s*(?:pilot|name|call\s*sign|flying\s+(?:as|under))(?![a-z])", _FLAGS
)
_PILOT_RE = re.compile(
    r"\s*(?:(?:pilot(?:'?s)?(?:\s*name)?|name|call\s*sign)\s*(?:[:=\-]|\bis\b)"
    r"|flying\s+(?:as|under)(?:\s+the\s+name(?:\s+of)?)?\s*[:\-]?)\s*",
    _FLAGS,
)
_DECLARATION_RE = re.compile(
    r"\s*(?:i[\s'\u2019]*m\s+|i\s+am\s+|i\s+)?"
    r"(?:(?:intend|will|wish|want|plan|shall|am\s+going|going)\s+(?:to\s+)?)?"
    r"(?:land(?:s|ing)?|takeoff|take[\s\-]*off|takes[\s\-]*off|taking[\s\-]*off)(?![a-z])",
    _FLAGS,
)
_STRIP_LINE_RE = re.compile(
    r"\s*(?:(?:air\s*)?strip|runway|alpha|beta|gamma"
    r"|(?:left|right|centre|center|middle)\s+(?:air\s*)?strip)(?![a-z])",
    _FLAGS,
)
_SIGNATURE_RE = re.compile(r"--\s*")
_TOKEN_RE = re.compile(r"[A-Za-z]+|[0-9]+|\S")

_ErrorFactory = Callable[[int, str, str], OrdersError]
"""Makes an error at a column of the line being read: (column, found, expected)."""

_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212")


# --- tokens ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tok:
    """A word, a number or one punctuation mark, with its 1-based column."""

    text: str
    col: int

    @property
    def word(self) -> str:
        return self.text.lower()


def _normalise(line: str) -> str:
    """Same length as ``line`` (so columns still match): any space-like character becomes
    a space and typographic dashes become ``-``, as mail programs like to insert them."""
    return "".join(
        " " if (c.isspace() or c == "\ufeff") else "-" if c in _DASHES else c for c in line
    )


def _tokens(line: str, start: int) -> list[_Tok]:
    return [_Tok(m.group(), m.start() + 1) for m in _TOKEN_RE.finditer(line, start)]


# --- building a turn -------------------------------------------------------------------


@dataclass(slots=True)
class _Turn:
    """A turn being read (or, with ``number`` 0, declarations read before the first
    ``Turn`` line, which belong to the first turn)."""

    number: int
    line: int
    moves: list[MoveOrder] = field(default_factory=list)
    take_off: bool = False
    land: bool = False
    land_at: tuple[int, int, str] | None = None
    strip: Strip | None = None
    strip_line: int = 0
    last_line: int = 0
    last_len: int = 0

    @property
    def complete(self) -> bool:
        return len(self.moves) == 3


class _Parser:
    """One pass over the lines of a text; raises :class:`OrdersError` at the first line
    that cannot be read."""

    def __init__(self, text: str, player: str, source: str) -> None:
        self.lines = text.splitlines()
        self.player = player
        self.source = source
        self.turns: list[_Turn] = []
        self.current: _Turn | None = None
        self.pending = _Turn(number=0, line=0)
        self.pilot: str | None = None
        self.pilot_at = 0

    def error(self, line: int, col: int, found: str, expected: str) -> OrdersError:
        return OrdersError(self.source, line, col, found, expected)

    # -- driver -----------------------------------------------------------------------

    def run(self) -> list[Orders]:
        for index, raw in enumerate(self.lines):
            lineno = index + 1
            line = _normalise(raw)
            stripped = line.strip()
            if not stripped or stripped.startswith(">"):
                continue
            if _SIGNATURE_RE.fullmatch(stripped):
                break
            self.line(lineno, line)
        return self.finish()

    def line(self, lineno: int, line: str) -> None:
        if m := _TURN_RE.match(line):
            self.turn_line(lineno, line, m)
        elif (m := _MOVE_RE.match(line)) or (m := _BARE_MOVE_RE.match(line)):
            self.move_line(lineno, line, m)
        elif _PILOT_START_RE.match(line):
            self.pilot_line(lineno, line)
        elif _DECLARATION_RE.match(line) or _STRIP_LINE_RE.match(line):
            self.phrase(lineno, line, 0, self.current or self.pending, STRIP)
        elif self.current is not None and not self.current.complete:
            first = _tokens(line, 0)[0]
            n = len(self.current.moves) + 1
            raise self.error(
                lineno,
                first.col,
                line.strip(),
                f"'Move {n}:' and {MANOEUVRE} (Turn {self.current.number} needs three moves)",
            )
        else:
            return  # noise outside a turn: e-mail headers, greetings, signature
        if self.current is not None:
            self.current.last_line = lineno
            self.current.last_len = len(line.rstrip())

    def finish(self) -> list[Orders]:
        current = self.current
        if current is None:
            first = next((s.strip() for s in self.lines if s.strip()), "")
            raise self.error(1, 1, first, f"{TURN}; no turn was found in the orders")
        if not current.complete:
            raise self.missing_move(current, current.last_line, current.last_len + 1, "")
        self.check_landing(current)
        return [self.orders(turn) for turn in self.turns]

    def orders(self, turn: _Turn) -> Orders:
        m = turn.moves
        return Orders(
            player=self.player,
            turn=turn.number,
            moves=(m[0], m[1], m[2]),
            pilot=self.pilot,
            take_off=turn.take_off,
            land=turn.land,
            strip=turn.strip,
            source=self.source,
        )

    def missing_move(self, turn: _Turn, line: int, col: int, found: str) -> OrdersError:
        n = len(turn.moves) + 1
        have = len(turn.moves)
        return self.error(
            line,
            col,
            found,
            f"a 'Move {n}:' line (Turn {turn.number} on line {turn.line} has "
            f"{have} move{'' if have == 1 else 's'}; a turn has exactly three)",
        )

    def check_landing(self, turn: _Turn) -> None:
        """004: "On landing and taking off, players must state their intention to do so -
        and which air strip they intend to use". Only take-off has a default (BETA)."""
        if turn.land and turn.strip is None and turn.land_at is not None:
            line, col, found = turn.land_at
            raise self.error(
                line,
                col,
                found,
                "the airstrip to land on: ALPHA, BETA or GAMMA (or Left, Centre, Right); 004: "
                "players must state which air strip they intend to use, and only a take-off "
                "defaults to BETA",
            )

    # -- Turn N: ----------------------------------------------------------------------

    def turn_line(self, lineno: int, line: str, m: re.Match[str]) -> None:
        start = len(line) - len(line.lstrip())
        current = self.current
        if current is not None and not current.complete:
            head = line[start : m.end()] + (_NUMBER_RE.match(line, m.end()) or m).group()
            raise self.missing_move(current, lineno, start + 1, head.strip())
        number_match = _NUMBER_RE.match(line, m.end())
        if number_match is None:
            found = _tokens(line, m.end())
            raise self.error(
                lineno,
                m.end() + 1,
                found[0].text if found else "",
                "a turn number, e.g. 'Turn 2:'",
            )
        digits = number_match.group()
        number = int(digits) if len(digits) <= 6 else 0
        if number < 1:
            raise self.error(
                lineno, number_match.start() + 1, digits, "a turn number from 1 to 999999"
            )
        for turn in self.turns:
            if turn.number == number:
                raise self.error(
                    lineno,
                    number_match.start() + 1,
                    digits,
                    f"a turn not already given (Turn {number} is on line {turn.line})",
                )
        if current is not None:
            self.check_landing(current)
        turn = _Turn(number=number, line=lineno, last_line=lineno, last_len=len(line.rstrip()))
        if not self.turns:
            pending = self.pending
            turn.take_off, turn.land, turn.land_at = pending.take_off, pending.land, pending.land_at
            turn.strip, turn.strip_line = pending.strip, pending.strip_line
        self.turns.append(turn)
        self.current = turn
        rest = _AFTER_NUMBER_RE.match(line, number_match.end())
        assert rest is not None  # the pattern matches the empty string
        self.phrase(lineno, line, rest.end(), turn, f"{STRIP} or the end of the line")

    # -- airstrips and declarations ---------------------------------------------------

    def phrase(self, lineno: int, line: str, start: int, turn: _Turn, expected: str) -> None:
        """Read an airstrip and/or a take-off or landing declaration: ``BETA airstrip``,
        ``Take off: GAMMA``, ``Landing on Gamma airstrip``, ``I intend to land on BETA``,
        ``Taking off (BETA)``. Punctuation is ignored; any unknown word is an error."""
        words = [t for t in _tokens(line, start) if t.text not in _PHRASE_PUNCTUATION]
        declared = False
        strip_given = False
        i = 0
        while i < len(words):
            tok = words[i]
            w = tok.word
            if w in ("land", "lands", "landing"):
                declared = turn.land = True
                if turn.land_at is None:
                    turn.land_at = (lineno, tok.col, tok.text)
            elif w in ("takeoff", "takeoffs"):
                declared = turn.take_off = True
            elif w in ("take", "takes", "taking"):
                if i + 1 == len(words):
                    raise self.error(lineno, len(line.rstrip()) + 1, "", "'off'")
                if words[i + 1].word != "off":
                    raise self.error(lineno, words[i + 1].col, words[i + 1].text, "'off'")
                declared = turn.take_off = True
                i += 1
            elif w in _STRIP_WORDS:
                self.set_strip(turn, _STRIP_WORDS[w], lineno, tok)
                strip_given = True
            elif w not in _FILLERS:
                raise self.error(lineno, tok.col, tok.text, expected)
            i += 1
        if start == 0 and not declared and not strip_given:
            # An "Airstrip:" line with no airstrip on it.
            raise self.error(lineno, len(line.rstrip()) + 1, "", STRIP)

    def set_strip(self, turn: _Turn, strip: Strip, lineno: int, tok: _Tok) -> None:
        """004 allows one airstrip per take-off or landing: a second, different one is an
        error (a repeat of the same one is harmless)."""
        if turn.strip is not None and turn.strip != strip:
            raise self.error(
                lineno,
                tok.col,
                tok.text,
                f"{turn.strip.value}, the airstrip already given on line {turn.strip_line} "
                "(one airstrip per turn)",
            )
        if turn.strip is None:
            turn.strip, turn.strip_line = strip, lineno

    # -- Pilot: -----------------------------------------------------------------------

    def pilot_line(self, lineno: int, line: str) -> None:
        """``Pilot: Hissing Sid``, ``Name: ...``, ``Flying as ...``: one name for the whole
        text, applied to every turn in it."""
        m = _PILOT_RE.match(line)
        start_match = _PILOT_START_RE.match(line)
        assert start_match is not None
        if m is None:
            rest = _tokens(line, start_match.end())
            raise self.error(
                lineno,
                rest[0].col if rest else len(line.rstrip()) + 1,
                rest[0].text if rest else "",
                "':' and the pilot's name (e.g. 'Pilot: Hissing Sid')",
            )
        name = line[m.end() :].strip().strip("\"'\u2018\u2019\u201c\u201d").strip()
        if not name:
            raise self.error(lineno, len(line.rstrip()) + 1, "", "the pilot's name")
        if self.pilot is not None and self.pilot != name:
            raise self.error(
                lineno,
                m.end() + 1,
                name,
                f"{self.pilot!r}, the pilot name already given on line {self.pilot_at}",
            )
        self.pilot, self.pilot_at = name, lineno

    # -- Move N: ----------------------------------------------------------------------

    def move_line(self, lineno: int, line: str, m: re.Match[str]) -> None:
        start = len(line) - len(line.lstrip())
        number_match = _NUMBER_RE.match(line, m.end())
        if number_match is None:
            rest = _tokens(line, m.end())
            raise self.error(
                lineno, m.end() + 1, rest[0].text if rest else "", "a move number: 1, 2 or 3"
            )
        head = line[start : number_match.end()]
        current = self.current
        if current is None:
            raise self.error(lineno, start + 1, head, f"{TURN} before the moves")
        if current.complete:
            raise self.error(
                lineno,
                start + 1,
                head,
                f"{TURN} (Turn {current.number} on line {current.line} already has its "
                "three moves)",
            )
        want = len(current.moves) + 1
        digits = number_match.group()
        given = int(digits) if len(digits) <= 3 else 0
        if given != want:
            if not 1 <= given <= 3:
                why = "a turn has exactly three moves, numbered 1, 2, 3"
            elif given < want:
                why = f"Move {given} is already given on line {current.moves[given - 1].line}"
            else:
                why = f"Move {want} is missing; moves are numbered 1, 2, 3 in order"
            raise self.error(lineno, number_match.start() + 1, digits, f"'Move {want}:' ({why})")
        after = _AFTER_NUMBER_RE.match(line, number_match.end())
        assert after is not None  # the pattern matches the empty string
        move, first = self.move_body(lineno, line, after.end())
        if (
            want == 3
            and current.moves[1].manoeuvre is Manoeuvre.NO_MOVE
            and move.manoeuvre is not Manoeuvre.NO_MOVE
        ):
            raise self.error(
                lineno,
                first.col,
                first.text,
                f"0 (or N), as in Move 2 on line {current.moves[1].line}: {NO_MOVE_RULE}",
            )
        current.moves.append(move)

    def move_body(self, lineno: int, line: str, start: int) -> tuple[MoveOrder, _Tok]:
        """``A - fire L+R``, ``LT fire R``, ``0``, ``RS, no fire``, ``A - FIRE``, and the
        GM's report notation ``[A] -*fire A``. Returns the move and the manoeuvre's first
        token."""
        toks = _tokens(line, start)
        while toks and toks[-1].text in _TRAILING:
            toks.pop()
        end_col = (toks[-1].col + len(toks[-1].text)) if toks else len(line.rstrip()) + 1
        reader = _Reader(toks, end_col, lambda c, f, e: self.error(lineno, c, f, e))
        bracketed = reader.accept("[")
        manoeuvre, first = reader.manoeuvre()
        if bracketed:
            reader.expect("]", "']' closing the bracketed move")
        fire, ambiguous = reader.fire()
        return MoveOrder(manoeuvre, fire, ambiguous, lineno), first


class _Reader:
    """Recursive-descent reader over the tokens of one move."""

    def __init__(
        self,
        toks: Sequence[_Tok],
        end_col: int,
        error: _ErrorFactory,
    ) -> None:
        self.toks = toks
        self.i = 0
        self.end_col = end_col
        self.error = error

    def peek(self, ahead: int = 0) -> _Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, expected: str) -> OrdersError:
        tok = self.peek()
        if tok is None:
            return self.error(self.end_col, "", expected)
        return self.error(tok.col, tok.text, expected)

    def accept(self, text: str) -> bool:
        tok = self.peek()
        if tok is not None and tok.word == text:
            self.i += 1
            return True
        return False

    def expect(self, text: str, expected: str) -> None:
        if not self.accept(text):
            raise self.fail(expected)

    def manoeuvre(self) -> tuple[Manoeuvre, _Tok]:
        """The manoeuvre and its first token."""
        first = self.peek()
        if first is None:
            raise self.fail(MANOEUVRE)
        # Two-word forms first ("left turn", "no-move"), then one word.
        nxt = self.peek(1)
        second_at = 2 if nxt is not None and nxt.text == "-" else 1
        second = self.peek(second_at)
        if second is not None:
            found = _MANOEUVRE_WORDS.get((first.word, second.word))
            if found is not None:
                self.i += second_at + 1
                return found, first
        found = _MANOEUVRE_WORDS.get((first.word,))
        if found is None:
            hint = ""
            if first.word in ("left", "right", "l", "r"):
                hint = f" ('{first.text}' alone could be a turn or a slip)"
            raise self.fail(MANOEUVRE + hint)
        self.i += 1
        return found, first

    def fire(self) -> tuple[tuple[Line, ...], bool]:
        separated = False
        while (tok := self.peek()) is not None and tok.word in _BEFORE_FIRE:
            self.i += 1
            separated = True
        tok = self.peek()
        if tok is None:
            if separated:
                raise self.fail(AFTER_MANOEUVRE)
            return (), False
        nxt = self.peek(1)
        if tok.word in ("no", "hold") and nxt is not None and nxt.word in _FIRE_WORDS:
            self.i += 2
            self.end()
            return (), False
        if tok.word == "nofire":
            self.i += 1
            self.end()
            return (), False
        if tok.word not in _FIRE_WORDS:
            raise self.fail(AFTER_MANOEUVRE)
        self.i += 1
        while self.accept(":") or self.accept("="):
            pass
        tok = self.peek()
        if tok is None:
            return (), True  # 004: "All ambiguous firing orders (e.g. "A - FIRE") ..."
        if tok.word in _NO_FIRE_VALUES:
            self.i += 1
            self.end()
            return (), False
        lines: list[Line] = []
        while True:
            tok = self.peek()
            if tok is None or tok.word not in _LINE_WORDS:
                raise self.fail(LINE_OF_FIRE)
            lines.append(_LINE_WORDS[tok.word])
            self.i += 1
            tok = self.peek()
            if tok is None:
                return tuple(lines), False
            if tok.word in _BETWEEN_LINES:
                self.i += 1
            elif tok.word not in _LINE_WORDS:
                raise self.fail(AFTER_FIRE)

    def end(self) -> None:
        if self.peek() is not None:
            raise self.fail("the end of the line")


def parse_orders(text: str, player: str, source: str = "orders") -> list[Orders]:
    """Read the turns written in ``text`` (a file or a pasted e-mail) for ``player``.

    Returns one :class:`Orders` per ``Turn N:`` line, in the order written. Every turn must
    have exactly three moves numbered 1, 2, 3. A ``Pilot:`` name applies to every turn in
    the text; a take-off/landing declaration or an airstrip belongs to the turn whose
    ``Turn`` line precedes it (or, before any ``Turn`` line, to the first turn).

    Raises :class:`OrdersError` (and nothing else) at the first line that cannot be read,
    including a text with no ``Turn`` line at all.
    """
    return _Parser(text, player, source).run()


def format_orders(orders: Orders) -> str:
    """Write one turn's orders in 004's canonical form, which :func:`parse_orders` reads
    back to equal :class:`Orders` (apart from the ``line`` numbers of the moves)::

        Pilot: Hissing Sid
        Turn 2: BETA airstrip
        Land: BETA
        Move 1: A - fire A
        Move 2: LT - fire L+R
        Move 3: 0

    A move with both ``fire`` and ``ambiguous_fire`` (which the parser never makes) is
    written with its lines of fire. A pilot name should be on one line.
    """
    out: list[str] = []
    if orders.pilot:
        out.append(f"Pilot: {orders.pilot}")
    strip = orders.strip.value if orders.strip is not None else None
    out.append(f"Turn {orders.turn}:" + (f" {strip} airstrip" if strip else ""))
    if orders.take_off:
        out.append("Take off" + (f": {strip}" if strip else ""))
    if orders.land:
        out.append("Land" + (f": {strip}" if strip else ""))
    for number, move in enumerate(orders.moves, start=1):
        text = f"Move {number}: {move.manoeuvre.value}"
        if move.fire:
            text += " - fire " + "+".join(line.value for line in move.fire)
        elif move.ambiguous_fire:
            text += " - fire"
        out.append(text)
    return "\n".join(out) + "\n"
