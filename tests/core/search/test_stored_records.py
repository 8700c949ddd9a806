"""The stored index's full records (StoredTable.records_of), kept between searches: the
least recently shown go first, so a search's hits asked twice in a row are read once."""

from __future__ import annotations

from memdesk.core.search.engine import SearchEngine
from memdesk.core.search.index import stored_table


def test_the_least_recently_shown_records_are_let_go_first(store, monkeypatch):
    monkeypatch.setattr(stored_table, "RECORDS_KEPT", 5)
    ids = list(store.add_many([{"content": f"第 {i} 条记忆"} for i in range(10)]).added)
    engine = SearchEngine(store)
    engine.build()
    table = engine._index.table
    slots = [table.slot(memory_id) for memory_id in ids]

    first = table.records_of(slots[:5])
    assert [first[s].id for s in slots[:5]] == ids[:5]
    again = table.records_of(slots[:2])  # shown again: now the most recent
    assert all(again[s] is first[s] for s in slots[:2])  # kept, not read again
    later = table.records_of(slots[5:8])  # three more: the three least recently shown go
    assert [later[s].id for s in slots[5:8]] == ids[5:8]
    kept = table.records_of(slots[:2] + slots[5:8])
    assert all(kept[s] is first[s] for s in slots[:2]) and all(kept[s] is later[s] for s in slots[5:8])
    reread = table.records_of(slots[2:5])
    assert all(reread[s] is not first[s] and reread[s].id == first[s].id for s in slots[2:5])
