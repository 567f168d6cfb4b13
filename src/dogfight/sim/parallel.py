"""Many bot games at once: local worker processes, or tasks on a Ray cluster.

Games are cut into chunks (many games per task); every game's seed is spawned from the
run's seed by its index, so the results are the same whatever the number of workers,
the chunk size or the backend. Ray is optional (``pip install 'dogfight[ray]'``).
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from dogfight.errors import DataError, DogfightError
from dogfight.sim.spec import RunSpec

__all__ = [
    "Player",
    "Progress",
    "RunSpec",
    "check_address",
    "chunks",
    "play_chunk",
    "run",
    "run_local",
    "run_ray",
]

Progress = Callable[[int], None]
"""Called with the number of games just finished."""

Player = Callable[[RunSpec, list[int]], list[dict[str, Any]]]
"""What plays a share of a run: games ``indices`` of the spec, results as plain dicts.
A top-level function (it is sent by reference to worker processes and Ray tasks):
:func:`play_chunk` (the referee's games) or the batched simulator's
``dogfight.batch.run.play_chunk``, chosen by the caller."""


def play_chunk(spec: RunSpec, indices: list[int]) -> list[dict[str, Any]]:
    """Play games ``indices`` of a run with the referee engine (in a worker); results as
    plain dicts."""
    from dogfight.catalog.loader import load_catalog
    from dogfight.sim.run import play_games
    from dogfight.situation.format import parse_situation

    catalog = load_catalog(spec.data)
    situation = parse_situation(spec.situation)
    games = play_games(
        situation, catalog, spec.bots, spec.seed, indices, spec.games, spec.max_turns, spec.vary
    )
    return [g.to_json() for g in games]


def _task(player: Player, spec: RunSpec, indices: list[int]) -> list[dict[str, Any]]:
    """``player(spec, indices)`` with its refusal as a plain :class:`DogfightError`: the
    error types with several constructor arguments do not cross processes."""
    try:
        return player(spec, indices)
    except DogfightError as exc:
        raise DogfightError(str(exc)) from None


def chunks(games: int, workers: int, per_task: int | None = None) -> list[list[int]]:
    """Game indices in tasks: about four tasks per worker unless ``per_task`` is given."""
    size = per_task or max(1, math.ceil(games / (max(1, workers) * 4)))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def run_local(
    spec: RunSpec,
    workers: int,
    progress: Progress | None = None,
    per_task: int | None = None,
    player: Player = play_chunk,
) -> list[dict[str, Any]]:
    """Play the run in this process (one worker) or in ``workers`` processes."""
    parts = chunks(spec.games, workers, per_task)
    out: list[dict[str, Any]] = []
    if workers <= 1:
        for part in parts:
            out.extend(_task(player, spec, part))
            if progress:
                progress(len(part))
        return sorted(out, key=lambda g: int(g["index"]))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(_task, player, spec, part): len(part) for part in parts}
        for future in as_completed(futures):
            out.extend(future.result())
            if progress:
                progress(futures[future])
    return sorted(out, key=lambda g: int(g["index"]))


def run_ray(
    spec: RunSpec,
    workers: int,
    address: str | None = None,
    progress: Progress | None = None,
    per_task: int | None = None,
    player: Player = play_chunk,
) -> list[dict[str, Any]]:
    """Play the run as Ray tasks, many games per task: on the cluster at ``address``, or
    on a local Ray started with ``workers`` CPUs (and shut down afterwards). The workers
    must be able to import dogfight (installed on every node). Games are split by
    ``workers`` as locally (about four tasks per worker); the results do not depend on
    it."""
    try:
        import ray
    except ImportError:
        raise DataError(
            "--engine", "engine", "ray", "Ray is not installed: pip install 'dogfight[ray]'"
        ) from None
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address is None:
            options["num_cpus"] = max(1, workers)
        else:
            check_address(address)
            options["address"] = address
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise DataError(
                "--address", "address", address, f"cannot start or reach Ray: {exc}"
            ) from None
        started = True
    try:
        task = ray.remote(_task)
        parts = chunks(spec.games, workers, per_task)
        pending = {task.remote(player, spec, part): len(part) for part in parts}
        out: list[dict[str, Any]] = []
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                out.extend(ray.get(ref))
                if progress:
                    progress(pending[ref])
        return sorted(out, key=lambda g: int(g["index"]))
    finally:
        if started:
            ray.shutdown()


def check_address(address: str) -> None:
    """Refuse at once a ``host:port`` nobody answers at (Ray itself keeps retrying for
    minutes); ``auto``, ``local`` and ``ray://`` addresses are left to Ray."""
    import socket

    host, _, port = address.rpartition(":")
    if address in ("auto", "local") or "://" in address or not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host, int(port)), timeout=5.0):
            pass
    except OSError as exc:
        raise DataError(
            "--address", "address", address, f"no Ray cluster answers there: {exc}"
        ) from None


def run(
    spec: RunSpec,
    workers: int = 1,
    engine: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    per_task: int | None = None,
    player: Player = play_chunk,
) -> list[dict[str, Any]]:
    """Play a run on the chosen backend (``local`` or ``ray``), each share by
    ``player``."""
    if engine == "local":
        if address is not None:
            raise DataError("--address", "address", address, "only with --engine ray")
        return run_local(spec, workers, progress, per_task, player)
    if engine == "ray":
        return run_ray(spec, workers, address, progress, per_task, player)
    raise DataError("--engine", "engine", engine, "local or ray")
