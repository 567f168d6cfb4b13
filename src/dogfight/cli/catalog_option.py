"""The catalog every command reads: the shipped data, overridden or extended by the folder
given with ``dogfight --data DIR`` (the root option, read before any command runs)."""

from __future__ import annotations

from typing import Annotated

import typer

from dogfight.catalog import Catalog, load_catalog

_data_folder: list[str | None] = [None]

DataOption = Annotated[
    str | None,
    typer.Option("--data", help="A folder of data files overriding or extending the catalog."),
]


def set_data_folder(folder: str | None) -> None:
    """Remember the ``--data`` folder for :func:`catalog`."""
    _data_folder[0] = folder


def catalog() -> Catalog:
    """The catalog with the ``--data`` folder, if one was given."""
    return load_catalog(_data_folder[0])
