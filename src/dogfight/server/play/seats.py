"""Seat tokens: each seat's private join link carries a random token; only its SHA-256
is stored, so a copy of the database does not let anyone take a seat."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str) -> bool:
    """Whether ``token`` is the seat's (compared in constant time)."""
    if not token:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_game_id() -> str:
    """A short random game id, safe in a URL."""
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
