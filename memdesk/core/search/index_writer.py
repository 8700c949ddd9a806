"""One sync's rows: what a write changes in the index tables, gathered and then written
in a few statements (indexer.sync drives it; indexer's docstring explains the tables)."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from operator import itemgetter

from ..embedding import embed_text, text_hash
from .index_cut import Terms, cut_key, cut_one
from .index_meta import Codes, pack_meta
from .index_segments import mark_dirty
from .index_vocab import Vocabulary, bump, last_doc, set_last_doc
from .indexed import IndexedMemory
from .keyword import searchable_text
from .tokenize import Tokenizer, normalise

SPILL = 100_000  # posting rows gathered before a bulk write sends them to SQLite (while workers still cut)
SPILL_DOCS = 2000  # the same for new docs, whose postings SQLite makes (~70 a memory)


def stored_docs(conn, column: str, keys: list) -> dict:
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
_BAG_COLUMNS = ("words", "grams", "pinyin")  # their search_doc columns
_LENGTHS = ("words_len", "grams_len", "pinyin_len")  # their totals in search_stat


def _bags(old) -> tuple[dict, dict, dict]:
    """A search_doc row's term bags (words, grams, pinyin); empty for a new memory or a stub."""
    if old is None:
        return {}, {}, {}
    return json.loads(old[3] or "{}"), json.loads(old[4] or "{}"), json.loads(old[8] or "{}")


def _lengths(bags: tuple[dict, dict, dict]) -> tuple[float, float, float]:
    words, grams, pinyin = bags
    return float(sum(words.values())), float(sum(grams.values())), float(sum(pinyin.values()))


class Writer:
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
        # New docs whose postings SQLite expands from their stored bags (_write_fresh).
        self.fresh: list[int] = []
        self.by_sql = isinstance(conn, sqlite3.Connection)
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
            if old is None and self.by_sql:
                self.fresh.append(doc)
                if any(after):
                    self.touched.add(doc)
            else:
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
        if len(self.fresh) >= SPILL_DOCS or sum(len(rows) for rows in self.put.values()) >= SPILL:
            self._write_postings()

    def _write_fresh(self) -> None:
        """New docs' postings, expanded by SQLite from the bags just stored in search_doc: one
        statement a table instead of a Python tuple a posting (~70 a memory), which made up
        most of an import's writing time. New docs are numbered above every doc there was,
        so their range holds no other doc and none of their postings exists yet."""
        self._write_docs()
        low, high = self.fresh[0], self.fresh[-1]
        for table, column in zip(_TABLES, _BAG_COLUMNS):
            # In term order, as _write_postings explains.
            self.conn.execute(
                f"INSERT INTO {table} (term, doc, tf) SELECT j.key, d.doc, j.value "
                f"FROM search_doc d, json_each(d.{column}) j "
                "WHERE d.doc BETWEEN ? AND ? AND j.value > 0 ORDER BY j.key, d.doc",
                (low, high),
            )
        self.wrote_postings = True
        self.fresh = []

    def _write_postings(self) -> None:
        if self.fresh:
            self._write_fresh()
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

    def _write_docs(self) -> None:
        """The search_doc, search_text and search_meta rows gathered so far."""
        c = self.conn
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
        self.docs, self.metas = [], []

    def flush(self) -> None:
        c = self.conn
        self._write_postings()
        c.executemany("DELETE FROM search_tag WHERE tag = ? AND doc = ?", self.tag_drop)
        c.executemany("INSERT INTO search_tag (tag, doc) VALUES (?, ?) ON CONFLICT DO NOTHING", self.tag_put)
        c.executemany("DELETE FROM search_doc WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_meta WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_text WHERE doc = ?", self.gone)
        self._write_docs()
        for name, value in self.delta.items():
            if value:
                bump(c, name, value)
        mark_dirty(c, self.touched | {d for (d,) in self.gone})
        if self.next_doc > self.first_doc:
            set_last_doc(c, self.next_doc - 1)
        if self.wrote_postings:
            bump(c, "postings")  # readers keep their cached postings until this moves
