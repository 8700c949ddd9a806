"""piece_cache: a table read back whole; between pieces it gives a UI thread its turn, but
only in the window (which sets the pause) and on a worker thread; elsewhere it reads straight on."""

from __future__ import annotations

import threading
import time

from memdesk.core.search.language import piece_cache


def _read_on_a_worker(path):
    got = []
    worker = threading.Thread(target=lambda: got.append(piece_cache.read(path)))
    worker.start()
    worker.join()
    return got[0]


def test_a_table_comes_back_whole_and_pauses_only_for_a_waiting_ui_thread(tmp_path, monkeypatch):
    table = {f"词{i}": i for i in range(64 * 100)}  # 100 a piece
    path = tmp_path / "table.json-pieces"
    piece_cache.write(path, table, 7.5)
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)

    monkeypatch.setattr(piece_cache, "UI_TURN_S", 0.0)  # no window: the CLI, the MCP server
    assert piece_cache.read(path) == (table, 7.5)
    assert _read_on_a_worker(path) == (table, 7.5)
    assert slept == []

    monkeypatch.setattr(piece_cache, "UI_TURN_S", 0.001)  # as the window sets it
    assert piece_cache.read(path) == (table, 7.5)
    assert slept == []  # on the UI thread itself (or an import's worker process): no one waits
    assert _read_on_a_worker(path) == (table, 7.5)
    assert slept == [0.001] * piece_cache.PIECES  # one turn after each piece
