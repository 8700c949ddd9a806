"""The vector index: int8 rows with a scale each, cosine to within a few thousandths."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memdesk.core.search.index import vectors
from memdesk.core.search.index.vectors import VectorIndex


def unit_rows(count: int, dim: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((count, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_similarities_are_the_cosines_within_a_few_thousandths_and_nan_without_a_vector():
    rows = unit_rows(3000, 384, 1)
    index = VectorIndex("m", 384)
    index.reserve(3000)
    index.set_many(np.arange(0, 3000, 2), rows[::2], [f"h{i}" for i in range(0, 3000, 2)])
    index.set(1, rows[1], "h1")
    query = unit_rows(1, 384, 2)[0]
    sims = index.similarities(query, 3010)
    exact = rows @ query
    have = np.zeros(3010, dtype=bool)
    have[0:3000:2] = have[1] = True
    assert np.isnan(sims[~have]).all()
    assert np.abs(sims[have] - exact[have[:3000]]).max() < 0.005
    # the best matches stay the best: the top 20 by int8 are the top 20 by float32
    order = np.argsort(-np.nan_to_num(sims, nan=-2))[:20]
    assert set(order) == set(np.argsort(-np.where(have[:3000], exact, -2))[:20])
    assert index._matrix.dtype == np.int8 and index._matrix.nbytes == index._matrix.size  # a byte a number


def test_rows_grow_are_replaced_and_removed():
    index = VectorIndex("m", 8, capacity=2)
    a, b = unit_rows(2, 8, 3)
    index.set(5, a, "ha")
    assert len(index) == 1 and index.hash_of(5) == "ha" and index.has(7).tolist() == [False] * 5 + [True, False]
    index.set(5, b, "hb")  # an edit re-embedded
    assert index.similarities(b, 6)[5] == pytest.approx(1.0, abs=0.005)
    index.remove(5)
    assert len(index) == 0 and np.isnan(index.similarities(b, 6)).all()
    with pytest.raises(ValueError, match="dimensions"):
        index.set(0, np.ones(9), "h")
    index.set(0, np.zeros(8), "zero")  # an all-zero vector (a degenerate model output) is not NaN
    assert index.similarities(a, 1)[0] == 0.0


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 700),
    st.integers(1, 70),
    st.integers(0, 2**32 - 1),
)
def test_onnxruntime_and_numpy_give_the_same_integer_sums(count, dim, seed):
    rng = np.random.default_rng(seed)
    matrix = rng.integers(-127, 128, (count, dim), dtype=np.int8)
    query = rng.integers(-127, 128, dim, dtype=np.int8)
    exact = matrix.astype(np.int64) @ query.astype(np.int64)
    assert vectors._session() is not None, "onnxruntime is a dependency"
    assert np.array_equal(vectors.integer_dots(matrix, query), exact.astype(np.float32))
    assert np.array_equal(vectors.numpy_dots(matrix, query), exact.astype(np.float32))


def test_the_hand_written_model_is_a_valid_onnx_matmul_integer():
    onnx = pytest.importorskip("onnx")
    model = onnx.load_from_string(vectors.matmul_integer_model())
    onnx.checker.check_model(model, full_check=True)
    (node,) = model.graph.node
    assert (node.op_type, list(node.input), list(node.output)) == ("MatMulInteger", ["A", "B"], ["Y"])
    types = {v.name: v.type.tensor_type.elem_type for v in [*model.graph.input, *model.graph.output]}
    assert types == {"A": onnx.TensorProto.INT8, "B": onnx.TensorProto.INT8, "Y": onnx.TensorProto.INT32}


hashes = st.one_of(
    st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),  # what text_hash gives
    st.text(max_size=40),  # anything else a caller might keep: long, empty, not ASCII, NULs
)
slots = st.integers(0, 40)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("set"), slots, hashes),
        st.tuples(st.just("many"), st.lists(st.tuples(slots, hashes), max_size=6, unique_by=lambda p: p[0])),
        st.tuples(st.just("remove"), slots),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(ops)
@example([("set", 3, "ab\0"), ("many", [(4, "\0"), (5, "x" * 33), (6, "向量")])])
def test_each_slot_gives_back_the_hash_it_was_last_set_with(steps):
    index, model = VectorIndex("m", 4, capacity=1), {}
    row = np.ones(4, dtype=np.float32)
    for step in steps:
        if step[0] == "set":
            index.set(step[1], row, step[2])
            model[step[1]] = step[2]
        elif step[0] == "many":
            pairs = step[1]
            if pairs:
                index.set_many(np.array([s for s, _ in pairs]), np.ones((len(pairs), 4)), [h for _, h in pairs])
            model.update(pairs)
        else:
            index.remove(step[1])
            model.pop(step[1], None)
        assert len(index) == len(model)
    for slot in range(45):
        assert index.hash_of(slot) == model.get(slot)
    assert index.has(45).tolist() == [slot in model for slot in range(45)]
