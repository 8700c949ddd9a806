"""Moving a whole store between backends (copy.py) and its canonical content checksum (dump.py)."""

from memdesk.core.io.transfer.copy import CopyCheckError, CopyReport, TargetNotEmptyError, copy_store
from memdesk.core.io.transfer.dump import TABLES, Summary, summarise

__all__ = ["TABLES", "CopyCheckError", "CopyReport", "Summary", "TargetNotEmptyError", "copy_store", "summarise"]
