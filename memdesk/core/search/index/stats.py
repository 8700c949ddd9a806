"""The stored index's counters and marks in search_stat (last doc, last term, the readings'
version); a table of names and values both the vocabulary and the postings keep."""

from __future__ import annotations


def set_stat(conn, name: str, value) -> None:
    conn.execute(
        "INSERT INTO search_stat (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        (name, value),
    )


def stat(conn, name: str, default=0):
    row = conn.execute("SELECT value FROM search_stat WHERE name = ?", (name,)).fetchone()
    if row is None:
        return default
    return _number(row[0]) if isinstance(row[0], str) else row[0]


def _number(text: str) -> int | float:
    """A counter as PostgreSQL's text column holds it ('12', '3.5') -> the number SQLite would give."""
    number = float(text)
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
