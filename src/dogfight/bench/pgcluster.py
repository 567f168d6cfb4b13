"""A throwaway PostgreSQL cluster for the tests and ``dogfight bench --server
--processes 2``: Debian's ``initdb``/``pg_ctl`` (``/usr/lib/postgresql/*/bin``) in a
temporary folder, listening only on a Unix socket there, stopped and deleted afterwards.

PostgreSQL refuses to run as root: as root the cluster runs as the ``postgres`` user
(``runuser``), in a folder that user owns. Durability is off (``fsync=off``): a killed
server process loses nothing, a power cut would lose the cluster, which is thrown away.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path


class NoPostgres(RuntimeError):
    """PostgreSQL's server programs are not installed."""


def _bin_dir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(found[-1]).parent if found else None


class Cluster:
    """A running cluster: ``url(name)`` is a SQLAlchemy URL of database ``name``."""

    def __init__(self) -> None:
        bindir = _bin_dir()
        if bindir is None:
            raise NoPostgres("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="dfpg-"))
        self.data = self.folder / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "dogfight",
            "--no-sync",
            "-E",
            "UTF8",
        )
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.prefix, str(self.bindir / program), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.folder,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://dogfight@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """A fresh empty database; its SQLAlchemy URL."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(
            host=str(self.folder), user="dogfight", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def cpu_s(self) -> float:
        """CPU time (user + system, seconds) the cluster has used so far: the postmaster
        with its ended children (backends that exited) and its running children (every
        connection's backend, the writer, the WAL writer...). Linux; 0 if unreadable."""
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            pid, parent = int(stat.parent.name), int(fields[1])
            if pid == postmaster:
                total += sum(int(f) for f in fields[11:15])  # with the ended children
            elif parent == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / tick

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
