"""Two OS processes writing to one database at the same time: nothing lost."""

import subprocess
import sys
import textwrap

WRITER = textwrap.dedent("""
    import sys
    from memdesk.core.store import Store
    store = Store.open(sys.argv[1])
    tag = sys.argv[2]
    for i in range(int(sys.argv[3])):
        store.add(content=f"{tag} 记忆 {i}", tags=[tag])
        if i % 10 == 0:
            memory_id = store.list(tag=tag, limit=1)[0].id
            current = store.get(memory_id)
            store.update(memory_id, expected_version=current.version, importance=(i % 10) + 1)
    store.close()
    print("ok")
""")


def test_two_processes_write_at_once(store, db_path):
    n = 150
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db_path), tag, str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("甲", "乙")
    ]
    results = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, results):
        assert proc.returncode == 0, err
        assert out.strip() == "ok"
    assert store.count(tag="甲") == n and store.count(tag="乙") == n
    assert store.count() == 2 * n


def test_change_feed_sees_other_processes(store, db_path):
    marker = store.change_marker()
    mine = store.add(content="窗口里加的").added[0]
    marker, changes = store.changes_since(marker)
    assert changes.added == (mine,)
    code = (
        "import sys\nfrom memdesk.core.store import Store\ns = Store.open(sys.argv[1])\n"
        "a = s.add(content='另一个进程加的').added[0]\ns.delete(sys.argv[2])\n"
        "s.create_persona(name='新助手')\nprint(a)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(db_path), mine], capture_output=True, text=True, timeout=60, check=True
    ).stdout.strip()
    new_marker, changes = store.changes_since(marker)
    assert new_marker > marker
    assert changes.added == (out,) and mine in changes.updated and changes.personas
    assert store.changes_since(new_marker) == (new_marker, type(changes)())
