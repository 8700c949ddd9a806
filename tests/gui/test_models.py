"""Every model through qtmodeltester; the tree's incremental updates against a fresh build."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.io.plan import plan_file
from memdesk.core.views.brief_table import Brief, BriefTable
from memdesk.core.views.listing import load_briefs, load_table
from memdesk.gui.browser import tree_nodes
from memdesk.gui.browser.tree_model import TreeModel
from memdesk.gui.browser.tree_nodes import Tree
from memdesk.gui.dialogs.import_preview import PlanModel


def fill(store):
    pid, _ = store.create_persona(name="助手", colour="#336699")
    ids = []
    for i in range(30):
        ids.append(
            store.add(
                content=f"内容 {i}",
                title=f"记忆 {i:02d}",
                group=["", "工作", "工作/项目", "生活"][i % 4],
                tags=[["a"], ["a", "b"], []][i % 3],
                persona_id=pid if i % 5 == 0 else None,
                type=["fact", "note", "task"][i % 3],
            ).added[0]
        )
    store.delete(ids[:3])
    store.set_setting("gui.saved_searches", [{"name": "工作", "query": "group:工作"}])
    return ids


def built(store, persona=None):
    from memdesk.core.ops import saved_searches

    return Tree(
        load_table(store, persona=persona),
        personas=[(p.id, p.name, p.colour) for p in store.personas()],
        saved=saved_searches(store),
        persona_filter=persona,
    ).build()


def shape(tree: Tree) -> dict:
    """Containers with their counts and every leaf in order (materialised or pending)."""
    out = {}
    for place, node in tree.containers.items():
        leaves = [c.key for c in node.children[node.nfolders :]] + tree.pending_ids(node)
        folders = [c.place for c in node.children[: node.nfolders]]
        out[place] = (node.count, folders, leaves)
    return out


def test_tree_model_passes_the_model_tester(qtmodeltester, store):
    fill(store)
    model = TreeModel()
    model.set_tree(built(store))
    groups = model.index_of(model.tree.sections["groups"])
    assert groups.data() == "Groups (27)"
    trash = model.index_of(model.tree.sections["trash"])
    assert model.rowCount(trash) == 0 and model.canFetchMore(trash)  # leaves come when asked for
    model.fetchMore(trash)
    assert model.rowCount(trash) == 3
    qtmodeltester.check(model)


def test_leaves_are_fetched_in_batches(qtmodeltester, store):
    store.add_many([{"content": f"c{i}", "title": f"t{i:04d}", "group": "大"} for i in range(1200)])
    model = TreeModel()
    model.set_tree(built(store))
    node = model.tree.containers[("group", "大")]
    index = model.index_of(node)
    assert model.hasChildren(index) and model.rowCount(index) == 0
    model.fetchMore(index)
    assert model.rowCount(index) == tree_nodes.BATCH and len(node.pending) == 1200 - tree_nodes.BATCH
    last = store.list(group="大", sort="title", descending=True, limit=1)[0].id
    assert model.leaf_index(last).isValid() and not node.pending
    qtmodeltester.check(model)


def test_incremental_updates_match_a_fresh_build(qtmodeltester, store):
    ids = fill(store)
    model = TreeModel()
    model.set_tree(built(store))
    for node in list(model.tree.containers.values()):
        model.fetchMore(model.index_of(node))  # some leaves shown, as after expanding
    rng = random.Random(7)
    for step in range(40):
        memory_id = rng.choice(ids)
        action = rng.choice(["title", "group", "tags", "delete", "restore", "type", "new"])
        if action == "title":
            store.update(memory_id, expected_version=None, title=f"改 {rng.randint(0, 99)}")
        elif action == "group":
            store.update(memory_id, expected_version=None, group=rng.choice(["", "新/深/层", "工作", "x"]))
        elif action == "tags":
            store.update(memory_id, expected_version=None, tags=rng.sample(["a", "b", "c", "d"], rng.randint(0, 3)))
        elif action == "delete":
            store.delete([memory_id])
        elif action == "restore":
            store.restore([memory_id])
        elif action == "type":
            store.update(memory_id, expected_version=None, type=rng.choice(["fact", "project"]))
        else:
            memory_id = store.add(content="新的", title=f"新 {step}", group="新").added[0]
            ids.append(memory_id)
        fresh = load_briefs(store, ids=[memory_id])
        model.apply_briefs({memory_id: fresh.get(memory_id)})
    assert shape(model.tree) == shape(built(store))
    qtmodeltester.check(model)


def test_purged_memories_leave_the_tree_and_empty_folders_go(store):
    ids = fill(store)
    model = TreeModel()
    model.set_tree(built(store))
    in_project = [m.id for m in store.list(group="工作/项目", state="all")]
    store.delete(in_project)
    store.purge(in_project + ids[:3])
    model.apply_briefs({i: None for i in in_project + ids[:3]})
    assert ("group", "工作/项目") not in model.tree.containers
    assert model.tree.total("trash") == 0
    assert shape(model.tree) == shape(built(store))


def test_plan_model_passes_the_model_tester(qtmodeltester, store, tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"memories": [{"content": "甲"}, {"title": "无内容"}]}', encoding="utf-8")
    model = PlanModel(plan_file(store, path))
    qtmodeltester.check(model)
    assert [model.index(r, 1).data() for r in range(2)] == ["New", "Invalid"]
    assert model.rowCount(model.index(0, 0)) == 0


def test_briefs_follow_the_records_display_title(store):
    long = "一" * 50
    memory_id = store.add(content=f"\n\n{long}\n第二行").added[0]
    brief = load_briefs(store, ids=[memory_id])[memory_id]
    assert isinstance(brief, Brief) and brief.title == store.get(memory_id).display_title


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "咖啡", "Apple", "apple", "APPLE", "b"]), st.sampled_from(["", "工作", "生活"])),
        max_size=40,
    ),
    st.integers(1, 7),
)
def test_every_container_lists_its_memories_by_title_then_id_whatever_the_run_size(rows, run):
    # The build sorts in runs of RUN and merges them (one big sort held the GIL for seconds).
    briefs = {}
    for n, (title, group) in enumerate(rows):
        memory_id = f"m{(n * 7919) % 101:03d}"  # ids not in insertion order
        briefs[memory_id] = Brief(memory_id, None, group, title, (), "fact", "long", "active", 3)
    saved, tree_nodes.RUN = tree_nodes.RUN, run
    try:
        tree = Tree(briefs).build()
    finally:
        tree_nodes.RUN = saved
    for place, node in tree.containers.items():
        members = [i for i, b in briefs.items() if place in tree_nodes.placements(b)]
        assert tree.pending_ids(node) == sorted(members, key=lambda i: briefs[i].sort_key), place


def test_a_tree_holds_columns_not_an_object_per_memory():
    # A Brief per memory (and its strings, and a dict slot) was ~400 bytes: 400 MB of a window
    # showing a million memories, and as many objects for each pass of the cyclic collector.
    import gc
    import tracemalloc
    import uuid

    import numpy  # noqa: F401 - imported before measuring: the table uses it

    FACT = ("fact", "long", "active", 5)

    def table(n):
        briefs = (
            Brief(str(uuid.uuid4()), None, ["工作", "生活"][i % 2], f"记忆标题 {i}", ("标签",) * (i % 2), *FACT)
            for i in range(n)
        )
        return BriefTable.of(briefs)

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        objects = len(gc.get_objects())
        tree = Tree(table(20_000)).build()
        grown = tracemalloc.get_traced_memory()[0] - before
        tracked = len(gc.get_objects()) - objects
    finally:
        tracemalloc.stop()
    assert len(tree.briefs) == 20_000 and tree.containers[("group", "工作")].count == 10_000
    # 36 bytes of id and 18 of title as UTF-8, 16 of their offsets, 23 of codes, 12 of id index,
    # and a row number in each of its three or four containers: ~130 (a brief each: 340-400).
    assert grown < 20_000 * 200, grown / 20_000
    assert tracked < 200, tracked  # a node per container, not an object per memory


def test_a_replaced_tree_is_freed_without_the_collector(store):
    # A node and its parent point at each other: only the collector could free a swapped-out
    # tree, and App freezes what exists when a window opens (gui/main.py), so it must be unlinked.
    import gc
    import weakref

    from memdesk.core.views import queries
    from memdesk.gui.browser.tree_pane import _build_tree

    fill(store)
    model = TreeModel()
    gc.disable()
    try:
        model.set_tree(_build_tree(store, queries.ALL, lambda: False))
        old = weakref.ref(model.tree.containers[("group", "工作")])
        model.set_tree(_build_tree(store, queries.ALL, lambda: False))
        assert old() is None
        assert model.tree.containers[("group", "工作")].count > 0  # the new tree is whole
    finally:
        gc.enable()


def test_placed_puts_each_row_where_placements_says():
    briefs = [
        Brief("m1", None, "工作", "t", ("咖啡", "早上"), "fact", "long", "active", 3),
        Brief("m2", None, "", "t", (), "note", "short", "active", 3),
        Brief("m3", None, "工作", "t", ("咖啡",), "fact", "long", "deleted", 3),
        Brief("m4", None, "生活", "t", (), "fact", "long", "expired", 3),
    ]
    table = BriefTable.of(briefs)
    table.pop("m2")
    got = {place: [table.memory_id(r) for r in rows] for place, rows in table.placed([3, 2, 1, 0]).items()}
    want: dict = {}
    for brief in reversed(briefs):
        if brief.id != "m2":
            for place in tree_nodes.placements(brief):  # the rule the tree shows
                want.setdefault(place, []).append(brief.id)
    assert got == want
