"""Debian's chromium as the benchmarks and the browser tests launch it: headless, no
sandbox (root in CI), and none of its background connections (the machine's network is
closed: they would be refused, many at a time)."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
