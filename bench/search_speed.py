"""Search latency at 1k / 10k / 100k memories, next to SQLite FTS5.

    python bench/search_speed.py [--sizes 1000,10000,100000] [--json] [--queries N]

Memories are synthetic mixed Chinese/English lines of 30–80 characters:
Chinese words drawn from jieba's dictionary by their corpus frequency (so
common words are common), English words from a fixed list. Queries take 2–4
words of a random memory, sometimes with a word from elsewhere.

The engine searches the index a store file keeps (what the window, the CLI
and the MCP server use; the store is filled with add_many, which indexes as
it writes); --in-memory measures the in-memory index tests use instead.
MemDesk's time is the whole ``SearchEngine.search`` call (parse, scope,
keyword + expansion + substring rankings, fusion, final score, hits;
keyword-only, limit 20). FTS5 indexes the same text as space-joined tokens
of our tokenizer (jieba + stemming) with unicode61 and answers the same
queries as an OR of their tokens ranked by bm25, LIMIT 20; its time includes
tokenising the query, as ours does. ``question_*`` times the same words
asked as a question ("… 是什么？", lenient): expansion, synonyms and
conversation context run too. ``asking_*`` asks them the ways whose answer
words and kinds the question also looks for (answer_words.py, kinds.py:
"… 今年多大了？" also looks for 岁 and 年龄, "… 用的家电是什么？" for 冰箱,
洗衣机…), whose postings can be long at 100k.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memdesk.core.domain.records import MemoryRecord  # noqa: E402
from memdesk.core.domain.times import now_utc  # noqa: E402
from memdesk.core.search import SearchEngine, Tokenizer  # noqa: E402
from memdesk.core.store import Store  # noqa: E402
from tests.record_factory import make_record  # noqa: E402

ENGLISH = """time person year way day thing man world life hand part child eye woman place work week case
point government company number group problem fact project meeting budget report design server client
database memory search index python coffee tea music travel family health doctor school teacher student
market price money bank phone email address birthday dinner lunch breakfast weekend holiday flight hotel
ticket movie book game sport football tennis running yoga garden kitchen car bus train city river
mountain beach weather rain snow summer winter spring autumn morning evening night monday friday
release version update bug feature test deploy review plan goal task deadline team manager engineer
paint photo camera video song guitar piano concert museum art history science math language english
chinese friend brother sister mother father daughter son wife husband dog cat bird fish tree flower""".split()


# Question forms that set off answer words (age, workplace, phone, hobby, duration) and kinds.
ASKING = (
    "{} 今年多大了？",
    "{} 在哪儿上班？",
    "{} 的电话号码是多少？",
    "{} 平时喜欢做什么？",
    "{} 用的家电是什么？",
    "{} 持续了多久？",
    "{} 喝的饮料是啥？",
)


def chinese_words(rng: random.Random, count: int = 20000) -> tuple[list[str], list[float]]:
    import jieba

    path = Path(jieba.__file__).parent / "dict.txt"
    words, freqs = [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) >= 2 and 2 <= len(parts[0]) <= 4:
                words.append(parts[0])
                freqs.append(float(parts[1]))
    ranked = sorted(zip(freqs, words), reverse=True)[:count]
    return [w for _, w in ranked], [f for f, _ in ranked]


def make_corpus(size: int, rng: random.Random) -> list[str]:
    zh, weights = chinese_words(rng)
    cumulative = list(itertools.accumulate(weights))  # choices() would re-add 20k weights per word
    texts = []
    for _ in range(size):
        target = rng.randint(30, 80)
        parts, length = [], 0
        while length < target:
            if rng.random() < 0.3:
                word = " " + rng.choice(ENGLISH) + " "
            else:
                word = rng.choices(zh, cum_weights=cumulative)[0]
            parts.append(word)
            length += len(word)
        texts.append("".join(parts).strip()[:80])
    return texts


def make_queries(texts: list[str], tokenizer: Tokenizer, count: int, rng: random.Random) -> list[str]:
    queries = []
    while len(queries) < count:
        words = [w for w in dict.fromkeys(tokenizer.words(rng.choice(texts))) if len(w) > 1]
        if len(words) < 2:
            continue
        picked = rng.sample(words, min(len(words), rng.randint(2, 4)))
        if rng.random() < 0.3:
            other = [w for w in tokenizer.words(rng.choice(texts)) if len(w) > 1]
            if other:
                picked[-1] = rng.choice(other)
        queries.append(" ".join(picked))
    return queries


def records(texts: list[str]) -> list[MemoryRecord]:
    now = now_utc()
    return [make_record(f"m{i:06d}", text, source="import", created_at=now, heat=100.0) for i, text in enumerate(texts)]


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def timed(run, queries: list[str]) -> list[float]:
    """Milliseconds each query took."""
    times = []
    for q in queries:
        t = time.perf_counter()
        run(q)
        times.append((time.perf_counter() - t) * 1000)
    return times


def measure(size: int, query_count: int, tokenizer: Tokenizer, seed: int, in_memory: bool = False) -> dict:
    rng = random.Random(seed + size)
    texts = make_corpus(size, rng)
    queries = make_queries(texts, tokenizer, query_count, rng)

    started = time.perf_counter()
    if in_memory:
        engine = SearchEngine(tokenizer=tokenizer)
        engine.put(records(texts))
    else:  # what every front door uses: the index kept in a store file
        folder = Path(tempfile.mkdtemp(prefix="memdesk-speed-"))
        store = Store.open(folder / "speed.db")
        store.tokenizer = tokenizer
        for start in range(0, len(texts), 5000):
            store.add_many([{"content": t} for t in texts[start : start + 5000]])
        engine = SearchEngine(store, tokenizer=tokenizer)
        engine.build()
    build_s = time.perf_counter() - started
    for q in queries[:5]:
        engine.search(q, limit=20)  # warm caches once, as a running app has
    ours = timed(lambda q: engine.search(q, limit=20), queries)
    # The same words asked as a question, as assistants send them: related-term expansion,
    # synonyms and conversation context run too (not part of the FTS5 comparison).
    asked = timed(lambda q: engine.search(f"{q} 是什么？", limit=20, lenient=True), queries)
    forms = itertools.cycle(ASKING)
    asking = timed(lambda q: engine.search(next(forms).format(q), limit=20, lenient=True), queries)

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='unicode61')")
    db.executemany(
        "INSERT INTO fts(rowid, body) VALUES (?, ?)",
        ((i, " ".join(tokenizer.words(text))) for i, text in enumerate(texts)),
    )
    db.commit()

    def fts_search(q):
        tokens = [w.replace('"', "") for w in tokenizer.words(q)]
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(tokens) if w)
        if match:
            db.execute("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT 20", (match,)).fetchall()

    fts = timed(fts_search, queries)
    db.close()
    if not in_memory:  # at 1M the store is ~3 GB: not left behind in the temp folder
        store.close()
        shutil.rmtree(folder, ignore_errors=True)
    p95, fts_p95 = percentile(ours, 95), percentile(fts, 95)
    return {
        "p50_ms": round(statistics.median(ours), 3),
        "p95_ms": round(p95, 3),
        "fts5_p50_ms": round(statistics.median(fts), 3),
        "fts5_p95_ms": round(fts_p95, 3),
        "ratio_p95": round(p95 / fts_p95, 2) if fts_p95 else None,
        "build_s": round(build_s, 1),
        "question_p50_ms": round(statistics.median(asked), 3),
        "question_p95_ms": round(percentile(asked, 95), 3),
        "asking_p50_ms": round(statistics.median(asking), 3),
        "asking_p95_ms": round(percentile(asking, 95), 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--in-memory", action="store_true", help="the in-memory index (tests, no store) instead of a store's index"
    )
    args = parser.parse_args(argv)
    tokenizer = Tokenizer()
    tokenizer.warm_up()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    report = {"sizes": {}}
    for size in sizes:
        report["sizes"][str(size)] = measure(size, args.queries, tokenizer, args.seed, args.in_memory)
        if not args.json:
            row = report["sizes"][str(size)]
            print(
                f"{size:>7} memories: p50 {row['p50_ms']:.2f} ms, p95 {row['p95_ms']:.2f} ms | FTS5 p50 "
                f"{row['fts5_p50_ms']:.2f} ms, p95 {row['fts5_p95_ms']:.2f} ms | ratio p95 {row['ratio_p95']}x "
                f"| index build {row['build_s']} s | as questions p50 {row['question_p50_ms']:.2f} ms, "
                f"p95 {row['question_p95_ms']:.2f} ms | asking (多大, 哪儿上班, 家电…) p50 "
                f"{row['asking_p50_ms']:.2f} ms, p95 {row['asking_p95_ms']:.2f} ms",
                flush=True,
            )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
