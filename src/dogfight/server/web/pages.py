"""The pages and the files they load, served so that a browser never runs an older copy
of a script against a newer server.

Starlette's files carry an ``ETag`` and a ``Last-Modified`` but no ``Cache-Control``:
a browser may then reuse a copy for a while without asking (a tenth of the file's age,
by the usual heuristic), so after an upgrade a page could run an old ``table.js`` against
the new server's messages (a move's ``curve`` read as the ``path`` it replaced) or mix
an old module with a new one. Every page and file here is sent with ``Cache-Control:
no-cache``: the browser keeps its copy but asks first, and an unchanged file costs a
304 with no body.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).parents[1] / "static"

REVALIDATE = "no-cache"
"""The ``Cache-Control`` of every page and static file."""


def page(name: str) -> FileResponse:
    """The page ``name`` of :data:`STATIC`, revalidated on every load."""
    return FileResponse(STATIC / name, headers={"cache-control": REVALIDATE})


class Files(StaticFiles):
    """``/static``: the pages' scripts, styles and pictures, revalidated on every load
    (a 304 included)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = REVALIDATE
        return response
