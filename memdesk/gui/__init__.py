"""The PySide6 window. Calls memdesk.core; the core never imports this package."""

# TODO(after merging the screens branch): gui/dialogs and gui/editor still say
# `from .. import operations`; point them at memdesk.core.ops and drop this alias.
from ..core import ops as operations  # noqa: E402, F401 - the operation layer moved to the core
from .app import qt_fixes  # noqa: F401 - must run before any signal is emitted
