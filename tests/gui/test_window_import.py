"""Importing by dropping a file on the window; the preview; the first-start examples."""

from __future__ import annotations

import json

from PySide6.QtCore import QMimeData, QUrl

from memdesk.core.store import Store


def write_file(tmp_path, existing_id, existing_updated):
    data = {
        "memories": [
            {"content": "用户的生日是五月二十日", "title": "生日", "group": "个人", "tags": ["日期"]},
            {"content": "用户住在杭州", "title": "住址"},
            {"id": existing_id, "content": "用户喜欢喝绿茶和红茶", "title": "茶", "updatedAt": existing_updated},
            {"title": "没有内容"},
            {"content": "标签不对", "tags": 5},
        ]
    }
    path = tmp_path / "导入.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_dropping_a_json_file_previews_then_imports(launch, db_path, tmp_path, qtbot, open_preview):
    store = Store.open(db_path)
    tea = store.add(content="用户喜欢喝绿茶", title="茶").added[0]
    updated = store.get(tea).updated_at.isoformat()
    store.close()
    window = launch(db_path)
    path = write_file(tmp_path, tea, updated)

    dialog = open_preview(window, path)
    assert dialog.isVisible() and window.session.store.count(state="all") == 1  # nothing written yet
    assert dialog.plan.summary() == {"new": 2, "updated": 1, "unchanged": 0, "conflict": 0, "invalid": 2}
    model = dialog.model
    statuses = [model.index(r, 1).data() for r in range(model.rowCount())]
    assert statuses == ["New", "New", "Updated", "Invalid", "Invalid"]
    assert model.index(3, 3).data() == "Content is missing"  # the reason for each record, by its code
    assert "tags" in model.index(4, 3).data()
    dialog.filter.setCurrentIndex(dialog.filter.findData("invalid"))
    assert dialog.proxy.rowCount() == 2
    assert dialog.import_button.text() == "Import 3 memories"

    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        dialog.import_button.click()  # the import runs on the db lane
    store = window.session.store
    assert store.count() == 3 and store.get(tea).content == "用户喜欢喝绿茶和红茶"
    qtbot.waitUntil(lambda: window.browser.tree.counts()["active"] == 3)
    assert "3 memories" in window.counts_label.text()

    with qtbot.waitSignal(window.session.changes_applied):
        window.session.undo()  # an import is one undo step
    assert store.count(state="all") == 1 and store.get(tea).content == "用户喜欢喝绿茶"


def test_a_file_that_is_not_json_is_reported(launch, db_path, tmp_path, qtbot, drop):
    window = launch(db_path)
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    with qtbot.waitSignal(window.session.error_raised, timeout=10000) as blocker:
        drop(window, window.rect().center(), data)
    assert "bad.json" in blocker.args[0]


def test_first_start_offers_examples_and_writes_nothing_without_yes(launch, db_path, qtbot, tmp_path):
    window = launch(db_path)
    assert window.examples_banner.isVisible()
    assert window.session.store.count(state="all") == 0
    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        window.examples_banner.yes_button.click()
    store = window.session.store
    assert store.count() == 12 and {p.name for p in store.personas()} == {"工作助手", "生活管家"}
    assert not window.examples_banner.isVisible()
    qtbot.waitUntil(lambda: window.browser.tree.counts()["active"] == 12)


def test_declined_examples_are_not_offered_again(launch, tmp_path, qtbot):
    path = tmp_path / "empty.db"
    window = launch(path)
    window.examples_banner.no_button.click()
    assert window.session.store.count(state="all") == 0
    again = launch(path)
    assert not again.examples_banner.isVisible()


def test_a_large_import_is_cut_in_worker_processes_and_lands(launch, db_path, tmp_path, qtbot):
    """1,000+ memories: the store cuts them in forked workers, which a daemonic import child
    could not start ("daemonic processes are not allowed to have children")."""
    import json

    from memdesk.core.search.index.parallel import MIN_ITEMS as PARALLEL_MIN

    source = tmp_path / "many.json"
    n = PARALLEL_MIN + 50
    source.write_text(
        json.dumps({"memories": [{"content": f"批量导入的记忆 {i}"} for i in range(n)]}, ensure_ascii=False),
        encoding="utf-8",
    )
    window = launch(db_path)
    errors = []
    window.session.error_raised.connect(errors.append)
    with qtbot.waitSignal(window.importer.imported, timeout=120000):
        window.importer.import_file(source, preview=False)
    assert errors == []
    assert window.session.store.count(state="active") == n
    qtbot.waitUntil(
        lambda: not window.browser.tree.building and window.browser.tree.counts()["active"] == n, timeout=30000
    )
