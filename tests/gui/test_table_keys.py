"""The memory table's title keys, worked out on a window's worker thread with the UI thread's
turns in between (table_keys._keys), are the keys worked out at once."""

from __future__ import annotations

import threading
import time

from memdesk.core.search.language import piece_cache
from memdesk.gui.browser.table_keys import ranks_of

TITLES = [f"{word}{i}" for i, word in enumerate(["重庆火锅", "apple", "会议记录", "会意", "北京", "安排", ""] * 500)]


def _on_a_worker(texts: list[str]) -> tuple[tuple, float]:
    out: dict = {}

    def run() -> None:
        started = time.perf_counter()
        out["ranks"] = ranks_of(texts)
        out["took"] = time.perf_counter() - started

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return out["ranks"], out["took"]


def test_keys_made_with_pauses_for_the_ui_thread_are_the_same(monkeypatch):
    keys, places = ranks_of(TITLES)  # the main thread never pauses
    assert len(keys) == len(set(TITLES))
    an, ap, bei = (places[TITLES.index(t)] for t in ("安排5", "apple1", "北京4"))
    assert an < ap < bei
    monkeypatch.setattr(piece_cache, "UI_TURN_S", 0.001)  # as the window sets it
    (paused_keys, paused_places), took = _on_a_worker(TITLES)
    assert paused_keys == keys and (paused_places == places).all()
    assert took >= 0.02  # it did pause: 3,500 keys (~15 ms) in slices of 0.1 ms, 1 ms between
