"""A cheaper ``__init__`` for the frozen dataclasses made by the thousand in every phase.

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, name, value)`` (its own ``__setattr__`` refuses), which looks
the name up along the class's MRO at every store: a phase's events, poses and shots spend
most of their making there. A class with slots has a descriptor for each field that can
store the value directly. :func:`fast_init` replaces the generated ``__init__`` by one
that calls each field's descriptor: the same parameters, defaults and stored values
(``tests/test_frozen_init.py`` holds every such class to the dataclass's own
``__init__``, kept in :data:`PLAIN_INITS`). The class stays a frozen dataclass: assigning
a field still raises, and equality, hashing, repr, pickling and ``dataclasses.replace``
are the dataclass's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

PLAIN_INITS: dict[type, Callable[..., None]] = {}
"""Each class given a fast ``__init__``, with the dataclass's own (for the tests)."""


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` an ``__init__`` that stores each field
    through its slot descriptor (see the module docstring). Only plain fields are
    supported: a field with a default factory, outside ``__init__`` or keyword-only, or a
    ``__post_init__``, is refused (such a class keeps the dataclass's ``__init__``)."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} needs slots and no __post_init__")
    names: list[str] = []
    env: dict[str, Any] = {}
    lines: list[str] = []
    for i, f in enumerate(fields(cls)):
        if not f.init or f.kw_only or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields are supported")
        if f.default is MISSING:
            names.append(f.name)
        else:
            env[f"_d{i}"] = f.default
            names.append(f"{f.name}=_d{i}")
        env[f"_s{i}"] = getattr(cls, f.name).__set__
        lines.append(f"    _s{i}(self, {f.name})")
    source = f"def __init__(self, {', '.join(names)}):\n" + ("\n".join(lines) or "    pass")
    made: dict[str, Any] = {}
    exec(source, env, made)
    init = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    PLAIN_INITS[cls] = cls.__init__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy: a method assigned on the class)
    return cls
