"""A planning bot's process keeps the top of its C heap between plans (bots/heap.py)."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

from dogfight.bots.heap import keep_heap_top

PROBE = """
import ctypes, sys
import numpy as np
if sys.argv[1] == "bot":
    from dogfight.bots.base import make
    from dogfight.bots import load_all
    load_all()
    make("hard")
class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost")]
mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = Info
arrays = [np.ones(12_000) for _ in range(60)]  # about 6 MB of 96 kB blocks, as a plan makes
del arrays
print(mallinfo2().keepcost)
"""


def _glibc() -> bool:
    try:
        ctypes.CDLL(None).mallinfo2  # noqa: B018
    except (OSError, AttributeError):
        return False
    return sys.platform.startswith("linux")


@pytest.mark.skipif(not _glibc(), reason="glibc's malloc only")
def test_a_process_with_a_planning_bot_keeps_its_heap_top_after_the_arrays_go() -> None:
    """Freed numpy temporaries stay at the top of the heap for the next plan (several MB
    kept), where a process without a planning bot gives them back to the system."""
    kept = {}
    for mode in ("bot", "plain"):
        done = subprocess.run(
            [sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True
        )
        kept[mode] = int(done.stdout.split()[-1])
    assert kept["bot"] >= 4 << 20
    assert kept["plain"] < 1 << 20
    assert keep_heap_top() is True
