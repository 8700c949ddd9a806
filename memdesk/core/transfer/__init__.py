"""Moving a whole store between backends (copy.py) and its canonical content checksum (dump.py)."""

from .copy import CopyCheckError, CopyReport, TargetNotEmptyError, copy_store
from .dump import TABLES, Summary, summarise

__all__ = ["TABLES", "CopyCheckError", "CopyReport", "Summary", "TargetNotEmptyError", "copy_store", "summarise"]
