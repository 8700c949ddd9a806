"""core.brief_table: the window's memories as columns read like a dict of id -> Brief."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.views.brief_table import Brief, BriefTable

IDS = st.sampled_from(["a", "b", "ab", "ba", "长id", "记忆-1", "x" * 40, "\ud800"])
BRIEFS = st.builds(
    Brief,
    id=st.just(""),
    persona_id=st.sampled_from([None, "p1", "p2"]),
    group=st.sampled_from(["", "工作", "工作/项目"]),
    title=st.text(max_size=12),
    tags=st.sampled_from([(), ("咖啡",), ("咖啡", "早上")]),
    type=st.sampled_from(["fact", "note"]),
    tier=st.sampled_from(["long", "short"]),
    state=st.sampled_from(["active", "deleted", "expired", "superseded"]),
    importance=st.integers(1, 10),
)
OPS = st.lists(st.tuples(st.sampled_from(["set", "pop"]), IDS, BRIEFS), max_size=30)


def _with_id(brief: Brief, memory_id: str) -> Brief:
    return Brief(memory_id, *(getattr(brief, name) for name in Brief.__slots__[1:]))


@settings(max_examples=150, deadline=None)
@given(first=OPS, then=OPS, collide=st.booleans())
def test_the_table_behaves_as_a_dict_of_briefs(first, then, collide):
    # Rows added before seal() are found through sorted hashes, later ones through a dict;
    # ``collide`` gives every id one of two hashes, so lookups must tell colliding ids apart.
    key = (lambda memory_id: len(memory_id) % 2) if collide else hash
    expected: dict[str, Brief] = {}
    for op, memory_id, brief in first:
        if op == "set":
            expected[memory_id] = _with_id(brief, memory_id)
    table = BriefTable.of(expected.values(), key=key)
    for op, memory_id, brief in then:
        if op == "set":
            expected[memory_id] = table_brief = _with_id(brief, memory_id)
            table[memory_id] = table_brief
        else:
            assert table.pop(memory_id) == expected.pop(memory_id, None)
        assert len(table) == len(expected)
    assert dict(table.items()) == expected
    for memory_id in ["a", "b", "ab", "ba", "长id", "记忆-1", "x" * 40, "\ud800", "none"]:
        assert (memory_id in table) == (memory_id in expected)
        assert table.get(memory_id) == expected.get(memory_id)
        row = table.row(memory_id)
        if row is not None:
            assert table.sort_key(row) == expected[memory_id].sort_key
    asked = ["a", "b", "ab", "ba", "长id", "记忆-1", "x" * 40, "\ud800", "none", "ab"]
    rows = [row for memory_id in asked if (row := table.row(memory_id)) is not None]
    assert table.rows_of(asked).tolist() == rows  # every match of a search at once: as row() one by one
