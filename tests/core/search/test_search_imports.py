"""The search package imports safely from several threads at once, as the window's lanes do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Fresh interpreters: three threads enter the search modules at different places at the same
# moment (the window's search lane opens the engine, its work lane imports the indexer, a
# search parses its query). When the package's __init__ imported the engine, a submodule's
# "from . import piece_cache" waited for it while it waited for that submodule: one thread
# got "cannot import name ... from partially initialized module" in about half the runs.
SCRIPT = """
import json, threading
entries = [
    "from memdesk.core.search import SearchEngine",
    "from memdesk.core.search.index.indexer import pending",
    "from memdesk.core.search.query.query import parse",
    "from memdesk.core.search.language.thesaurus import Thesaurus",
]
errors, start = [], threading.Barrier(len(entries))
def enter(statement):
    start.wait()
    try:
        exec(statement, {})
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=enter, args=(e,)) for e in entries]
for t in threads:
    t.start()
for t in threads:
    t.join()
from memdesk.core.search import SearchEngine, SearchWeights, Tokenizer, parse
print(json.dumps(errors))
"""


def test_threads_entering_the_search_modules_at_once_all_get_them():
    for _ in range(8):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=str(ROOT), timeout=60, check=True
        )
        assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_package_names_what_it_exports():
    import memdesk.core.search as search

    for name in search.__all__:
        assert getattr(search, name) is not None
    with pytest.raises(AttributeError, match="NoSuchThing"):
        search.NoSuchThing  # noqa: B018 - the attribute access is the test
