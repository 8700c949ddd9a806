"""Integration with a real sentence model (all-MiniLM-L6-v2, int8), when it is on this machine."""

import numpy as np
import pytest

from memdesk.core.embed import install_model, load_embedder
from tests.data_paths import MODEL_DIR as MINILM
from tests.data_paths import model_present

pytestmark = pytest.mark.skipif(not model_present(), reason=f"no MiniLM model folder at {MINILM}")


@pytest.fixture(scope="module")
def minilm():
    return load_embedder(MINILM)  # no config of ours: known name -> mean pooling, 384 dims


def test_known_defaults_apply(minilm):
    assert minilm.dim == 384 and minilm.config.pooling == "mean" and minilm.config.max_tokens == 256


def test_similar_sentences_are_closer_than_unrelated_ones(minilm):
    pairs = [
        ("The cat sits on the mat.", "A kitten is resting on a rug.", "Stock markets fell sharply today."),
        ("How do I reset my password?", "I forgot my login credentials.", "The recipe needs two eggs."),
        (
            "The user prefers dark mode in editors.",
            "They like dark themes for coding.",
            "The train to Paris was delayed.",
        ),
    ]
    for anchor, similar, unrelated in pairs:
        a, s, u = minilm.embed([anchor, similar, unrelated])
        assert a @ s > a @ u + 0.3, (anchor, float(a @ s), float(a @ u))


def test_a_text_gets_the_same_vector_whatever_its_batch(minilm):
    # int8 dynamic quantisation scales activations per run; the embedder
    # therefore runs quantised models one text at a time.
    texts = ["short", "a somewhat longer sentence about nothing in particular", "mid length text here"] * 4
    batched = minilm.embed(texts)
    assert minilm.batch_size == 1
    for i in (0, 1, 2):
        np.testing.assert_allclose(batched[i], minilm.embed([texts[i]])[0], atol=1e-6)
    forced = load_embedder(MINILM, batch_size=16).embed(texts)
    cosine = np.sum(forced * batched, axis=1)
    assert 0.95 < cosine.min() < 0.9999  # batch-mates shift a quantised model's vectors


def test_install_records_a_calibration_in_the_models_language(models_root):
    info = install_model(MINILM)
    cal = info.config.calibration
    assert cal["language"] == "en" and cal["unrelated_p95"] < 0.4
