"""Inserting many new memories at once (add_many, imports): their automatic importance
estimated for the batch, then one prepared statement per table."""

from __future__ import annotations

from collections.abc import Iterator

from memdesk.core.domain.changes import Changes
from memdesk.core.storage.models import Memory, MemoryTag, UTCDateTimeField, database

INSERT_BATCH = 1000  # new rows sent at once when their estimates stream in


def auto_importance(title: str, content: str) -> int:
    """The automatic estimate (maintenance.importance)."""
    from memdesk.core.search.language.importance import score_memory  # local: jieba loads on first use

    return score_memory(title or "", content)


def _score(pair: tuple[str, str]) -> int:
    return auto_importance(*pair)


def estimate_importance(rows: list[dict]) -> None:
    """Fill in the automatic importance of new rows made with ``estimate=False``
    (a bulk insert: scored in worker processes where that is safe)."""
    from memdesk.core.search.index.parallel import fork_list

    todo = [row for row in rows if row.pop("_estimate", False)]
    if not todo:
        return

    def warm() -> None:
        auto_importance("", "预热")  # load the tagger before the workers fork

    scores = fork_list(_score, [(row["title"], row["content"]) for row in todo], warm=warm)
    for row, value in zip(todo, scores):
        row["importance"] = value


def insert_new(rows: list[dict], tags: list[tuple[str, str]], *, scores: Iterator[int] | None = None) -> Changes:
    """The one bulk insert (add_many, imports): new_row() rows and their (memory id, tag) pairs,
    in the caller's transaction. Automatic importance is estimated for the batch at once, or
    comes as ``scores``: the estimates of the rows that want one, in order, as worker
    processes make them (search/index/precut.py); rows then go in a batch at a time as theirs
    arrive. A clash raises IntegrityError; the caller says what it means."""
    if scores is None:
        estimate_importance(rows)
        _insert_rows(Memory, rows)
    else:
        _insert_as_scored(rows, scores)
    _insert_rows(MemoryTag, [{"memory": m, "tag": t} for m, t in tags])
    return Changes(added=tuple(r["id"] for r in rows))


def _insert_as_scored(rows: list[dict], scores: Iterator[int]) -> None:
    for start in range(0, len(rows), INSERT_BATCH):
        batch = rows[start : start + INSERT_BATCH]
        for row in batch:
            if row.pop("_estimate", False):
                row["importance"] = next(scores)
        _insert_rows(Memory, batch)


def _insert_rows(model, rows: list[dict]) -> None:
    """One prepared statement for all rows: peewee would build SQL text per row, which costs
    more than SQLite's own work at import sizes. new_row() values already have SQLite's types,
    except times, which the field converts."""
    if not rows:
        return
    fields = [model._meta.fields[name] for name in rows[0]]
    columns = ", ".join(f'"{f.column_name}"' for f in fields)
    sql = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES ({", ".join("?" * len(fields))})'
    names = [f.name for f in fields]
    times = [(i, f.db_value) for i, f in enumerate(fields) if isinstance(f, UTCDateTimeField)]
    params = []
    for row in rows:
        values = [row[name] for name in names]
        for i, convert in times:
            values[i] = convert(values[i])
        params.append(values)
    database.connection().executemany(sql, params)
