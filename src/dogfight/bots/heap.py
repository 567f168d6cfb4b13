"""The C heap of a process that plans with numpy, kept from shrinking after every plan.

A planning bot makes and drops thousands of numpy arrays of tens of kilobytes per
decision. glibc's malloc gives the top of its heap back to the system whenever more than
128 kB of it lies free, and the next decision takes it back page by page, each page a
fault the kernel fills with zeros: measured on the hard bot, that cost as much CPU time
as all its arithmetic (a decision 3.0 ms with the heap given back, 1.8 ms with its top
kept). :func:`keep_heap_top` asks malloc to keep 8 MB spare at the top of the heap and
to serve blocks under 4 MB from the heap, once per process; a process spends at most
those 8 MB more. Elsewhere than glibc (no ``mallopt``) it does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys

M_TOP_PAD = -2
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameters (malloc.h)."""
TOP_PAD = 8 << 20
"""Bytes of free heap top malloc keeps rather than giving back to the system."""
MMAP_THRESHOLD = 4 << 20
"""Blocks from this size on get pages of their own (setting the pad fixes this
threshold, which malloc would otherwise raise by itself as large blocks are freed)."""


@functools.cache
def keep_heap_top() -> bool:
    """Keep the heap's top for the next plan (see the module docstring); True when
    malloc took both settings."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_TOP_PAD, TOP_PAD)) & bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
