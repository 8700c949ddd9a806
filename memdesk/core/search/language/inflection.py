"""English irregular verbs: a query's verb also in its other forms.

The Snowball stemmer folds regular inflections (researching, researched ->
research) but cannot know that "went" is "go" or "bought" is "buy". A
question asks "When did Caroline go to the support group?" of a memory
that says "I went to a LGBTQ support group yesterday", and the two share
no verb. Here each query word that is a form of a common irregular verb
brings the verb's other forms (go -> went, gone), at half the weight of the
word that wrote it (KeywordSettings.inflection_weight), when the index holds
them (keyword.py). Query side only, like numbers.py: memories are indexed as
written.

Left out: forms that are also common nouns or other words, where the other
form would find the wrong sense (bear/born, lie/lay, wind/wound,
grind/ground, rise/rose, spring, light/lit, tear, sink, ring/rang; bit, which is
mostly "a bit", so bite finds bitten only), and the verbs that
are stop words (be, do, have; "won" is one too, as in "won't", so win finds
only win).

The evidence that it helps search is one benchmark's (LoCoMo, the English one), and
inflection_weight was set on it.

Measured (bench/retrieval.py, keyword-only, R@5 / R@10, 2026-12-02), off ->
on at half the word's weight: LoCoMo 0.657 / 0.741 -> 0.660 / 0.745 (R@1
0.335 -> 0.348, MRR@10 0.503 -> 0.512; by conversation R@5 0.631 -> 0.644,
0.707 = 0.707, 0.674 -> 0.669, 0.650 -> 0.655, 0.649 -> 0.653, MRR up in all
five); with MiniLM 0.683 / 0.780 -> 0.687 / 0.781; MemDaily (Chinese)
unchanged, 0.906. At the full weight R@1 gains the same but R@5 falls to
0.652: the other form is often the rarer word, so its IDF outweighs the
form the question wrote; 0.3 gives 0.659 / 0.745. The work of a query: one
regular-expression pass, and a document-frequency read per other form of
an irregular verb it writes.
"""

from __future__ import annotations

from functools import cache

# base, past, past participle (where they differ from the base), common verbs.
_VERBS = """
arise arose arisen|awake awoke awoken|become became|begin began begun|bend bent|bet|bind bound|
bite bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|
burn burnt|buy bought|catch caught|choose chose chosen|cling clung|come came|creep crept|deal dealt|
dig dug|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|
fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|
forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|
get got gotten|give gave given|go went gone|grow grew grown|hang hung|hear heard|hide hid hidden|
hold held|keep kept|kneel knelt|know knew known|lead led|leap leapt|learn learnt|leave left|
lend lent|lose lost|make made|mean meant|meet met|pay paid|ride rode ridden|
run ran|say said|see saw seen|seek sought|sell sold|send sent|shake shook shaken|shine shone|
shoot shot|show shown|shrink shrank shrunk|sing sang sung|sit sat|sleep slept|slide slid|
speak spoke spoken|speed sped|spend spent|spin spun|stand stood|steal stole stolen|stick stuck|
sting stung|stink stank stunk|strike struck|strive strove striven|swear swore sworn|sweep swept|
swim swam swum|swing swung|take took taken|teach taught|tell told|think thought|throw threw thrown|
understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|write wrote written
"""


@cache
def _families() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for family in _VERBS.replace("\n", "").split("|"):
        forms = tuple(family.split())
        for form in forms:
            out[form] = forms
    return out


def other_forms(word: str) -> tuple[str, ...]:
    """The other forms of an irregular verb's form, lower-case ("went" -> go, gone); () if none."""
    forms = _families().get(word, ())
    return tuple(form for form in forms if form != word)
