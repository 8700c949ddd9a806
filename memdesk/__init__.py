"""MemDesk (记忆台): see and shape what AI assistants remember."""

__version__ = "0.1.0"
