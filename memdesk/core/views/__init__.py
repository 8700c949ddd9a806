"""The read side a window shows: listings, the compact table behind the tree, filtered
queries, statistics and id prefixes. Imports domain, storage and search.
"""
