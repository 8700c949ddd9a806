"""An import's cuts made ahead of its transaction (search/index/precut.py) give the index a
fresh build gives, and are not used when the store's vocabulary moved in between."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

from memdesk.core.io.plan import _new_rows, import_file
from memdesk.core.maintenance import importance_score
from memdesk.core.search import SearchEngine
from memdesk.core.search.index.parallel import MIN_ITEMS
from memdesk.core.search.index.precut import Ahead
from memdesk.core.store import Store
from memdesk.core.writes.bulk_insert import insert_new
from tests.core.search.test_search_persistent import assert_equals_rebuild, snapshot

TOPICS = ["喜欢喝冷萃咖啡", "周末去杭州西湖跑步", "下周三和张经理开项目会议", "早上喝绿茶", "记得买咖啡因少的茶"]


def _fields(n: int) -> list[dict]:
    """Planned records (as a plan's items hold them): tags, groups and titles bring
    vocabulary that other memories' texts contain; every seventh sets its importance."""
    out = []
    for i in range(n):
        fields = {
            "id": f"pre-{i:05d}",
            "content": f"{TOPICS[i % len(TOPICS)]}，第{i}次",
            "title": ["", "咖啡", "西湖"][i % 3],
            "tags": [["咖啡因"], ["项目会议"], []][i % 3],
            "group": ["", "生活", "工作/项目"][i % 3],
        }
        if i % 7 == 0:
            fields["importance"] = 9
        out.append(fields)
    return out


def _write_ahead(store: Store, fields: list[dict], between=None) -> dict | None:
    """Start the workers, run ``between``, write the rows with the cuts made ahead; when
    ``between`` was given (the cuts made ahead were then not taken), the words the
    workers cut for the first row."""
    rows, tags = _new_rows(fields)
    ahead = Ahead.start(store, rows)
    assert ahead is not None, "this test process must be able to fork workers (one thread, Linux)"
    try:
        if between is not None:
            between()
        with store.write(ahead=ahead):
            insert_new(rows, tags, scores=ahead.scores())
        return ahead.terms_for(store.get(fields[0]["id"])).words if between is not None else None
    finally:
        ahead.close()


def _auto(fields: dict) -> int:
    return importance_score(f"{fields['title']}\n{fields['content']}" if fields["title"] else fields["content"])


def test_cuts_made_ahead_equal_a_fresh_build_and_scores_are_the_estimates(store):
    store.add(content="冷萃咖啡的做法", tags=["冷萃"])  # vocabulary already in the store
    fields = _fields(MIN_ITEMS + 200)
    _write_ahead(store, fields)
    assert store.count(state="all") == len(fields) + 1
    for f in fields[:30]:
        got = store.get(f["id"])
        assert got.importance == (9 if "importance" in f else _auto(f)), f["id"]
    assert_equals_rebuild(store)


def _words(store, memory_id: str) -> set[str]:
    """The words the index holds for a memory."""
    return {term for (_, term), _ in snapshot(store)["docs"][memory_id][1][0]}


def test_cuts_are_made_again_when_the_vocabulary_moved_in_between(tmp_path):
    path = tmp_path / "m.db"
    store = Store.open(path)
    fields = _fields(MIN_ITEMS)

    def another_connection_adds_a_term():
        other = Store.open(path)
        other.add(content="新词", tags=["冷萃咖啡"])  # a term inside a fifth of the texts
        other.close()

    cut_ahead = _write_ahead(store, fields, between=another_connection_adds_a_term)
    assert cut_ahead is not None and "冷萃咖啡" not in cut_ahead  # the workers did not know the term...
    assert "冷萃咖啡" in _words(store, "pre-00000")  # ...the index cut it again with the term
    assert_equals_rebuild(store)
    store.close()


def test_an_import_of_many_memories_equals_a_fresh_build(tmp_path):
    path = tmp_path / "m.db"
    data = tmp_path / "many.json"
    records = [{**f, "tags": f["tags"]} for f in _fields(MIN_ITEMS + 10)]
    data.write_text(json.dumps({"memories": records}, ensure_ascii=False), encoding="utf-8")
    store = Store.open(path)
    before = snapshot(store)
    plan, changes = import_file(store, data)
    assert len(changes.added) == len(records) and before["docs"] == {}
    found = {hit.id for hit in SearchEngine(store).search("冷萃咖啡", limit=None).hits}
    assert {r["id"] for r in records if "冷萃咖啡" in r["content"]} <= found
    assert_equals_rebuild(store)
    store.close()


def test_an_import_written_in_slices_equals_a_fresh_build(store, monkeypatch):
    """New memories' postings are made by SQLite from their stored bags, a slice at a
    time while the workers cut; memories stored before that contain the import's new
    vocabulary are cut again, the import's own are not (they were cut with it)."""
    from memdesk.core.search.index import writer as index_writer

    monkeypatch.setattr(index_writer, "SPILL_DOCS", 97)  # a dozen slices
    old = store.add(content="每天喝冷萃咖啡因少的咖啡").added[0]
    cut = []
    real_write = index_writer.Writer.write
    monkeypatch.setattr(
        index_writer.Writer,
        "write",
        lambda self, record, *a, **k: cut.append(record.id) or real_write(self, record, *a, **k),
    )
    fields = _fields(MIN_ITEMS + 200)
    _write_ahead(store, fields)
    assert cut.count(old) == 1 and len(cut) == len(fields) + 1  # the old memory once, each new one once
    assert "咖啡因" in _words(store, old)  # a tag the import brought, now cut whole
    assert_equals_rebuild(store)


def test_the_cli_import_of_many_memories_equals_a_fresh_build(tmp_path):
    """`memdesk import` forks its workers before planning (they load jieba meanwhile)."""
    import subprocess
    import sys

    path, data = tmp_path / "m.db", tmp_path / "many.json"
    records = _fields(MIN_ITEMS + 10)
    data.write_text(json.dumps({"memories": records}, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(path), "--create", "import", str(data), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["written"] == len(records)
    store = Store.open(path)
    try:
        assert store.count(state="all") == len(records)
        assert store.get(records[1]["id"]).importance == _auto(records[1])
        assert_equals_rebuild(store)
    finally:
        store.close()


def test_ready_says_whether_a_cut_is_back_without_waiting_or_taking_it(store):
    fields = _fields(MIN_ITEMS)
    rows, _ = _new_rows(fields)
    ahead = Ahead.start(store, rows)
    assert ahead is not None
    try:
        first, last = (SimpleNamespace(id=f["id"]) for f in (fields[0], fields[-1]))
        started = time.monotonic()
        assert not ahead.ready(last)  # the workers are still loading jieba
        assert time.monotonic() - started < 0.1
        while not ahead.ready(last):
            assert time.monotonic() - started < 60, "the workers never finished"
            time.sleep(0.01)
        assert ahead.ready(first)  # earlier cuts came back before the last one
        assert "冷萃咖啡" in ahead.terms_for(first).text  # still there to be taken
        assert ahead.terms_for(last).words
    finally:
        ahead.close()
