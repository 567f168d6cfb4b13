"""The tests' throwaway PostgreSQL cluster (:mod:`dogfight.bench.pgcluster`, on the
server programs the README's test command installs): one per test session, and a fresh
database per test that asks for ``pg_url``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dogfight.bench.pgcluster import Cluster, NoPostgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    try:
        cluster = Cluster()
    except NoPostgres as exc:
        pytest.skip(str(exc))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    """A fresh database on the session's throwaway cluster."""
    return postgres.new_database()
