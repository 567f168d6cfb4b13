"""``dogfight bench --server`` plays real games: its light clients (a keep-alive HTTP/1.1
connection per seat, a WebSocket per seat) against a real ``dogfight serve``, every
result measured, nothing refused, the CPU and memory of both sides reported. No timing
is asserted here: the figures are the benchmark's (``docs/web.md``)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from collections.abc import Callable

import pytest

from dogfight.bench.server import Seat, SocketDropped, _listen, _wait, repeated, run
from dogfight.bench.ws_client import WebSocket


def test_a_few_games_are_played_and_measured() -> None:
    report = run(games=3, turns=2, think=(0.0, 0.0))
    assert report["errors"] == 0, report["first_errors"]
    # every game plays its turns unless it ended first: at least one per game
    assert report["turns_measured"] >= 3
    assert report["latency_ms"]["p99"] >= report["latency_ms"]["p50"] > 0
    assert "last plan" in report["latency_ms"]["what"]
    assert report["cpu_s"]["servers"][0] > 0
    assert report["cpu_s"]["clients"] > 0
    per_turn = report["cpu_s"]["servers_ms_per_turn"]
    turns = report["turns_measured"]
    # the servers' CPU time (reported to 10 ms) spread over the turns measured
    assert abs(per_turn - 1000 * report["cpu_s"]["servers"][0] / turns) <= 10 / turns + 0.01
    # a burst makes every game first: its CPU time is split into the turns and the making
    played = report["cpu_s"]["servers_ms_per_turn_played"]
    made = report["cpu_s"]["servers_ms_per_game_made"]
    assert played is not None and made is not None and played >= 0 and made > 0
    whole = played * turns + made * 3
    assert abs(whole - 1000 * report["cpu_s"]["servers"][0]) <= 20
    memory = report["server_memory_mb"][0]["after"]
    assert memory["peak_rss_mb"] >= memory["rss_mb"] > 0
    assert report["targets"] == {"latency_p99_ms": 100.0, "errors": 0}


def test_the_floor_plays_the_same_protocol_with_no_game_behind_it() -> None:
    """``--floor``: the scripted seats play the canned server (every game every turn: the
    floor's games end only after its last turn), nothing refused, nothing lost."""
    report = run(games=3, turns=2, think=(0.0, 0.0), floor=True)
    assert report["errors"] == 0, report["first_errors"]
    assert report["turns_measured"] == 6
    assert report["scenario"]["floor"] is True
    assert report["scenario"]["database"].startswith("none")
    assert report["latency_ms"]["p99"] >= report["latency_ms"]["p50"] > 0


def test_the_floor_keeps_connections_as_long_as_the_server() -> None:
    from dogfight.bench import floor
    from dogfight.cli import web

    assert floor.KEEP_ALIVE == web.KEEP_ALIVE


def test_repeated_runs_are_judged_on_the_median_of_their_p99s() -> None:
    """The targets are this machine's medians (issue 13): with several runs each run's
    report is kept and the p99 target is judged on the median of the runs' p99s."""
    report = repeated(3, games=3, turns=2, think=(0.0, 0.0), floor=True)
    assert report["runs"] == 3
    assert [r["latency_ms"]["p99"] for r in report["each"]] == report["latency_p99_ms"]["each"]
    each = sorted(report["latency_p99_ms"]["each"])
    assert report["latency_p99_ms"]["median"] == round(each[1], 2)
    target = report["targets"]["latency_p99_ms"]
    assert report["meets_targets"]["latency_p99_ms"] == (each[1] <= target)
    assert report["errors"] == 0 and report["meets_targets"]["errors"] is True
    # the servers' CPU per turn played, each run's and their median (issue 31)
    cpu = [r["cpu_s"]["servers_ms_per_turn_played"] for r in report["each"]]
    assert report["servers_cpu_ms_per_turn_played"]["each"] == cpu
    assert report["servers_cpu_ms_per_turn_played"]["median"] == sorted(cpu)[1]
    assert repeated(1, games=3, turns=2, think=(0.0, 0.0), floor=True)["turns_measured"] == 6


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_callgrind_counts_the_instructions_between_a_zero_and_a_dump() -> None:
    """``--instructions``: a process under callgrind, its counters zeroed at one moment
    and read at another, counts what it ran in between: a million-step loop, several
    million instructions; waiting for its input, next to nothing."""
    from dogfight.bench.callgrind import Callgrind

    counter = Callgrind()
    script = (
        "import sys\nprint('ready', flush=True)\nsys.stdin.readline()\n"
        "sum(range(10**6))\nprint('done', flush=True)\nsys.stdin.readline()\n"
    )
    process = subprocess.Popen(
        counter.command([sys.executable, "-c", script]),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        assert process.stdout.readline() == b"ready\n"
        counter.zero(process.pid)
        idle = counter.dump(process.pid)
        process.stdin.write(b"go\n")
        process.stdin.flush()
        assert process.stdout.readline() == b"done\n"
        busy = counter.dump(process.pid)
        assert idle < 10**6 < 2 * 10**6 < busy
    finally:
        process.kill()
        process.wait()
        counter.close()


def test_the_memory_of_a_server_that_touched_every_stored_game_is_reported() -> None:
    """Issue 28, defect 3: the figure (a server that touched every stored game against
    one holding ``live`` games) is measured, nothing refused, its target beside it."""
    from dogfight.bench.live_memory import run as touched

    report = touched(stored=12, live=6, bound=3)
    assert report["refused"] == 0
    memory = report["server_memory_mb"]
    assert memory["after_touching_stored"]["rss_mb"] > 0
    assert report["targets"]["after_touching_rss_mb"] == memory["with_live_games"]["rss_mb"] > 0
    assert report["scenario"] == {"stored_games": 12, "live_games": 6, "bound": 3}
    assert set(report["meets_targets"]) == {"after_touching_rss_mb", "refused"}


class _Socket:
    """A seat's socket as the scripted seat reads it: the server's ``messages``, then
    closed by the server — or, ``quiet``, nothing more (a table between turns)."""

    def __init__(self, messages: list[str], quiet: bool = False) -> None:
        self.messages, self.quiet = messages, quiet

    async def send(self, text: str) -> None:
        return None

    async def recv(self) -> str | None:
        if self.messages:
            return self.messages.pop(0)
        if self.quiet:
            await asyncio.Event().wait()
        return None

    async def close_handshake(self) -> None:
        return None

    def close(self) -> None:
        return None


def _sockets(monkeypatch: pytest.MonkeyPatch, make: Callable[[], _Socket]) -> Seat:
    """Every seat's socket made by ``make``; a seat to listen with."""

    async def connect(url: str) -> _Socket:
        return make()

    monkeypatch.setattr(WebSocket, "connect", staticmethod(connect))
    return Seat("g", "allies", "t", "camel", "http://127.0.0.1:9", "http://127.0.0.1:9")


def test_a_socket_closed_before_the_games_end_is_an_error_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat whose WebSocket the server closes mid-game (a dropped socket, an error of
    the run) is told at once: before, the seat waited for a result that could not come,
    and the run found the drop only as a result missing after 60 s (issue 32, item 6)."""
    view = json.dumps({"type": "view", "stage": {"kind": "planning", "turn": 1}})
    seat = _sockets(monkeypatch, lambda: _Socket([view]))

    async def play() -> None:
        connected = asyncio.Event()
        listener = asyncio.create_task(_listen("ws://127.0.0.1:9/ws", seat, connected))
        await connected.wait()
        with pytest.raises(SocketDropped):
            # (the guard only ends the test if the drop is never told)
            await asyncio.wait_for(_wait(seat, 1), 30)
        await listener

    asyncio.run(play())


def test_a_seat_stopped_as_its_socket_opens_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's listener cancelled (its game stopped) at any point of its opening ends.
    With ``asyncio.wait_for`` around the opening, Python 3.11 swallowed a cancellation
    that came as the connection was made: the listener went on reading a quiet socket for
    ever, and ``dogfight bench --server --open`` never ended (issue 32, item 6)."""
    seat = _sockets(monkeypatch, lambda: _Socket([], quiet=True))

    async def stop_after(passes: int) -> bool:
        """Whether the listener, cancelled after ``passes`` passes of the loop, ended."""
        listener = asyncio.create_task(_listen("ws://127.0.0.1:9/ws", seat, asyncio.Event()))
        for _ in range(passes):
            await asyncio.sleep(0)
        listener.cancel()
        # (the guard only ends the test if the listener never stops)
        done, _ = await asyncio.wait([listener], timeout=5)
        listener.cancel()
        return bool(done)

    for passes in range(6):
        assert asyncio.run(stop_after(passes)), f"cancelled after {passes} passes: still running"
