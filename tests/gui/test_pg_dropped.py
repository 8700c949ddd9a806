"""A PostgreSQL database dropped on the server under an open window (issue 36): a clear, coded
message, not "unexpected error"; the unsaved edit stays in the editor."""

from __future__ import annotations

import pytest

from memdesk.core.domain.errors import DatabaseDroppedError
from memdesk.core.store import Store

pytestmark = pytest.mark.postgresql


def test_a_dropped_database_is_named_as_such(pg_server, launch, asker, qtbot, type_text):
    name = pg_server.new_database()
    url = pg_server.url(name)
    seeded = Store.open(url)
    seeded.add(content="服务器上的记忆")
    seeded.close()
    window = launch(url)
    try:
        pg_server.drop(name)
        window.new_memory()
        type_text(window.editor.form.content, "删库之后写的")
        window.editor.save()
        qtbot.waitUntil(lambda: not window.editor.saving, timeout=30000)
        qtbot.waitUntil(lambda: bool(asker.informed), timeout=30000)
        assert "no longer exists on the server" in asker.informed[0] and name in asker.informed[0]
        assert window.editor.form.content.toPlainText() == "删库之后写的"  # kept, to save elsewhere
        assert not window.session.unexpected_errors
        assert window.connection_label.text() == "Database gone"
    finally:
        pg_server.drop(name)


def test_a_store_whose_database_was_dropped_raises_the_coded_error(pg_server):
    name = pg_server.new_database()
    store = Store.open(pg_server.url(name))
    try:
        store.add(content="还在")
        pg_server.drop(name)
        with pytest.raises(DatabaseDroppedError) as err:
            store.count()
        assert err.value.code == "database_dropped" and err.value.kind == "missing"
        with pytest.raises(DatabaseDroppedError):
            store.add(content="删库之后")
    finally:
        store.close()
