"""Database upkeep: fresh planner statistics (ANALYZE, and on SQLite PRAGMA optimize).

VACUUM is left out on purpose: it rewrites the whole file, needs twice its
space and blocks every other process, which a routine run should not do.
"""

from __future__ import annotations

from .report import TaskReport
from .steps import check


def optimize(store, *, cancel, progress, **_) -> TaskReport:
    progress(0, 2)
    check(cancel, "optimize")
    with store.write():
        store.execute_sql("ANALYZE")
        progress(1, 2)
        check(cancel, "optimize")
        if not store.is_postgres:
            store.execute_sql("PRAGMA optimize")
    progress(2, 2)
    if store.is_postgres:  # the server's autovacuum keeps free space; the size in pages is what we can say
        sql = "SELECT pg_database_size(current_database()) / current_setting('block_size')::int"
        return TaskReport("optimize", counts={"pages": store.execute_sql(sql).fetchone()[0]})
    pages = store.execute_sql("PRAGMA page_count").fetchone()[0]
    free = store.execute_sql("PRAGMA freelist_count").fetchone()[0]
    return TaskReport("optimize", counts={"pages": pages, "free_pages": free})


def compact_search(store, *, cancel, progress, **_) -> TaskReport:
    """Postings blocks that removals left part-empty, written again full (search/index/terms.py)."""
    from memdesk.core.search.index import terms as index_terms

    progress(0, 1)
    check(cancel, "search index")
    with store.write():
        terms = index_terms.reblock(store.connection())
    progress(1, 1)
    return TaskReport("search_index", counts={"compacted_terms": terms})
