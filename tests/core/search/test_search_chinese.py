"""Chinese-first matching on a real store: pinyin (full, spaced, initials, mixed, tone
marks), traditional and simplified both ways, the lone-character rule, and why found."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.indexer import pending
from memdesk.core.search.language.pinyin import Pinyin, toneless
from memdesk.core.search.language.script import fold
from memdesk.core.store import Store
from tests.record_factory import make_record

ROOT = Path(__file__).resolve().parents[3]

MEMORIES = {
    "coffee": dict(content="每天早上喝一杯咖啡，不加糖", tags=["饮品"]),
    "caffeine": dict(content="晚上不喝咖啡因饮品，会失眠"),
    "drinks": dict(content="飲料喜歡綠茶，不要太甜"),  # traditional, as pasted from a Taiwan page
    "memory": dict(content="记忆力最近不太好，要多睡觉", group="健康"),
    "bank": dict(content="周五去银行办卡"),
    "english": dict(content="kafei is what the barista called it"),
    "xian": dict(content="下个月去西安旅游"),
}


@pytest.fixture
def world(tmp_path):
    store = Store.open(tmp_path / "zh.db")
    ids = {}
    for name, fields in MEMORIES.items():
        ids[name] = store.add(**fields).added[0]
    engine = SearchEngine(store)
    engine.build()
    yield store, engine, ids
    store.close()


def found(engine, query, **kw) -> list[str]:
    return engine.search(query, **kw).ids


def names(ids: dict, found_ids: list[str]) -> list[str]:
    back = {v: k for k, v in ids.items()}
    return [back[i] for i in found_ids]


@pytest.mark.parametrize("query", ["kafei", "ka fei", "KaFei", "kāfēi", "ka1 fei1", "ka'fei", "ka啡", "咖fei"])
def test_pinyin_spellings_find_the_chinese_word(world, query):
    _, engine, ids = world
    hits = names(ids, found(engine, query))
    # Both memories hold 咖啡 (咖啡因 yields it as a sub-word); the English "kafei" is a
    # literal word only for the unspaced spellings and is checked in the ranking test.
    assert {"coffee", "caffeine"} <= set(hits)
    assert not {"drinks", "memory", "bank", "xian"} & set(hits)


@pytest.mark.parametrize(
    "query,name",
    [
        ("jiyi", "memory"),
        ("yinliao", "drinks"),
        ("lvcha", "drinks"),
        ("lü chá", "drinks"),
        ("lu:cha", "drinks"),
        ("yinhang", "bank"),
        ("kafeiyin", "caffeine"),
        ("xi an", "xian"),
        ("xian", "xian"),
    ],
)
def test_pinyin_of_other_words_and_spellings_of_u_umlaut(world, query, name):
    _, engine, ids = world
    assert names(ids, found(engine, query)) == [name]


def test_pinyin_of_several_words_covers_each(world):
    _, engine, ids = world
    # 咖啡 + 饮料 cover every syllable; 咖啡因 would leave "liao" alone.
    assert engine.search("kafeiyinliao").hits[0].explain.matched_pinyin in (("kafei → 咖啡",), ("yinliao → 饮料",))
    assert {"coffee", "caffeine", "drinks"} == set(names(ids, found(engine, "kafeiyinliao")))


def test_initials_need_two_letters_and_match_whole_words(world):
    _, engine, ids = world
    assert set(names(ids, found(engine, "kf"))) == {"coffee", "caffeine"}
    assert names(ids, found(engine, "kfy")) == ["caffeine"]  # 咖啡因, not 咖啡 alone
    assert names(ids, found(engine, "yh")) == ["bank"]
    assert set(names(ids, found(engine, "k"))) <= {"english"}  # the substring fallback's "k" in English


@pytest.mark.parametrize("query", ["ka", "fei", "shi", "bu", "yin"])
def test_one_syllable_does_not_flood(world, query):
    _, engine, ids = world
    # Only the English text can hold these letters (substring fallback); no Chinese word by reading.
    assert set(names(ids, found(engine, query))) <= {"english"}
    assert all(not h.explain.matched_pinyin for h in engine.search(query).hits)


def test_exact_matches_rank_before_pinyin_matches(world):
    _, engine, ids = world
    hits = names(ids, found(engine, "kafei"))
    assert hits[0] == "english" and set(hits[1:]) == {"coffee", "caffeine"}
    # Every literal hit (周五, the word kafei) comes before every memory found by pinyin alone.
    hits = names(ids, found(engine, "kafei 周五"))
    assert set(hits[:2]) == {"bank", "english"} and set(hits[2:]) == {"coffee", "caffeine"}
    # Within the literal hits the pinyin still counts: the tag 饮品 with 咖啡 comes first.
    hits = names(ids, found(engine, "kafei 饮品"))
    assert hits[0] == "coffee" and set(hits) == {"coffee", "caffeine", "english"}


def test_pinyin_with_filters(world):
    _, engine, ids = world
    assert names(ids, found(engine, "kafei tag:饮品")) == ["coffee"]
    assert names(ids, found(engine, "jiyi group:健康")) == ["memory"]
    assert found(engine, "jiyi group:工作") == []
    assert names(ids, found(engine, "kafei -失眠")) == ["english", "coffee"]
    # Inside OR groups and exclusions a pinyin word tests for the Chinese word it spells.
    assert set(names(ids, found(engine, "kafei OR lvcha"))) == {"english", "coffee", "caffeine", "drinks"}
    assert set(names(ids, found(engine, "周五 OR yinliao"))) == {"bank", "drinks"}
    assert names(ids, found(engine, "喝 -kafei")) == []
    assert names(ids, found(engine, "喝 -yh")) != []


@pytest.mark.parametrize(
    "query,name",
    [
        ("飲料", "drinks"),
        ("饮料", "drinks"),
        ("绿茶", "drinks"),
        ("綠茶", "drinks"),
        ("記憶", "memory"),
        ("銀行", "bank"),
    ],
)
def test_traditional_and_simplified_find_each_other(world, query, name):
    store, engine, ids = world
    assert names(ids, found(engine, query)) == [name]


def test_text_is_stored_as_written(world):
    store, engine, ids = world
    hit = engine.search("饮料").hits[0]
    assert hit.record.content == "飲料喜歡綠茶，不要太甜"
    assert store.get(ids["drinks"]).content == "飲料喜歡綠茶，不要太甜"


def test_traditional_filters_and_phrases(world):
    _, engine, ids = world
    assert names(ids, found(engine, "tag:飲品")) == ["coffee"]
    assert names(ids, found(engine, '"喜欢绿茶"')) == ["drinks"]
    assert names(ids, found(engine, "睡覺 group:健康")) == ["memory"]


def test_why_found_names_pinyin_and_script_matches(world):
    _, engine, ids = world
    hit = next(h for h in engine.search("kafei").hits if h.id == ids["coffee"])
    assert "kafei → 咖啡" in hit.explain.matched_pinyin
    assert "pinyin: kafei → 咖啡" in hit.explain.describe()
    assert hit.explain.pinyin_score > 0
    initials = engine.search("yh").hits[0]
    assert initials.explain.matched_pinyin == ("yh → 银行",)

    drinks = engine.search("饮料").hits[0]  # the memory wrote 飲料
    assert "飲料 = 饮料" in drinks.explain.matched_script
    assert "traditional 飲料 = 饮料" in drinks.explain.describe()
    asked = engine.search("記憶").hits[0]  # the query wrote 記憶
    assert asked.explain.matched_script == ("記憶 = 记忆",)
    assert "飲料" in drinks.explain.highlights() and "咖啡" in hit.explain.highlights()  # marked in the text
    plain = engine.search("记忆").hits[0]
    assert plain.explain.matched_script == () and plain.explain.matched_pinyin == ()
    assert "matched_pinyin" in plain.explain.to_json()


def test_lone_function_characters_never_make_a_hit(world):
    store, engine, ids = world
    assert found(engine, "zzzqqq不存在") == []
    assert found(engine, "不存在") == []
    assert found(engine, "没 存在") == []
    assert found(engine, "不 存在") == []  # nor as a substring beside another word
    # Alongside a real match they still count, and a query of the character alone is a request for it.
    assert names(ids, found(engine, "不 咖啡"))[0] in {"coffee", "caffeine"}
    assert set(names(ids, found(engine, "不"))) == {"coffee", "caffeine", "drinks", "memory"}


def test_assistants_use_the_same_matching(world):
    _, engine, ids = world
    result = engine.search("yinliao", lenient=True, record_access=True)
    assert names(ids, result.ids) == ["drinks"]
    assert names(ids, found(engine, "我最近的記憶力怎麼樣？", lenient=True))[0] == "memory"


CHILD_WRITE = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from memdesk.core.store import Store
    s = Store.open({path!r})
    print(s.add(content="周末去杭州喝龍井茶").added[0])
""")

CHILD_SEARCH = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from memdesk.core.store import Store
    from memdesk.core.search import SearchEngine
    s = Store.open({path!r})
    e = SearchEngine(s)
    e.build()
    print(" ".join(e.search("longjing").ids), "|", " ".join(e.search("hz").ids), "|", " ".join(e.search("龙井").ids))
""")


def test_a_write_from_another_process_is_found_by_pinyin_in_a_fresh_process(tmp_path):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="喜欢咖啡")
    engine = SearchEngine(store)
    engine.build()
    written = subprocess.run(
        [sys.executable, "-c", CHILD_WRITE.format(root=str(ROOT), path=str(path))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert engine.search("longjing").ids == [written]  # this process, caught up from the feed
    out = subprocess.run(
        [sys.executable, "-c", CHILD_SEARCH.format(root=str(ROOT), path=str(path))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pinyin, initials, folded = (part.split() for part in out.split("|"))
    assert pinyin == [written] and initials == [written] and folded == [written]
    store.close()


def test_a_store_indexed_before_pinyin_gets_it_through_the_upgrade_build(tmp_path):
    from memdesk.core.storage.migrations import MIGRATIONS
    from tests.old_index import MEMORY_COLUMNS, memory_row

    path = tmp_path / "v4.db"
    # What schema 4 left: memories, and an index that had not cut them with pinyin readings.
    conn = sqlite3.connect(str(path), isolation_level=None)
    for _, step in MIGRATIONS[:3]:
        step(conn)
    rows = [memory_row(1, content="每天喝咖啡"), memory_row(4, content="飲料")]
    conn.executemany(f"INSERT INTO memory ({MEMORY_COLUMNS}) VALUES ({','.join('?' * 25)})", rows)
    MIGRATIONS[3][1](conn)
    conn.execute("PRAGMA user_version = 4")
    conn.close()
    coffee = rows[0][0]
    store = Store.open(path)
    assert pending(store.connection()) == 2
    engine = SearchEngine(store)
    seen = []
    engine.build(progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2, 2) and pending(store.connection()) == 0
    assert engine.search("kafei").ids == [coffee]
    assert len(engine.search("饮料").ids) == 1
    store.close()


# -- the readings themselves ------------------------------------------------------------


def test_readings_use_phrases_for_characters_with_several():
    reader = Pinyin()
    assert reader.word_terms("银行") == ("yinhang", "#yh")
    assert reader.word_terms("行长") == ("hangzhang", "#hz")
    assert reader.word_terms("绿茶") == ("lvcha", "#lc")
    assert reader.word_terms("咖") == ()  # one character: no reading indexed
    assert reader.word_terms("abc") == ()


def test_the_character_table_is_read_back_from_its_piece_cache(tmp_path, monkeypatch):
    import json

    from memdesk.core.search.language.pinyin import data_path

    monkeypatch.setenv("MEMDESK_CACHE_DIR", str(tmp_path / "cache"))
    first = Pinyin()
    assert first.load()
    written = list((tmp_path / "cache").glob("pinyin-table-*.json-pieces"))
    assert len(written) == 1
    again = Pinyin()
    assert again.load()
    # the cache holds what pypinyin's JSON says, toneless and without repeats
    raw = json.loads(Path(data_path()).read_text(encoding="utf-8"))
    assert again._table == first._table and len(again._table) == len(raw)
    assert again.char("行") == ("xing", "hang", "heng") and again.char("绿") == ("lv", "lu")
    written[0].write_bytes(b"damaged")
    assert Pinyin().char("行") == ("xing", "hang", "heng")  # a damaged cache is read past and rewritten
    assert Pinyin().char("咖") == ("ka", "ga", "jia")


def test_tone_marks_and_u_umlaut_spellings():
    assert toneless("lǜ") == toneless("lü") == toneless("LÜ") == toneless("lu:") == "lv"
    assert toneless("kāfēi") == "kafei"
    assert toneless("lu\u0308\u0300") == "lv"  # ü and the tone typed as combining marks


def test_query_spellings_of_u_umlaut_as_input_methods_take_them():
    reader = Pinyin()
    assert (
        reader.query_units("nuedai")
        == reader.query_units("nüèdài")
        == reader.query_units("nvedai")
        == ([["nvedai"]], [])
    )
    assert reader.query_units("lue") == ([["lve"]], ["lve"])  # 2-4 letters may also be initials
    assert reader.word_terms("虐待") == ("nvedai", "#nd")


def test_fold_is_script_only():
    assert fold("飲料 記憶 頭髮") == "饮料 记忆 头发"
    assert fold("饮料") == "饮料"
    assert fold("軟體") == "软体"  # the script changes; the Taiwan word is not rewritten to 软件


WORDS = {"咖啡": "kafei", "绿茶": "lvcha", "记忆": "jiyi", "饮料": "yinliao", "杭州": "hangzhou", "跑步": "paobu"}
INITIALS = {"咖啡": "kf", "绿茶": "lc", "记忆": "jy", "饮料": "yl", "杭州": "hz", "跑步": "pb"}
TRADITIONAL = {"咖啡": "咖啡", "绿茶": "綠茶", "记忆": "記憶", "饮料": "飲料", "杭州": "杭州", "跑步": "跑步"}
operation = st.one_of(
    st.tuples(
        st.just("add"), st.lists(st.tuples(st.sampled_from(sorted(WORDS)), st.booleans()), min_size=1, max_size=3)
    ),
    st.tuples(
        st.just("edit"),
        st.integers(0, 20),
        st.lists(st.tuples(st.sampled_from(sorted(WORDS)), st.booleans()), min_size=1, max_size=3),
    ),
    st.tuples(st.just("delete"), st.integers(0, 20)),
    st.tuples(st.just("restore"), st.integers(0, 20)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=12))
def test_pinyin_and_both_scripts_find_the_same_live_memories(tmp_path_factory, ops):
    """After any mix of writes, each word's pinyin, initials, simplified and traditional
    forms find exactly the live memories holding the word, in whichever script."""
    store = Store.open(tmp_path_factory.mktemp("zh") / "p.db")
    engine = SearchEngine(store)
    engine.build()
    ids: list[str] = []
    text = lambda parts: "，".join(TRADITIONAL[w] if trad else w for w, trad in parts) + "。"  # noqa: E731
    for op in ops:
        if op[0] == "add":
            ids.append(store.add(content=text(op[1])).added[0])
        elif ids and op[0] == "edit":
            store.update(ids[op[1] % len(ids)], expected_version=None, content=text(op[2]))
        elif ids and op[0] == "delete":
            store.delete([ids[op[1] % len(ids)]])
        elif ids and op[0] == "restore":
            store.restore([ids[op[1] % len(ids)]])
    live = {r.id: r.content for r in store.iter_records() if r.deleted_at is None}
    for word, reading in WORDS.items():
        holding = {i for i, content in live.items() if word in fold(content)}
        for query in (reading, INITIALS[word], word, TRADITIONAL[word]):
            assert set(engine.search(query, limit=None).ids) == holding, (query, live)
    store.close()


def test_the_in_memory_index_matches_pinyin_and_scripts_too(engine):
    engine.put([make_record("c", "每天喝咖啡"), make_record("d", "飲料喜歡綠茶"), make_record("e", "kafei")])
    assert engine.search("kafei").ids == ["e", "c"]
    assert engine.search("kf").ids == ["c"]
    assert engine.search("饮料").ids == ["d"]
    hit = engine.search("ka fei").hits[0]
    assert (hit.id, hit.explain.matched_pinyin) == ("c", ("kafei → 咖啡",))


# -- recall on conversational Chinese (figures in keyword.py / wordclass.py) ----------------


def test_function_words_weigh_half_in_questions(tokenizer):
    from memdesk.core.search.index.keyword import KeywordIndex, KeywordSettings
    from memdesk.core.search.language.wordclass import function_words

    assert {"经常", "大概", "居然"} <= function_words() and not {"咖啡", "北京", "喜欢"} & function_words()
    question = ["我经常去的那家咖啡店叫什么？"]
    weighted = KeywordIndex(tokenizer).analyse(question).words  # the default: half
    plain = KeywordIndex(tokenizer, KeywordSettings(function_weight=1.0)).analyse(question).words
    assert (weighted["经常"], weighted["咖啡店"]) == (0.5, 1.0)
    assert (plain["经常"], plain["咖啡店"]) == (1.0, 1.0)
    keywords = KeywordIndex(tokenizer, KeywordSettings(function_weight=0.5)).analyse(["经常 咖啡店"]).words
    assert keywords["经常"] == 1.0  # a few keywords are taken as typed


def test_single_characters_can_be_kept_from_synonym_expansion(tokenizer):
    from memdesk.core.search.index.keyword import KeywordIndex, KeywordSettings

    question = ["我经常去的那家咖啡店叫什么？"]
    widened = KeywordIndex(tokenizer).analyse(question).synonyms
    narrowed = KeywordIndex(tokenizer, KeywordSettings(synonym_min_chars=2)).analyse(question).synonyms
    assert "称为" in widened and "称为" not in narrowed  # a mate of 叫
    assert "时常" in narrowed  # a mate of 经常, still there
