"""With a real ONNX model (tests/data_paths.py: MEMDESK_TEST_MODEL or the shared MiniLM), search
finds a memory by meaning when it shares no keyword with the query."""

import pytest

from memdesk.core.embed import load_embedder
from memdesk.core.search import SearchEngine
from tests.data_paths import MODEL_DIR as MODEL
from tests.data_paths import model_present

pytestmark = pytest.mark.skipif(not model_present(), reason=f"no model folder at {MODEL} (MEMDESK_TEST_MODEL)")


def test_finds_by_meaning_without_a_shared_word(store):
    embedder = load_embedder(MODEL, pooling="mean")
    target = store.add(content="I adopted two kittens and a puppy last spring").added[0]
    for text in (
        "The quarterly budget meeting moved to Thursday",
        "My favourite programming language is Rust",
        "We drove along the coast to visit my grandmother",
        "The printer on floor three is jammed again",
    ):
        store.add(content=text)
    engine = SearchEngine(store, embedder)
    engine.build()
    engine.embed_missing()
    result = engine.search("pets animals", limit=3)
    assert result.semantic
    assert result.hits and result.hits[0].id == target
    keyword_only = SearchEngine(store, None)
    keyword_only.build()
    assert target not in keyword_only.search("pets animals", limit=3).ids  # truly no shared keyword
