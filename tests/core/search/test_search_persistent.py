"""The search index kept in the store: equal to a fresh build after any mix of writes by
several connections and processes, found at once by other processes, safe to kill."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.indexer import pending, rebuild
from memdesk.core.search.index.meta import META
from memdesk.core.search.index.postings_codec import decode_blocks, decode_terms
from memdesk.core.store import Store
from tests.index_mix import apply, operation

ROOT = Path(__file__).resolve().parents[3]


def snapshot(store: Store) -> dict:
    """Everything the index holds, keyed by memory id and names (not doc numbers, codes or
    term ids): each memory's bags in their order, each term's postings and frequency."""
    conn = store.connection()
    names = {(k, c): n for k, n, c in conn.execute("SELECT kind, name, code FROM search_code")}
    ids = dict(conn.execute("SELECT doc, memory_id FROM search_doc"))
    terms = {i: (f, t) for i, f, t in conn.execute("SELECT id, field, term FROM search_term")}
    docs = {}
    for memory_id, text, term_list, vocab, ehash, key, meta in conn.execute(
        "SELECT d.memory_id, t.text, d.terms, d.vocab, d.ehash, d.key, m.meta "
        "FROM search_doc d LEFT JOIN search_meta m ON m.doc = d.doc LEFT JOIN search_text t ON t.doc = d.doc"
    ):
        row = np.frombuffer(meta, dtype=META)[0] if meta is not None else None
        columns = (
            None
            if row is None
            else (
                names.get(("p", int(row["persona"])), "global"),
                names[("g", int(row["group"]))],
                *(
                    float(row[n])
                    for n in META.names[3:]  # after doc, persona and group
                ),
            )
        )
        bags = [
            [(terms[i], tf) for i, tf in zip(bag_ids.tolist(), tfs.tolist())]
            for bag_ids, tfs in decode_terms(term_list)
        ]
        docs[memory_id] = (
            text,
            bags,
            sorted(json.loads(vocab)),
            ehash,
            key,
            columns,
            term_list is None,
        )
    postings: dict = {}
    for term_id, first, data in conn.execute("SELECT term, first_doc, data FROM search_post"):
        got, tfs = decode_blocks([(first, data)])
        assert int(got[0]) == first
        postings.setdefault(terms[term_id], []).extend((ids[d], tf) for d, tf in zip(got.tolist(), tfs.tolist()))
    frequencies = {(f, t): df for f, t, df in conn.execute("SELECT field, term, df FROM search_term")}
    assert frequencies == {term: len(p) for term, p in postings.items()}  # no term without postings
    stats = dict(
        conn.execute(
            "SELECT name, value FROM search_stat WHERE name NOT IN ('epoch', 'postings', 'last_doc', 'last_term')"
        )
    )
    for name in ("docs", "words_len", "grams_len", "pinyin_len"):
        stats[name] = round(float(stats.get(name, 0)), 6)
    return {
        "docs": docs,
        "postings": {term: sorted(p) for term, p in postings.items()},
        "stats": stats,
        "vocab": dict(conn.execute("SELECT term, refs FROM search_vocab")),
    }


def assert_equals_rebuild(store: Store) -> None:
    incremental = snapshot(store)
    rebuild(store)
    fresh = snapshot(store)
    assert incremental["docs"].keys() == fresh["docs"].keys()
    for memory_id, doc in incremental["docs"].items():
        assert doc == fresh["docs"][memory_id], memory_id
    assert incremental == fresh


def _mix(tmp_path_factory, ops) -> None:
    path = tmp_path_factory.mktemp("mix") / "m.db"
    first, second = Store.open(path), Store.open(path)
    try:
        ids: list[str] = []
        for n, op in enumerate(ops):
            apply(first if n % 2 else second, op, ids)
        assert_equals_rebuild(first)
    finally:
        first.close()
        second.close()


_FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=40, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(ops=st.lists(operation, min_size=1, max_size=25))
def test_index_equals_a_fresh_build_after_any_mix_of_writes_by_two_connections(tmp_path_factory, ops):
    _mix(tmp_path_factory, ops)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@settings(max_examples=1000, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(ops=st.lists(operation, min_size=1, max_size=40))
def test_index_equals_a_fresh_build_many_examples(tmp_path_factory, ops):
    _mix(tmp_path_factory, ops)


@pytest.fixture(scope="module")
def second_process():
    """A second process writing to the test's stores (tests/index_mix.py's serve)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.index_mix"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield child
    assert child.stdin is not None
    child.stdin.close()
    child.wait(timeout=30)


def _ask(child, request: dict) -> list[str]:
    child.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
    child.stdin.flush()
    line = child.stdout.readline()
    assert line, f"the second process ended (exit {child.poll()})"
    reply = json.loads(line)
    assert "error" not in reply, reply["error"]
    return reply["ids"]


PROBES = ["咖啡", "咖啡因", "喝咖啡 早上", "绿茶 杭州", "项目会议", "coffee", "kafei", "tag:跑步", "group:偏好 西湖"]


@settings(max_examples=30, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(ops=st.lists(operation, min_size=1, max_size=25))
def test_index_and_a_running_search_equal_a_fresh_build_after_writes_by_two_processes(
    tmp_path_factory, second_process, ops
):
    # Every other write is made by another process. This process keeps one engine open
    # and searches after each write, as the window does (its cached columns and postings
    # must follow the other process's writes); at the end it ranks every probe exactly as
    # a new engine does, and the index equals one built from scratch.
    path = tmp_path_factory.mktemp("procs") / "m.db"
    store = Store.open(path)
    engine = SearchEngine(store)
    engine.build()
    when = datetime(2030, 1, 1, tzinfo=timezone.utc)
    try:
        ids: list[str] = []
        for n, op in enumerate(ops):
            if n % 2:
                apply(store, op, ids)
            else:
                ids = _ask(second_process, {"path": str(path), "op": op, "ids": ids})
            engine.search(PROBES[n % len(PROBES)], now=when)
        fresh = SearchEngine(store)
        fresh.build()
        for probe in PROBES:
            kept = [(h.id, round(h.score, 9)) for h in engine.search(probe, limit=None, now=when).hits]
            assert kept == [(h.id, round(h.score, 9)) for h in fresh.search(probe, limit=None, now=when).hits], probe
        assert_equals_rebuild(store)
    finally:
        _ask(second_process, {"path": str(path), "close": True})
        store.close()


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from memdesk.core.store import Store
    s = Store.open({path!r})
    a = s.add(title="晨跑", content="每天早上在西湖边跑步五公里", tags=["跑步"]).added[0]
    b = s.add(content="周三下午开项目会议").added[0]
    s.update(b, expected_version=None, content="周四下午开项目评审会议")
    s.delete([a])
    s.restore([a])
    c = s.add_many([{{"content": "喜欢喝绿茶"}}, {{"content": "不喝咖啡因饮品"}}]).added
    s.delete([c[0]]); s.purge([c[0]])
    s.create_persona(name="跑步教练")
    print(a, b, c[1])
""")


def test_a_second_process_write_is_found_by_the_next_search(tmp_path):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="旧的记忆：喜欢咖啡")
    engine = SearchEngine(store)
    engine.build()
    assert len(engine.search("跑步").hits) == 0
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path))], capture_output=True, text=True, check=True
    ).stdout.split()
    run, meeting, tea = out
    assert engine.search("跑步").ids == [run]
    assert engine.search("评审").ids == [meeting]
    assert engine.search("周三").ids == []  # the edit replaced the text
    assert engine.search("绿茶").ids == []  # purged
    assert engine.search("咖啡因").ids[0] == tea  # the old 喜欢咖啡 follows by its bigram
    assert engine.search("晨跑 tag:跑步").ids == [run]
    assert_equals_rebuild(store)
    store.close()


def test_hits_show_a_memory_as_it_is_after_an_edit(store):
    # The records of hits are kept between searches (typing shows the same hits again):
    # an edit, here or by another process, replaces what the next search shows.
    memory_id = store.add(title="周末计划", content="周末去西湖跑步").added[0]
    engine = SearchEngine(store)
    engine.build()
    assert engine.search("跑步").hits[0].record.title == "周末计划"
    store.update(memory_id, expected_version=None, title="周日计划", tags=["运动"])
    hit = engine.search("跑步").hits[0]
    assert (hit.record.title, hit.record.tags) == ("周日计划", ("运动",))
    store.delete([memory_id])
    assert engine.search("跑步").hits == []


def test_a_fresh_process_searches_without_building(tmp_path):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add_many([{"content": f"第{i}条：每周{'一二三四五'[i % 5]}打羽毛球"} for i in range(300)])
    store.close()
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from memdesk.core.store import Store
        from memdesk.core.search import SearchEngine
        s = Store.open({str(path)!r})
        e = SearchEngine(s)
        e.build()
        print(len(e.search("周三 羽毛球", limit=None).hits), s.connection().execute(
            "SELECT COUNT(*) FROM search_doc WHERE terms IS NULL").fetchone()[0])
    """)
    found, uncut = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert (int(found), int(uncut)) == (300, 0)


def _v3_store(path: Path, count: int) -> None:
    """A store as the previous version left it: schema 3, no search tables."""
    from memdesk.core.storage.migrations import MIGRATIONS

    conn = sqlite3.connect(str(path), isolation_level=None)
    for version, step in MIGRATIONS[:3]:
        step(conn)
        conn.execute(f"PRAGMA user_version = {version}")
    rows = [
        (
            f"m{i:05d}",
            "",
            f"标题{i}",
            f"第{i}条记忆：每周{'一二三四五'[i % 5]}下午打羽毛球",
            "",
            '["运动"]',
            "fact",
            "long_term",
            5,
            0,
            "manual",
            None,
            f"h{i}",
            "2024-05-01 10:00:00.000000",
            "2024-05-01 10:00:00.000000",
            None,
            0,
            0,
            None,
            None,
            None,
            "warm",
            50.0,
            1,
        )
        for i in range(count)
    ]
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO memory (id, group_name, title, content, summary, tags, type, scope, importance, "
        "importance_set, source, dedup_key, content_hash, created_at, updated_at, last_access_at, "
        "access_count, mention_count, expires_at, deleted_at, superseded_by, tier, heat, version) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    conn.execute("COMMIT")
    conn.close()


def test_upgrade_builds_the_index_once_with_progress(tmp_path):
    path = tmp_path / "old.db"
    _v3_store(path, 1200)
    store = Store.open(path)
    assert pending(store.connection()) == 1200
    seen = []
    engine = SearchEngine(store)
    assert engine.build(progress=lambda done, total: seen.append((done, total))) == 1200
    assert seen[-1] == (1200, 1200) and len(seen) >= 3
    assert len(engine.search("周三 羽毛球", limit=None).hits) == 1200
    assert pending(store.connection()) == 0
    assert_equals_rebuild(store)
    store.close()


def test_kill_during_the_upgrade_build_leaves_store_and_index_consistent(tmp_path):
    path = tmp_path / "old.db"
    _v3_store(path, 6000)
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from memdesk.core.store import Store
        from memdesk.core.search.index.indexer import build
        s = Store.open({str(path)!r})
        build(s, progress=lambda done, total: print(done, flush=True))
    """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "500"  # one batch committed, more in flight
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = Store.open(path)
    conn = store.connection()
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    left = pending(conn)
    assert 0 < left < 6000
    cut = snapshot(store)["docs"]
    assert sum(1 for d in cut.values() if d[0] is not None) == 6000 - left  # cut ones have their text
    engine = SearchEngine(store)
    engine.build()  # resumes
    assert pending(conn) == 0 and store.count(state="all") == 6000
    assert_equals_rebuild(store)
    store.close()


def test_kill_during_an_import_leaves_store_and_index_consistent(tmp_path):
    path = tmp_path / "m.db"
    Store.open(path).close()
    data = tmp_path / "big.json"
    data.write_text(
        json.dumps(
            {"memories": [{"content": f"第{i}条：周末去杭州西湖{i}"} for i in range(20000)]}, ensure_ascii=False
        ),
        encoding="utf-8",
    )
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from memdesk.core.store import Store
        from memdesk.core.io.plan import import_file
        s = Store.open({str(path)!r})
        print("start", flush=True)
        import_file(s, {str(data)!r})
    """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "start"
    watcher = Store.open(path)
    while not watcher.write_lock_held_elsewhere():  # the import's one write transaction has begun
        assert child.poll() is None, "the import ended before its write was seen"
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    watcher.close()
    store = Store.open(path)
    assert store.connection().execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    count = store.count(state="all")
    assert count in (0, 20000)  # (0 but for a kill that lands as the transaction commits)
    assert len(snapshot(store)["docs"]) == count
    engine = SearchEngine(store)
    engine.build()
    assert len(engine.search("杭州", limit=None).hits) == count
    store.close()
