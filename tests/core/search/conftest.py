"""Fixtures for the search tests: one jieba per session, an in-memory engine on it."""

from __future__ import annotations

import pytest

from memdesk.core.search import SearchEngine, Tokenizer


@pytest.fixture(scope="session")
def tokenizer():
    tok = Tokenizer()
    tok.warm_up()
    return tok


@pytest.fixture
def engine(tokenizer):
    """A store-less engine; the tokenizer (and its learnt vocabulary) is shared."""
    return SearchEngine(tokenizer=tokenizer)
