"""Everyday kinds of things and their common members: a question's 家电 also finds 洗衣机.

"我用的家电是啥？" is answered by "我家用的是西门子洗衣机。"; "我用的美妆品是什么？" by
"我平时用的是雅漾的舒护活泉水喷雾。". A kind word and its members share no characters,
and Cilin (thesaurus.py) scatters them: 家电 sits with 家用电器 in one branch, 洗衣机
with 微波炉 in another, 电饭煲 under kitchenware, 吸尘器 under tools, 冰箱 nowhere.
So the kinds people keep memories of (appliances, cosmetics, devices, drinks, fruit,
vegetables, pets, instruments, vehicles) are listed here with their common members,
and a question that names a kind also looks for its members, at
KeywordSettings.kind_weight, when the index holds them (keyword.py). Query side only,
one way: asking for 冰箱 does not find every appliance. A kind counts only as a word of
the question as the tokenizer cuts it: 家电 inside 我家电视 (my home's TV) or 水果 inside
水果刀 (a fruit knife) names no kind.

The evidence that it helps search is one benchmark's (MemDaily, with and without the
Chinese distractors; LoCoMo's questions are English), and kind_weight was set on it.

Measured (bench/retrieval.py, keyword-only, R@5, 2026-12-02). MemDaily: 0.911 without
this and answer_words.py; 0.922 with this alone; 0.936 with both (0.9352 / 0.9357 /
0.9360 at kind_weight 0.3 / 0.5 / 1.0: flat, so half, below a literal match). With the
Chinese distractors, both together: 0.846 -> 0.872 (every third store: 0.853 without
either, 0.868 with this alone, 0.877 with both). The table is of common goods, not
of the test files' words: 102 of its 150 members appear nowhere in ../shared/bench.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

# kind words | members
_KINDS = """
家电 家用电器 电器 | 冰箱 洗衣机 空调 电视 电视机 微波炉 电饭煲 电饭锅 吸尘器 扫地机器人 洗碗机 热水器
  烤箱 电风扇 风扇 加湿器 空气净化器 净水器 电磁炉 豆浆机 榨汁机 咖啡机 吹风机 电吹风 油烟机 烘干机
  破壁机 空气炸锅 电暖器 投影仪 饮水机 电水壶
化妆品 美妆 美妆品 美妆产品 护肤品 彩妆 | 口红 唇膏 粉底 粉底液 气垫 眼影 睫毛膏 眉笔 腮红 面霜 乳液
  精华 精华液 精华露 爽肤水 化妆水 面膜 防晒霜 洗面奶 卸妆水 喷雾 香水 隔离霜 眼霜 护肤 保湿 粉饼
数码产品 电子产品 数码 | 手机 电脑 笔记本 平板 相机 耳机 手表 手环 音箱 键盘 鼠标 显示器
饮料 饮品 | 咖啡 奶茶 果汁 可乐 汽水 牛奶 豆浆 啤酒 酸奶 柠檬水 矿泉水 绿茶 红茶
水果 | 苹果 香蕉 橙子 葡萄 西瓜 草莓 芒果 荔枝 樱桃 菠萝 柚子 猕猴桃 桃子 梨 橘子 哈密瓜
蔬菜 | 白菜 青菜 菠菜 西红柿 番茄 黄瓜 土豆 胡萝卜 茄子 芹菜 生菜 西兰花 洋葱 南瓜 豆角
宠物 | 猫 狗 小猫 小狗 仓鼠 兔子 鹦鹉 金鱼 乌龟 柯基 柴犬 金毛 布偶猫 英短
乐器 | 钢琴 吉他 小提琴 大提琴 古筝 二胡 笛子 架子鼓 尤克里里 萨克斯 琵琶
交通工具 | 汽车 自行车 电动车 摩托车 地铁 公交 高铁 火车 飞机 轮船
"""


@cache
def _members() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in _KINDS.replace("\n  ", " ").strip().splitlines():
        kinds, members = line.split("|")
        for kind in kinds.split():
            out[kind] = tuple(members.split())
    return out


def kind_members(words: Iterable[str]) -> list[str]:
    """The common members of the kinds among a question's words (as the tokenizer cut it:
    美妆品 is one word or 美妆 + 品, and both name the kind), in table order."""
    said = set(words)
    out: list[str] = []
    for kind, members in _members().items():
        if kind in said:
            out.extend(m for m in members if m not in out)
    return out
