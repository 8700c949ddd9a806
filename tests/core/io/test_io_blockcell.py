"""blockcell's memory.db, built the way blockcell builds it (schema from its storage
crate: tags comma-joined, importance REAL 0–1, RFC 3339 text times with nanoseconds,
FTS5 triggers, WAL) and the way seed 001's article describes it (JSON tags, 1–10
importance, epoch integers)."""

import hashlib
import sqlite3

import pytest

from memdesk.core.io.plan import import_file, plan_file
from memdesk.core.io.reading import ImportFileError

REAL_SCHEMA = """
CREATE TABLE IF NOT EXISTS memory_items (
    id TEXT PRIMARY KEY, scope TEXT NOT NULL DEFAULT 'short_term', type TEXT NOT NULL DEFAULT 'note',
    title TEXT, content TEXT NOT NULL, summary TEXT, tags TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT 'user', channel TEXT, session_key TEXT,
    importance REAL NOT NULL DEFAULT 0.5, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    last_accessed_at TEXT, access_count INTEGER NOT NULL DEFAULT 0, expires_at TEXT, deleted_at TEXT,
    dedup_key TEXT
);
CREATE INDEX IF NOT EXISTS idx_memory_dedup ON memory_items(dedup_key);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(title, summary, content, tags,
    content='memory_items', content_rowid='rowid');
CREATE TRIGGER IF NOT EXISTS memory_ai AFTER INSERT ON memory_items BEGIN
    INSERT INTO memory_fts(rowid, title, summary, content, tags)
    VALUES (new.rowid, new.title, new.summary, new.content, new.tags);
END;
CREATE TABLE IF NOT EXISTS memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
ARTICLE_SCHEMA = """
CREATE TABLE memory_items (
    id TEXT PRIMARY KEY, scope TEXT, type TEXT, title TEXT, content TEXT, summary TEXT,
    tags TEXT, importance INTEGER, created_at INTEGER, updated_at INTEGER, expires_at INTEGER,
    deleted_at INTEGER, dedup_key TEXT
);
"""
COLUMNS = (
    "id",
    "scope",
    "type",
    "title",
    "content",
    "summary",
    "tags",
    "source",
    "channel",
    "importance",
    "created_at",
    "updated_at",
    "access_count",
    "expires_at",
    "deleted_at",
    "dedup_key",
)


def real_db(path, rows):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(REAL_SCHEMA)
    for row in rows:
        values = dict.fromkeys(COLUMNS)
        values.update(
            {
                "scope": "short_term",
                "type": "note",
                "tags": "",
                "source": "user",
                "importance": 0.5,
                "access_count": 0,
                "updated_at": row.get("created_at"),
            }
        )
        values.update(row)
        conn.execute(
            f"INSERT INTO memory_items ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
            [values[c] for c in COLUMNS],
        )
    conn.commit()
    conn.close()
    return path


T = "2025-03-01T08:15:30.123456789+00:00"  # chrono's to_rfc3339(): nanoseconds
REAL_ROWS = [
    {
        "id": "a1",
        "scope": "long_term",
        "type": "preference",
        "title": "用户偏好：编程语言",
        "content": "用户偏好 Python，不喜欢 JavaScript",
        "tags": "编程,偏好",
        "importance": 0.8,
        "created_at": T,
        "dedup_key": "user_lang_preference",
        "access_count": 3,
        "channel": "telegram",
    },
    {"id": "a2", "type": "policy", "content": "回答一律用中文", "created_at": T, "scope": "long_term"},
    {"id": "a3", "type": "contact", "content": "小王的电话 138 0000 0000", "created_at": T},
    {
        "id": "a4",
        "type": "session_summary",
        "content": "今天分析了 Q3 财报",
        "created_at": T,
        "expires_at": "2025-03-02T08:15:30.5+08:00",
        "dedup_key": "session_summary:s1",
    },
    {
        "id": "gone",
        "content": "一条被软删除的记忆",
        "created_at": T,
        "deleted_at": "2025-03-05T00:00:00Z",
        "dedup_key": "user_lang_preference",
    },
]


def test_real_blockcell_file(store, tmp_path):
    path = real_db(tmp_path / "memory.db", REAL_ROWS)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    plan, changes = import_file(store, path)
    assert plan.format == "blockcell" and plan.summary()["new"] == 5 and len(changes.added) == 5
    a1 = store.get("a1")
    assert a1.tags == ("编程", "偏好", "channel:telegram") and a1.importance == 8
    assert a1.scope == "long_term" and a1.type == "preference" and a1.dedup_key == "user_lang_preference"
    assert a1.created_at.isoformat() == "2025-03-01T08:15:30.123456+00:00" and a1.access_count == 3
    policy, contact = store.get("a2"), store.get("a3")
    assert policy.type == "note" and "policy" in policy.tags
    assert contact.type == "fact" and "contact" in contact.tags
    reasons = {i.memory_id: i.reason for i in plan.items}
    assert "policy" in reasons["a2"] and "contact" in reasons["a3"]
    assert store.get("a4").expires_at.isoformat() == "2025-03-02T00:15:30.500000+00:00"
    gone = store.get("gone")
    assert gone.is_deleted and gone.dedup_key is None  # a live memory holds that key
    assert "dedup_key" in reasons["gone"]
    # the foreign file is opened read-only and left as it was
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    again = plan_file(store, path)
    assert again.summary()["unchanged"] == 5


def test_article_shaped_file(store, tmp_path):
    path = tmp_path / "article.db"
    conn = sqlite3.connect(path)
    conn.executescript(ARTICLE_SCHEMA)
    conn.execute(
        "INSERT INTO memory_items VALUES ('x1','long_term','project','项目','正在开发量化交易系统',NULL,"
        '\'["量化", "项目"]\',9,1700000000,1700000500,NULL,NULL,NULL)'
    )
    conn.execute(
        "INSERT INTO memory_items VALUES ('x2','short_term','task',NULL,'分析茅台财报',NULL,'[]',1,"
        "1700000000000,NULL,1700086400,1700003600,NULL)"
    )
    conn.execute(
        "INSERT INTO memory_items VALUES ('x3','long_term','fact',NULL,NULL,NULL,'[]',5,1700000000,NULL,NULL,NULL,NULL)"
    )
    conn.commit()
    conn.close()
    plan, _ = import_file(store, path, format="blockcell")
    assert [i.status for i in plan.items] == ["new", "new", "invalid"]
    assert "content" in plan.items[2].reason
    x1, x2 = store.get("x1"), store.get("x2")
    assert x1.tags == ("量化", "项目") and x1.importance == 9 and x1.type == "project"
    assert x1.created_at.year == 2023 and x1.updated_at.timestamp() == 1700000500
    assert x2.importance == 1 and x2.is_deleted and x2.scope == "short_term"


def test_not_a_blockcell_file(store, tmp_path):
    store.add(content="existing")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (id TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(ImportFileError, match="memory_items"):
        import_file(store, other)
    fake = tmp_path / "memory.json"
    fake.write_text('{"memories": []}', encoding="utf-8")
    with pytest.raises(ImportFileError, match="not an SQLite"):
        import_file(store, fake, format="blockcell")
    truncated = tmp_path / "broken.db"
    truncated.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50)
    with pytest.raises(ImportFileError):
        import_file(store, truncated)
    assert store.count(state="all") == 1
