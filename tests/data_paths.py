"""Where the tests find data that is not in the repository: one place for each.

Tests that need one skip when it is absent. .ci/run points MEMDESK_TEST_MODEL at the
workplace's shared copy; the defaults are where the workplace keeps them.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The offline sentence model (all-MiniLM-L6-v2, int8 ONNX) for the semantic-search tests.
MODEL_DIR = Path(os.environ.get("MEMDESK_TEST_MODEL") or "/work/shared/models/all-MiniLM-L6-v2-int8")

# The public retrieval benchmark files (bench README format) for the retrieval floor test.
BENCH_DIR = Path(os.environ.get("MEMDESK_BENCH_DIR") or ROOT.parent / "shared" / "bench")


def model_present() -> bool:
    return (MODEL_DIR / "model.onnx").is_file()
