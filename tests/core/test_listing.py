"""The window's light listing (core.listing): the same facts as full records, held compactly."""

from memdesk.core.views.listing import brief_of, load_briefs


def test_briefs_say_what_the_records_say_and_share_each_repeated_value(store):
    pid, _ = store.create_persona(name="助手", colour="#336699")
    ids = []
    for i in range(40):
        ids += store.add(
            content=f"第 {i} 条记忆\n第二行",
            title="" if i % 7 == 0 else f"标题 {i}",
            group=["工作/项目", "生活", ""][i % 3],
            tags=[["咖啡", "早上"], ["咖啡"], []][i % 3],
            persona_id=pid if i % 4 == 0 else None,
            type=["fact", "note", "task"][i % 3],
        ).added
    store.delete(ids[:3])
    briefs = load_briefs(store)
    records = {r.id: r for r in store.list(state="all", limit=None)}
    assert briefs == {i: brief_of(records[i]) for i in ids}
    # A value repeated on many rows is one object, not one per row (at 100k memories the
    # briefs held 68 MB with a string per row, 35 MB shared).
    live = list(briefs.values())
    for field in ("group", "type", "tier", "persona_id", "tags"):
        values = [getattr(b, field) for b in live if getattr(b, field)]
        assert len({id(v) for v in values}) == len(set(values)), field
    assert len({id(t) for b in live for t in b.tags}) == 2  # 咖啡 and 早上


def test_the_table_holds_the_same_briefs_in_every_view(store):
    from memdesk.core.views import queries
    from memdesk.core.views.listing import load_table

    pid, _ = store.create_persona(name="助手", colour="#336699")
    ids = []
    for i in range(30):
        ids += store.add(
            content=f"第 {i} 条\n第二行",
            title="" if i % 6 == 0 else f"Title {i} 标题",
            group=["工作/项目", ""][i % 2],
            tags=[["咖啡"], []][i % 2],
            persona_id=pid if i % 3 == 0 else None,
            expires_at="2000-01-01T00:00:00Z" if i == 5 else None,
        ).added
    store.delete(ids[:2])
    for persona in (queries.ALL, queries.GLOBAL, pid):
        table, briefs = load_table(store, persona=persona), load_briefs(store, persona=persona)
        assert dict(table.items()) == briefs and len(table) == len(briefs), persona
    assert {b.state for b in load_table(store).values()} == {"active", "deleted", "expired"}
