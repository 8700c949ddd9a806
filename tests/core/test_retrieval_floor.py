"""Retrieval quality must not slip: R@5 on a fixed public subset of the benchmark files stays
within 0.02 of the figures the README gives for it (its "floor subset" table).

Keyword-only and a fixed "now" (a day after each store's newest memory), so the figures are
the same on every machine and every day; about 25 s. The stores are run by bench/retrieval.py
itself, so the benchmark and this floor measure the same way. Skipped when the benchmark files
are absent (tests/data_paths.py says where they are looked for).
"""

import importlib.util
import re
import tempfile
from pathlib import Path

import pytest

from tests.data_paths import BENCH_DIR, ROOT

TOLERANCE = 0.02
# README label -> (file, take every Nth store, only the first N stores, add the distractors)
SUBSETS = {
    "LoCoMo, conversation 0": ("locomo.jsonl", 1, 1, False),
    "MemDaily, every 10th store": ("memdaily.jsonl", 10, None, False),
    "MemDaily, every 60th store + 566 Chinese distractors": ("memdaily.jsonl", 60, None, True),
}

pytestmark = pytest.mark.skipif(
    not all((BENCH_DIR / f).is_file() for f in ("locomo.jsonl", "memdaily.jsonl", "distractors-zh.jsonl")),
    reason=f"benchmark files not found in {BENCH_DIR} (MEMDESK_BENCH_DIR)",
)


def readme_floors() -> dict[str, tuple[int, float]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|]+?) \| (\d+) \| (0\.\d+) \|$", text, flags=re.M)
    return {label: (int(n), float(r5)) for label, n, r5 in rows if label in SUBSETS}


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_retrieval", ROOT / "bench" / "retrieval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tokenizer():
    from memdesk.core.search import Tokenizer

    shared = Tokenizer(cache_size=200_000)  # one jieba and one cut cache for every store
    shared.warm_up()
    return shared


def test_the_readme_gives_a_figure_for_every_subset():
    assert set(readme_floors()) == set(SUBSETS)


@pytest.mark.parametrize("label", list(SUBSETS))
def test_recall_at_5_holds_its_floor(label, bench, tokenizer, tmp_path):
    file, every, first, with_distractors = SUBSETS[label]
    queries, floor = readme_floors()[label]
    distractors = (
        [m for s in bench.read_stores(BENCH_DIR / "distractors-zh.jsonl") for m in s["memories"]]
        if with_distractors
        else []
    )
    rows = []
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else tmp_path) as work:
        for number, store_data in enumerate(bench.read_stores(BENCH_DIR / file)):
            if first is not None and number >= first:
                break
            if number % every == 0:
                rows += bench.run_store(store_data, distractors, None, tokenizer, Path(work), None, "latest")
    overall = bench.summarise(rows)["overall"]
    assert overall["n"] == queries, "the subset changed: measure it again and update the README"
    assert overall["R@5"] >= floor - TOLERANCE, (
        f"{label}: R@5 {overall['R@5']:.3f} is more than {TOLERANCE} below the README's {floor:.3f}"
    )
