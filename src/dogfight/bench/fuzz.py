"""``dogfight bench --fuzz N``: N hostile inputs against every way in, counting what
must never happen.

In one process, without a network: the web application is driven through httpx's ASGI
transport (every HTTP endpoint, with mutated bodies, ids, query strings and raw bytes)
and its WebSocket through a scripted ASGI conversation; situations go through
``adjudicate`` as the command line does, written orders through the *Sopwith* parser.
Each case starts from a valid input and breaks it the way an attacker would: a value
replaced by NaN, an infinity, a huge number, a long or strange string, a wrong type, a
list made shorter or longer, a key dropped or added, deep nesting.

It counts *tracebacks* (an exception out of the application or an input function that
is not the typed refusal), *5xx* answers and *invalid JSON* (a body, or an
``adjudicate`` result, that a strict parser refuses: NaN, Infinity). The target of each
is 0. The generator is numpy's, seeded: a run is repeatable.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import tempfile
import time
import traceback
import urllib.parse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.errors import DogfightError

Json = dict[str, Any]
Rng = np.random.Generator

DEEP = 3000
HOSTILE: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    3,
    2**31,
    2**64,
    -(2**63) - 1,
    1.5,
    -0.0,
    1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    "auto",
    "none",
    "1",
    "x" * 5000,
    "\u0000\ud7ff\u202e",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    [],
    {},
    [[[]]],
    [0],
    [0, 0],
    [0, 0, 0, 0],
    {"__proto__": {}},
]


def _strict(text: str) -> Any:
    """Parse JSON as a browser does: NaN and Infinity are not JSON."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _deep(depth: int) -> Any:
    out: Any = []
    for _ in range(depth):
        out = [out]
    return out


def hostile(rng: Rng) -> Any:
    """One value an attacker might put anywhere."""
    roll = rng.random()
    if roll < 0.05:
        return _deep(int(rng.integers(50, 900)))
    if roll < 0.15:
        return float(rng.choice([-1, 1]) * 10 ** rng.uniform(-5, 12))
    if roll < 0.2:
        return int(rng.integers(-(2**40), 2**40))
    # a copy: a shared list or dict mutated later would change the table (and could come
    # to contain itself)
    return copy.deepcopy(HOSTILE[int(rng.integers(len(HOSTILE)))])


def _copied(value: Any) -> Any:
    """A copy of ``value``; a nesting too deep to copy is replaced by ``[]``."""
    try:
        return copy.deepcopy(value)
    except RecursionError:
        return []


PATH_DEPTH = 64
"""Mutations reach this deep at most (a deep hostile nesting is not walked further)."""


def _paths(value: Any) -> list[tuple[Any, ...]]:
    """Every place in ``value`` (the root is ``()``), in document order, down to
    :data:`PATH_DEPTH`; iterative, so a deep nesting cannot exhaust the stack."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while stack:
        prefix, item = stack.pop()
        out.append(prefix)
        if len(prefix) >= PATH_DEPTH:
            continue
        if isinstance(item, dict):
            children = [((*prefix, k), v) for k, v in item.items()]
        elif isinstance(item, list):
            children = [((*prefix, i), v) for i, v in enumerate(item)]
        else:
            continue
        stack.extend(reversed(children))
    return out


def mutate(value: Any, rng: Rng, times: int | None = None) -> Any:
    """``value`` (JSON) with one to three random breakages."""
    value = json.loads(json.dumps(value))
    for _ in range(times or int(rng.integers(1, 4))):
        paths = _paths(value)
        path = paths[int(rng.integers(len(paths)))]
        if not path:
            if rng.random() < 0.3:
                return hostile(rng)
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        action = rng.random()
        if action < 0.55:
            parent[last] = hostile(rng)
        elif action < 0.7:
            del parent[last]
        elif action < 0.8 and isinstance(parent, dict):
            parent[str(hostile(rng))[:30] or "extra"] = hostile(rng)
        elif isinstance(parent[last], list):
            items = parent[last]
            if items and rng.random() < 0.5:
                items.pop(int(rng.integers(len(items))))
            else:
                items.append(_copied(items[0]) if items else hostile(rng))
        else:
            parent[last] = [parent[last]] if rng.random() < 0.5 else {"v": parent[last]}
    return value


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, allow_nan=True)
    except (ValueError, RecursionError):
        return "[" * DEEP


class Tally:
    """What the run met, with the first few examples of each kind of failure."""

    def __init__(self) -> None:
        self.cases = 0
        self.statuses: Counter[int] = Counter()
        self.failures: Counter[str] = Counter()
        self.examples: list[Json] = []

    def fail(self, kind: str, where: str, detail: str) -> None:
        self.failures[kind] += 1
        if len(self.examples) < 20:
            self.examples.append({"kind": kind, "where": where, "detail": detail[-1500:]})

    def check_response(self, where: str, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.fail("5xx", where, response.text[:500])
        if "traceback" in response.text.lower():
            self.fail("traceback", where, response.text[:500])
        if response.headers.get("content-type", "").startswith("application/json"):
            try:
                _strict(response.text)
            except (ValueError, RecursionError) as exc:
                self.fail("invalid_json", where, f"{exc}: {response.text[:300]}")


class Games:
    """A few live games to send plans, answers and settings to."""

    def __init__(self) -> None:
        self.games: list[Json] = []


def _plan(rng: Rng, cards: list[str]) -> Json:
    picked = [str(c) for c in rng.choice(cards, size=3, replace=False)]
    fire = [str(rng.choice(["auto", "none", "auto"])) for _ in range(3)]
    return {"cards": picked, "fire": fire}


def _situation(rng: Rng) -> Json:
    """A valid airplane situation of two to four airplanes, with plans."""
    kinds = ["sopwith-camel", "albatros-d5a", "spad-xiii", "fokker-dr1"]
    count = int(rng.integers(2, 5))
    vehicles = []
    for i in range(count):
        vehicles.append(
            {
                "id": f"v{i}",
                "type": kinds[i % len(kinds)],
                "side": "allies" if i % 2 == 0 else "central",
                "pose": {
                    "x": float(rng.uniform(20, 70)),
                    "y": 15.0 if i % 2 == 0 else 75.0,
                    "heading": 90.0 if i % 2 == 0 else 270.0,
                },
                "plans": [{"cards": ["1", "2", "3"]}, {"cards": ["2", "3", "1"]}],
            }
        )
    return {"ruleset": str(rng.choice(["wog", "wow", "wow-basic"])), "vehicles": vehicles}


async def _http_case(
    client: httpx.AsyncClient, rng: Rng, tally: Tally, games: Games, cards: list[str]
) -> None:
    roll = rng.random()
    if not games.games or roll < 0.25:
        body: Any = {"situation": {k: v for k, v in _situation(rng).items()}}
        for v in body["situation"]["vehicles"]:
            v.pop("plans")
        if rng.random() < 0.3:
            body = {"preset": str(rng.choice(["duel", "a-spark-of-hope", "nope"]))}
        valid = rng.random() < 0.3 or not games.games
        sent = body if valid else mutate(body, rng)
        response = await client.post(
            "/api/games", content=_dumps(sent), headers={"content-type": "application/json"}
        )
        tally.check_response("POST /api/games", response)
        if response.status_code == 201 and valid:
            games.games.append(response.json())
            if len(games.games) > 12:
                games.games.pop(0)
        return
    made = games.games[int(rng.integers(len(games.games)))]
    game = made["game"]["id"]
    seat = made["seats"][int(rng.integers(len(made["seats"])))]
    auth = {"X-Seat-Token": seat["token"], "content-type": "application/json"}
    base = f"/api/games/{game}/seats/{seat['id']}"
    view = await client.get(f"/api/games/{game}")
    tally.check_response("GET game", view)
    turn = view.json().get("turn", 1) if view.status_code == 200 else 1
    vids = seat["vehicles"]
    what = rng.random()
    if what < 0.35:
        body = {"turn": turn, "plans": {v: _plan(rng, cards) for v in vids}}
        sent = body if rng.random() < 0.4 else mutate(body, rng)
        url = f"{base}/plans"
    elif what < 0.5:
        body = {"plans": {v: {"cards": [str(c) for c in rng.choice(cards, size=2)]} for v in vids}}
        sent = mutate(body, rng) if rng.random() < 0.7 else body
        url = f"{base}/check"
    elif what < 0.62:
        body = {"turn": turn, "phase": 1, "fire": {v: {"front": "auto"} for v in vids}}
        sent = mutate(body, rng)
        url = f"{base}/targets"
    elif what < 0.7:
        sent = mutate({"auto_fire": True}, rng)
        url = f"{base}/settings"
    elif what < 0.75:
        sent = mutate({"bot": "random"}, rng)
        url = f"{base}/computer"
    elif what < 0.9:
        odd = [
            "",
            "?since=-1",
            "?since=1e400",
            "?since=abc",
            "?since=99999999999999999999",
            "/replay",
        ]
        path = base + odd[int(rng.integers(len(odd)))]
        if rng.random() < 0.3:
            odd_id = urllib.parse.quote(str(hostile(rng))[:60], safe="")
            path = f"/api/games/{odd_id}/seats/{seat['id']}"
        response = await client.get(path, headers=auth)
        tally.check_response("GET seat", response)
        return
    else:
        raw = [
            b"{",
            b"[" * 100_000,
            b'{"turn": NaN, "plans": {}}',
            b'{"turn": 1e400, "plans": {}}',
            b"\xff\xfe\x00",
            b'{"plans": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        ]
        content = raw[int(rng.integers(len(raw)))]
        response = await client.post(f"{base}/plans", content=content, headers=auth)
        tally.check_response("POST raw", response)
        return
    response = await client.post(url, content=_dumps(sent), headers=auth)
    tally.check_response(f"POST {url.rsplit('/', 1)[-1]}", response)


async def _ws_case(app: Any, rng: Rng, tally: Tally, games: Games) -> None:
    """One WebSocket conversation: a (broken) hello, maybe a second message."""
    if not games.games:
        return
    made = games.games[int(rng.integers(len(games.games)))]
    seat = made["seats"][0]
    hello: Any = {"seat": seat["id"], "token": seat["token"], "since": 0}
    incoming: list[Json] = [{"type": "websocket.connect"}]
    if rng.random() < 0.2:
        incoming.append({"type": "websocket.receive", "bytes": b"\x00\xff"})
    else:
        incoming.append({"type": "websocket.receive", "text": _dumps(mutate(hello, rng))})
    if rng.random() < 0.5:
        incoming.append({"type": "websocket.receive", "text": str(rng.choice(["ping", "{}", ""]))})
    incoming.append({"type": "websocket.disconnect", "code": 1000})
    sent: list[Json] = []

    async def receive() -> Json:
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: Json) -> None:
        sent.append(message)

    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "scheme": "ws",
        "path": f"/api/games/{made['game']['id']}/ws",
        "raw_path": b"",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "subprotocols": [],
        "state": {},
    }
    try:
        await asyncio.wait_for(app(scope, receive, send), 10)
    except Exception:
        tally.fail("traceback", "websocket", traceback.format_exc())
        return
    for message in sent:
        text = message.get("text")
        if text is not None:
            try:
                _strict(text)
            except ValueError as exc:
                tally.fail("invalid_json", "websocket", f"{exc}: {text[:200]}")


def _offline_case(catalog: Catalog, rng: Rng, tally: Tally) -> None:
    """A situation through adjudicate (the command line's path), or Sopwith orders."""
    from dogfight.rules.events import as_dicts
    from dogfight.rules.observation import observe
    from dogfight.situation.format import loads_situation
    from dogfight.situation.ruling import adjudicate

    if rng.random() < 0.75:
        situation = _situation(rng)
        if rng.random() < 0.85:
            situation = mutate(situation, rng)
        try:
            parsed = loads_situation(_dumps(situation), "fuzz")  # as adjudicate reads a file
            state, events = adjudicate(parsed, catalog, int(rng.integers(1000)), None, "fuzz")
            text = json.dumps({"events": as_dicts(events), "state": observe(state, None)})
            _strict(text)
        except DogfightError:
            pass
        except ValueError as exc:
            if "is not JSON" in str(exc):
                tally.fail("invalid_json", "adjudicate", str(exc))
            else:
                tally.fail("traceback", "adjudicate", traceback.format_exc())
        except Exception:
            tally.fail("traceback", "adjudicate", traceback.format_exc())
        return
    from dogfight.sopwith.orders import parse_orders

    words = ["T1", "turn", "move", "climb", "dive", "fire", "at", "A1", "B2", "3", "-", ";"]
    text = " ".join(str(rng.choice(words)) for _ in range(int(rng.integers(0, 30))))
    if rng.random() < 0.3:
        text += str(hostile(rng))
    try:
        parse_orders(text, "fuzz")
    except DogfightError:
        pass
    except Exception:
        tally.fail("traceback", "sopwith orders", traceback.format_exc())


def run(
    catalog: Catalog, cases: int, seed: int = 0, progress: Callable[[int], None] | None = None
) -> Json:
    """Run ``cases`` hostile cases; the tally as JSON (targets: 0 of each failure)."""
    from dogfight.server.web.app import create_app
    from dogfight.server.web.limits import Limits

    rng = np.random.default_rng(seed)
    tally = Tally()
    start = time.perf_counter()
    deck = catalog.maneuver_decks[catalog.airplanes["sopwith-camel"].maneuver_deck]
    cards = [c.id for c in deck.cards if c.symbol.value not in ("climb", "dive")]
    folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        limits = Limits(games_per_minute=0, allowed_hosts=("testserver",))
        app = create_app(f"sqlite:///{tmp}/fuzz.sqlite", catalog, limits)

        async def main() -> None:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=True)
            games = Games()
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                for i in range(cases):
                    tally.cases += 1
                    roll = rng.random()
                    try:
                        if roll < 0.7:
                            await _http_case(c, rng, tally, games, cards)
                        elif roll < 0.8:
                            await _ws_case(app, rng, tally, games)
                        else:
                            _offline_case(catalog, rng, tally)
                    except Exception:
                        tally.fail("traceback", "request", traceback.format_exc())
                    if progress is not None and (i + 1) % 1000 == 0:
                        progress(i + 1)

        asyncio.run(main())
        with contextlib.suppress(Exception):
            app.state.store.close()
    seconds = time.perf_counter() - start
    return {
        "cases": tally.cases,
        "seconds": round(seconds, 1),
        "cases_per_second": round(tally.cases / seconds, 1) if seconds else None,
        "tracebacks": tally.failures["traceback"],
        "5xx": tally.failures["5xx"],
        "invalid_json": tally.failures["invalid_json"],
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "examples": tally.examples,
        "targets": {"tracebacks": 0, "5xx": 0, "invalid_json": 0},
    }
