"""A store as schema 5 left it, search index included (one row per term and memory, JSON bags,
114-byte packed columns, hex cut keys), for the upgrade's tests: written here as the code
of that version wrote it, from the same cuts."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.search.index.cut import cut_one
from memdesk.core.search.index.keyword import searchable_text
from memdesk.core.search.index.memory_rows import memories
from memdesk.core.search.index.meta import OLD_PACK, Codes
from memdesk.core.search.index.table import GLOBAL_CODE
from memdesk.core.search.index.vocab import Vocabulary, bump, stub_all
from memdesk.core.search.language.tokenize import Tokenizer, normalise
from memdesk.core.storage import migrations

MEMORY_COLUMNS = (
    "id, persona_id, group_name, title, content, summary, tags, type, scope, importance, importance_set, source, "
    "dedup_key, content_hash, created_at, updated_at, last_access_at, access_count, mention_count, expires_at, "
    "deleted_at, superseded_by, tier, heat, version"
)
TEXTS = [
    "周末和家人去杭州西湖喝咖啡",
    "每天早上跑步五公里",
    "项目会议改到周三下午",
    "喜欢喝绿茶，不喝咖啡因饮品",
    "coffee and tea",
]


def memory_row(i: int, *, content: str | None = None) -> tuple:
    """A memory row in MEMORY_COLUMNS' order."""
    deleted = "2026-01-02 00:00:00.000000" if i % 11 == 0 else None
    return (
        f"old{i:05d}",
        "p1" if i % 3 == 0 else None,
        ["偏好", "工作/项目", "生活"][i % 3],
        f"记录{i % 7}",
        content if content is not None else f"第{i}条：{TEXTS[i % len(TEXTS)]}",
        "",
        json.dumps(["习惯", "咖啡"][: i % 3], ensure_ascii=False),
        "fact",
        "long_term",
        1 + i % 10,
        0,
        "manual",
        None,
        f"h{i}",
        f"2025-05-01 10:{i % 60:02d}:00.000000",
        "2025-06-01 10:00:00.000000",
        None,
        i % 4,
        i % 2,
        None,
        deleted,
        None,
        "warm",
        50.0,
        1,
    )


def make_v5_store(path, count: int) -> None:
    """A schema-5 file with ``count`` memories (one persona, some in the trash), every one cut."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    for _, step in migrations.MIGRATIONS[:5]:
        step(conn)
    conn.execute("PRAGMA user_version = 5")
    conn.execute("PRAGMA journal_mode = wal")
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO persona (id, name, description, colour, auto_save_memory, created_at) "
        "VALUES ('p1', '跑步教练', '', '#888888', 0, '2025-01-01 00:00:00.000000')"
    )
    conn.executemany(
        f"INSERT INTO memory ({MEMORY_COLUMNS}) VALUES ({','.join('?' * 25)})", [memory_row(i) for i in range(count)]
    )
    stub_all(conn, tags_column=True)
    write_old_index(conn)
    conn.execute("COMMIT")
    conn.close()


def write_old_index(conn) -> None:
    """Cut every stub and write schema 5's index rows for it."""
    tokenizer = Tokenizer()
    vocabulary = Vocabulary.of(t for (t,) in conn.execute("SELECT term FROM search_vocab"))
    codes = Codes(conn)
    stubs = dict(conn.execute("SELECT memory_id, doc FROM search_doc WHERE words IS NULL"))
    totals: Counter = Counter()
    for memory_id, record in memories(conn, list(stubs)).items():
        doc = stubs[memory_id]
        text = searchable_text(record)
        terms = cut_one((tokenizer, record, vocabulary.within(text)), text)
        bags = (terms.words, terms.grams, terms.pinyin)
        tags = sorted({normalise(t) for t in record.tags})
        conn.execute(
            "UPDATE search_doc SET words = ?, grams = ?, pinyin = ?, tags = ?, ehash = ?, key = ? WHERE doc = ?",
            (*(json.dumps(b, ensure_ascii=False) for b in bags), json.dumps(tags, ensure_ascii=False),
             terms.ehash, terms.key.hex(), doc),
        )  # fmt: skip
        conn.execute("INSERT INTO search_text (doc, text) VALUES (?, ?)", (doc, text))
        lengths = [float(sum(b.values())) for b in bags]
        meta = OLD_PACK.pack(
            doc,
            GLOBAL_CODE if record.persona_id is None else codes.code("p", record.persona_id),
            codes.code("g", normalise(record.group)),
            TYPES.index(record.type), SCOPES.index(record.scope), TIERS.index(record.tier), float(record.importance),
            record.created_at.timestamp(), record.updated_at.timestamp(), float("inf"),
            float(record.access_count), float(record.mention_count),
            record.deleted_at is not None, False, *lengths,
        )  # fmt: skip
        conn.execute("INSERT INTO search_meta (doc, meta) VALUES (?, ?)", (doc, meta))
        for table, bag in zip(("search_word", "search_gram", "search_pinyin"), bags):
            conn.executemany(
                f"INSERT INTO {table} (term, doc, tf) VALUES (?, ?, ?)", [(t, doc, tf) for t, tf in bag.items()]
            )
        conn.executemany("INSERT INTO search_tag (tag, doc) VALUES (?, ?)", [(t, doc) for t in tags])
        totals.update(docs=1, words_len=lengths[0], grams_len=lengths[1], pinyin_len=lengths[2])
    for name, value in totals.items():
        bump(conn, name, value)
