"""The search language: parsing a query and what it allows (filters).
Imports core.domain and search.language.
"""
