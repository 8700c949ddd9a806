"""A PostgreSQL server for the bench scripts: --url, else a throwaway cluster (tests/pg_cluster.py,
the tests' own helper: initdb in a temporary folder, a free port, stopped and deleted at the end).

    with pg_database(args.url) as (url, cluster):  # a fresh, empty database; dropped afterwards
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.pg_cluster import Cluster, find_bin  # noqa: E402


@contextmanager
def pg_database(url: str | None, name: str = "memdesk_bench"):
    """(URL of a fresh database named ``name``, the Cluster or None when ``url`` was given)."""
    import psycopg

    cluster = None
    if not url:
        bindir = find_bin()
        if bindir is None:
            sys.exit("no PostgreSQL here: install the postgresql package (initdb, pg_ctl) or pass --url")
        cluster = Cluster(bindir).start()
        url = cluster.url()
    base = url.rsplit("/", 1)[0]
    name = f"{name}_{os.getpid()}"
    admin = psycopg.connect(url, autocommit=True)
    try:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{base}/{name}", cluster
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.close()
        if cluster is not None:
            cluster.remove()
