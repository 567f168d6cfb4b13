"""A process's instructions counted by valgrind's callgrind, between two moments.

This machine has no hardware counters (``perf stat`` says ``<not supported>``), and a
shared machine's CPU time moves by a third from one run to the next; the instructions a
process executes do not. :class:`Callgrind` starts a command under
``valgrind --tool=callgrind`` (about 50 times slower), sets its counters to zero at one
moment (``callgrind_control --zero``) and reads them at another (``--dump``: the dump's
``summary``, every thread's instructions executed since the zero, ``Ir``). Callgrind
counts instructions only: no cache misses, no time in the kernel.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


class CallgrindMissing(RuntimeError):
    """valgrind (or callgrind_control) is not installed."""


class Callgrind:
    """Commands run under callgrind, their dumps in a folder of their own."""

    def __init__(self) -> None:
        if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
            raise CallgrindMissing(
                "counting instructions needs valgrind (callgrind and callgrind_control)"
            )
        self.folder = Path(tempfile.mkdtemp(prefix="dogfight-callgrind-"))

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run under callgrind (its process keeps the pid valgrind starts in)."""
        return [
            "valgrind",
            "--tool=callgrind",
            "--dump-instr=no",
            "--compress-strings=no",
            f"--callgrind-out-file={self.folder}/callgrind.%p",
            *argv,
        ]

    def zero(self, pid: int) -> None:
        """Set the counters of the process ``pid`` (started by :meth:`command`) to zero."""
        self._control("--zero", pid)

    def dump(self, pid: int) -> int:
        """The instructions the process ``pid`` executed since its last :meth:`zero`."""
        before = set(self.folder.glob(f"callgrind.{pid}.*"))
        self._control("--dump", pid)
        made = sorted(set(self.folder.glob(f"callgrind.{pid}.*")) - before)
        if not made:
            raise RuntimeError(f"callgrind wrote no dump for process {pid}")
        for line in made[-1].read_text(errors="replace").splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1])
        raise RuntimeError(f"no summary in {made[-1]}")

    def close(self) -> None:
        """Delete the dumps."""
        shutil.rmtree(self.folder, ignore_errors=True)

    @staticmethod
    def _control(option: str, pid: int) -> None:
        subprocess.run(
            ["callgrind_control", option, str(pid)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )
