"""One sync's rows: what a write changes in the index tables, gathered and then written
in a few statements (indexer.sync drives it; indexer's docstring explains the tables)."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.search.index import terms as index_terms
from memdesk.core.search.index.cut import Terms, cut_key, cut_one
from memdesk.core.search.index.indexed import IndexedMemory
from memdesk.core.search.index.keyword import searchable_text
from memdesk.core.search.index.meta import Codes, lengths_of, pack_meta
from memdesk.core.search.index.postings_codec import decode_terms, encode_terms
from memdesk.core.search.index.terms import GRAMS, PINYIN, TAGS, WORDS, TermIds, apply
from memdesk.core.search.index.vocab import Vocabulary, bump, compact_json, last_doc, set_last_doc
from memdesk.core.search.language.pinyin import SHARED_PINYIN
from memdesk.core.search.language.tokenize import Tokenizer, normalise

SPILL_DOCS = 5000  # memories whose postings a bulk write gathers before writing them (while workers still cut)
SPILL_IDLE = 1000  # ... or fewer, when the next memory's cut is not back yet (spill)
_LENGTHS = ("words_len", "grams_len", "pinyin_len")  # the BM25 bags' totals in search_stat
_FIELDS = (WORDS, GRAMS, PINYIN, TAGS)  # a term list's bags, in its order

# A search_doc row as stored_docs reads it (with its search_text and packed columns).
DOC, MEMORY_ID, TEXT, TERMS, VOCAB, KEY, META = range(7)


def stored_docs(conn, column: str, keys: list) -> dict:
    """search_doc rows by memory_id or doc: key -> (doc, memory_id, text, term list, vocab, cut key,
    packed columns)."""
    out = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT d.doc, d.memory_id, t.text, d.terms, d.vocab, d.key, m.meta "
            f"FROM search_doc d LEFT JOIN search_text t ON t.doc = d.doc LEFT JOIN search_meta m ON m.doc = d.doc "
            f"WHERE d.{column} IN ({marks})",
            chunk,
        ):
            out[row[0] if column == "doc" else row[1]] = row
    return out


def _lengths(old) -> tuple[float, float, float]:
    """A stored memory's bag totals, as its packed columns hold them (0 for a new memory or a stub)."""
    if old is None or old[META] is None:
        return 0.0, 0.0, 0.0
    return lengths_of(old[META])


def _old_bags(conn, ids: TermIds, stored: dict[int, bytes]) -> dict[int, tuple[dict, dict, dict, dict]]:
    """Stored memories' bags by term id: words, pairs and tags from their term lists, readings
    worked out again from their words (the term list leaves them out: pinyin.data_version)."""
    decoded = {doc: decode_terms(data) for doc, data in stored.items()}
    names = index_terms.names(conn, {i for bags in decoded.values() for i in bags[WORDS][0].tolist()})
    readings = {}
    for doc, bags in decoded.items():
        words = {names[i]: tf for i, tf in zip(bags[WORDS][0].tolist(), bags[WORDS][1].tolist())}
        readings[doc] = SHARED_PINYIN.document_terms(words)
    ids.resolve(PINYIN, (t for bag in readings.values() for t in bag), create=False)
    known = ids.known[PINYIN]
    out = {}
    for doc, bags in decoded.items():
        pinyin = {known[t]: tf for t, tf in readings[doc].items() if t in known}
        words, grams, tags = (dict(zip(i.tolist(), tf.tolist())) for i, tf in (bags[0], bags[1], bags[TAGS]))
        out[doc] = (words, grams, pinyin, tags)
    return out


def _diff(doc: int, before: dict, after_ids: list, counts: list, term_ids: list, docs: list, tfs: list, df) -> None:
    """One bag's posting changes for a stored memory: new or changed counts, and 0 for terms gone."""
    for term, tf in zip(after_ids, counts):
        if before.get(term) != tf:
            term_ids.append(term)
            docs.append(doc)
            tfs.append(tf)
            if term not in before:
                df[term] += 1
    after = set(after_ids)
    for term in before:
        if term not in after:
            term_ids.append(term)
            docs.append(doc)
            tfs.append(0.0)
            df[term] -= 1


class Writer:
    """One sync: collects every row change, then writes them in a few executemany calls."""

    def __init__(self, conn, tokenizer: Tokenizer, vocabulary: Vocabulary):
        self.conn, self.tokenizer, self.vocabulary = conn, tokenizer, vocabulary
        self.codes = Codes(conn)
        self.terms = TermIds(conn)
        # (doc, stored term list, new bags or None when removed): postings to change.
        self.changes: list[tuple[int, bytes | None, tuple[dict, dict, dict, dict] | None]] = []
        self.docs: list[list] = []
        self.metas: list = []  # the packed columns, in a narrow table that loads fast
        self.gone: list = []
        self.wrote_postings = False
        self.delta: defaultdict[str, float] = defaultdict(int)  # whole counts stay ints in search_stat
        self.first_doc = self.next_doc = last_doc(conn) + 1

    def needs_cut(self, record, old) -> bool:
        return old is None or old[KEY] != cut_key(record)

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
        stored = old[TERMS] if old is not None else None
        before = _lengths(old)
        key = terms.key if terms is not None else cut_key(record)
        same = old is not None and old[KEY] == key and not recut
        if same and old[VOCAB] == compact_json(vocab):
            # Only counters, states or times changed (an access, a move to the trash):
            # the packed columns are all there is to write.
            self.metas.append((doc, pack_meta(doc, record, self.codes, *before)))
            return
        if same:  # the vocabulary changed, not the text: the bags as they are
            text, ehash = searchable_text(record), text_hash(embed_text(record.title, record.content))
            lengths, term_list = before, stored
        else:
            if terms is None:
                text = searchable_text(record)
                terms = cut_one((self.tokenizer, record, self.vocabulary.within(text)), text)
            text, ehash = terms.text, terms.ehash
            tags = dict.fromkeys(sorted({normalise(t) for t in record.tags}), 1)
            bags = (terms.words, terms.grams, terms.pinyin, tags)
            lengths = (float(sum(bags[0].values())), float(sum(bags[1].values())), float(sum(bags[2].values())))
            self.changes.append((doc, stored, bags))
            term_list = None  # made once the bags' terms have ids (_write_postings)
        for name, length, was in zip(_LENGTHS, lengths, before):
            self.delta[name] += length - was
        self.docs.append([doc, record.id, text, term_list, compact_json(vocab), ehash, key])
        self.metas.append((doc, pack_meta(doc, record, self.codes, *lengths)))

    def _doc(self, old) -> int:
        """The memory's doc number: its own, or the next free one for a new memory."""
        if old is None:
            self.next_doc += 1
            self.delta["docs"] += 1
            return self.next_doc - 1
        if old[TEXT] is None:
            self.delta["docs"] += 1  # a stub from the upgrade: counted once it is cut
        return old[DOC]

    def remove(self, old) -> None:
        doc = old[DOC]
        if old[TERMS]:
            self.changes.append((doc, old[TERMS], None))
        if old[TEXT] is not None:
            self.delta["docs"] -= 1
        for name, length in zip(_LENGTHS, _lengths(old)):
            self.delta[name] -= length
        self.gone.append((doc,))

    def spill(self, *, idle: bool = False) -> None:
        """Write the postings gathered so far once there are many: in a bulk write the
        writes then run while the workers are still cutting, and what is held stays small.
        ``idle``: the next cut is not back yet. Writing then, from fewer, uses the wait and
        leaves little to write after the last cut (with 5000 a time, 0.4 s of 10k's import
        ran after the workers were done, one core idle)."""
        if len(self.changes) >= (SPILL_IDLE if idle else SPILL_DOCS):
            self._write_postings()
            self._write_docs()

    def _write_postings(self) -> None:
        """The gathered bag changes as posting changes, and the new bags' term lists."""
        if not self.changes:
            return
        ids = self.terms
        for field in range(len(_FIELDS)):
            ids.resolve(field, (t for _, _, bags in self.changes if bags is not None for t in bags[field]))
        term_ids: list[int] = []
        docs: list[int] = []
        tfs: list[float] = []
        df: defaultdict[int, int] = defaultdict(int)
        held: list[int] = []  # the terms of new memories, each adding one to its df (counted at the end)
        lists: dict[int, bytes] = {}
        olds = _old_bags(self.conn, ids, {doc: stored for doc, stored, _ in self.changes if stored})
        known = ids.known
        for doc, _, bags in self.changes:
            old = olds.get(doc)
            if bags is None:  # removed: every posting goes
                for before in old if old is not None else ():
                    _diff(doc, before, [], [], term_ids, docs, tfs, df)
                continue
            new_bags = []
            for field in _FIELDS:
                named = known[field]
                bag = bags[field]
                after_ids = [named[t] for t in bag]
                counts = list(bag.values())
                new_bags.append(([], []) if field == PINYIN else (after_ids, counts))  # readings: _old_bags
                if old is None:  # a new memory (most of an import): nothing to compare with
                    term_ids += after_ids
                    docs += [doc] * len(after_ids)
                    tfs += counts
                    held += after_ids
                else:
                    _diff(doc, old[field], after_ids, counts, term_ids, docs, tfs, df)
            lists[doc] = encode_terms(new_bags)
        for term, n in Counter(held).items():
            df[term] += n
        for row in self.docs:
            if row[0] in lists:
                row[3] = lists[row[0]]
        apply(
            self.conn,
            ids,
            np.array(term_ids, dtype=np.int64),
            np.array(docs, dtype=np.int64),
            np.array(tfs, dtype=np.float64),
            df,
        )
        self.wrote_postings = self.wrote_postings or bool(term_ids) or any(df.values())
        self.changes = []

    def _write_docs(self) -> None:
        """The search_doc, search_text and search_meta rows gathered so far."""
        c = self.conn
        c.executemany(
            "INSERT INTO search_doc (doc, memory_id, terms, vocab, ehash, key) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (doc) DO UPDATE SET "
            "memory_id = excluded.memory_id, terms = excluded.terms, vocab = excluded.vocab, "
            "ehash = excluded.ehash, key = excluded.key",
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
        self.docs, self.metas = [], []

    def flush(self) -> None:
        c = self.conn
        self._write_postings()
        self.terms.finish()
        c.executemany("DELETE FROM search_doc WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_meta WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_text WHERE doc = ?", self.gone)
        self._write_docs()
        for name, value in self.delta.items():
            if value:
                bump(c, name, value)
        if self.next_doc > self.first_doc:
            set_last_doc(c, self.next_doc - 1)
        if self.wrote_postings:
            bump(c, "postings")  # readers keep their cached postings until this moves
