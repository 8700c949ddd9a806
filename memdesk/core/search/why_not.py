"""Why a memory is (not) found by a search: the reason a person can act on (out of scope, hidden,
filtered out, no matching word, ranked below the limit, or where it ranks).

Kept apart from the engine's ranking; it re-runs the engine's own ranking without a limit and
reads where the memory landed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..times import now_utc
from .explain import MissExplanation
from .filters import Evaluator
from .query import parse
from .ranker import VECTOR_DEPTH, Asked

if TYPE_CHECKING:
    from .engine import SearchEngine


def explain_missing(
    engine: SearchEngine, query: str, memory_id: str, *, limit: int | None = 20, **options: Any
) -> MissExplanation:
    """Why ``memory_id`` is (not) among the first ``limit`` results of this search; the other
    options are search()'s (ranker.Asked: persona, semantic, expand, lenient, now)."""
    asked = Asked(**options)
    persona, now = asked.persona, asked.now or now_utc()
    asked = replace(asked, now=now)
    tree = parse(query, lenient=asked.lenient, now=now)
    engine.catch_up()
    with engine._lock:
        table = engine._index.table
        slot = table.slot(memory_id)
        if slot is None:
            return MissExplanation(memory_id, "unknown", f"no memory with id {memory_id} is indexed")
        record = table.record(slot)
        if not table.scope_mask(persona)[slot]:
            owner = "global" if record.persona_id is None else f"persona {engine._persona_name(record.persona_id)}"
            wanted = (
                "global memories only"
                if persona == ""
                else f"persona {engine._persona_name(persona)} and global memories"
            )
            return MissExplanation(memory_id, "scope", f"it belongs to {owner}; the search covers {wanted}")
        r = engine._rank(tree, asked, None)
        if not r.visible[slot]:
            state = "in the trash" if record.deleted_at else "superseded" if record.superseded_by else "expired"
            word = {"in the trash": "deleted"}.get(state, state)
            return MissExplanation(memory_id, "hidden", f"it is {state}; add is:{word} to the query to see it")
        evaluator = Evaluator(table, engine._index.keyword, engine._index.substring, engine._resolve_persona, now)
        for node in r.plan.constraints:
            if not evaluator.mask(node)[slot]:
                return MissExplanation(
                    memory_id, "filter", f"the condition {node.render()} excludes it", filter=node.render()
                )
        ranks = {name: (int(rank[slot]) or None) for name, rank in r.ranks.items()}
        where = np.where(r.order == slot)[0]
        if len(where) == 0:
            sim = r.parts["vector"][slot]
            extra = "" if np.isnan(sim) else f"; its vector similarity {sim:.3f} is not among the {VECTOR_DEPTH} best"
            return MissExplanation(memory_id, "no_match", "it contains none of the search words" + extra, ranks=ranks)
        position = int(where[0]) + 1
        listed = ", ".join(f"{n} #{v}" for n, v in ranks.items() if v) or "no ranking"
        if limit is not None and position > limit:
            return MissExplanation(
                memory_id,
                "below_limit",
                f"it ranks #{position} of {len(r.order)} ({listed}); only {limit} were shown",
                ranks=ranks,
                position=position,
            )
        return MissExplanation(
            memory_id, "returned", f"it is result #{position} ({listed})", ranks=ranks, position=position
        )
