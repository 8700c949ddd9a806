"""Ranking: BM25 keyword fields, substring, vectors, fusion, and explaining a hit.
Imports core.domain, search.language, search.query and search.index.
"""
