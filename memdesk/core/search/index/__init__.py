"""The search index kept in the store: its tables, writers, readers and in-memory slots.
Imports core.domain, core.storage and search.language.
"""
