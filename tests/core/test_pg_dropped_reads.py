"""The window's listing reads (the table, its snippets, the tree) name a dropped database as
the Store's own methods do, instead of handing the driver's connect error up as unexpected."""

from __future__ import annotations

import pytest

from memdesk.core.domain.errors import DatabaseDroppedError
from memdesk.core.store import Store
from memdesk.core.views.listing import contents, load_briefs, load_table, memory_ids


@pytest.mark.parametrize(
    "read",
    [
        lambda store, ids: contents(store, ids),
        lambda store, ids: load_briefs(store, ids=ids),
        lambda store, ids: load_table(store),
        lambda store, ids: memory_ids(store),
    ],
    ids=["contents", "load_briefs", "load_table", "memory_ids"],
)
def test_a_listing_read_after_the_database_is_dropped_says_so(pg_server, read):
    name = pg_server.new_database()
    store = Store.open(pg_server.url(name))
    try:
        memory_id = store.add(content="服务器上的记忆").added[0]
        assert read(store, [memory_id])  # the read works while the database is there
        pg_server.drop(name)
        with pytest.raises(DatabaseDroppedError) as raised:
            read(store, [memory_id])
        assert raised.value.code == "database_dropped"
    finally:
        store.close()
