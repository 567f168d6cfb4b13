"""The Sopwith benchmark behind ``dogfight bench`` (issue 6: "adjudicating a 20-plane turn
from order files to reports"; issue 13 tightens the target: "Sopwith 20-plane turn <= 50
ms"): it runs, and what it times is real."""

from __future__ import annotations

import numpy as np

from dogfight.bench.engine import TARGETS
from dogfight.bench.sopwith import melee, random_orders, turn_times
from dogfight.sopwith.orders import format_orders, parse_orders
from dogfight.sopwith.referee import files_of, play


def test_bench_times_a_turn() -> None:
    times = turn_times(1)
    assert len(times) == 1 and times[0] > 0
    assert TARGETS["sopwith_turn_20_planes_median_ms"] == 50.0


def test_bench_turn_is_a_full_twenty_plane_turn() -> None:
    rng = np.random.Generator(np.random.PCG64(0))
    state = melee(20, rng)
    assert sum(p.flying for p in state.planes) == 20
    orders = random_orders(state, rng)
    for o in orders:
        (back,) = parse_orders(format_orders(o), o.player, "bench")
        assert back.moves == tuple(
            type(m)(m.manoeuvre, m.fire, m.ambiguous_fire, back.moves[i].line)
            for i, m in enumerate(o.moves)
        )
    played = play("bench", 0, state, {o.player: o for o in orders})
    files = files_of("bench", played.issued)
    assert len(files) == 3 + 20
