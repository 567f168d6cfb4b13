"""The answers of a request the routes never saw, or saw fail: a body or query the
schema refuses (400 for a body that is not JSON, else 422 naming the field), an HTTP
error of the router (404, 405 with every method of the path in ``Allow``) and a bug
(500 naming only its kind). Each is a JSON body ``{"error", "field"}``, as every refusal
of the server is (:class:`dogfight.server.errors.ApiError`'s answer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from dogfight.errors import shown_field
from dogfight.server.web.methods import allow_header


def field_of(loc: Sequence[Any]) -> str | None:
    """The field a validation error's location names (``plans.camel.cards``), without
    where it came from (body, query...)."""
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return shown_field(".".join(parts)) if parts else None


def register_refusals(app: FastAPI) -> None:
    """The handlers of a request refused before or around its route."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"msg": "invalid request", "loc": ()}
        status = 400 if first.get("type") == "json_invalid" else 422
        message = "the body is not valid JSON" if status == 400 else str(first.get("msg"))
        field = None if status == 400 else field_of(first.get("loc", ()))
        return JSONResponse({"error": message, "field": field}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = exc.headers
        if exc.status_code == 405:  # every method of the path (issue 28)
            headers = allow_header(app.router.routes, request.scope, headers)
        body = {"error": str(exc.detail), "field": None}
        return JSONResponse(body, status_code=exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            {"error": f"internal error ({type(exc).__name__})", "field": None}, status_code=500
        )
