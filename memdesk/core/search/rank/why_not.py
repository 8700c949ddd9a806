"""Why a memory is (not) found by a search: the reason a person can act on (out of scope, hidden,
filtered out, no matching word, ranked below the limit, or where it ranks).

Kept apart from the engine's ranking; it re-runs the engine's own ranking (ranker.py, with the
inputs the engine hands) without a limit and reads where the memory landed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from memdesk.core.domain.times import now_utc
from memdesk.core.search.query.filters import Evaluator
from memdesk.core.search.rank.explain import MissExplanation
from memdesk.core.search.rank.ranker import VECTOR_DEPTH, Asked, RankInputs, rank


def explain_missing(
    inputs: RankInputs, persona_name: Callable[[str | None], str], tree, asked: Asked, memory_id: str, limit: int | None
) -> MissExplanation:
    """Why ``memory_id`` is (not) among the first ``limit`` results of the parsed query ``tree``
    asked so (``asked.now`` set); the caller holds the index still meanwhile (the engine's lock).
    ``persona_name``: a persona id's name, for the reason's text."""
    persona, now = asked.persona, asked.now or now_utc()
    table = inputs.index.table
    slot = table.slot(memory_id)
    record = None if slot is None else table.record(slot)
    if slot is None or record is None:
        return MissExplanation(memory_id, "unknown", f"no memory with id {memory_id} is indexed")
    if not table.scope_mask(persona)[slot]:
        owner = "global" if record.persona_id is None else f"persona {persona_name(record.persona_id)}"
        wanted = "global memories only" if persona == "" else f"persona {persona_name(persona)} and global memories"
        return MissExplanation(memory_id, "scope", f"it belongs to {owner}; the search covers {wanted}")
    r = rank(inputs, tree, asked, None)
    if not r.visible[slot]:
        state = "in the trash" if record.deleted_at else "superseded" if record.superseded_by else "expired"
        word = {"in the trash": "deleted"}.get(state, state)
        return MissExplanation(memory_id, "hidden", f"it is {state}; add is:{word} to the query to see it")
    evaluator = Evaluator(table, inputs.index.keyword, inputs.index.substring, inputs.resolve_persona, now)
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
