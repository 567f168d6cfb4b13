"""The ``Allow`` header of a 405: every method the request's path accepts.

Starlette names only the methods of the first route whose path matched (``GET`` for
``DELETE /api/games``, though ``POST`` is served there too), and FastAPI's error
handler, replaced by the server's JSON one, is what carried the header at all. The
server's handler of HTTP errors sets it from here, for the 405 of a route and of the
static files alike (RFC 9110: a 405 must carry ``Allow``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from starlette.routing import BaseRoute, Match, Route


def allow_header(
    routes: Iterable[BaseRoute], scope: Mapping[str, Any], given: Mapping[str, str] | None
) -> dict[str, str]:
    """``given`` (an error's headers) with ``Allow`` naming the methods of every route
    whose path matches ``scope``'s, and those the error named itself (a mount's, such as
    the static files' ``GET, HEAD``)."""
    headers = dict(given or {})
    methods = {m.strip() for m in headers.pop("Allow", "").split(",") if m.strip()}
    for route in routes:
        if isinstance(route, Route) and route.methods:
            match, _ = route.matches(dict(scope))
            if match is not Match.NONE:
                methods |= route.methods
    headers["Allow"] = ", ".join(sorted(methods))
    return headers
