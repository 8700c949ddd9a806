"""GUI-free core of MemDesk: store, search, embedding, maintenance, import/export.

Nothing under this package may import Qt; tests/core/test_no_qt.py enforces it.
"""
