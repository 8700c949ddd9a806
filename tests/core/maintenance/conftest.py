"""Fixtures for maintenance tests: a snapshot of everything a task could change, and a
cancel() that fires on a chosen call."""

import sqlite3

import pytest


def _snapshot(path):
    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2').fetchall()
            for table in ("memory", "memory_tag", "revision", "setting")
        }
    finally:
        conn.close()


class CancelAt:
    """cancel() that answers True from its n-th call on (n=None: never); counts calls."""

    def __init__(self, n=None):
        self.n, self.calls = n, 0

    def __call__(self):
        self.calls += 1
        return self.n is not None and self.calls >= self.n


@pytest.fixture
def snapshot():
    """snapshot(db_path): every row of the tables maintenance writes, in a fixed order."""
    return _snapshot


@pytest.fixture
def cancel_at():
    """cancel_at(n): a CancelAt."""
    return CancelAt
