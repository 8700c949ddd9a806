"""The word lists (synonyms, pinyin) load after the results on their way are shown, not beside
their paint (browser_pane._warm_up_after_results), and load anyway if those never come."""

from __future__ import annotations

import threading

import pytest

from memdesk.core.search.index.keyword import SHARED_THESAURUS
from memdesk.core.search.language.pinyin import SHARED_PINYIN
from memdesk.core.store import Store
from memdesk.gui.browser.browser_pane import WARM_UP_WAIT_MAX_MS


@pytest.fixture
def opened(db_path, qtbot, asker):
    """(app, gate): the window opened with a search already on its way, held on the search
    lane until the test sets the gate, before the window has opened its index."""
    from memdesk.gui.main import App, application

    store = Store.open(db_path)
    store.add(content="周会在周一上午", group="工作")
    store.close()
    application()
    app = App(ask=asker, maintenance_delay_ms=10**9)
    assert app.open(db_path)
    gate = threading.Event()
    # Queued before any event is handled: the index opens at the window's first show, later.
    app.session.taskman.run(lambda cancel, progress: gate.wait(30), label="", lane="search", visible=False)
    app.window.browser.search("周会")
    session = app.session
    yield app, gate
    gate.set()
    app.window.close()
    app.shutdown()
    assert not session.unexpected_errors


def test_the_word_lists_load_once_the_results_on_their_way_are_shown(opened, qtbot):
    app, gate = opened
    browser = app.window.browser
    shown = []
    browser.search_finished.connect(lambda outcome: shown.append((browser.warm_up_state, outcome)))
    qtbot.waitSignal(browser.index_ready, timeout=20_000).wait()
    assert browser.warm_up_state == "waiting for results"
    qtbot.wait(300)
    assert browser.warm_up_state == "waiting for results" and not shown
    gate.set()
    qtbot.waitUntil(lambda: bool(shown), timeout=20_000)
    state, outcome = shown[0]
    assert state == "waiting for results"  # not started before the results were shown
    assert [hit.record.content for hit in outcome.hits] == ["周会在周一上午"]
    qtbot.waitUntil(lambda: browser.warm_up_state == "done", timeout=20_000)
    assert SHARED_THESAURUS.loaded and SHARED_PINYIN.loaded
    labels = []
    app.session.taskman.task_started.connect(lambda task: labels.append(task.label))
    qtbot.wait(WARM_UP_WAIT_MAX_MS + 200)  # past the fallback timer set as the index opened
    assert "Loading the word lists" not in labels and browser.warm_up_state == "done"


def test_the_word_lists_load_anyway_when_the_results_never_come(opened, qtbot):
    app, gate = opened
    browser = app.window.browser
    qtbot.waitSignal(browser.index_ready, timeout=20_000).wait()
    assert browser.warm_up_state == "waiting for results"
    qtbot.waitUntil(lambda: browser.warm_up_state == "done", timeout=WARM_UP_WAIT_MAX_MS + 10_000)
    assert not gate.is_set()  # the search is still held: nothing was shown


def test_with_no_search_on_its_way_the_word_lists_load_as_the_index_opens(launch, db_path, qtbot):
    store = Store.open(db_path)
    store.add(content="周会", group="工作")
    store.close()
    window = launch(db_path, wait_index=True)
    qtbot.waitUntil(lambda: window.browser.warm_up_state != "not yet", timeout=20_000)
    assert window.browser.warm_up_state in ("started", "done")  # not waiting for results
    qtbot.waitUntil(lambda: window.browser.warm_up_state == "done", timeout=20_000)
