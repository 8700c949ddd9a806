"""The stored postings' formats and block updates (postings_codec.py, index_terms.py): any
sequence of writes leaves a term's blocks holding exactly its postings, in doc order,
each block within its size and keyed by its first doc."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.search.index import terms as index_terms
from memdesk.core.search.index.keyword import FIELD_WEIGHTS
from memdesk.core.search.index.postings_codec import (
    BLOCK_MAX,
    append_to_block,
    change_in_block,
    decode_blocks,
    decode_terms,
    encode_blocks,
    encode_terms,
    to_varints,
    varints,
)
from memdesk.core.search.index.upgrade import SQLITE_TABLES

counts = st.integers(1, 300).map(float)


@given(st.lists(st.integers(0, 2**62), max_size=200))
def test_varints_round_trip(values):
    data, sizes = to_varints(np.array(values, dtype=np.int64))
    assert varints(data).tolist() == values and int(sizes.sum()) == len(data)


@given(st.dictionaries(st.integers(0, 10**7), counts, max_size=600), st.integers(1, 300))
def test_blocks_round_trip(postings, size):
    docs = np.array(sorted(postings), dtype=np.int64)
    tfs = np.array([postings[d] for d in docs.tolist()])
    blocks = encode_blocks(docs, tfs, size=size)
    assert [first for first, _ in blocks] == docs[::size].tolist()
    got_docs, got_tfs = decode_blocks(blocks)
    assert got_docs.tolist() == docs.tolist() and got_tfs.tolist() == tfs.tolist()
    if len(blocks) > 1:  # any run of a term's blocks decodes alone
        tail_docs, _ = decode_blocks(blocks[1:])
        assert tail_docs.tolist() == docs[size:].tolist()


bag = st.lists(st.tuples(st.integers(1, 10**6), counts), max_size=40, unique_by=lambda p: p[0])


@given(bag, bag, bag, bag)
def test_term_lists_keep_each_bag_in_its_order(words, grams, pinyin, tags):
    bags = [([i for i, _ in b], [c for _, c in b]) for b in (words, grams, pinyin, tags)]
    decoded = decode_terms(encode_terms(bags))
    assert [(ids.tolist(), tfs.tolist()) for ids, tfs in decoded] == bags


def test_counts_must_be_whole():
    assert all(float(w).is_integer() for w in FIELD_WEIGHTS.values())  # what makes counts whole
    with pytest.raises(ValueError):
        encode_blocks(np.array([1]), np.array([1.5]))


def _stored(conn) -> dict[int, dict[int, float]]:
    out: dict[int, dict[int, float]] = {}
    for (term,) in conn.execute("SELECT DISTINCT term FROM search_post"):
        rows = conn.execute("SELECT first_doc, data FROM search_post WHERE term = ? ORDER BY first_doc", (term,))
        rows = rows.fetchall()
        for first, data in rows:
            docs, _ = decode_blocks([(first, data)])
            assert 0 < len(docs) <= BLOCK_MAX and int(docs[0]) == first
        docs, tfs = decode_blocks(rows)
        assert (np.diff(docs) > 0).all()
        out[term] = dict(zip(docs.tolist(), tfs.tolist()))
    return out


# A write: (term, doc, count) changes, count 0 removing the posting.
change = st.tuples(st.integers(0, 3), st.integers(0, 700), st.sampled_from([0.0, 0.0, 1.0, 2.0, 5.0]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(change, min_size=1, max_size=400), min_size=1, max_size=8))
def test_block_updates_equal_the_postings_written(tmp_path_factory, writes):
    conn = sqlite3.connect(str(tmp_path_factory.mktemp("post") / "p.db"))
    conn.execute('CREATE TABLE "search_stat" ("name" TEXT NOT NULL PRIMARY KEY, "value")')
    for statement in SQLITE_TABLES[:3]:
        conn.execute(statement)
    model: dict[int, dict[int, float]] = {}
    for write in writes:
        ids = index_terms.TermIds(conn)
        ids.resolve(0, [str(t) for t in range(4)])
        last = {(t, d): tf for t, d, tf in write}  # each (term, doc) once a write
        df: dict[int, int] = {}
        rows = []
        for (term, doc), tf in last.items():
            term_id = ids.ids(0, [str(term)])[0]
            had = doc in model.get(term_id, {})
            if tf:
                model.setdefault(term_id, {})[doc] = tf
            elif had:
                del model[term_id][doc]
            df[term_id] = df.get(term_id, 0) + (1 if tf and not had else -1 if had and not tf else 0)
            rows.append((term_id, doc, tf))
        arrays = [np.array(col) for col in zip(*rows)]
        index_terms.apply(conn, ids, arrays[0].astype(np.int64), arrays[1].astype(np.int64), arrays[2], df)
        ids.finish()
        model = {t: p for t, p in model.items() if p}
        assert _stored(conn) == model
        frequencies = dict(conn.execute("SELECT id, df FROM search_term"))
        assert frequencies == {t: len(p) for t, p in model.items()}
    assert index_terms.reblock(conn) >= 0
    assert _stored(conn) == model
    conn.close()


@given(
    st.dictionaries(st.integers(0, 10**6), counts, min_size=1, max_size=200),
    st.lists(st.tuples(st.integers(1, 10**5), counts), min_size=1, max_size=60),
)
def test_appending_to_a_block_equals_encoding_it_whole(postings, more):
    docs = sorted(postings)
    [(first, data)] = encode_blocks(np.array(docs), np.array([postings[d] for d in docs]), size=BLOCK_MAX)
    added, last = [], docs[-1]
    for step, count in more:
        last += step
        added.append((last, count))
    grown = append_to_block(first, data, [d for d, _ in added], [int(c) for _, c in added])
    whole = {**postings, **dict(added)}
    if len(whole) > BLOCK_MAX:
        assert grown is None
        return
    got_docs, got_tfs = decode_blocks([(first, grown)])
    assert dict(zip(got_docs.tolist(), got_tfs.tolist())) == whole and got_docs.tolist() == sorted(whole)
    assert append_to_block(first, data, [docs[-1]], [1]) is None  # not after the block's last: refused


@given(
    st.dictionaries(st.integers(0, 10**6), counts, min_size=1, max_size=BLOCK_MAX),
    st.integers(0, 10**6 + 10),
    st.sampled_from([0, 0, 1, 1, 2, 7, 300]),
    st.booleans(),
)
def test_one_change_in_a_block_equals_encoding_it_whole(postings, doc, count, existing):
    docs = sorted(postings)
    if existing:  # most edits change a memory the block holds
        doc = docs[doc % len(docs)]
    [(first, data)] = encode_blocks(np.array(docs), np.array([postings[d] for d in docs]), size=BLOCK_MAX)
    changed = change_in_block(first, data, doc, count)
    whole = dict(postings)
    if count:
        whole[doc] = float(count)
    else:
        whole.pop(doc, None)
    if len(whole) > BLOCK_MAX:
        assert changed is None
        return
    assert changed is not None
    new_first, new_data = changed
    if not whole:
        assert new_data == b""
        return
    assert new_first == min(whole)
    got_docs, got_tfs = decode_blocks([(new_first, new_data)])
    assert got_docs.tolist() == sorted(whole) and dict(zip(got_docs.tolist(), got_tfs.tolist())) == whole
    # The bytes are those of the block encoded whole: readers cannot tell how it was written.
    assert encode_blocks(np.array(sorted(whole)), np.array([whole[d] for d in sorted(whole)]), size=BLOCK_MAX) == [
        (new_first, new_data)
    ]
