"""Consolidation: proposals to merge near-duplicate memories, and the user's answers.

Nothing is merged without the user. The maintenance task finds clusters of
near-duplicates among memories in use (same persona): text overlap
(bigram/word Jaccard) and, where vectors exist, cosine similarity with some
text overlap. Each cluster becomes a proposal in the review inbox. The user
then
- merges (edited text): one transaction adds the merged memory and
  supersedes every original by it (reason 'merge'; originals keep their
  history and stay reachable through the supersede chain);
- keeps both: those pairs are never proposed again;
- dismisses: the proposal goes away; a later run may find it again.

Proposals and kept pairs live in the settings table (keys below), so the
schema did not change.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import NotFoundError
from memdesk.core.domain.times import now_utc, to_iso
from memdesk.core.storage import vectors
from memdesk.core.storage.models import Memory
from memdesk.core.views.ids import resolve_prefix
from memdesk.core.views.queries import state_condition

from . import similarity
from .merge import merge
from .report import TaskReport
from .steps import check

PROPOSALS_KEY = "consolidation.proposals"
KEPT_KEY = "consolidation.kept_pairs"
LEXICAL_THRESHOLD = 0.7  # bigram or word Jaccard alone; lower lets templated facts in ("我表姐爱游泳" ~ "爱看书")
VECTOR_THRESHOLD = 0.9  # cosine, accepted with at least VECTOR_TEXT_FLOOR text overlap
VECTOR_TEXT_FLOOR = 0.3
MAX_PAIRS_KEPT = 50
MAX_CLUSTER = 12  # larger groups are not one merge (see _clusters)


@dataclass
class Proposal:
    id: str
    memory_ids: list[str]
    versions: dict  # id -> version when proposed
    persona_id: str | None
    score: float
    kind: str  # "exact" (same text) or "near"
    suggested_title: str = ""
    suggested_content: str = ""
    suggested_tags: list = field(default_factory=list)
    group: str = ""
    pairs: list = field(default_factory=list)  # [a, b, score, why]
    created_at: str = ""
    stale: bool = False  # a member changed since it was proposed

    def to_json(self) -> dict:
        data = dict(self.__dict__)
        data.pop("stale")
        return data

    @classmethod
    def from_json(cls, data: dict) -> Proposal:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data and k != "stale"}
        return cls(**known)


def _proposal_id(ids) -> str:
    return hashlib.sha1("\x1f".join(sorted(ids)).encode()).hexdigest()[:16]


def _pair_key(a: str, b: str) -> str:
    return "\x1f".join(sorted((a, b)))


# ---- finding ---------------------------------------------------------------------------------
Pairs = dict[tuple[str, str], tuple[float, str]]  # (a, b) with a < b -> (score, why)


def _same_text(rows: list[dict], by_id: dict) -> tuple[Pairs, dict]:
    """Pairs of identical texts, and persona -> the memories left to compare (one per text).
    Identical texts are compared once, through the oldest copy: n copies are one group, not n² pairs."""
    copies: dict[tuple, list[str]] = {}
    for r in rows:
        copies.setdefault((r["persona"], r["content_hash"]), []).append(r["id"])
    pairs: Pairs = {}
    for same in copies.values():
        for other in same[1:]:
            first, second = sorted((same[0], other))
            pairs[(first, second)] = (1.0, "same text")
    personas: dict = {}
    for same in copies.values():
        personas.setdefault(by_id[same[0]]["persona"], []).append(same[0])
    return pairs, personas


class _Texts:
    """Each compared memory's character bigrams, and its jieba words once asked (once per memory,
    not once per pair)."""

    def __init__(self, by_id: dict, personas: dict):
        self.by_id = by_id
        self.grams = {
            m: similarity.bigrams(f"{by_id[m]['title']}\n{by_id[m]['content']}") for ms in personas.values() for m in ms
        }
        self._words: dict[str, frozenset] = {}

    def words(self, memory_id: str) -> frozenset:
        if memory_id not in self._words:
            self._words[memory_id] = similarity.words(self.by_id[memory_id]["content"])
        return self._words[memory_id]


def _text_overlap(pairs: Pairs, members: list[str], texts: _Texts, threshold: float, cancel) -> None:
    candidates = similarity.bigram_pairs(
        {m: texts.grams[m] for m in members}, max(0.0, threshold - 0.1), cancel, enough=2 * MAX_CLUSTER
    )
    for (a, b), gram_score in candidates.items():
        text_score = (
            gram_score
            if gram_score >= threshold
            else max(gram_score, similarity.jaccard(texts.words(a), texts.words(b)))
        )
        if text_score >= threshold:
            pairs[(a, b)] = (text_score, "text overlap")


def _similar_meaning(
    store, pairs: Pairs, personas: dict, texts: _Texts, model_id: str, threshold: float, cancel
) -> None:
    """Pairs close in the model's vector space that also share some text (VECTOR_TEXT_FLOOR)."""
    ids, matrix = store.load_vectors(model_id)
    for members in personas.values():
        wanted = set(members)
        pick = [i for i, memory_id in enumerate(ids) if memory_id in wanted]
        found = similarity.vector_pairs(
            [ids[i] for i in pick], matrix[pick] if pick else matrix[:0], threshold, cancel, neighbours=MAX_CLUSTER
        )
        for (a, b), cosine in found.items():
            if (a, b) in pairs:
                continue
            text_score = max(
                similarity.jaccard(texts.grams[a], texts.grams[b]), similarity.jaccard(texts.words(a), texts.words(b))
            )
            if text_score >= VECTOR_TEXT_FLOOR:
                pairs[(a, b)] = (cosine, f"similar meaning ({cosine:.2f})")


def find_proposals(
    store,
    *,
    cancel,
    progress,
    now=None,
    model_id=None,
    lexical_threshold=LEXICAL_THRESHOLD,
    vector_threshold=VECTOR_THRESHOLD,
    **_,
) -> TaskReport:
    """Replace the open proposals with this run's clusters (unanswered ones found again keep their id)."""
    store.bind()
    now = now or now_utc()
    rows = list(
        Memory.select(
            Memory.id,
            Memory.persona,
            Memory.title,
            Memory.content,
            Memory.tags,
            Memory.group,
            Memory.content_hash,
            Memory.version,
            Memory.created_at,
        )
        .where(state_condition("active", now))
        .order_by(Memory.created_at, Memory.id)
        .dicts()
    )
    progress(0, 3)
    by_id = {r["id"]: r for r in rows}
    pairs, personas = _same_text(rows, by_id)
    texts = _Texts(by_id, personas)
    for members in personas.values():
        check(cancel, "consolidation")
        _text_overlap(pairs, members, texts, lexical_threshold, cancel)
    progress(1, 3)
    model_id = model_id or _busiest_model()
    if model_id:
        _similar_meaning(store, pairs, personas, texts, model_id, vector_threshold, cancel)
    progress(2, 3)
    kept = set(store.setting(KEPT_KEY, []) or [])
    if kept:
        pairs = {k: v for k, v in pairs.items() if _pair_key(*k) not in kept}
    proposals, too_large = _clusters(pairs, by_id, now)
    check(cancel, "consolidation")
    store.set_setting(PROPOSALS_KEY, [p.to_json() for p in proposals])
    progress(3, 3)
    return TaskReport(
        "consolidate",
        counts={
            "proposals": len(proposals),
            "memories": sum(len(p.memory_ids) for p in proposals),
            "large_groups_skipped": len(too_large),
        },
        details={"model_id": model_id, "proposals": [p.memory_ids for p in proposals], "large_group_sizes": too_large},
    )


def _busiest_model() -> str | None:
    counts = vectors.model_ids()
    return max(counts, key=lambda model_id: counts[model_id]) if counts else None


def _components(pairs: dict) -> tuple[dict[str, list[str]], dict[str, list]]:
    """Connected groups of ids, and the pairs inside each (keyed by the group's root)."""
    parent: dict[str, str] = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for memory_id in parent:
        groups.setdefault(root(memory_id), []).append(memory_id)
    links: dict[str, list] = {}
    for (a, b), (score, why) in pairs.items():
        links.setdefault(root(a), []).append((a, b, round(score, 3), why))
    return groups, links


def _clusters(pairs: dict, by_id: dict, now) -> tuple[list[Proposal], list[int]]:
    """Proposals, and the sizes of groups too large to review as one merge.

    A group over MAX_CLUSTER is usually templated memories ("第 1 条 …", "第 2
    条 …"), alike in wording but not the same fact; only its identical texts
    are proposed then.
    """
    groups, links = _components(pairs)
    proposals, too_large = [], []
    for key, members in groups.items():
        if len(members) > MAX_CLUSTER:
            too_large.append(len(members))
            exact = {k: v for k, v in pairs.items() if v[1] == "same text" and k[0] in set(members)}
            sub_groups, sub_links = _components(exact)
            proposals += [_proposal(ms, sub_links[k], by_id, now) for k, ms in sub_groups.items()]
            continue
        proposals.append(_proposal(members, links[key], by_id, now))
    return sorted(proposals, key=lambda p: (-p.score, p.id)), sorted(too_large, reverse=True)


def _proposal(members: list[str], inside: list, by_id: dict, now) -> Proposal:
    members = sorted(members, key=lambda m: (by_id[m]["created_at"], m))
    inside = sorted(inside, key=lambda p: -p[2])
    rows = [by_id[m] for m in members]
    longest = max(rows, key=lambda r: len(r["content"]))
    return Proposal(
        id=_proposal_id(members),
        memory_ids=members,
        versions={r["id"]: r["version"] for r in rows},
        persona_id=rows[0]["persona"],
        score=max(p[2] for p in inside),
        kind="exact" if len({r["content_hash"] for r in rows}) == 1 else "near",
        suggested_title=next((r["title"] for r in rows if r["title"]), ""),
        suggested_content=longest["content"],
        suggested_tags=list(dict.fromkeys(t for r in rows for t in _tags(r["tags"]))),
        group=Counter(r["group"] for r in rows).most_common(1)[0][0],
        pairs=[list(p) for p in inside[:MAX_PAIRS_KEPT]],
        created_at=to_iso(now) or "",
    )


def _tags(raw) -> list:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return []
    return value if isinstance(value, list) else []


# ---- the inbox -----------------------------------------------------------------------------------
def proposals(store) -> list[Proposal]:
    """Open proposals, best first. Ones whose members are gone or no longer in use are left
    out; ``stale`` marks ones where a member was edited since (the suggestion may be dated)."""
    raw = store.setting(PROPOSALS_KEY, []) or []
    found = [Proposal.from_json(p) for p in raw if isinstance(p, dict)]
    ids = {m for p in found for m in p.memory_ids}
    current = store.get_many(ids)
    now = now_utc()
    out = []
    for p in found:
        live = [current.get(m) for m in p.memory_ids]
        if any(r is None or not r.is_active(now) for r in live):
            continue
        p.stale = any(r.version != p.versions.get(r.id) for r in live)
        out.append(p)
    return out


def _find(store, proposal_id: str) -> Proposal:
    """The open proposal ``proposal_id`` names: its id or a unique prefix of it (4+ characters)."""
    raw = [p for p in store.setting(PROPOSALS_KEY, []) or [] if isinstance(p, dict) and p.get("id")]
    known = {p["id"]: f"{len(p.get('memory_ids') or [])} memories" for p in raw}
    found = resolve_prefix(proposal_id, known, kind="merge proposals")
    for p in raw:
        if p["id"] == found:
            return Proposal.from_json(p)
    raise NotFoundError(code="no_proposal", id=proposal_id)


def _drop(store, proposal_id: str) -> None:
    raw = store.setting(PROPOSALS_KEY, []) or []
    store.set_setting(PROPOSALS_KEY, [p for p in raw if not (isinstance(p, dict) and p.get("id") == proposal_id)])


def dismiss(store, proposal_id: str) -> str:
    """Not now: the proposal leaves the inbox (a later run may propose it again). Returns its id."""
    proposal = _find(store, proposal_id)
    with store.write():
        _drop(store, proposal.id)
    return proposal.id


def keep_both(store, proposal_id: str) -> str:
    """These are different memories: never propose any pair of them again. Returns its id."""
    proposal = _find(store, proposal_id)
    members = proposal.memory_ids
    with store.write():
        kept = list(store.setting(KEPT_KEY, []) or [])
        seen = set(kept)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                key = _pair_key(a, b)
                if key not in seen:
                    kept.append(key)
                    seen.add(key)
        store.set_setting(KEPT_KEY, kept)
        _drop(store, proposal.id)
    return proposal.id


def merge_proposal(
    store, proposal_id: str, *, content: str | None = None, title: str | None = None, tags=None
) -> tuple[str, Changes]:
    """Merge a proposal's memories into one with the user's (edited) text: (merged id, changes).

    Refused if a member was edited, deleted or merged since the proposal was made.
    """
    proposal = _find(store, proposal_id)
    return merge(
        store,
        proposal.memory_ids,
        content=proposal.suggested_content if content is None else content,
        title=proposal.suggested_title if title is None else title,
        tags=proposal.suggested_tags if tags is None else tags,
        group=proposal.group,
        expected_versions=proposal.versions,
        after=lambda: _drop(store, proposal.id),
    )
