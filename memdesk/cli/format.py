"""Human-readable output for the CLI (JSON output is in records' to_json)."""

from __future__ import annotations

import unicodedata

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.domain.times import to_iso


def width(text: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    out, used = "", 0
    for ch in text:
        w = width(ch)
        if used + w > limit - 1 and used + w + width(text[len(out) :]) > limit:
            return out + "…"
        out += ch
        used += w
    return out


def pad(text: str, size: int) -> str:
    return text + " " * max(0, size - width(text))


def memory_line(m: MemoryRecord, persona_names: dict) -> str:
    persona = persona_names.get(m.persona_id, "全局/global") if m.persona_id else "全局/global"
    flags = "".join(flag for flag, on in (("D", m.is_deleted), ("S", m.is_superseded), ("E", m.is_expired())) if on)
    head = f"{m.id[:8]}  {pad(clip(m.display_title, 24), 24)}  {pad(clip(m.group or '-', 12), 12)}  "
    return head + f"{m.type:<10} {m.importance:>2}  {pad(clip(persona, 12), 12)} {flags}"


def memory_details(m: MemoryRecord, persona_names: dict, revisions=()) -> str:
    persona = persona_names.get(m.persona_id, m.persona_id) if m.persona_id else "(global)"
    rows = [
        ("id", m.id),
        ("title", m.title),
        ("content", m.content),
        ("summary", m.summary),
        ("group", m.group),
        ("tags", ", ".join(m.tags)),
        ("type", m.type),
        ("scope", m.scope),
        ("importance", f"{m.importance}{'' if m.importance_set else ' (auto)'}"),
        ("persona", persona),
        ("source", m.source),
        ("dedup_key", m.dedup_key or ""),
        ("created", to_iso(m.created_at)),
        ("updated", to_iso(m.updated_at)),
        ("last access", to_iso(m.last_access_at) or ""),
        ("accesses", str(m.access_count)),
        ("mentions", str(m.mention_count)),
        ("expires", to_iso(m.expires_at) or ""),
        ("deleted", to_iso(m.deleted_at) or ""),
        ("superseded by", m.superseded_by or ""),
        ("tier", m.tier),
        ("heat", f"{m.heat:.0f}"),
        ("version", str(m.version)),
    ]
    lines = [f"{name:>14}: {value}" for name, value in rows if value not in ("",)]
    for rev in revisions:
        changed = ", ".join(sorted(rev.after))
        lines.append(f"{'history':>14}: v{rev.version} {to_iso(rev.at)} {rev.reason}: {changed}")
    return "\n".join(lines)


# The labels of the window's "Why found" tab (memdesk/gui/editor/explain.py, ExplainPanel._names).
# The CLI cannot import Qt, so they are repeated here: keep the two in step.
WHY_LABELS = {
    "matched_words": "Matched words",
    "matched_bigrams": "Matched character pairs",
    "bm25": "Keyword score (words)",
    "bigram_bm25": "Keyword score (character pairs)",
    "keyword_score": "Keyword score",
    "vector_similarity": "Meaning similarity",
    "ranks": "Place in each ranking",
    "fusion": "Fused relevance (0–1)",
    "importance": "Importance (0–1)",
    "heat": "Heat (0–1)",
    "freshness": "Freshness (0–1)",
    "final": "Final score",
    "found_by": "Found by",
    "position": "Place in the results",
    "keyword": "keywords",
    "expansion": "related words",
    "substring": "exact text",
    "vector": "meaning",
    "context": "next to a match, same conversation",
    "matched_pinyin": "Matched by pinyin",
    "matched_script": "Matched across traditional and simplified",
    "pinyin_score": "Keyword score (pinyin)",
}


def _why_value(value) -> str:
    """As the window's panel shows a value: floats to 4 places, lists joined; nothing (or an empty list) as a dash."""
    if value is None or value == [] or value == ():
        return "—"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_why_value(v) for v in value)
    return str(value)


def _why_rows(value: dict, indent: str) -> list[str]:
    rows = []
    for key, child in value.items():
        label = WHY_LABELS.get(key, str(key))
        if isinstance(child, dict):
            rows.append(f"{indent}{label}:")
            rows += _why_rows(child, indent + "    ")
        else:
            if key == "found_by":
                child = [WHY_LABELS.get(c, c) for c in child]
            rows.append(f"{indent}{label}: {_why_value(child)}")
    return rows


def why_found(hit, query: str) -> str:
    """A search hit's score, part by part: the window's "Why found" tab as text."""
    lines = [f"Search “{query}”: score {hit.score:.4f}"]
    return "\n".join(lines + _why_rows(hit.explain.to_json(), "    "))


def why_missing(miss, query: str) -> str:
    """Why a memory is not among the results, in words."""
    return f"Search “{query}”: not in the results: {miss.message}"
