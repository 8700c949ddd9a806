"""Where a model's similarities between *unrelated* texts sit.

Raw cosine scores are not comparable across models: bge-small-zh puts
unrelated sentences at 0.3-0.5, MiniLM near 0. Search ranks by fusion and
needs no cut-off; if a caller wants one (e.g. "related memories" or
duplicate hints), it should be relative to this baseline, measured once at
install time over every pair of a fixed set of unrelated sentences.
"""

from __future__ import annotations

import numpy as np

# Deliberately unrelated topics, in both languages MemDesk is used in.
CALIBRATION_TEXTS = (
    "The train to Lyon leaves at seven from platform four.",
    "Add two cups of flour and bake for forty minutes.",
    "My sister adopted a grey cat last spring.",
    "The quarterly report shows revenue grew by three percent.",
    "Use a torque wrench to tighten the wheel nuts.",
    "Jupiter has dozens of known moons.",
    "Please renew the domain before it expires in March.",
    "The violin concerto was written in D major.",
    "Water the tomatoes every morning during the heatwave.",
    "The function returns None when the key is missing.",
    "He prefers window seats on long flights.",
    "The museum is closed on Mondays.",
    "明天上午九点在三号会议室开周会。",
    "这道红烧肉要用小火慢炖一个小时。",
    "我对花生过敏，点菜时请注意。",
    "新版本修复了导出时的编码错误。",
    "周末打算去西湖边骑自行车。",
    "孩子的钢琴课改到了周四下午。",
    "服务器的磁盘空间只剩百分之五了。",
    "这本小说讲的是一个渔村的故事。",
    "房租每个月五号之前转账。",
    "他喜欢喝不加糖的绿茶。",
    "今年的年假还剩六天没有休。",
    "地铁二号线晚上十一点停运。",
)


def _pair_stats(unit: np.ndarray) -> dict:
    sims = (unit @ unit.T)[np.triu_indices(len(unit), k=1)]
    return {
        "unrelated_mean": round(float(sims.mean()), 4),
        "unrelated_std": round(float(sims.std()), 4),
        "unrelated_p95": round(float(np.percentile(sims, 95)), 4),
        "pairs": int(sims.size),
    }


def calibrate(embedder) -> dict:
    """Cosine statistics over all pairs of unrelated texts, per language.

    A monolingual model maps every text of another language to nearly the
    same vector (MiniLM: Chinese is all [UNK]), so the headline figures are
    those of the language where unrelated texts lie furthest apart, which
    is the language the model reads.
    """
    vectors = embedder.embed(list(CALIBRATION_TEXTS))
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    is_zh = np.array([any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in CALIBRATION_TEXTS])
    per_language = {"en": _pair_stats(unit[~is_zh]), "zh": _pair_stats(unit[is_zh])}
    best = min(per_language, key=lambda lang: per_language[lang]["unrelated_mean"])
    return {**per_language[best], "language": best, "by_language": per_language}


def relative_similarity(score: float, calibration: dict | None) -> float:
    """Map a raw cosine so that the unrelated p95 becomes 0 and 1 stays 1.

    Without a calibration the raw score is returned unchanged.
    """
    if not calibration:
        return score
    floor = float(calibration.get("unrelated_p95", 0.0))
    if floor >= 1.0:
        return score
    return (score - floor) / (1.0 - floor)
