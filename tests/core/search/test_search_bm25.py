"""Our BM25 against rank-bm25's, and incremental updates against a rebuild."""

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from memdesk.core.search.index.bm25 import BM25Field

CORPUS = [
    "the cat sat on the mat".split(),
    "the dog sat on the log".split(),
    "cats and dogs are friends".split(),
    "a mat for the cat and the dog".split(),
    "nothing in common here".split(),
    "the the the cat".split(),
]


def build(docs):
    field = BM25Field()
    for slot, doc in enumerate(docs):
        weights = {}
        for term in doc:
            weights[term] = weights.get(term, 0) + 1
        field.set(slot, weights)
    return field


@pytest.mark.parametrize("query", [["dog"], ["the", "dog"], ["dog", "mat", "mat"], ["missing"], ["the"]])
def test_scores_equal_rank_bm25(query):
    ours = np.zeros(len(CORPUS))
    build(CORPUS).add_scores(query, ours)
    theirs = BM25Okapi(CORPUS).get_scores(query)
    assert np.allclose(ours, theirs)


def test_idf_of_zero_gets_the_floor_unlike_rank_bm25():
    # "cat" is in 3 of 6 documents: rank-bm25 gives it idf 0, i.e. unfindable.
    assert np.all(BM25Okapi(CORPUS).get_scores(["cat"]) == 0)
    ours = np.zeros(len(CORPUS))
    build(CORPUS).add_scores(["cat"], ours)
    assert np.all(ours[[0, 3, 5]] > 0) and np.all(ours[[1, 2, 4]] == 0)


def test_two_similar_documents_stay_findable():
    field = build([["budget", "meeting"], ["budget", "meeting", "notes"]])
    scores = np.zeros(2)
    field.add_scores(["budget"], scores)
    assert np.all(scores > 0) and scores[0] > scores[1]  # the shorter one first


def test_incremental_updates_equal_a_rebuild():
    field = build(CORPUS)
    # Replace doc 1, remove doc 4, add a new doc in slot 6.
    field.set(1, {"bird": 1, "sat": 1})
    field.remove(4)
    field.set(6, {"cat": 2, "bird": 1})
    docs = [CORPUS[0], ["bird", "sat"], CORPUS[2], CORPUS[3], CORPUS[5], ["cat", "cat", "bird"]]
    slots = [0, 1, 2, 3, 5, 6]
    for query in (["bird"], ["cat", "mat"], ["sat", "dog"]):
        ours = np.zeros(7)
        field.add_scores(query, ours)
        theirs = BM25Okapi(docs).get_scores(query)
        assert np.allclose(ours[slots], theirs)
        assert ours[4] == 0.0


def test_only_postings_are_touched():
    field = build(CORPUS)
    slots, counts = field.postings("dog")
    assert sorted(slots.tolist()) == [1, 3]
    assert field.df("dog") == 2 and field.df("nothing-here") == 0
    assert field.contains(1, "dog") and not field.contains(0, "dog")
