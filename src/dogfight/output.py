"""Writing results: whole files or nothing."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from dogfight.errors import DataError


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` through a temporary file, so that a failure
    never leaves a half-written file behind."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(str(target), "(output)", str(target), "its folder does not exist")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as binary:
                binary.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dumps(value: Any, **options: Any) -> str:
    """JSON any strict parser reads. The inputs are checked to be finite, so a NaN or an
    infinity in a result is a bug: it is refused with a message, never printed."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError as exc:
        raise DataError(
            "(output)", "(number)", None, f"not finite, so not JSON ({exc}); please report this"
        ) from None
