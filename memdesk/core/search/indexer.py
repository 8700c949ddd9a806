"""The search index kept in the store, written inside every write transaction.

Why this shape (figures: bench/cold_start.py, 2-core machine, 100k memories).
Before, each process (window, `memdesk search`, each MCP server) cut every
memory with jieba and built its postings in RAM at start: 31 s and 827 MB
for one CLI query. Three designs were weighed:

(a) SQLite FTS5 over pre-cut terms as a candidate generator. Compact, but
    FTS5 does not hand back the weighted per-field term counts and document
    lengths our BM25 needs (its bm25() is another formula, and fts5vocab's
    instance rows cost as much to read as plain postings), so scoring would
    need a second store of the same numbers; and it exists only on SQLite.
(b) Segments off the Python heap (tantivy, or our own memory-mapped arrays)
    caught up from the change feed. Fast reads, but a second file beside the
    database that every process must keep in step, merge and repair after a
    crash, and a native dependency in the installer; on PostgreSQL a shared
    server would have to hold it.
(c) (chosen) Plain tables in the store: search_word, search_gram and
    search_pinyin (term, doc) -> weighted count, WITHOUT ROWID so a term's postings are one
    B-tree range; per memory its term bags and vocabulary (search_doc), its
    normalised text (search_text: substring fallback, re-cuts) and its
    numeric columns packed in ~100 bytes (search_meta: filters and ranking
    load every memory's in one narrow scan). Written in the same transaction
    as the memory, by whichever process writes, so it can never disagree
    with the store. A fresh process reads the packed columns and the
    postings of its query's terms only; scores are exactly those of the
    in-memory index (the same BM25Field code over the same numbers), so the
    retrieval figures do not move. The SQL is plain tables and indexes; on
    PostgreSQL the same tables work with ON CONFLICT for INSERT OR REPLACE,
    position() for instr() and a plain primary key for WITHOUT ROWID.

Measured at 100k (bench/cold_start.py, 2026-12-01): a fresh `memdesk search`
in 0.57 s against 0.75 s for the FTS5 anchor, 157 MB; the first MCP search
0.53 s; the window at full quality 1.5 s, 310 MB. The index takes ~23x the
text on disk (264 MB for 11 MB of text, pinyin readings included; postings
are not compressed, FTS5's would be ~3x), the price of exact scores without
a second copy of the numbers. Common terms' postings are compacted into
blobs (index_segments.py) for stores of 30k memories and more.

Speed, 2026-12-01 07:40-07:50 UTC, the same 2-core machine under a load of
~6 (two other helpers' tests): wall times swing 2-5x with that load, so the
figures are interleaved A/B runs against the previous main (3a656c0) and,
where wall time meant nothing, CPU time. The hits, scores and explanations
are the same to the bit (316 searches x 2 at 100k compared byte for byte;
search/best_only.py explains why). bench/retrieval.py: LoCoMo 0.6355 /
0.7181, MemDaily 0.9034 / 0.9778, unchanged.
- 1M memories (cold_start's warm search, 200 new queries): before p50 424,
  p95 870 ms wall (122 / 122 quiet), CPU 131 / 262 ms; now p50 53, p95 129
  ms wall, CPU 27 / 52 ms. What remains is the BM25 of 200k-posting lists
  and, at p95, reading a term's postings the first time.
- 1k (search_speed's corpus and queries, CPU per search): p50 1.27 -> 0.73
  ms, p95 1.74 -> 1.01 ms; against FTS5's p95 of 0.21 ms (quiet) that is ~5x.
- Search-as-you-type at 100k (gui_speed's typed sequence, the window
  process's CPU per keystroke): p95 43 -> 28 ms, p50 25 -> 18 ms.
- Window start at 100k: longest UI stall 49-66 -> 24-34 ms (2 x 2 runs, both
  from compiled bytecode, see bench/cold_start.py).
- Import of 10k memories: CPU 8.0 -> 7.4 s (one jieba dictionary for the
  cut and the importance estimate). The goal of 4 s wall is not met.

The import's figures since (one worker pass, precut.py) are in precut.py's docstring.

The user's vocabulary (tags, group and persona names, short titles) keeps
those words whole in jieba. It is stored with reference counts; a text is
cut with the vocabulary terms it contains (Tokenizer overlay), so a cut
depends only on the text and its store. When a term appears in or vanishes
from the vocabulary, the memories containing it are cut again here.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from operator import itemgetter

from ..embedding import embed_text, text_hash
from .index_cut import Terms, cut_key, cut_many, cut_one
from .index_meta import Codes, pack_meta
from .index_segments import compact, mark_dirty, worth_compacting
from .index_vocab import (
    BULK,
    Vocabulary,
    add_refs,
    bump,
    containing,
    last_doc,
    persona_vocabulary,
    set_last_doc,
    stub_all,
    vocabulary_of,
)
from .indexed import IndexedMemory
from .keyword import searchable_text
from .memory_rows import memories
from .precut import Ahead
from .tokenize import Tokenizer, normalise

BATCH = 500  # memories cut per build transaction
COMPACT_AFTER = 2000  # memories cut in one write before it compacts the postings (index_segments)
SPILL = 100_000  # posting rows gathered before a bulk write sends them to SQLite (while workers still cut)


def _docs(conn, column: str, keys: list) -> dict:
    """search_doc rows by memory_id or doc: key -> (doc, memory_id, text, words, grams, vocab, tags, cut key,
    pinyin)."""
    out = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT d.doc, d.memory_id, t.text, d.words, d.grams, d.vocab, d.tags, d.key, "
            f"d.pinyin FROM search_doc d LEFT JOIN search_text t ON t.doc = d.doc "
            f"WHERE d.{column} IN ({marks})",
            chunk,
        ):
            out[row[0] if column == "doc" else row[1]] = row
    return out


_TERM = itemgetter(0)
_TABLES = ("search_word", "search_gram", "search_pinyin")  # postings of a doc's three term bags
_LENGTHS = ("words_len", "grams_len", "pinyin_len")  # their totals in search_stat


def _bags(old) -> tuple[dict, dict, dict]:
    """A search_doc row's term bags (words, grams, pinyin); empty for a new memory or a stub."""
    if old is None:
        return {}, {}, {}
    return json.loads(old[3] or "{}"), json.loads(old[4] or "{}"), json.loads(old[8] or "{}")


def _lengths(bags: tuple[dict, dict, dict]) -> tuple[float, float, float]:
    words, grams, pinyin = bags
    return float(sum(words.values())), float(sum(grams.values())), float(sum(pinyin.values()))


class _Writer:
    """One sync: collects every row change, then writes them in a few executemany calls."""

    def __init__(self, conn, tokenizer: Tokenizer, vocabulary: Vocabulary):
        self.conn, self.tokenizer, self.vocabulary = conn, tokenizer, vocabulary
        self.codes = Codes(conn)
        self.put: dict[str, list[tuple[str, int, float]]] = {t: [] for t in _TABLES}
        self.drop: dict[str, list[tuple[str, int]]] = {t: [] for t in _TABLES}
        self.tag_put: list = []
        self.tag_drop: list = []
        self.docs: list = []
        self.metas: list = []  # the packed columns, in a narrow table that loads fast
        self.gone: list = []
        self.touched: set[int] = set()  # docs whose postings change (search_dirty)
        self.wrote_postings = False
        self.delta: defaultdict[str, float] = defaultdict(int)  # whole counts stay ints in search_stat
        self.first_doc = self.next_doc = last_doc(conn) + 1

    def needs_cut(self, record, old) -> bool:
        return old is None or old[7] != cut_key(record)

    def write(
        self,
        record: IndexedMemory,
        old,
        vocab: list[str],
        *,
        recut: bool = False,
        terms: Terms | None = None,
    ) -> None:
        doc = self._doc(old)
        before = _bags(old)
        key = terms.key if terms is not None else cut_key(record)
        same = old is not None and old[7] == key and not recut
        if same and old[5] == json.dumps(vocab, ensure_ascii=False):
            # Only counters, states or times changed (an access, a move to the trash):
            # the packed columns are all there is to write.
            self.metas.append((doc, pack_meta(doc, record, self.codes, *_lengths(before))))
            return
        if same:  # the vocabulary changed, not the text: the bags as they are
            text, ehash = searchable_text(record), text_hash(embed_text(record.title, record.content))
            after, (words, grams, pinyin) = before, (old[3] or "{}", old[4] or "{}", old[8] or "{}")
        else:
            if terms is None:
                text = searchable_text(record)
                terms = cut_one((self.tokenizer, record, self.vocabulary.within(text)), text)
            text, ehash, after, (words, grams, pinyin) = terms.text, terms.ehash, terms[:3], terms.bags
            for table, old_bag, new_bag in zip(_TABLES, before, after):
                self._postings(table, doc, old_bag, new_bag)
        lengths = _lengths(after)
        for name, length, was in zip(_LENGTHS, lengths, _lengths(before)):
            self.delta[name] += length - was
        tags = sorted({normalise(t) for t in record.tags})
        old_tags = json.loads(old[6]) if old is not None else []
        self.tag_drop += [(t, doc) for t in set(old_tags) - set(tags)]
        self.tag_put += [(t, doc) for t in set(tags) - set(old_tags)]
        vocab_json, tags_json = json.dumps(vocab, ensure_ascii=False), json.dumps(tags, ensure_ascii=False)
        self.docs.append((doc, record.id, text, words, grams, vocab_json, tags_json, ehash, key, pinyin))
        self.metas.append((doc, pack_meta(doc, record, self.codes, *lengths)))

    def _doc(self, old) -> int:
        """The memory's doc number: its own, or the next free one for a new memory."""
        if old is None:
            self.next_doc += 1
            self.delta["docs"] += 1
            return self.next_doc - 1
        if old[2] is None:
            self.delta["docs"] += 1  # a stub from the upgrade: counted once it is cut
        return old[0]

    def _postings(self, table: str, doc: int, old: dict, new: dict) -> None:
        if not old:  # a new memory (most of an import): nothing to compare with
            put = [(t, doc, tf) for t, tf in new.items() if tf > 0]
            drop = []
        else:
            put = [(t, doc, tf) for t, tf in new.items() if old.get(t) != tf and tf > 0]
            drop = [(t, doc) for t in old if t not in new]
        if put or drop:
            self.touched.add(doc)
            self.put[table] += put
            self.drop[table] += drop

    def remove(self, old) -> None:
        doc = old[0]
        bags = _bags(old)
        for table, bag in zip(_TABLES, bags):
            if bag:
                self.touched.add(doc)
            self.drop[table] += [(t, doc) for t in bag]
        self.tag_drop += [(t, doc) for t in json.loads(old[6])]
        if old[2] is not None:
            self.delta["docs"] -= 1
        for name, length in zip(_LENGTHS, _lengths(bags)):
            self.delta[name] -= length
        self.gone.append((doc,))

    def spill(self) -> None:
        """Send the postings gathered so far to SQLite once there are many: in a bulk write
        the inserts then run while the workers are still cutting."""
        if sum(len(rows) for rows in self.put.values()) >= SPILL:
            self._write_postings()

    def _write_postings(self) -> None:
        for table in _TABLES:
            drop, put = self.drop[table], self.put[table]
            if not drop and not put:
                continue
            self.wrote_postings = True
            # In term order: B-tree pages are then filled one after another, not at random.
            # By the term alone (string keys sort ~2x faster than tuples); a term's rows keep
            # the order they came in, which for an import's new memories is doc order.
            self.conn.executemany(f"DELETE FROM {table} WHERE term = ? AND doc = ?", sorted(drop, key=_TERM))
            self.conn.executemany(
                f"INSERT INTO {table} (term, doc, tf) VALUES (?, ?, ?) "
                "ON CONFLICT (term, doc) DO UPDATE SET tf = excluded.tf",
                sorted(put, key=_TERM),
            )
            self.drop[table], self.put[table] = [], []

    def flush(self) -> None:
        c = self.conn
        self._write_postings()
        c.executemany("DELETE FROM search_tag WHERE tag = ? AND doc = ?", self.tag_drop)
        c.executemany("INSERT INTO search_tag (tag, doc) VALUES (?, ?) ON CONFLICT DO NOTHING", self.tag_put)
        c.executemany("DELETE FROM search_doc WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_meta WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_text WHERE doc = ?", self.gone)
        c.executemany(
            "INSERT INTO search_doc (doc, memory_id, words, grams, vocab, tags, ehash, key, "
            "pinyin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (doc) DO UPDATE SET "
            "memory_id = excluded.memory_id, words = excluded.words, grams = excluded.grams, "
            "vocab = excluded.vocab, tags = excluded.tags, ehash = excluded.ehash, key = excluded.key, "
            "pinyin = excluded.pinyin",
            [row[:2] + row[3:] for row in self.docs],
        )
        c.executemany(
            "INSERT INTO search_text (doc, text) VALUES (?, ?) ON CONFLICT (doc) DO UPDATE SET text = excluded.text",
            [(row[0], row[2]) for row in self.docs],
        )
        c.executemany(
            "INSERT INTO search_meta (doc, meta) VALUES (?, ?) ON CONFLICT (doc) DO UPDATE SET meta = excluded.meta",
            self.metas,
        )
        for name, value in self.delta.items():
            if value:
                bump(c, name, value)
        mark_dirty(c, self.touched | {d for (d,) in self.gone})
        if self.next_doc > self.first_doc:
            set_last_doc(c, self.next_doc - 1)
        if self.wrote_postings:
            bump(c, "postings")  # readers keep their cached postings until this moves


def sync(
    conn: sqlite3.Connection,
    tokenizer: Tokenizer,
    memory_ids: Iterable[str],
    *,
    personas: bool = False,
    ahead: Ahead | None = None,
) -> int:
    """Bring the index in line with the store for these memories (added, changed or
    purged). Call inside the write transaction that changed them. ``ahead``: an import's
    cuts made before its transaction (precut.py), taken where they fit. Returns the
    number of other memories cut again because the vocabulary changed."""
    ids = list(dict.fromkeys(i for i in memory_ids if i))
    if not ids and not personas:
        return 0
    records = memories(conn, ids)
    old = _docs(conn, "memory_id", ids)
    vocab = {i: vocabulary_of(r) for i, r in records.items()}
    refs: Counter = Counter()
    for memory_id in ids:
        refs.update(vocab.get(memory_id, []))
        if memory_id in old:
            refs.subtract(json.loads(old[memory_id][5]))
    appeared, vanished = add_refs(conn, refs)
    if personas:
        more = persona_vocabulary(conn)
        appeared |= more[0]
        vanished |= more[1]
    writer = _Writer(conn, tokenizer, Vocabulary(conn, whole=len(ids) > BULK))
    cut = _write_all(writer, ids, records, old, vocab, ahead)
    recut = _recut_others(writer, appeared | vanished, old)
    writer.flush()
    if cut >= COMPACT_AFTER and worth_compacting(conn):
        compact(conn)  # a bulk write: common terms' postings as blobs again, dirty set emptied
    if recut:
        bump(conn, "epoch")  # other processes reload: memories changed without a change-feed row
    return recut


def _write_all(writer: _Writer, ids: list[str], records: dict, old: dict, vocab: dict, ahead: Ahead | None) -> int:
    """Every memory's rows, in ``ids`` order; returns how many were cut. Memories that need
    no cut are written first; the cut ones as their terms come back (from worker processes
    in a bulk write, overlapping this process's work)."""
    jobs: list[tuple[str, IndexedMemory, bool]] = []  # (id, record, cut ahead?)
    for memory_id in ids:
        record, row = records.get(memory_id), old.get(memory_id)
        if record is None:
            if row is not None:
                writer.remove(row)
        elif writer.needs_cut(record, row):
            jobs.append((memory_id, record, ahead is not None and row is None and ahead.has(record, writer.vocabulary)))
        else:
            writer.write(record, row, vocab[memory_id])
    within = writer.vocabulary.within
    fresh = cut_many(writer.tokenizer, [(r, within(searchable_text(r))) for _, r, early in jobs if not early])
    for memory_id, record, early in jobs:
        terms = ahead.terms_for(record) if early and ahead is not None else next(fresh)
        writer.write(record, old.get(memory_id), vocab[memory_id], terms=terms)
        writer.spill()
    return len(jobs)


def _recut_others(writer: _Writer, changed_terms: set[str], old: dict) -> int:
    """Cut again the stored memories (outside this batch) that contain vocabulary terms
    which appeared or vanished; how many."""
    if not changed_terms:
        return 0
    conn = writer.conn
    batch = {row[0] for row in old.values()}
    others = _docs(conn, "doc", sorted(containing(conn, changed_terms) - batch))
    if not others:
        return 0
    fresh = memories(conn, [row[1] for row in others.values()])
    for row in others.values():
        if row[1] in fresh:
            writer.write(fresh[row[1]], row, json.loads(row[5]), recut=True)
    return len(others)


def pending(conn) -> int:
    return conn.execute("SELECT COUNT(*) FROM search_doc WHERE words IS NULL").fetchone()[0]


def build(
    store,
    *,
    cancel: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> int:
    """Cut the memories the upgrade left uncut, BATCH per short transaction.

    Resumable: a kill -9 loses at most the batch in flight, and searches
    meanwhile see every memory cut so far. Returns how many were cut.
    """
    conn = store.connection()
    total = pending(conn)
    done = 0
    while total:
        if cancel():
            return done
        if not pending(conn):  # read first: no write lock is taken when nothing is left
            break
        with store.write():
            ids = [
                i
                for (i,) in conn.execute(
                    "SELECT memory_id FROM search_doc WHERE words IS NULL ORDER BY doc LIMIT ?", (BATCH,)
                )
            ]
            if not ids:
                break
            sync(conn, store.tokenizer, ids)
            bump(conn, "epoch")
        done += len(ids)
        progress(done, total)
    if done and worth_compacting(conn):
        with store.write():
            compact(conn)
    progress(total, total)
    return done


def reset(conn) -> int:
    """Empty the index and leave a stub per memory for ``build`` to cut (inside the
    caller's transaction; also the upgrade step when what a cut holds changes)."""
    for table in (
        "search_word",
        "search_gram",
        "search_pinyin",
        "search_tag",
        "search_vocab",
        "search_code",
        "search_meta",
        "search_text",
        "search_doc",
        "search_segment",
        "search_dirty",
    ):
        conn.execute(f"DELETE FROM {table}")
    conn.execute("DELETE FROM search_stat WHERE name != 'epoch'")  # readers notice by the epoch
    return stub_all(conn)


def rebuild(store, *, progress: Callable[[int, int], None] = lambda done, total: None) -> int:
    """Drop the index and build it again from the memories (repair; tests compare with it)."""
    with store.write():
        reset(store.connection())
    return build(store, progress=progress)
