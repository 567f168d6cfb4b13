"""docs/rulings.md is cited by its entries' ids ("docs/rulings.md W1" in the code, the
tests and the closing notes): each id names one entry only."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

RULINGS = Path(__file__).parent.parent / "docs" / "rulings.md"


def test_every_ruling_id_names_one_entry() -> None:
    ids = re.findall(r"^\*\*([A-Z]+[0-9]+[a-z]?)\.", RULINGS.read_text(encoding="utf-8"), re.M)
    assert len(ids) > 150
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    assert twice == []
