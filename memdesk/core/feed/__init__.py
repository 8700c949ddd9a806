"""The change feed: what other connections and processes changed, and waiting for it.
Imports core.domain and core.storage.
"""
