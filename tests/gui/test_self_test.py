"""`memdesk --self-test` passes in a real process (the installers run the same check)."""

import os
import subprocess
import sys


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_self_test_passes_and_leaves_the_users_files_alone(tmp_path):
    ini = tmp_path / "config" / "MemDesk" / "MemDesk.ini"
    ini.parent.mkdir(parents=True)
    ini.write_text("[ui]\nlanguage=en\n\n[window]\nstate=the user's own layout\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "cache").mkdir()
    before = {name: _files(tmp_path / name) for name in ("config", "data", "cache")}
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        MEMDESK_MODELS_DIR=str(tmp_path / "models"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    env.pop("MEMDESK_CACHE_DIR", None)
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
    after = {name: _files(tmp_path / name) for name in ("config", "data", "cache")}
    assert after == before  # the window's settings, the data and cache folders: untouched
