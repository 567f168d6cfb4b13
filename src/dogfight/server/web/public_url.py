"""The address players reach the server at, when it is not the one it listens on.

Behind a reverse proxy (``deploy/``, ``docs/deploy.md``) the server listens on
``http://127.0.0.1:8000`` while players open ``https://dogfight.example.org``: the links
the server writes (each seat's private link and the hot-seat link of a new game) are then
this public address followed by the page's path, and the pages show them as written.
Without it the links are paths (``/play/…``), which a page puts after its own origin.

``dogfight serve --public-url URL``, else ``DOGFIGHT_PUBLIC_URL``; anything other than
``http(s)://host[:port][/path]`` is refused naming where it came from.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from dogfight.errors import DataError

ENV = "DOGFIGHT_PUBLIC_URL"
OPTION = "--public-url"
SHAPE = "an address http(s)://host[:port][/path], e.g. https://dogfight.example.org"


def public_url(given: str | None) -> str | None:
    """The public address from the option (``given``), else the environment, else None;
    checked, with no trailing slash (a link is the address then its ``/play/…`` path)."""
    if given is not None:
        return checked(given, OPTION)
    raw = os.environ.get(ENV)
    if raw is None or not raw.strip():
        return None
    return checked(raw, ENV)


def checked(raw: str, where: str) -> str:
    """``raw`` as a public address (scheme and host in lower case, no trailing slash), or
    a :class:`DataError` naming ``where`` (the option or the variable)."""
    value = raw.strip()
    try:
        parts = urlsplit(value)
        port = parts.port  # a port out of range or not a number raises ValueError
    except ValueError:
        raise DataError(where, "public_url", raw, SHAPE) from None
    host = parts.hostname or ""
    if (
        parts.scheme.lower() not in ("http", "https")
        or not host
        or parts.username is not None
        or parts.password is not None
        or parts.query
        or parts.fragment
        or value.endswith(("?", "#"))
        or any(c.isspace() or c in "\\\"'<>`" for c in value)
        or (port is not None and port == 0)
    ):
        raise DataError(where, "public_url", raw, SHAPE)
    shown_host = f"[{host}]" if ":" in host else host
    netloc = shown_host + (f":{port}" if port is not None else "")
    return f"{parts.scheme.lower()}://{netloc}{parts.path.rstrip('/')}"
