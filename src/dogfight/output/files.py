"""Writing results: whole files or nothing."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from dogfight.errors import DataError


def make_folder(path: str | Path, option: str = "--out") -> Path:
    """Create an output folder (and its parents) before anything is computed or stored;
    a path that is a file or cannot be made is refused, naming ``option``."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise DataError(option, "folder", str(folder), "is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(
            option, "folder", str(folder), f"cannot be created: {exc.strerror}"
        ) from None
    return folder


def write_atomic(path: str | Path, text: str | bytes, option: str = "(output)") -> None:
    """Write ``text`` (or bytes) to ``path`` through a temporary file, so that a failure
    never leaves a half-written file behind. A folder that does not exist or cannot be
    written is refused, naming ``option`` (the command-line option that gave the path)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(option, "file", str(target), "its folder does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(option, "file", str(target), f"cannot be written: {exc.strerror}") from None
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as binary:
                binary.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise DataError(option, "file", str(target), f"cannot be written: {exc.strerror}") from None
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
