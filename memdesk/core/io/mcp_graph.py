"""The official MCP memory server's knowledge graph.

Its file (memory.json, despite the name) is JSON Lines:
  {"type":"entity","name":"Alice","entityType":"person","observations":["..."]}
  {"type":"relation","from":"Alice","to":"Acme","relationType":"works_at"}
Its read_graph tool answers with {"entities": [...], "relations": [...]};
both are accepted.

Each observation becomes a memory grouped under its entity (title = entity
name, tagged with the entity type). An observation alone ("works at Acme")
means nothing in a flat list, so the entity name leads the text unless the
observation already names it. Each relation becomes a memory of its own
("Alice works_at Acme", tagged "relation" and the relation type).
"""

from __future__ import annotations

import json

from .reading import ImportFileError

FORMAT = "mcp-graph"
_KINDS = ("entity", "relation")


def looks_like_lines(text: str) -> bool:
    for line in text.splitlines():
        if line.strip():
            try:
                first = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                return False
            return isinstance(first, dict) and first.get("type") in _KINDS
    return False


def looks_like_graph(data) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("entities"), list)
        and isinstance(data.get("relations", []), list)
        and "memories" not in data
    )


def parse_lines(text: str, name: str = "file") -> list[dict]:
    items, bad = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            item = {"_invalid": f"line {number}: not valid JSON ({getattr(exc, 'msg', 'nested too deeply')})"}
            bad.append(number)
        items.append(item)
    if items and len(bad) == len(items):
        raise ImportFileError(code="jsonl_no_valid_line", name=name)
    return records(items)


def records(items) -> list[dict]:
    """Memory records from a sequence of entity/relation objects."""
    if isinstance(items, dict):
        items = [dict(e, type="entity") if isinstance(e, dict) else e for e in items.get("entities", [])] + [
            dict(r, type="relation") if isinstance(r, dict) else r for r in items.get("relations", [])
        ]
    out = []
    for item in items:
        if not isinstance(item, dict):
            out.append(item)  # planned as invalid
        elif "_invalid" in item:
            out.append(item)
        elif item.get("type") == "entity":
            out.extend(_entity(item))
        elif item.get("type") == "relation":
            out.append(_relation(item))
        else:
            out.append({"_invalid": f"type {item.get('type')!r:.30} is neither entity nor relation"})
    return out


def _entity(item: dict) -> list[dict]:
    name, kind = item.get("name"), item.get("entityType")
    if not isinstance(name, str) or not name.strip():
        return [{"_invalid": "entity without a name"}]
    observations = item.get("observations", [])
    if not isinstance(observations, list):
        return [{"_invalid": f"entity {name!r:.40}: observations must be a list"}]
    tags = [kind.strip()] if isinstance(kind, str) and kind.strip() else []
    out: list[dict] = []
    for observation in observations:
        if not isinstance(observation, str):
            out.append({"_invalid": f"entity {name!r:.40}: observation {observation!r:.30} is not text"})
            continue
        text = observation.strip()
        if name.strip().casefold() not in text.casefold():
            text = f"{name.strip()}：{text}"
        out.append({"title": name.strip(), "content": text, "group": name.strip(), "type": "fact", "tags": list(tags)})
    return out


def _relation(item: dict) -> dict:
    source, target, kind = item.get("from"), item.get("to"), item.get("relationType")
    if not (
        isinstance(source, str)
        and isinstance(target, str)
        and isinstance(kind, str)
        and source.strip()
        and target.strip()
        and kind.strip()
    ):
        return {"_invalid": "relation needs from, to and relationType"}
    return {
        "title": source.strip(),
        "content": f"{source.strip()} {kind.strip()} {target.strip()}",
        "group": source.strip(),
        "type": "fact",
        "tags": ["relation", kind.strip()],
    }
