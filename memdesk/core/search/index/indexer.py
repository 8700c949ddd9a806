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
(c) (chosen) Tables in the store, written in the same transaction as the
    memory by whichever process writes, so the index can never disagree with
    the store. search_post holds each term's postings as blocks of up to 256
    (doc delta, count) varints keyed by (term id, first doc), so a write
    rewrites only the blocks its memories fall in; search_term holds each
    (field, term) once with an id and its document frequency; per memory,
    search_doc holds its term list (postings_codec.py: its words, character
    pairs and tags as term ids, in the cut's order), its vocabulary and cut
    key, search_text its normalised text (substring fallback, re-cuts) and
    search_meta its numeric columns packed in 62 bytes (filters and ranking
    load every memory's in one narrow scan). A fresh process reads the packed
    columns and its query's terms' blocks only; scores are exactly those of
    the in-memory index (the same BM25Field code over the same numbers), so
    the retrieval figures do not move. The same tables on PostgreSQL (bytea).

Store size (schema 6; bench/store_size.py, stores built by `memdesk import`).
Schema 5 kept a row per (term, memory) with the term's text in each row and
a REAL count, three JSON copies of each memory's bags, a row per (tag,
memory), and blobs of common terms beside their rows: at 100k memories a
332 MB file, 261 MB of it index, for 11 MB of text (FTS5 over jieba tokens
of the same memories: 21 MB; 12.4x). At 10k: 28.8 MB, index 21.7 (12.8x).
Layouts of the same postings, measured by store_size.py --alternatives:
                               10k MB   100k MB
  one row per term and block     1.5     14.5   (chosen; with search_term)
  one blob per term, blocks in   1.6     14.3
  one row per (term id, doc)     7.4     77.6   (schema 5's shape, ids for text)
  FTS5 over the same terms       2.4     23.7   (contentless, detail=full)
The row per block won: a write of one memory rewrites ~60 blocks of at most
~500 bytes, where a blob per term rewrites a common term's whole 100 KB;
FTS5 keeps positions we do not need, cannot give BM25 our weighted counts
(design (a)), and deleting from it still needs each memory's terms.
What a memory's postings are removed by (its "forward index"): its term list
measured 12 MB at 100k as ids (7 MB without the readings) against 88 MB of
search_doc with the JSON bags. Cutting the old text
again instead would need the old text (the memory row is already changed
when the index syncs) and the vocabulary and dictionaries of the old cut,
and would cost a cut per edit or purge; kept as ids. The readings (pinyin)
alone are worked out again from the term list's words (pinyin.py), 40% of
the list: search_stat keeps the version of the pinyin data they come from,
and a new one rebuilds the index (build).
Measured 2026-12-05/06 (store_size.py --sizes 10000,100000 and 1000000; the
file after a checkpoint, dbstat for the tables; FTS5 built in the same run):
              db_mb  index_mb  fts5_mb  index/fts5  memory_mb  backup_mb
  10k before   28.8    21.7      1.7      12.8x        5.8       28.8
  10k now      12.6     5.6      1.7       3.3x        5.8        6.8
  100k before 332.2   261.2     21.1      12.4x       58.5      332.2
  100k now    126.9    55.8     21.1       2.6x       58.5       68.1
  1M before    ~3400   ~2700    (issue 38's figures, not rebuilt here)
  1M now      1276.0   560.8    174.8      3.2x      590.1      684.3
At 100k the index is now search_doc 20.2 MB (term lists 7 MB, vocabulary,
cut and embedding hashes, ids), search_post 12.8, search_text 12.3,
search_meta 7.3, search_term 3.3 (at 1M: 203, 126, 124, 73, 35). What is
left of the file is the memories themselves (the memory table and its ten
indexes: 58.5 MB for 11 MB of text; memory_tag 10.1) and the change feed
(2.3).
Speed from fresh processes, 2026-12-06 00:10-00:30 UTC, quiet 2-core
machine, the code before issue 38 (ce911b6^1, its own stores) run in the
same hour. cold_start 100k, before -> now: CLI 1.15 -> 0.80 s against FTS5's
1.16 -> 0.89 (0.99 -> 0.90x), first MCP search 0.54 -> 0.59 s, window ready
1.18 -> 1.04 s, 214 -> 214 MB, stall 19 -> 13 ms; warm p50/p95 3.1/5.9 ->
2.6/6.9 ms (search_speed 100k: p95 4.1 ms). Import of 10k (six runs each,
interleaved): 3.77-4.20 s -> 3.89-4.42 s, medians 4.1 and 4.0; then
4.02 -> 3.57 (precut.py has the figures and what changed). Single writes
(write_speed 100k, p95): add 12.3 -> 17.0-19.6 ms, edit 4.6 -> 9-14 ms, an
assistant's save 4.2 -> 8-12 ms. A write changes one entry in each of ~60
terms' blocks: each block is looked up (one statement for all terms), its
entry spliced into the bytes (postings_codec.change_in_block) and written
back, where a row was written in C; a vocabulary term that appears re-cuts
the memories holding it (~8 an add in write_speed's titles), whose entries
sit in the middle of common terms and rewrite only their own blocks.

Backups leave the index out (backup_copy.py), so a 100k backup is the store
without its index; `memdesk copy` never copied it (the target indexes as it
writes).

Speed, 2026-12-01 07:40-07:50 UTC, the same 2-core machine under a load of
~6 (two other helpers' tests): wall times swing 2-5x with that load, so the
figures are interleaved A/B runs against the previous main (3a656c0) and,
where wall time meant nothing, CPU time. The hits, scores and explanations
are the same to the bit (316 searches x 2 at 100k compared byte for byte;
search/rank/best_only.py explains why). bench/retrieval.py: LoCoMo 0.6355 /
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
from collections import Counter
from collections.abc import Callable, Iterable

from memdesk.core.search.index.cut import cut_many
from memdesk.core.search.index.indexed import IndexedMemory
from memdesk.core.search.index.keyword import searchable_text
from memdesk.core.search.index.memory_rows import memories
from memdesk.core.search.index.precut import Ahead
from memdesk.core.search.index.vocab import (
    BULK,
    READINGS_STAT,
    Vocabulary,
    add_refs,
    bump,
    containing,
    persona_vocabulary,
    stub_all,
    vocabulary_of,
)
from memdesk.core.search.index.writer import VOCAB, Writer, stored_docs
from memdesk.core.search.language.pinyin import data_version
from memdesk.core.search.language.tokenize import Tokenizer
from memdesk.core.storage.backup_copy import needs_rebuild

BATCH = 500  # memories cut per build transaction


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
    old = stored_docs(conn, "memory_id", ids)
    vocab = {i: vocabulary_of(r) for i, r in records.items()}
    refs: Counter = Counter()
    for memory_id in ids:
        refs.update(vocab.get(memory_id, []))
        if memory_id in old:
            refs.subtract(json.loads(old[memory_id][VOCAB]))
    appeared, vanished = add_refs(conn, refs)
    if personas:
        more = persona_vocabulary(conn)
        appeared |= more[0]
        vanished |= more[1]
    writer = Writer(conn, tokenizer, Vocabulary(conn, whole=len(ids) > BULK))
    _write_all(writer, ids, records, old, vocab, ahead)
    recut = _recut_others(writer, appeared | vanished, old)
    writer.flush()
    if recut:
        bump(conn, "epoch")  # other processes reload: memories changed without a change-feed row
    return recut


def _write_all(writer: Writer, ids: list[str], records: dict, old: dict, vocab: dict, ahead: Ahead | None) -> int:
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
        if early and ahead is not None:
            if not ahead.ready(record):
                writer.spill(idle=True)  # while the workers cut
            terms = ahead.terms_for(record)
        else:
            terms = next(fresh)
        writer.write(record, old.get(memory_id), vocab[memory_id], terms=terms)
        writer.spill()
    return len(jobs)


def _recut_others(writer: Writer, changed_terms: set[str], old: dict) -> int:
    """Cut again the stored memories (outside this batch) that contain vocabulary terms
    which appeared or vanished; how many."""
    if not changed_terms:
        return 0
    conn = writer.conn
    batch = {row[0] for row in old.values()}
    # New docs (numbered from first_doc) were cut with the new vocabulary already; their
    # rows may be stored by now (_write_fresh).
    found = {d for d in containing(conn, changed_terms) - batch if d < writer.first_doc}
    others = stored_docs(conn, "doc", sorted(found))
    if not others:
        return 0
    fresh = memories(conn, [row[1] for row in others.values()])
    for row in others.values():
        if row[1] in fresh:
            writer.write(fresh[row[1]], row, json.loads(row[VOCAB]), recut=True)
    return len(others)


def pending(conn) -> int:
    return conn.execute("SELECT COUNT(*) FROM search_doc WHERE terms IS NULL").fetchone()[0]


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
    if _stale(conn):  # a restored backup (backup_copy.py), or new pinyin data (index_writer)
        with store.write():
            if _stale(conn):
                reset(conn)
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
                    "SELECT memory_id FROM search_doc WHERE terms IS NULL ORDER BY doc LIMIT ?", (BATCH,)
                )
            ]
            if not ids:
                break
            sync(conn, store.tokenizer, ids)
            bump(conn, "epoch")
        done += len(ids)
        progress(done, total)
    progress(total, total)
    return done


def _stale(conn) -> bool:
    """Is the whole index to be built again from the memories?"""
    row = conn.execute("SELECT value FROM search_stat WHERE name = ?", (READINGS_STAT,)).fetchone()
    return needs_rebuild(conn) or row is None or row[0] != data_version()


def reset(conn) -> int:
    """Empty the index and leave a stub per memory for ``build`` to cut (inside the
    caller's transaction; also the upgrade step when what a cut holds changes)."""
    for table in (
        "search_post",
        "search_term",
        "search_vocab",
        "search_code",
        "search_meta",
        "search_text",
        "search_doc",
    ):
        conn.execute(f"DELETE FROM {table}")
    # Readers notice by the epoch; term ids are never given twice (readers keep their names).
    conn.execute("DELETE FROM search_stat WHERE name NOT IN ('epoch', 'last_term')")
    return stub_all(conn)


def rebuild(store, *, progress: Callable[[int, int], None] = lambda done, total: None) -> int:
    """Drop the index and build it again from the memories (repair; tests compare with it)."""
    with store.write():
        reset(store.connection())
    return build(store, progress=progress)
