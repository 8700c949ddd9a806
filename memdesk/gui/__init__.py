"""The PySide6 window. Calls memdesk.core; the core never imports this package."""

from .app import qt_fixes  # noqa: F401 - must run before any signal is emitted
