"""jieba.posseg's word tags read from the piece cache (search/language/dictionary.py) are the tags
jieba's own parse of dict.txt gives, so the importance estimate does not move."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PROBE = """
import hashlib, json, sys
from memdesk.core.search.language.dictionary import pos_tagger
from memdesk.core.search.language.tokenize import Tokenizer
tags = pos_tagger().word_tag_tab
tagged = Tokenizer().tagged("下周三要和小王去上海签200万的合同，记得喝咖啡")
digest = hashlib.sha256(json.dumps(sorted(tags.items()), ensure_ascii=False).encode()).hexdigest()
print(json.dumps([len(tags), digest, tagged], ensure_ascii=False))
"""


def _probe(cache: Path) -> list:
    env = {**os.environ, "MEMDESK_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_cached_word_tags_equal_jiebas_own_parse(tmp_path):
    cache = tmp_path / "cache"
    first = _probe(cache)  # no cache: jieba parses dict.txt, the tags are written
    assert any(p.name.startswith("jieba-tags-") for p in cache.iterdir())
    second = _probe(cache)  # from the cache
    assert first == second
    assert first[0] > 300_000 and ["周三", "t"] in first[2] and ["上海", "ns"] in first[2]
    dict_txt = Path(__import__("jieba").__file__).parent / "dict.txt"
    own = {}
    for line in dict_txt.read_text(encoding="utf-8").splitlines():
        if line.strip():
            word, _, tag = line.strip().split(" ")
            own[word] = tag
    digest = hashlib.sha256(json.dumps(sorted(own.items()), ensure_ascii=False).encode()).hexdigest()
    assert second[1] == digest
