"""Pinyin terms: 咖啡 found by ``kafei``, ``ka fei``, ``kāfēi``, ``kf`` and ``ka啡``.

Users type pinyin when the input method is off. The readings are worked
out when a memory is written (index_cut.py, inside the write that stores
it) and kept as a third BM25 field next to words and character pairs; a
search only looks its letters up.

What is indexed, per Chinese word of 2..MAX_WORD characters in a memory's
word bag (jieba's search-mode cut, so 咖啡因 also yields 咖啡):
- its full reading without tones, ü written v: 咖啡 -> "kafei", 绿茶 -> "lvcha";
- its initials, marked with INITIALS: 咖啡 -> "#kf".
Single characters get nothing: one syllable ("shi") is read by dozens of
common characters and would flood every search; a query that is one
syllable therefore matches nothing by pinyin, and initials need two letters
and match whole words only ("kf" reads 咖啡, not 咖啡因; a memory with
咖啡因 is found by it only through its sub-word 咖啡).

A word's reading comes from pypinyin's phrase table where it lists the
word or pieces of it (银行 yinhang, 行长 hangzhang, 长城 changcheng), else
from each character's most common reading. Both tables are read from
pypinyin's JSON files without importing pypinyin (its import builds them
as Python objects in every process: ~55 MB, 0.4 s); of the 47k phrases only
the 3,437 whose reading differs from their characters' first readings are
kept. Measured on the 2-core dev machine: the character table reads in
~50 ms the first time and ~30 ms from its cache after that (_cached_table), the
phrases in 0.3-0.6 s the first time and ~2 ms after that (_cached_phrases);
both keep ~4 MB (~40 MB while the JSON is parsed). A process reads the phrases
on its first write (bulk cuts read them before forking their workers); a
searching process never needs them, and the character table only for mixed
chunks ("ka啡") and to name the word in "why found" (the window reads it at
start: engine.warm_up_typing): letters alone are split with SYLLABLES. Writing costs ~0.03 ms more a
memory to cut (0.21-0.25 ms before) plus the postings rows.

Bundle cost: the two JSON files, 3.3 MB (packaging/memdesk.spec).

Query side (``query_units``): tone marks and tone numbers are dropped,
ü/u:/v all read v; spaced single syllables join ("ka fei" -> "kafei");
a chunk mixing letters and characters reads the characters ("ka啡" ->
"kafei"). Each unit is then covered by readings the index holds as words, covering
as many letters in as few words as can be (as an input method picks), so
"kafeiyinliao" finds 咖啡 and 饮料.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

from memdesk.core.search.language import piece_cache

INITIALS = "#"  # marks an initials term ("#kf") apart from full readings
MAX_WORD = 8  # longer Chinese words are phrases nobody spells out
MAX_READINGS = 2  # readings of a character a mixed query ("ka啡") tries
MAX_COMBOS = 4  # readings of one mixed query chunk
MAX_SPAN = 6  # syllables a query word may span
_BUNDLED = Path("pinyin")
_HAN = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$")
_HAN_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTERS = re.compile(r"^[a-z]+$")
_TONED = re.compile(r"^(?:[a-z]+[1-5]?)+$")  # "ka1fei1"
_CACHE_MAX = 200_000
_UE = re.compile(r"([ln])ue")  # no syllable ends in l, and none starts with u: always lüe/nüe

# Every toneless syllable pypinyin's table uses, less the interjections m, n, ng, hm, hng
# (they would split English words into "syllables"). A query needs only this list,
# not the table (mixed chunks such as "ka啡" excepted).
SYLLABLES = frozenset(
    """
a ai an ang ao ba bai ban bang bao bei ben beng bi bian biang biao bie bin bing bo bong bu ca cai
can cang cao ce cei cen ceng cha chai chan chang chao che chen cheng chi chong chou chu chua chuai
chuan chuang chui chun chuo ci cong cou cu cuan cui cun cuo da dai dan dang dao de dei den deng di
dia dian diao die din ding diu dong dou du duan dui dun duo e ei en eng er fa fan fang fei fen feng
fiao fo fou fu ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang gui gun guo ha
hai han hang hao he hei hen heng hong hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao
jie jin jing jiong jiu ju juan jue jun ka kai kan kang kao ke kei ken keng kong kou ku kua kuai kuan
kuang kui kun kuo la lai lan lang lao le lei len leng li lia lian liang liao lie lin ling liu lo
long lou lu luan lun luo lv lve ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo
mou mu na nai nan nang nao ne nei nen neng ni nia nian niang niao nie nin ning niu nong nou nu nuan
nun nuo nv nve o ou pa pai pan pang pao pei pen peng pi pian piao pie pin ping po pou pu qi qia qian
qiang qiao qie qin qing qiong qiu qu quan que qun ran rang rao re ren reng ri rong rou ru rua ruan
rui run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen sheng shi shou
shu shua shuai shuan shuang shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te
tei teng ti tian tiao tie ting tong tou tu tuan tui tun tuo wa wai wan wang wei wen weng wo wong wu
xi xia xian xiang xiao xie xin xing xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo yong
you yu yuan yue yun za zai zan zang zao ze zei zen zeng zha zhai zhan zhang zhao zhe zhei zhen zheng
zhi zhong zhou zhu zhua zhuai zhuan zhuang zhui zhun zhuo zi zong zou zu zuan zui zun zuo
""".split()
)


def _table_from(path: Path) -> dict[int, str]:
    """pypinyin's character table, toneless: code point -> its distinct readings, ","-joined."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    plain: dict[str, str] = {}  # a few thousand distinct reading lists
    table: dict[int, str] = {}
    for code, readings in raw.items():
        seen = plain.get(readings)
        if seen is None:
            seen = plain[readings] = ",".join(dict.fromkeys(toneless(r) for r in readings.split(",") if r.strip()))
        if seen:
            table[int(code)] = seen
    return table


def _cached_table(path: Path) -> dict[int, tuple[str, ...]]:
    """The character table, from the user's cache (piece_cache.py) after the first time.
    Worked out from the JSON it costs ~50 ms of Python, ~10 ms of it one json.loads that
    holds the GIL; the window reads it at start on a worker thread (engine.warm_up_typing), so
    that the first pinyin search does not pay it. The pieces let the GIL go in between."""
    shared: dict[str, tuple[str, ...]] = {}  # equal reading lists: one tuple

    def readings(piece: dict) -> dict[int, tuple[str, ...]]:
        out = {}
        for code, joined in piece.items():
            value = shared.get(joined)
            if value is None:
                value = shared[joined] = tuple(joined.split(","))
            out[int(code)] = value
        return out

    return piece_cache.cached(path, "pinyin-table", lambda: _table_from(path), readings)


def _phrases_from(path: Path, table: dict[int, tuple[str, ...]]) -> dict[str, str]:
    """pypinyin's phrases whose reading is not their characters' first readings."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    phrases: dict[str, str] = {}
    plain: dict[str, str] = {}
    for phrase, readings in raw.items():
        if len(readings) != len(phrase) or not all(readings):
            continue
        reading = [plain.get(r[0]) or plain.setdefault(r[0], toneless(r[0])) for r in readings]
        if any(table.get(ord(c), ("",))[0] != r for c, r in zip(phrase, reading)):
            phrases[phrase] = " ".join(reading)
    return phrases


def _cached_phrases(path: Path, table: dict[int, tuple[str, ...]]) -> dict[str, str]:
    """The kept phrases, from the user's cache (piece_cache.py) after the first time: picking
    the 3,437 out of 47k costs a process ~0.2 s (an import pays it before its workers
    fork), reading them back ~2 ms. Named after the phrase file, which a new pypinyin
    replaces together with the character table."""
    return piece_cache.cached(
        path,
        "pinyin-phrases",
        lambda: _phrases_from(path, table),
        valid=lambda phrases: all(isinstance(v, str) for v in phrases.values()),
    )


READINGS = 1  # bump when the rules above change what a word reads as


def data_version() -> str:
    """What a word's readings depend on: these rules and pypinyin's two tables (their
    sizes: a new pypinyin brings new tables). The stored index derives each memory's
    readings from its words when it removes them (index_writer), so a change here
    means a rebuild (indexer.build)."""
    sizes = []
    for name in ("pinyin_dict.json", "phrases_dict.json"):
        path = data_path(name)
        sizes.append(str(path.stat().st_size) if path is not None else "-")
    return f"{READINGS}/{'/'.join(sizes)}"


def data_path(name: str = "pinyin_dict.json") -> Path | None:
    """One of pypinyin's tables (pinyin_dict.json, phrases_dict.json), found
    without importing pypinyin."""
    base = getattr(sys, "_MEIPASS", None)
    if base and (Path(base) / _BUNDLED / name).is_file():
        return Path(base) / _BUNDLED / name
    try:
        spec = find_spec("pypinyin")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


_PLAIN = {}
for _plain, _marked in (
    ("a", "āáǎà"),
    ("e", "ēéěèê"),
    ("i", "īíǐì"),
    ("o", "ōóǒò"),
    ("u", "ūúǔù"),
    ("v", "üǖǘǚǜ"),
    ("m", "ḿ"),
    ("n", "ńňǹ"),
):
    _PLAIN.update({ord(c): _plain for c in _marked})


def toneless(reading: str) -> str:
    """ "lǜ" -> "lv", "kā" -> "ka": tone marks dropped, ü written v."""
    text = reading.strip().casefold().translate(_PLAIN)
    if not text.isascii():  # marks typed as combining characters
        text = unicodedata.normalize("NFD", text).replace("u\u0308", "v")
        text = "".join(c for c in text if not unicodedata.combining(c)).translate(_PLAIN)
    return text.replace("u:", "v")


class Pinyin:
    """Readings of characters and words; loads the table on first use, thread-safe."""

    def __init__(self, path: Path | None = None):
        self._path = path
        self._lock = threading.Lock()
        self._table: dict[int, tuple[str, ...]] | None = None
        self._phrases: dict[str, str] | None = None
        self._longest = 0
        self._words: dict[str, tuple[str, ...]] = {}

    @property
    def loaded(self) -> bool:
        return self._table is not None

    def load(self) -> bool:
        return bool(self._loaded_table())

    def _loaded_table(self) -> dict[int, tuple[str, ...]]:
        with self._lock:
            if self._table is None:
                path = self._path or data_path()
                self._table = _cached_table(path) if path else {}
            return self._table

    def load_phrases(self) -> None:
        """The phrases whose reading is not their characters' first readings."""
        self._loaded_phrases()

    def _loaded_phrases(self) -> dict[str, str]:
        table = self._table
        if table is None:
            table = self._loaded_table()
        with self._lock:
            if self._phrases is None:
                path = None if self._path else data_path("phrases_dict.json")
                phrases = _cached_phrases(path, table) if path else {}
                self._longest = max(map(len, phrases), default=0)
                self._phrases = phrases
            return self._phrases

    def phrase_table(self) -> dict[str, str]:
        """phrase -> its space-separated reading, for the phrases read otherwise than by
        their characters' first readings (collation.py reads titles with it)."""
        return self._loaded_phrases()

    def reading(self, word: str) -> list[str] | None:
        """The syllables of a Chinese word: phrase table pieces, longest first, else
        each character's first reading; None if a character has none."""
        phrases = self._phrases
        if phrases is None:
            phrases = self._loaded_phrases()
        out: list[str] = []
        i = 0
        while i < len(word):
            for j in range(min(len(word), i + self._longest), i + 1, -1):
                piece = phrases.get(word[i:j])
                if piece is not None:
                    out += piece.split(" ")
                    i = j
                    break
            else:
                first = self.char(word[i])
                if not first:
                    return None
                out.append(first[0])
                i += 1
        return out

    @property
    def syllables(self) -> frozenset[str]:
        return SYLLABLES

    def char(self, ch: str) -> tuple[str, ...]:
        table = self._table
        if table is None:
            table = self._loaded_table()
        return table.get(ord(ch), ())

    def word_terms(self, word: str) -> tuple[str, ...]:
        """The index terms of one Chinese word: full readings, then initials ("#kf")."""
        cached = self._words.get(word)
        if cached is not None:
            return cached
        out: tuple[str, ...] = ()
        if 2 <= len(word) <= MAX_WORD and _HAN.match(word):
            syllables = self.reading(word)
            if syllables and all(_LETTERS.match(s) for s in syllables):
                out = ("".join(syllables), INITIALS + "".join(s[0] for s in syllables))
        if len(self._words) >= _CACHE_MAX:
            self._words.clear()
        self._words[word] = out
        return out

    def document_terms(self, words: dict[str, float]) -> dict[str, float]:
        """A memory's pinyin bag from its (weighted) word bag (whole counts stay ints)."""
        out: dict[str, float] = {}
        for word, tf in words.items():
            for term in self.word_terms(word):
                out[term] = out.get(term, 0) + tf
        return out

    # -- queries -----------------------------------------------------------------
    def query_units(self, text: str) -> tuple[list[list[str]], list[str]]:
        """(units, initials) of a normalised query. A unit is the letter strings one
        chunk may read as (several when a character in it has several readings);
        initials are chunks of 2..4 bare letters."""
        syllables = self.syllables
        units: list[list[str]] = []
        initials: list[str] = []
        run: list[str] = []  # spaced single syllables, joined: "ka fei"

        def close_run() -> None:
            # One syllable alone matches only a word read exactly so ("xian": 西安),
            # never the characters that read it.
            if run:
                units.append(["".join(run)])
            run.clear()

        for chunk in text.split():
            # Input methods take "lue"/"nue" for lüe/nüe (略, 虐); the index writes lve/nve.
            chunk = _UE.sub(r"\1ve", toneless(chunk).replace("'", "").replace("’", ""))
            if _TONED.match(chunk) and not chunk.isdigit():
                letters = re.sub(r"[1-5]", "", chunk)
                if 2 <= len(chunk) <= 4 and _LETTERS.match(chunk):
                    initials.append(chunk)
                if letters in syllables:
                    run.append(letters)
                    continue
                close_run()
                units.append([letters])
            elif _HAN_CHAR.search(chunk) and re.search(r"[a-z]", chunk):
                close_run()
                pieces = [
                    [p] if not _HAN_CHAR.match(p) else list(self.char(p)[:MAX_READINGS])
                    for p in re.findall(r"[a-z]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]", chunk)
                ]
                if all(pieces):
                    units.append(["".join(p) for p in itertools.islice(itertools.product(*pieces), MAX_COMBOS)])
            else:
                close_run()
        close_run()
        return units, initials

    def boundaries(self, letters: str) -> list[int]:
        """Positions where a syllable starts or ends in some full reading of ``letters``."""
        syllables, n = self.syllables, len(letters)
        reach = [False] * (n + 1)  # a syllable sequence ends here, from 0
        reach[0] = True
        for i in range(n):
            if reach[i]:
                for j in range(i + 1, min(n, i + 6) + 1):
                    if letters[i:j] in syllables:
                        reach[j] = True
        back = [False] * (n + 1)  # from here a syllable sequence reaches the end
        back[n] = True
        for i in range(n - 1, -1, -1):
            back[i] = any(back[j] and letters[i:j] in syllables for j in range(i + 1, min(n, i + 6) + 1))
        return [i for i in range(n + 1) if reach[i] and back[i]] if back[0] else []

    def cover(self, letters: str, known: Callable[[str], bool]) -> list[str]:
        """Indexed readings covering as much of ``letters`` as can be, in as few
        pieces as can be ("kafeiyinliao": 咖啡 + 饮料 rather than 咖啡因 + a lone
        syllable)."""
        if known(letters):
            return [letters]
        bounds = self.boundaries(letters)
        # best[i]: (letters covered, -pieces, pieces) of the best cover of bounds[:i + 1]
        best: list[tuple[int, int, list[str]]] = [(0, 0, [])]
        for j in range(1, len(bounds)):
            choice = best[j - 1]  # position j left uncovered
            for i in range(max(0, j - MAX_SPAN), j - 1):  # two syllables at least
                piece = letters[bounds[i] : bounds[j]]
                covered, pieces, chosen = best[i]
                candidate = (covered + len(piece), pieces - 1, chosen + [piece])
                if candidate[:2] > choice[:2] and known(piece):
                    choice = candidate
            best.append(choice)
        return best[-1][2] if bounds else []

    def words_for(self, term: str, words) -> list[str]:
        """Which of ``words`` can be read as ``term`` (for "why found"). Any reading of
        each character counts, so a searching process needs the character table only,
        never the phrase table a write reads."""
        return [w for w in words if 2 <= len(w) <= MAX_WORD and _HAN.match(w) and self._spells(w, term)]

    def _spells(self, word: str, term: str) -> bool:
        if term.startswith(INITIALS):
            letters = term[len(INITIALS) :]
            return len(letters) == len(word) and all(
                any(r[:1] == letter for r in self.char(c)) for c, letter in zip(word, letters)
            )
        ends = {0}  # positions in term reachable after the characters so far
        for c in word:
            ends = {end + len(r) for end in ends for r in self.char(c) if term.startswith(r, end)}
            if not ends:
                return False
        return len(term) in ends


SHARED_PINYIN = Pinyin()  # one table per process, read on first use
