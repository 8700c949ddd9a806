"""`memdesk copy`: a whole store between backends (SQLite <-> PostgreSQL, SQLite -> SQLite),
checked by counts and the content checksum; refusals; --merge. PostgreSQL halves against
the real throwaway server (pg_plugin.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.io.transfer import CopyCheckError, TargetNotEmptyError, copy_store, summarise
from memdesk.core.io.transfer.copy import counts
from memdesk.core.io.transfer.dump import TABLES
from memdesk.core.search import SearchEngine
from memdesk.core.store import Store
from memdesk.core.tools.service import MemoryTools
from tests.core.search.test_search_persistent import snapshot

ROOT = Path(__file__).resolve().parents[2]


def fill(store: Store, tag: str = "a") -> dict:
    """A store with something in every table: personas, memories (edited, superseded, in the
    trash), tags, revisions, vectors of two models, settings, logged tool calls."""
    pid, _ = store.create_persona(name=f"工作助手{tag}", description="写代码", colour="#336699")
    store.create_persona(name=f"生活{tag}", auto_save_memory=False)
    first = store.add(content=f"用户喜欢绿茶 {tag}", tags=["偏好", "饮料"], persona_id=pid).added[0]
    second = store.add(content=f"项目使用 PostgreSQL {tag}", title="数据库", group="工作", importance=8).added[0]
    third = store.add(content=f"临时笔记 {tag}", scope="short_term", dedup_key=f"k-{tag}").added[0]
    store.update(first, expected_version=1, content=f"用户喜欢龙井茶 {tag}", tags=["偏好"])
    store.supersede(second, content=f"项目改用 PostgreSQL 16 {tag}")
    store.delete(third)
    store.put_vectors("ngram-v1", [(first, "h1", [0.25, -1.5, 3.0e-8]), (second, "h2", [1.0, 2.0, 3.0])])
    store.put_vectors("bge-small", [(first, "h3", [0.1] * 4)])
    store.set_setting("import.persona_aliases", {f"src-{tag}": pid})
    store.set_setting("search.weights", {"fusion": 0.7, "heat": 0.1})
    tools = MemoryTools(store, persona=f"工作助手{tag}", client="claude-desktop")
    tools.call("memory_save", {"content": f"助手记下的事 {tag}", "tags": ["mcp"]})
    tools.call("memory_search", {"query": "绿茶"})
    return {"persona": pid, "first": first, "second": second}


def _unordered(index: dict) -> dict:
    """persona_vocab is a bag of terms, kept in the order the personas were read."""
    stats = dict(index["stats"])
    stats["persona_vocab"] = sorted(json.loads(stats.get("persona_vocab", "[]")))
    return {**index, "stats": stats}


def _copied(src: Store, target) -> tuple:
    """Copy ``src`` into ``target`` (opened here); the report, the target's summary, its
    memories in storage order, its index snapshot and a search's hits."""
    dst = Store.open(target)
    try:
        report = copy_store(src, dst)
        found = SearchEngine(dst).search("龙井茶").ids
        return report, summarise(dst.connection()), [m.id for m in dst.iter_records()], snapshot(dst), found
    finally:
        dst.close()


def _check_same(src: Store, result) -> None:
    report, summary, order, index, found = result
    expected = summarise(src.connection())
    assert report.source_summary.checksum == expected.checksum == summary.checksum
    assert summary.counts == expected.counts
    assert all(summary.counts[t.name] > 0 for t in TABLES), summary.counts  # every table took part
    assert report.copied == expected.counts
    assert order == [m.id for m in src.iter_records()]  # storage order kept
    assert _unordered(index) == _unordered(snapshot(src))  # the rebuilt index holds what the source's did
    assert found == SearchEngine(src).search("龙井茶").ids != []


def test_sqlite_to_postgresql_to_sqlite_is_lossless(tmp_path, pg_database):
    src = Store.open(tmp_path / "source.db")
    try:
        fill(src)
        _check_same(src, _copied(src, pg_database))
        middle = Store.open(pg_database)
        try:
            back = _copied(middle, tmp_path / "back.db")
            _check_same(middle, back)
        finally:
            middle.close()
        assert back[1].checksum == summarise(src.connection()).checksum
    finally:
        src.close()


def test_sqlite_to_sqlite(tmp_path):
    src = Store.open(tmp_path / "a.db")
    try:
        fill(src)
        _check_same(src, _copied(src, tmp_path / "b.db"))
    finally:
        src.close()


def test_the_copy_keeps_ids_history_vectors_and_goes_on_working(tmp_path, pg_database):
    src = Store.open(tmp_path / "a.db")
    ids = fill(src)
    dst = Store.open(pg_database)
    try:
        copy_store(src, dst)
        assert [r.reason for r in dst.revisions(ids["first"])] == [r.reason for r in src.revisions(ids["first"])]
        assert [r.id for r in dst.revisions(ids["first"])] == [r.id for r in src.revisions(ids["first"])]
        vectors = dst.load_vectors("ngram-v1")
        assert vectors is not None
        assert [m.id for m in dst.supersede_chain(ids["second"])] == [m.id for m in src.supersede_chain(ids["second"])]
        assert dst.persona(ids["persona"]).colour == "#336699"
        assert dst.setting("import.persona_aliases") == {"src-a": ids["persona"]}
        # new rows after the copy get fresh ids (PostgreSQL's sequences were moved past the copied ones)
        before = max(r.id for r in dst.revisions(ids["first"]))
        dst.update(ids["first"], expected_version=dst.get(ids["first"]).version, content="又改了")
        assert max(r.id for r in dst.revisions(ids["first"])) > before
        MemoryTools(dst, client="test").call("memory_save", {"content": "复制后写的"})
        assert SearchEngine(dst).search("复制后写的").ids != []
    finally:
        dst.close()
        src.close()


def test_a_store_with_data_is_refused_and_left_alone(tmp_path, pg_database):
    src = Store.open(tmp_path / "a.db")
    fill(src)
    dst = Store.open(pg_database)
    try:
        dst.add(content="目标里已有的")
        before = summarise(dst.connection())
        with pytest.raises(TargetNotEmptyError, match="not empty .*1 memory.*--merge"):
            copy_store(src, dst)
        assert summarise(dst.connection()) == before
    finally:
        dst.close()
        src.close()


def test_merge_adds_what_is_missing_and_keeps_what_the_target_has(tmp_path, pg_database):
    src = Store.open(tmp_path / "a.db")
    ids = fill(src)
    dst = Store.open(pg_database)
    try:
        fill(dst, tag="b")
        dst.create_persona(name="工作助手a")  # the same name under another id
        clash = dst.add(id=ids["first"], content="目标自己的版本").added[0]
        before = counts(dst.connection())
        report = copy_store(src, dst, merge=True)
        after = counts(dst.connection())
        assert after == {n: before[n] + report.copied[n] for n in before}
        assert report.skipped["memory"] == 1 and dst.get(clash).content == "目标自己的版本"
        assert report.skipped["persona"] == 1 and ids["persona"] in report.mapped_personas
        mapped = report.mapped_personas[ids["persona"]]
        moved = [m for m in dst.list(persona=mapped) if "助手记下的事 a" in m.content]
        assert len(moved) == 1  # the source persona's memories went to the target's persona of that name
        assert dst.setting("search.weights") == {"fusion": 0.7, "heat": 0.1}
        assert report.target_summary.checksum == summarise(dst.connection()).checksum
        assert SearchEngine(dst).search("PostgreSQL 16 a").ids != []
    finally:
        dst.close()
        src.close()


def test_a_failed_check_rolls_the_whole_copy_back(tmp_path, monkeypatch):
    from memdesk.core.io.transfer import copy as copy_module

    src = Store.open(tmp_path / "a.db")
    fill(src)
    dst = Store.open(tmp_path / "b.db")
    real = copy_module.summarise
    calls = []

    def tampered(conn):  # the second call reads the target: make it disagree
        calls.append(conn)
        summary = real(conn)
        if len(calls) == 2:
            summary.table_sums["revision"] = "0" * 64
        return summary

    monkeypatch.setattr(copy_module, "summarise", tampered)
    try:
        with pytest.raises(CopyCheckError, match="revision: same row count, different content.*rolled back"):
            copy_store(src, dst)
        assert all(n == 0 for n in counts(dst.connection()).values())
        assert dst.connection().execute("SELECT COUNT(*) FROM search_doc").fetchone()[0] == 0
    finally:
        dst.close()
        src.close()


def test_the_same_store_is_refused(tmp_path):
    src = Store.open(tmp_path / "a.db")
    again = Store.open(tmp_path / "." / "a.db")
    try:
        with pytest.raises(MemDeskError, match="the same store"):
            copy_store(src, again)
    finally:
        again.close()
        src.close()


def _cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "copy", *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env
    )


def test_cli_copies_prints_the_checksum_and_refuses_a_second_time(tmp_path, pg_database):
    src = Store.open(tmp_path / "a.db")
    fill(src)
    expected = summarise(src.connection())
    src.close()
    done = _cli(tmp_path / "a.db", pg_database)
    assert done.returncode == 0, done.stderr
    assert expected.checksum in done.stdout
    assert "memory" in done.stdout and "search index: rebuilt in the target" in done.stdout
    again = _cli(tmp_path / "a.db", pg_database)
    assert again.returncode == 1
    assert "is not empty" in again.stderr and "--merge" in again.stderr
    merged = _cli(tmp_path / "a.db", pg_database, "--merge")
    assert merged.returncode == 0, merged.stderr
    assert "skipped" in merged.stdout


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("{tmp}/missing.db", "{tmp}/b.db", "missing.db does not exist"),
        ("{tmp}/notes.txt", "{tmp}/b.db", "not a MemDesk database"),
        ("{tmp}/a.db", "mysql://x@host/db", "not a SQLite file path or a postgresql:// URL"),
        ("{tmp}/a.db", "postgresql://nobody:sekrit@127.0.0.1:1/none", "cannot open postgresql://nobody:***@"),
    ],
)
def test_cli_bad_locations_are_one_clear_line(tmp_path, source, target, message):
    Store.open(tmp_path / "a.db").close()
    (tmp_path / "notes.txt").write_text("hello, not a database")
    done = _cli(source.format(tmp=tmp_path), target.format(tmp=tmp_path))
    assert done.returncode == 1
    assert message in done.stderr
    assert "sekrit" not in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "missing.db").exists()  # a copy never creates its source
