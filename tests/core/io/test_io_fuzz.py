"""Fuzzing the non-JSON importers: Markdown, CSV, JSON Lines, zips and blockcell SQLite
files with values of any type. No crash; a clear error or reasons; nothing half-written."""

import io
import os
import sqlite3
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.io.plan import apply_import, plan_file

pytestmark = pytest.mark.slow  # fuzzing: `make test-all` runs it, bench/fuzz.sh at full size

# bench/fuzz.sh sets HYPOTHESIS_PROFILE=fuzz (10,000 each); FUZZ_EXAMPLES picks any other count.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or (10_000 if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else 60))
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


def _state(store):
    return sorted((m.id, m.version, m.deleted_at) for m in store.list(state="all")), len(store.personas())


def _check(store, path, fmt="auto"):
    before = _state(store)
    try:
        plan = plan_file(store, path, format=fmt)
    except MemDeskError as exc:
        assert str(exc) and _state(store) == before
        return
    assert all(item.reason for item in plan.items if item.status == "invalid")
    try:
        apply_import(store, plan, backup=False)
    except MemDeskError as exc:
        assert str(exc) and _state(store) == before
        return
    _forget_new(store, before)


def _forget_new(store, before):
    """Drop what the example imported: a store that grows makes every example slower
    (1,000 examples took 45 s, 10,000 would take hours)."""
    kept = {memory_id for memory_id, _, _ in before[0]}
    new = [m.id for m in store.list(state="all") if m.id not in kept]
    if new:
        store.delete(new)
        store.purge(new)


lines = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(
            [
                "# 标题",
                "## 人格：A",
                "- 项目 #tag",
                "```",
                "content,tags",
                '"a,b",c',
                "1. x",
                "(空)",
                "\t- sub",
                '{"type":"entity","name":"A","observations":["x"]}',
                '{"type":"relation","from":"A"}',
            ]
        ),
    ),
    max_size=12,
)


@fuzz
@given(text=lines, suffix=st.sampled_from([".md", ".csv", ".jsonl", ".txt"]))
def test_text_formats_never_crash(fuzz_store, text, suffix):
    store, folder = fuzz_store("fuzz_text")
    path = folder / f"in{suffix}"
    path.write_text("\n".join(text), encoding="utf-8")
    _check(store, path)


members = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "memories.json",
                "memories.jsonl.gz",
                "x/memories.json",
                "../memories.json",
                "/abs.json",
                "a\\b.json",
                "other.txt",
            ]
        ),
        st.binary(max_size=200),
    ),
    max_size=4,
    unique_by=lambda entry: entry[0],
)


@fuzz
@given(entries=members)
def test_zips_never_crash(fuzz_store, entries):
    store, folder = fuzz_store("fuzz_zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            zf.writestr(name, data)
    path = folder / "in.zip"
    path.write_bytes(buf.getvalue())
    _check(store, path)


cells = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.sampled_from(["2025-03-01T08:15:30.123456789+00:00", "a,b", '["x"]', "policy", "long_term", "0.7"]),
)
rows = st.lists(
    st.fixed_dictionaries(
        {
            k: cells
            for k in (
                "id",
                "scope",
                "type",
                "title",
                "content",
                "tags",
                "importance",
                "created_at",
                "deleted_at",
                "dedup_key",
                "access_count",
            )
        }
    ),
    max_size=5,
)


@fuzz
@given(data=rows)
def test_blockcell_values_of_any_type_never_crash(fuzz_store, data):
    store, folder = fuzz_store("fuzz_db")
    path = folder / "memory.db"
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE memory_items (id, scope, type, title, content, tags, importance, created_at, "
        "deleted_at, dedup_key, access_count)"
    )  # no declared types: SQLite keeps any value
    for row in data:
        conn.execute("INSERT INTO memory_items VALUES (?,?,?,?,?,?,?,?,?,?,?)", list(row.values()))
    conn.commit()
    conn.close()
    _check(store, path, "blockcell")
