"""Mutations of stored memories and personas, each inside the caller's write transaction:
revisions, automatic importance and the index update go with them. The undoable layer the
window uses is core.ops, above this. Imports domain, storage, feed and search.index.
"""
