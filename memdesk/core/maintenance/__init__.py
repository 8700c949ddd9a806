"""Maintenance: plain functions the GUI runs on its database lane and the CLI runs inline.

Run:      run_maintenance(store, tasks=None, cancel=..., progress=..., embedder=None) -> RunReport
          (report.changes → the search index and views; report.to_json() → display)
Reports:  last_reports(store) -> [dict, ...] newest first
Inbox:    proposals(store) -> [Proposal]; merge_proposal(store, id, content=..., title=...);
          keep_both(store, id); dismiss(store, id); merge(store, ids, content=...) for a hand-picked set
Scoring:  importance_score(text) -> 1–10; importance_breakdown(text) -> points per dimension
"""

from memdesk.core.search.language.importance import breakdown as importance_breakdown
from memdesk.core.search.language.importance import score as importance_score

from .consolidation import Proposal, dismiss, keep_both, merge_proposal, proposals
from .merge import merge
from .report import RunReport, TaskReport, last_reports
from .runner import DEFAULT_TASKS, TASKS, run_maintenance

__all__ = [
    "DEFAULT_TASKS",
    "Proposal",
    "RunReport",
    "TASKS",
    "TaskReport",
    "dismiss",
    "importance_breakdown",
    "importance_score",
    "keep_both",
    "last_reports",
    "merge",
    "merge_proposal",
    "proposals",
    "run_maintenance",
]
