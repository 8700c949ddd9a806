"""The three ways the index finds a store's vocabulary terms inside a text (key ranges in
SQLite, substring lookups elsewhere, the whole vocabulary in memory for bulk writes) find
the same terms: a cut depends on them, so any difference would make the index depend on
how a memory was written."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.search.index.vocab import Vocabulary, _above
from memdesk.core.search.language.tokenize import vocabulary_terms

# Few characters, so terms often sit inside texts and inside each other; an ASCII letter,
# full-width and plain spaces, and characters on either side of the surrogates and at the
# top of Unicode, where the key ranges' upper bounds are made differently.
ALPHABET = ["咖", "啡", "因", "茶", "绿", "a", " ", "\u3000", "\ud7ff", "\ue000", "\U0010ffff"]
piece = st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=6).map("".join)


def _stored(terms: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        'CREATE TABLE "search_vocab" ("term" TEXT NOT NULL PRIMARY KEY, "refs" INTEGER NOT NULL) WITHOUT ROWID'
    )
    conn.executemany("INSERT OR IGNORE INTO search_vocab VALUES (?, 1)", [(t,) for t in terms])
    return conn


@settings(max_examples=300, deadline=None)
@given(st.lists(piece, max_size=12), st.lists(piece, min_size=1, max_size=8).map("".join))
def test_key_ranges_substring_lookups_and_the_whole_vocabulary_agree(raw_terms, text):
    terms = vocabulary_terms(raw_terms)  # as the index stores them
    stored = Vocabulary(_stored(terms))
    found = stored._ranges(text)
    assert found == stored._lookup(text)
    assert found == Vocabulary.of(terms).within(text)
    assert all(len(t) > 1 and t in text for t in found)


def test_a_text_holding_a_term_finds_it_and_one_character_terms_are_never_taken():
    terms = ["咖啡", "咖啡因", "茶", "绿茶"]
    stored = Vocabulary(_stored(terms))
    assert stored.within("我爱喝咖啡因少的绿茶") == {"咖啡", "咖啡因", "绿茶"}
    assert stored.within("一杯茶") == frozenset()
    assert Vocabulary.of(terms).within("一杯茶") == frozenset()


def test_the_upper_bound_of_a_pair_is_above_every_string_it_starts():
    for pair in ["咖啡", "a\ud7ff", "a\U0010ffff", "\U0010ffff\U0010ffff"]:
        bound = _above(pair)
        for tail in ["", "\U0010ffff" * 10, "z"]:  # a term has 12 characters at most
            assert (pair + tail).encode("utf-8", "surrogatepass") < bound.encode("utf-8", "surrogatepass")
