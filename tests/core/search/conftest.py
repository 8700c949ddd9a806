"""Fixtures for the search tests: one jieba per session, records with defaults."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from memdesk.core.records import MemoryRecord
from memdesk.core.search import SearchEngine, Tokenizer
from memdesk.core.times import UTC

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def tokenizer():
    tok = Tokenizer()
    tok.warm_up()
    return tok


def make_record(id: str, content: str, **fields) -> MemoryRecord:
    created = fields.pop("created_at", NOW - timedelta(days=3))
    base = MemoryRecord(
        id=id,
        persona_id=None,
        group="",
        title="",
        content=content,
        summary="",
        tags=(),
        type="note",
        scope="long_term",
        importance=5,
        importance_set=False,
        source="manual",
        dedup_key=None,
        content_hash="",
        created_at=created,
        updated_at=created,
        last_access_at=None,
        expires_at=None,
        deleted_at=None,
        access_count=0,
        mention_count=0,
        superseded_by=None,
        tier="hot",
        heat=90.0,
        version=1,
    )
    return replace(base, **fields)


@pytest.fixture
def engine(tokenizer):
    """A store-less engine; the tokenizer (and its learnt vocabulary) is shared."""
    return SearchEngine(tokenizer=tokenizer)
