"""Human-readable output for the CLI (JSON output is in records' to_json)."""
from __future__ import annotations

import unicodedata

from .core.records import MemoryRecord
from .core.times import to_iso


def width(text: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    out, used = "", 0
    for ch in text:
        w = width(ch)
        if used + w > limit - 1 and used + w + width(text[len(out):]) > limit:
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
        ("id", m.id), ("title", m.title), ("content", m.content), ("summary", m.summary),
        ("group", m.group), ("tags", ", ".join(m.tags)), ("type", m.type), ("scope", m.scope),
        ("importance", f"{m.importance}{'' if m.importance_set else ' (auto)'}"), ("persona", persona),
        ("source", m.source), ("dedup_key", m.dedup_key or ""), ("created", to_iso(m.created_at)),
        ("updated", to_iso(m.updated_at)), ("last access", to_iso(m.last_access_at) or ""),
        ("accesses", str(m.access_count)), ("mentions", str(m.mention_count)),
        ("expires", to_iso(m.expires_at) or ""), ("deleted", to_iso(m.deleted_at) or ""),
        ("superseded by", m.superseded_by or ""), ("tier", m.tier), ("heat", f"{m.heat:.0f}"),
        ("version", str(m.version)),
    ]
    lines = [f"{name:>14}: {value}" for name, value in rows if value not in ("",)]
    for rev in revisions:
        changed = ", ".join(sorted(rev.after))
        lines.append(f"{'history':>14}: v{rev.version} {to_iso(rev.at)} {rev.reason}: {changed}")
    return "\n".join(lines)
