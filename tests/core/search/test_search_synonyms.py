"""Synonyms from Cilin and when related-term expansion stays off, over real memories."""

import json
from datetime import timedelta

from memdesk.core.domain.times import now_utc
from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordIndex, KeywordSettings
from memdesk.core.search.language.thesaurus import Thesaurus, data_path


def test_cilin_lists_are_installed_and_read():
    assert data_path() is not None, "the cilin package is a dependency"
    thesaurus = Thesaurus()
    assert thesaurus.load()
    assert "年龄" in thesaurus.mates("年纪") and "年纪" in thesaurus.mates("年龄")
    assert "家乡" in thesaurus.mates("故乡")
    assert thesaurus.mates("不是一个词") == ()


def test_thesaurus_reads_classes_and_skips_lone_words_and_topics(tmp_path):
    tree = {
        "A": {
            "tag": "x",
            "sub": {
                "a": {
                    "tag": "y",
                    "sub": {
                        "01": {
                            "tag": "z",
                            "sub": {
                                "A": {
                                    "tag": "w",
                                    "sub": {
                                        "01=": ["年纪", "年龄"],
                                        "02#": ["猫", "狗"],
                                        "03@": ["独词"],
                                        "04=": [f"词{i}" for i in range(40)],
                                    },
                                }
                            },
                        }
                    },
                }
            },
        }
    }
    path = tmp_path / "cilin.json"
    path.write_text(json.dumps(tree, ensure_ascii=False), encoding="utf-8")
    thesaurus = Thesaurus(path)
    assert thesaurus.load()
    assert thesaurus.mates("年纪") == ("年龄",) and thesaurus.mates("狗") == ("猫",)
    assert thesaurus.mates("独词") == () and thesaurus.mates("词1") == ()
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert not Thesaurus(broken).load() and Thesaurus(broken).mates("年纪") == ()


def test_a_question_finds_a_memory_through_a_synonym(store, tokenizer):
    age = store.add(content="表哥的年龄是三十五岁").added[0]
    store.add(content="表哥住在杭州")
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("他年纪多大？")
    assert result.ids[0] == age
    assert "年龄" in result.hits[0].explain.matched_words
    # A literal match still ranks above a synonym match.
    literal = store.add(content="奶奶年纪大了，腿脚不便")
    engine.apply(literal)
    assert engine.search("奶奶年纪多大？").ids[0] == literal.added[0]
    # Keyword queries stay literal: no synonyms.
    assert engine.search("年纪").ids == [literal.added[0]]
    # Without synonyms, nor the answer words of 多大 (年龄, 岁), which find it too.
    plain = KeywordSettings(synonym_weight=0.0, answer_weight=0.0)
    off = SearchEngine(store, tokenizer=tokenizer, keyword=plain)
    off.build()
    assert age not in off.search("他年纪多大？").ids


def test_synonyms_weigh_less_than_the_words(tokenizer):
    index = KeywordIndex(tokenizer)
    terms = index.analyse(["我的故乡在哪里？"])
    assert terms.words["故乡"] == 1.0
    assert terms.synonyms["家乡"] == terms.words["家乡"] == 0.3


def test_no_expansion_when_the_best_hits_answer_alike(store, tokenizer):
    # "How many …" asks about a class: the top hits' other facts are noise.
    events = ["音乐节", "书法展", "美食节"]
    ids = [store.add(content=f"{name}的规模是五千人。").added[0] for name in events]
    others = [
        store.add(content=f"{name}的地点是上海。", created_at=now_utc() - timedelta(days=1)).added[0] for name in events
    ]
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("有几个活动的规模超过一千人？")
    assert result.expanded_with == ()
    assert set(result.ids[:3]) == set(ids)
    assert not set(result.ids) & set(others)


def test_expansion_still_follows_one_clear_hit(store, tokenizer):
    phone = store.add(content="我上司的电话号码是13698765432。").added[0]
    school = store.add(content="我的上司是高中学历。").added[0]
    for line in ("我同事的生日是5月1日。", "我叔叔在上海工作。", "我表妹喜欢画画。"):
        store.add(content=line)
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("那个电话是13698765432的人，学历是什么？")
    assert result.ids[:2] == [phone, school] or result.ids[:2] == [school, phone]
    assert "上司" in result.expanded_with


def test_the_word_lists_are_read_back_from_their_piece_cache(tmp_path, monkeypatch):
    # The cached pieces (read with the GIL let go between them) hold the same lists as the source.
    monkeypatch.setenv("MEMDESK_CACHE_DIR", str(tmp_path / "cache"))
    first = Thesaurus()
    assert first.load()
    written = list((tmp_path / "cache").glob("thesaurus-*.json-pieces"))
    assert len(written) == 1
    again = Thesaurus()
    assert again.load()
    assert again._mates == first._mates and "年龄" in again.mates("年纪")
    written[0].write_bytes(b"damaged")
    assert Thesaurus().mates("年纪") == first.mates("年纪")  # a damaged cache is read past and rewritten


def test_each_word_is_one_string_however_many_lists_it_is_in(tmp_path, monkeypatch):
    # ~600k places hold a mate; one string object per word keeps the lists at ~19 MB, not 62.
    monkeypatch.setenv("MEMDESK_CACHE_DIR", str(tmp_path / "cache"))
    for reading in ("made", "read back from the piece cache"):
        thesaurus = Thesaurus()
        assert thesaurus.load(), reading
        mates = thesaurus._mates
        assert mates is not None
        places = [mate for others in mates.values() for mate in others]
        assert len({id(m) for m in places}) == len(set(places)), reading
        key = next(k for k in mates if k == "年纪")
        assert any(m is key for m in mates["年龄"]), reading  # a word and its place as a mate: one object
