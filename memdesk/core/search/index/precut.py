"""An import's cuts made before its write transaction, in one pass of worker processes
together with its importance estimate (fork, as core/search/index/parallel.py explains).

A bulk import used to estimate importance in one pool of workers, insert the rows,
and only then, as the transaction ended, cut the memories for the index in a second
pool, with dictionaries loaded and workers started twice and the writer idle while
they ran. Here one pool (Workers) is forked as soon as the file is read: each worker
loads jieba, its word tags and the pinyin phrases while this process plans the
import, then scores (the rows wait for that) and cuts, while this process backs up,
inserts the rows and writes the index as the cuts come in (indexer.sync). The
vocabulary the cuts need is known only once the plan is made; the workers read it
from a file written then.

Exactness: a cut depends on the memory's fields and on the store's vocabulary terms
inside its text (indexer docstring). These cuts are made with the vocabulary the
store will hold once the import is written (what it holds now plus what the import
brings). sync takes one only when the memory's fields are the ones it was made
from and the vocabulary is exactly that one, and cuts anew otherwise (another
process wrote in between, say), so the index is the same either way.

Figures (bench/import_speed.py, 10k memories, 2-core machine; wall times swing
1.5x with the machine's load, so A/B runs interleaved against the code before).
2026-12-01 22:00 UTC, one worker pass against 3bfdec0: 7.2-7.9 s -> 5.7-6.1 s.
2026-12-01 23:50 UTC, quiet, against 152ad08: 4.4-4.7 s; with new memories'
postings made by SQLite (index_writer) and statement journals in memory (db.py)
3.9-4.1 s: the writer's CPU 3.8 -> 3.0 s, the workers' 3.4 s. What was left
then: ~1 s before the workers could start (the plan 0.35, loading jieba, its
word tags and the pinyin phrases 0.65), the workers bound the rest. With the
workers forked as the file is read and loading while the plan is made, on a
machine ~1.3x slower than that hour (the old code's best 5.6 s against 4.4):
old 5.6-7.0 s, new 4.6-6.5 s (best of 7 runs each: 5.6 and 4.6), total CPU
9.5-10.5 -> ~9.0 s; scaled to the quiet hour ~3.6 s.
2026-12-06 03:45 UTC, quiet, eight interleaved runs each: the code before
issue 38 (ce911b6^1) 3.82-4.51 s, median 4.02; b4c7fc0 3.84-4.73, median 3.95;
now 3.48-3.95, median 3.57. What changed: the importance tagging in one loop
(jieba_route.tagged, the estimate ~8% faster), the cut's bags summed as ints
rather than converted, a word's vocabulary term cached (it was made twice per
memory), and the writer spilling whenever it waits for a cut (writer.spill):
~0.4 s of postings used to be written after the workers were done.
Measured, not done: the importance tagger's and the cut's jieba passes walk the
same dictionary graph of much the same text and could share it (~0.6 s of
worker CPU), but the cut's text is normalised and carries the vocabulary
overlay, so the two graphs agree only where neither changes anything. jieba's
cut and cut_for_search rewritten as one loop (as tagged is) measured no faster:
their generators cost little next to the graph and the route. Each worker loads
jieba and its tags (~0.4 s CPU each); loading once and forking the second
worker from the first would save one load, but multiprocessing.Pool cannot
adopt a worker it did not start (its shutdown waits for one sentinel per
worker it knows).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from memdesk.core.search.index.cut import Terms, cut_one
from memdesk.core.search.index.keyword import searchable_text
from memdesk.core.search.index.parallel import MIN_ITEMS, can_fork
from memdesk.core.search.index.vocab import Vocabulary, vocabulary_of
from memdesk.core.search.language.pinyin import SHARED_PINYIN
from memdesk.core.search.language.tokenize import Tokenizer, vocabulary_terms

CHUNK = 50  # jobs a worker takes at a time: results come back in order, a chunk at once


class _Text(NamedTuple):
    """The fields a cut reads (a MemoryText), as a new row holds them."""

    title: str
    content: str
    summary: str
    tags: tuple[str, ...]
    group: str


def _text_of(record) -> _Text:
    return _Text(record.title, record.content, record.summary, tuple(record.tags), record.group)


_inherited: Tokenizer | None = None  # set before the fork, read by the workers
_vocabularies: dict[str, Vocabulary] = {}  # in a worker: the vocabulary files it read, by path


def _load() -> None:
    """A worker's start: jieba, its word tags and the pinyin phrases, loaded in each worker
    while the parent plans the import (not once in the parent before forking, which the
    plan then had to wait for)."""
    from memdesk.core.search.language.importance import score_memory

    assert _inherited is not None, "set by Workers.start before the workers fork"
    _inherited.warm_up()
    SHARED_PINYIN.load_phrases()
    score_memory("", "预热")


def _work(job: tuple[str, Any, str | None]):
    kind, value, where = job
    if kind == "score":
        from memdesk.core.search.language.importance import score_memory

        return score_memory(*value)
    assert _inherited is not None and where is not None
    vocabulary = _vocabularies.get(where)
    if vocabulary is None:
        with open(where, encoding="utf-8") as handle:
            vocabulary = _vocabularies[where] = Vocabulary.of(json.load(handle))
    text = searchable_text(value)
    return cut_one((_inherited, value, vocabulary.within(text)), text)


def _work_chunk(jobs: list[tuple[str, Any, str | None]]) -> list:
    return [_work(job) for job in jobs]


class Workers:
    """One import's worker processes. Forked as soon as the file is read (import_file, the
    CLI's import), they load their dictionaries while this process plans."""

    def __init__(self, pool):
        self.pool = pool

    @classmethod
    def start(cls, store, count: int) -> Workers | None:
        """Workers for ``count`` records, or None where forking is not safe or not worth it."""
        global _inherited
        if count < MIN_ITEMS or not can_fork():
            return None
        _inherited = store.tokenizer  # not loaded yet: each worker loads its copy
        try:
            pool = multiprocessing.get_context("fork").Pool(os.cpu_count(), initializer=_load)
        finally:
            _inherited = None
        return cls(pool)

    def close(self) -> None:
        """Stop the workers (again: no harm)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


class Ahead:
    """Importance and cuts of new rows (memory_writes.new_row's), computed in worker processes.

    ``scores()`` gives the estimates of the rows that want one, in order; sync asks
    ``has`` of each new memory, then ``terms_for`` as it writes them."""

    def __init__(self, ids: list[str], texts: list[_Text], scored: int, vocabulary: Vocabulary, workers, results, file):
        self._ids = {memory_id: i for i, memory_id in enumerate(ids)}
        self._texts = texts
        self._scored = scored
        self.vocabulary = vocabulary
        self._workers, self._results = workers, results
        self._got: list = []
        self._file: str | None = file  # the vocabulary the workers read

    @classmethod
    def start(
        cls, store, rows: list[dict], *, personas: Iterable[str] = (), workers: Workers | None = None
    ) -> Ahead | None:
        """Start the work on ``rows`` (new_row() dicts, "_estimate" marking those to score);
        ``personas``: names of personas the import creates (their names become vocabulary);
        ``workers``: started already (Workers.start), else started here. The Ahead closes
        them. None where forking is not safe or not worth it: the write path then does it all."""
        if len(rows) < MIN_ITEMS:
            return None
        workers = workers or Workers.start(store, len(rows))
        if workers is None:
            return None
        texts = [_Text(r["title"], r["content"], r["summary"], tuple(json.loads(r["tags"])), r["group"]) for r in rows]
        terms = _vocabulary_after(store, texts, personas)
        handle, where = tempfile.mkstemp(prefix="memdesk-vocabulary-", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(sorted(terms), out, ensure_ascii=False)
        scores = [("score", (r["title"], r["content"]), None) for r in rows if r.get("_estimate")]
        jobs = scores + [("cut", t, where) for t in texts]
        # Chunks sent as single jobs: imap's own chunking hides the result iterator whose
        # next(timeout=0) says whether a result is back (ready).
        results = workers.pool.imap(_work_chunk, [jobs[i : i + CHUNK] for i in range(0, len(jobs), CHUNK)])
        return cls([r["id"] for r in rows], texts, len(scores), Vocabulary.of(terms), workers, results, where)

    def _upto(self, n: int) -> None:
        while len(self._got) < n:
            self._got += next(self._results)

    def scores(self) -> Iterator[int]:
        """The importance estimates, in the rows' order, as the workers make them."""
        for i in range(self._scored):
            self._upto(i + 1)
            yield self._got[i]

    def has(self, record, vocabulary: Vocabulary) -> bool:
        """Was this memory's cut made from these fields, with this vocabulary? (Does not wait.)"""
        if vocabulary.terms is None or vocabulary.terms != self.vocabulary.terms:
            return False
        i = self._ids.get(record.id)
        return i is not None and self._texts[i] == _text_of(record)

    def ready(self, record) -> bool:
        """Is this memory's cut back from the workers already (terms_for would not wait)?"""
        i = self._scored + self._ids[record.id]
        while len(self._got) <= i:
            try:
                self._got += self._results.next(timeout=0)
            except multiprocessing.TimeoutError:
                return False
        return True

    def terms_for(self, record) -> Terms:
        """The cut made for this memory (``has`` said there is one); waits for it. Each is
        handed out once (and then let go: an import of 100k would hold them all)."""
        i = self._scored + self._ids[record.id]
        self._upto(i + 1)
        terms, self._got[i] = self._got[i], None
        assert terms is not None, "each memory's cut is asked for once"
        return terms

    def close(self) -> None:
        self._workers.close()
        if self._file is not None:
            os.unlink(self._file)
            self._file = None


def _vocabulary_after(store, texts: list[_Text], personas: Iterable[str]) -> set[str]:
    """The vocabulary terms the store will hold once these memories (and personas) are added."""
    conn = store.connection()
    terms = {t for (t,) in conn.execute("SELECT term FROM search_vocab")}
    for text in texts:
        terms.update(vocabulary_of(text))
    terms.update(vocabulary_terms(list(personas)))
    return terms
