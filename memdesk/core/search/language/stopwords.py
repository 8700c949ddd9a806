"""Stop words dropped from the keyword index and from queries.

Kept short on purpose: only function words and question words that carry no
topic. Queries made only of stop words still find memories through the
substring fallback, so nothing becomes unfindable.
"""

from __future__ import annotations

# English function words (lower-case, before stemming), including the
# fragments jieba leaves from contractions ("don't" -> "don", "t").
ENGLISH = frozenset(
    """
a about above after again against all am an and any are aren as at be because been before being
below between both but by can couldn d did didn do does doesn doing don down during each few for
from further had hadn has hasn have haven having he her here hers herself him himself his how i if
in into is isn it its itself just ll m me mightn more most mustn my myself needn no nor not now o
of off on once only or other our ours ourselves out over own re s same shan she should shouldn so
some such t than that the their theirs them themselves then there these they this those through
to too under until up ve very was wasn we were weren what when where which while who whom why will
with won wouldn y you your yours yourself yourselves would could might shall also
""".split()
)

# Chinese function words, pronouns and question words.
CHINESE = frozenset(
    """
的 了 着 过 是 在 有 和 与 及 或 也 都 就 还 又 把 被 让 给 对 从 向 于 以 而 之 其 这 那 个 些
吗 呢 吧 啊 呀 哦 嗯 么 哪 谁 几 我 你 您 他 她 它 们 得 地 很 要 会 能 去 来 说 上 下 中 里 吗 啦
我们 你们 他们 她们 它们 咱们 自己 什么 怎么 怎样 如何 哪里 哪儿 哪些 哪个 多少 为什么 是否 是不是
一个 一些 这个 那个 这些 那些 这样 那样 没有 不是 可以 因为 所以 但是 如果 然后 已经 还是 或者
以及 而且 就是 请问 时候 什么样 怎么样 多久 几个 有没有 是什么 一下
另外 对于 关于 以下 以上 可能 应该 比较 真的 非常 特别 一点 有点 一直 其 最 更 还有 觉得 感觉
知道 好像 其实 话说 等等 哎呀 哇 诶 额 嗯嗯 啥 咋 那么 这么 为啥 一样 其他 其它 之类 并且 然而
虽然 不过 而是 只是 才 呃 哦豁 来着 一下子 这儿 那儿 这里 那里 还要 真是
""".split()
)

WORDS = ENGLISH | CHINESE
# Particles that are almost never part of a content word: a CJK bigram with
# one of them ("的主", "吗？") is noise, so bigrams skip them.
BIGRAM_SKIP = frozenset("的了吗呢吧啊呀哦嗯啦么")

# Single characters that carry no meaning on their own: negation, degree,
# measure and linking words that jieba leaves standing alone ("zzzqqq不存在"
# cuts to 不 + 存在). In a query they add to the score of a memory that
# matches something else, but never make a hit by themselves (keyword.py).
# The stop words above are dropped outright and need no place here.
LONE = frozenset("不没别未非无太再才只已曾将并等每各某该此所为因但却则即若如使由比跟同便更挺一")
