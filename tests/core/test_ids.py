"""resolve_memory_id: a full memory id, or a unique prefix of one, against a real SQLite file."""

import pytest

from memdesk.core.domain.errors import NotFoundError
from memdesk.core.store import Store
from memdesk.core.views.ids import AmbiguousIdError, resolve_memory_id

# Two memories share the prefix "abcd"; a third starts differently.
IDS = (
    "abcd1111-0000-4000-8000-000000000001",
    "abcd2222-0000-4000-8000-000000000002",
    "ef015678-0000-4000-8000-000000000003",
)


@pytest.fixture
def db(db_path):
    store = Store.open(db_path)
    for memory_id in IDS:
        store.add(id=memory_id, content=f"memory {memory_id[:8]}")
    store.close()
    return db_path


def test_resolve_full_id_and_unique_prefix(db):
    store = Store.open(db)
    try:
        assert resolve_memory_id(store, IDS[0]) == IDS[0]
        assert resolve_memory_id(store, "abcd1") == IDS[0]
        assert resolve_memory_id(store, " ef01 ") == IDS[2]
        with pytest.raises(AmbiguousIdError) as ambiguous:
            resolve_memory_id(store, "abcd")
        assert [m.id for m in ambiguous.value.candidates] == list(IDS[:2])
        assert IDS[0] in str(ambiguous.value) and IDS[1] in str(ambiguous.value)
        with pytest.raises(NotFoundError, match="too short"):
            resolve_memory_id(store, "abc")
        with pytest.raises(NotFoundError, match="no memory id starts with 'zzzz'"):
            resolve_memory_id(store, "zzzz")
    finally:
        store.close()


def test_resolve_short_full_ids_and_wildcard_characters(db_path):
    store = Store.open(db_path)
    try:
        store.add(id="42", content="an imported memory with a short id")
        store.add(id="ab_d%123", content="LIKE wildcards in an id")
        store.add(id="abXdY123", content="what the wildcards would match")
        assert resolve_memory_id(store, "42") == "42"  # an exact id may be short
        assert resolve_memory_id(store, "ab_d") == "ab_d%123"  # _ and % are plain characters
        with pytest.raises(NotFoundError):
            resolve_memory_id(store, "AB_D")  # ids are matched as typed
    finally:
        store.close()


def test_resolve_looks_in_the_trash_or_outside_it(db):
    store = Store.open(db)
    try:
        store.delete([IDS[1]])
        assert resolve_memory_id(store, "abcd", where="trash") == IDS[1]
        assert resolve_memory_id(store, "abcd", where="live") == IDS[0]
        with pytest.raises(AmbiguousIdError):
            resolve_memory_id(store, "abcd", where="any")
        with pytest.raises(NotFoundError, match=f"names memory {IDS[2]}, which is not in the trash"):
            resolve_memory_id(store, "ef01", where="trash")
        assert resolve_memory_id(store, IDS[2], where="trash") == IDS[2]  # a full id: the command decides
    finally:
        store.close()


@pytest.mark.parametrize("stored", [True, False], ids=["stored index", "in-memory index"])
def test_an_id_filter_takes_the_prefix_list_prints(db, stored):
    """`id:abcd1111` (the 8 characters `memdesk list` prints) finds its memory, like the commands."""
    from memdesk.core.search import SearchEngine

    store = Store.open(db)
    try:
        store.add(id="ab_d%123", content="LIKE wildcards in an id")
        engine = SearchEngine(store) if stored else SearchEngine()
        engine.build() if stored else engine.build(store.list(state="all"))
        assert engine.search("id:abcd1111").ids == [IDS[0]]
        assert engine.search(f"id:{IDS[0]}").ids == [IDS[0]]
        assert sorted(engine.search("id:abcd").ids) == list(IDS[:2])  # a list: every memory it fits
        assert engine.search("id:ab_d").ids == ["ab_d%123"]  # _ and % are plain characters
        assert engine.search("id:abc").ids == []  # too short for a prefix: a whole id only
        assert engine.search("id:ABCD1111").ids == []  # ids are matched as typed
    finally:
        store.close()


def test_a_persona_is_named_by_its_name_its_id_or_a_unique_prefix(db_path):
    from memdesk.core.domain.errors import ValidationError

    store = Store.open(db_path)
    try:
        work, _ = store.create_persona(name="工作助手", id="7085aa11-0000-4000-8000-000000000001")
        store.create_persona(name="生活管家", id="7085bb22-0000-4000-8000-000000000002")
        assert store.resolve_persona("工作助手") == work
        assert store.resolve_persona(work) == work
        assert store.resolve_persona(" 7085aa11 ") == work
        with pytest.raises(AmbiguousIdError, match="matches 2 personas"):
            store.resolve_persona("7085")
        with pytest.raises(ValidationError):
            store.resolve_persona(work[:3])  # too short for a prefix
    finally:
        store.close()


def test_an_id_filter_finds_exactly_the_ids_a_prefix_begins(db_path):
    """Any prefix of 4+ characters of any stored id: `id:PREFIX` finds the memories whose id starts so."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from memdesk.core.search import SearchEngine

    store = Store.open(db_path)
    try:
        ids = [f"{a}{b}{c}-{n}" for n, (a, b, c) in enumerate(("aaa", "aab", "abc", "abd", "bcd"))]
        ids += ["aaa0", "aaa0-x"]  # an id that is a prefix of another
        for memory_id in ids:
            store.add(id=memory_id, content=f"memory {memory_id}")
        engine = SearchEngine(store)
        engine.build()

        @settings(max_examples=60, deadline=None)
        @given(st.sampled_from(ids), st.integers(min_value=4, max_value=8))
        def check(memory_id, length):
            prefix = memory_id[:length]
            expected = sorted(i for i in ids if i.startswith(prefix))
            found = sorted(engine.search(f"id:{prefix}", limit=None).ids)
            assert found == ([prefix] if prefix in ids else expected)  # a whole id names that memory only

        check()
    finally:
        store.close()
