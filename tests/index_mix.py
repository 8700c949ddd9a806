"""Random writes for the search index's property tests (test_search_persistent.py), applied
by the test's process or by a second one: run as ``python -m tests.index_mix``, it reads one
JSON request a line ({"path", "op", "ids"} or {"path", "close": true}), applies it with a
Store of its own and answers {"ids"} (or {"error"}) on a line."""

from __future__ import annotations

import json
import sys

from hypothesis import strategies as st

from memdesk.core.store import Store

# Words that nest (咖啡 in 咖啡因, 喝咖啡): vocabulary terms inside other texts and terms.
WORDS = ["咖啡", "咖啡因", "喝咖啡", "绿茶", "杭州", "西湖", "跑步", "早上", "项目", "会议", "周三", "coffee", "tea"]
GROUPS = ["", "偏好", "工作/项目", "咖啡因", "生活"]

text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map("".join)
operation = st.one_of(
    st.tuples(st.just("add"), text, text, st.lists(st.sampled_from(WORDS[:6]), max_size=2), st.sampled_from(GROUPS)),
    st.tuples(st.just("edit"), st.integers(0, 50), text, st.sampled_from(GROUPS)),
    st.tuples(st.just("retitle"), st.integers(0, 50), text),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
    st.tuples(st.just("purge"), st.integers(0, 50)),
    st.tuples(st.just("import"), st.lists(text, min_size=1, max_size=4)),
    st.tuples(st.just("merge"), st.integers(0, 50), text),
    st.tuples(st.just("persona"), st.sampled_from(["咖啡因", "助手", "跑步教练"])),
    st.tuples(st.just("touch"), st.integers(0, 50)),
)
REFUSED = ("ValidationError", "NotFoundError", "ConflictError")  # an operation these stop writes nothing


def apply(store: Store, op, ids: list[str]) -> None:
    """One operation of ``operation``; ``ids`` (the memories made so far) grows and shrinks."""
    kind = op[0]
    pick = (lambda n: ids[n % len(ids)]) if ids else None
    try:
        if kind == "add":
            ids += store.add(title=op[1], content=op[2], tags=op[3], group=op[4]).added
        elif kind == "import":
            ids += store.add_many([{"content": c, "title": c[:4]} for c in op[1]]).added
        elif kind == "persona":
            existing = store.persona_by_name(op[1])
            if existing is None:
                store.create_persona(name=op[1])
            else:
                store.rename_persona(existing.id, op[1] + "新")
        elif not ids:
            return
        elif kind == "edit":
            store.update(pick(op[1]), expected_version=None, content=op[2], group=op[3])
        elif kind == "retitle":
            store.update(pick(op[1]), expected_version=None, title=op[2])
        elif kind == "delete":
            store.delete([pick(op[1])])
        elif kind == "restore":
            store.restore([pick(op[1])])
        elif kind == "purge":
            memory_id = pick(op[1])
            store.delete([memory_id])
            store.purge([memory_id])
            ids.remove(memory_id)
        elif kind == "merge":
            ids += store.supersede(pick(op[1]), content=op[2]).added
        elif kind == "touch":
            store.touch([pick(op[1])])
    except Exception as exc:
        if type(exc).__name__ not in REFUSED:
            raise


def serve() -> None:
    """The second process: requests on stdin, answers on stdout, a store per path."""
    stores: dict[str, Store] = {}
    for line in sys.stdin:
        request = json.loads(line)
        path = request["path"]
        try:
            if request.get("close"):
                if path in stores:
                    stores.pop(path).close()
                reply: dict = {"ids": []}
            else:
                store = stores.get(path) or stores.setdefault(path, Store.open(path))
                ids = list(request["ids"])
                apply(store, request["op"], ids)
                reply = {"ids": ids}
        except Exception as exc:  # the test shows it as its failure
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(reply, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    serve()
