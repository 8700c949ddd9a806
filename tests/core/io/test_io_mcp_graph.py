"""The official MCP memory server's memory.json: JSON Lines of entities and relations."""

import json

import pytest

from memdesk.core.io.plan import import_file
from memdesk.core.io.reading import ImportFileError

LINES = [
    {
        "type": "entity",
        "name": "Alice",
        "entityType": "person",
        "observations": ["Works at Acme Corp", "Alice prefers morning meetings"],
    },
    {"type": "entity", "name": "Acme Corp", "entityType": "organization", "observations": []},
    {"type": "relation", "from": "Alice", "to": "Acme Corp", "relationType": "works_at"},
    {"type": "entity", "name": "Bob", "entityType": "person", "observations": ["Works at Acme Corp"]},
]


def write_jsonl(path, objects, extra=""):
    # the server writes one compact JSON object per line, no trailing newline
    path.write_text("\n".join(json.dumps(o) for o in objects) + extra, encoding="utf-8")
    return path


def test_observations_grouped_under_entities_and_relations_kept(store, tmp_path):
    plan, _ = import_file(store, write_jsonl(tmp_path / "memory.json", LINES))
    assert plan.format == "mcp-graph"
    by_content = {m.content: m for m in store.list()}
    assert set(by_content) == {
        "Alice：Works at Acme Corp",
        "Alice prefers morning meetings",
        "Alice works_at Acme Corp",
        "Bob：Works at Acme Corp",
    }
    alice = by_content["Alice：Works at Acme Corp"]
    assert alice.group == "Alice" and alice.title == "Alice" and alice.tags == ("person",)
    relation = by_content["Alice works_at Acme Corp"]
    assert relation.tags == ("relation", "works_at") and relation.group == "Alice"
    # the same observation about two entities is two memories, not a duplicate
    assert plan.summary()["new"] == 4


def test_read_graph_json_and_broken_lines(store, tmp_path):
    graph = {"entities": [dict(LINES[0], type=None)], "relations": []}
    graph["entities"][0].pop("type")
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(graph), encoding="utf-8")
    plan, _ = import_file(store, path)
    assert plan.format == "mcp-graph" and plan.summary()["new"] == 2
    broken = write_jsonl(tmp_path / "broken.jsonl", LINES[3:], extra='\n{"type": "entity", "name": ')
    plan, _ = import_file(store, broken)
    assert [i.status for i in plan.items] == ["new", "invalid"] and "line 2" in plan.items[1].reason
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\nnor this\n", encoding="utf-8")
    with pytest.raises(ImportFileError):
        import_file(store, junk, format="mcp-graph")
