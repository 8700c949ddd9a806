"""`memdesk --self-test` passes in a real process (the installers run the same check)."""

import os
import subprocess
import sys


def test_self_test_passes(tmp_path):
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        MEMDESK_MODELS_DIR=str(tmp_path / "models"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )
    result = subprocess.run(
        [sys.executable, "-m", "memdesk", "--self-test"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stdout
    assert "search: jieba + BM25" in result.stdout and "window: open and close" in result.stdout
