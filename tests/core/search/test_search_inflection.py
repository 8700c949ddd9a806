"""An English question's irregular verb finds the memory that wrote another form (inflection.py)."""

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordSettings
from memdesk.core.search.language.inflection import other_forms


def test_other_forms():
    assert set(other_forms("go")) == {"went", "gone"}
    assert set(other_forms("bought")) == {"buy"}
    assert set(other_forms("taken")) == {"take", "took"}
    assert other_forms("walk") == ()  # regular: the stemmer's job
    assert other_forms("left") == ("leave",)
    # Forms that are also common words of another sense are left out.
    assert other_forms("rose") == () and other_forms("ground") == () and other_forms("born") == ()
    assert other_forms("ring") == () and other_forms("rang") == ()  # a wedding ring
    assert other_forms("bit") == () and other_forms("bite") == ("bitten",)  # "a bit" is no bite


PARIS = [
    "I went to Paris in May.",
    "Paris is lovely in May.",
    "We go there by train.",
    "Let us go to the beach.",
    "I go running.",
    "They go to school by bus.",
    "Paris has many museums.",
]


def test_go_finds_went(store, tokenizer):
    went = store.add(content=PARIS[0]).added[0]
    for text in PARIS[1:]:
        store.add(content=text)
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("When did I go to Paris?", lenient=True).ids[0] == went
    # Without the other forms the question shares only "Paris" with the memory that
    # answers it, and every memory that says "go" ranks ahead of it.
    off = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(inflection_weight=0))
    off.build()
    assert off.search("When did I go to Paris?", lenient=True).ids[-1] == went


def test_the_form_the_query_wrote_still_counts_most(store, tokenizer):
    went = store.add(content=PARIS[0]).added[0]
    lovely = store.add(content=PARIS[1]).added[0]
    for text in PARIS[2:]:
        store.add(content=text)
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("When I went to Paris?", lenient=True).ids[:2] == [went, lovely]
