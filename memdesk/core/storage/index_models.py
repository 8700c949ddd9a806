"""peewee models of the tables the core reads and writes in raw SQL: the change feed and
the search index (search/index/indexer.py says why its shape).

Nothing queries these models; they are the schema's definition for PostgreSQL
(pg_schema.py creates every table from models.ALL_MODELS + INDEX_MODELS). On SQLite
the same tables come from the frozen steps in migrations.py, and
tests/core/test_pg_schema.py checks that the two agree column by column.
"""

from __future__ import annotations

from peewee import (
    BigAutoField,
    BlobField,
    CompositeKey,
    Field,
    IntegerField,
    TextField,
)

from memdesk.core.storage.models import BaseModel


class AnyValueField(Field):
    """SQLite's untyped column (search_stat.value holds numbers and one JSON text).
    On PostgreSQL it is text; search/index_stats.stat() reads numbers back from it."""

    field_type = "TEXT"


class ChangeLog(BaseModel):
    seq = BigAutoField()  # AUTOINCREMENT on SQLite: never reused, so a marker stays meaningful
    memory_id = TextField(null=True)
    kind = TextField()


class SearchDoc(BaseModel):
    doc = IntegerField(primary_key=True)
    memory_id = TextField(unique=True)
    terms = BlobField(null=True)
    vocab = TextField()
    ehash = TextField(null=True)
    key = BlobField(null=True)


class SearchText(BaseModel):
    doc = IntegerField(primary_key=True)
    text = TextField()


class SearchMeta(BaseModel):
    doc = IntegerField(primary_key=True)
    meta = BlobField()


class SearchTerm(BaseModel):
    id = IntegerField(primary_key=True)  # given by the writer (index_terms.TermIds), never reused
    field = IntegerField()
    term = TextField()
    df = IntegerField()

    class Meta:
        indexes = ((("field", "term"), True),)


class SearchPost(BaseModel):
    term = IntegerField()
    first_doc = IntegerField()
    data = BlobField()

    class Meta:
        primary_key = CompositeKey("term", "first_doc")


class SearchVocab(BaseModel):
    term = TextField(primary_key=True)
    refs = IntegerField()


class SearchCode(BaseModel):
    kind = TextField()
    name = TextField()
    code = IntegerField()

    class Meta:
        primary_key = CompositeKey("kind", "name")


class SearchStat(BaseModel):
    name = TextField(primary_key=True)
    value = AnyValueField(null=True)


SearchDoc.add_index(SearchDoc.index(SearchDoc.doc, name="search_doc_uncut").where(SearchDoc.terms.is_null()))

INDEX_MODELS = (
    ChangeLog,
    SearchDoc,
    SearchText,
    SearchMeta,
    SearchTerm,
    SearchPost,
    SearchVocab,
    SearchCode,
    SearchStat,
)
