"""A memory saved with a model active has its vector at once, from the CLI as from an assistant's tool."""

from __future__ import annotations

from memdesk.cli import main
from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.embed import active_embedder, install_model
from memdesk.core.store import Store
from memdesk.core.tools.service import MemoryTools


def _vectors(db_path, model_id):
    store = Store.open(db_path)
    try:
        ids = [m.id for m in store.list(state="all")]
        return {i: h for i, (h, _v) in store.stored_vectors(model_id, ids).items()}, store.get_many(ids)
    finally:
        store.close()


def _hash(record) -> str:
    return text_hash(embed_text(record.title, record.content))


def test_cli_add_and_edit_embed_with_the_active_model(db_path, tiny, models_root, capsys):
    install_model(tiny("t"), make_active=True)
    model_id = active_embedder()[0].model_id
    assert main(["--db", str(db_path), "--create", "add", "--content", "我喜欢喝茶", "--title", "茶"]) == 0
    memory_id = capsys.readouterr().out.split()[-1]
    stored, records = _vectors(db_path, model_id)
    assert stored == {memory_id: _hash(records[memory_id])}  # embedded on add, not at maintenance

    assert main(["--db", str(db_path), "edit", memory_id[:8], "--content", "我喜欢喝咖啡"]) == 0
    stored, records = _vectors(db_path, model_id)
    assert stored == {memory_id: _hash(records[memory_id])}  # the new text's vector

    assert main(["--db", str(db_path), "edit", memory_id[:8], "--tags", "饮品"]) == 0  # text unchanged
    assert _vectors(db_path, model_id)[0] == stored


def test_an_assistants_save_embeds_by_the_same_path(db_path, tiny, models_root):
    install_model(tiny("t"), make_active=True)
    model_id = active_embedder()[0].model_id
    store = Store.open(db_path)
    try:
        saved = MemoryTools(store, client="test").call("memory_save", {"content": "明天开会"})
    finally:
        store.close()
    stored, records = _vectors(db_path, model_id)
    assert stored == {saved["id"]: _hash(records[saved["id"]])}


def test_without_a_model_a_save_stores_no_vector(db_path, models_root, capsys):
    assert main(["--db", str(db_path), "--create", "add", "--content", "我喜欢喝茶"]) == 0
    store = Store.open(db_path)
    try:
        assert store.count(state="all") == 1 and not store.stored_vectors("any", [m.id for m in store.list()])
    finally:
        store.close()
