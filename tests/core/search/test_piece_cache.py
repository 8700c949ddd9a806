"""piece_cache: a table read back whole; between pieces it gives a UI thread its turn, but
only when read on a worker thread (the window's); a process's main thread reads straight on."""

from __future__ import annotations

import threading
import time

from memdesk.core.search import piece_cache


def test_a_table_comes_back_whole_and_pauses_only_off_the_main_thread(tmp_path, monkeypatch):
    table = {f"词{i}": i for i in range(64 * 100)}  # 100 a piece
    path = tmp_path / "table.json-pieces"
    piece_cache.write(path, table, 7.5)
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)

    assert piece_cache.read(path) == (table, 7.5)
    assert slept == []  # the CLI, an import's worker processes: nothing to wait for

    got = []
    worker = threading.Thread(target=lambda: got.append(piece_cache.read(path)))
    worker.start()
    worker.join()
    assert got == [(table, 7.5)]
    assert slept == [piece_cache.UI_TURN_S] * piece_cache.PIECES  # one turn after each piece
