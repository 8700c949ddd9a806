"""Tokenising mixed Chinese/English text."""

from memdesk.core.search.language.tokenize import Tokenizer, normalise


def test_mixed_text_words(tokenizer):
    words = tokenizer.words("我在 Researching 金融科技的发展趋势 with Python3 and the iPhone15")
    # English: lower-cased, stemmed, stop words gone; Chinese: jieba search mode.
    assert "research" in words and "python3" in words and "python" in words and "3" in words
    assert "iphone15" in words and "iphon" in words and "15" in words
    assert {"金融", "科技", "发展", "趋势"} <= set(words)
    assert not {"the", "and", "with", "我", "在", "的"} & set(words)


def test_stemming_makes_forms_meet(tokenizer):
    assert tokenizer.words("researched") == tokenizer.words("researching") == tokenizer.words("Research")


def test_nfkc_full_width(tokenizer):
    assert normalise("ＡＢＣ１２３：") == "abc123:"
    assert tokenizer.words("ＰＹＴＨＯＮ") == tokenizer.words("python")


def test_bigrams_skip_particles():
    grams = Tokenizer.bigrams("金融科技的论坛吗")
    assert grams == ["金融", "融科", "科技", "论坛"]
    assert Tokenizer.bigrams("hello 猫") == []


def test_only_stop_words_give_nothing(tokenizer):
    assert tokenizer.words("我们 的 the") == []


def test_user_vocabulary_stays_whole():
    tok = Tokenizer()
    before = tok.words("我们在做量子猫计划")
    assert "量子猫计划" not in before
    assert tok.add_vocabulary(["量子猫计划", "plain english", "这是一个非常非常长的标题不该整体加入"]) == ["量子猫计划"]
    assert "量子猫计划" in tok.words("我们在做量子猫计划")
    assert tok.add_vocabulary(["量子猫计划"]) == []  # already known


def test_cache_is_dropped_when_vocabulary_grows():
    tok = Tokenizer(cache_size=10)
    assert "蓝莓派对" not in tok.words("周末蓝莓派对")
    tok.add_vocabulary(["蓝莓派对"])
    assert "蓝莓派对" in tok.words("周末蓝莓派对")


def test_warm_up_loads_lazily():
    tok = Tokenizer()
    assert not tok.loaded
    tok.add_vocabulary(["记忆台"])  # learnt before jieba loads, applied when it does
    tok.warm_up()
    assert tok.loaded
    assert "记忆台" in tok.words("打开记忆台")


def test_plain_cut_for_queries(tokenizer):
    assert {"发展", "趋势", "发展趋势"} <= set(tokenizer.words("发展趋势"))
    assert tokenizer.words("发展趋势", subwords=False) == ["发展趋势"]
