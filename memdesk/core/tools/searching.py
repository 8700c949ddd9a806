"""The search the tools and the brief use: the real engine, built lazily."""
from __future__ import annotations


def default_search(store):
    """A search function (query, *, persona, limit, scope=None, type=None) -> [(record, score)]."""
    return _SubstringSearch(store)


class _SubstringSearch:
    def __init__(self, store):
        self.store = store

    def __call__(self, query, *, persona=None, limit=10, scope=None, type=None):
        needle = query.casefold()
        filters = {k: v for k, v in (("scope", scope), ("type", type)) if v}
        found = [m for m in self.store.list(persona=persona or "", **filters)
                 if needle in " ".join((m.title, m.content, m.group, *m.tags)).casefold()]
        return [(m, 1.0) for m in found[:limit]]
