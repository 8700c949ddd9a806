"""A question's named dates lift the memories saved then (when.py), over a real store."""

from datetime import UTC, datetime

import numpy as np
import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordSettings
from memdesk.core.search.language.when import Period, period_mask, periods


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("When did Priya go camping in June?", [Period(None, 6)]),
        ("What did Gina find on 1 February, 2023?", [Period(2023, 2, 1)]),
        ("Who did Ravi have lunch with on May 3, 2023?", [Period(2023, 5, 3)]),
        ("What did John attend in March 2023?", [Period(2023, 3)]),
        ("Where did we go in 2022?", [Period(2022)]),
        ("2023年6月3日我去了哪里？", [Period(2023, 6, 3)]),
        ("我十二月份去了哪里？", [Period(None, 12)]),
        # Not dates: a verb, a sentence-opening "May", a duration, a phone number.
        ("I decided to march on, what may happen?", []),
        ("May I ask what you did?", []),
        ("那个活动持续了一个月吗？电话是13800138000", []),
        # A three-letter abbreviation is a month only next to a day or year; alone it is a name.
        ("What did Jan say about the trip?", []),
        ("Jan said we first met on Jan 5, 2021.", [Period(2021, 1, 5)]),
        ("What did I buy in Jan 2023?", [Period(2023, 1)]),
        ("Did we talk on 12 Dec?", [Period(None, 12, 12)]),
        # A bare month name after a word of time; a given name otherwise.
        ("What did June bring to the picnic?", []),
        ("Was August at the wedding?", []),
        ("How was the weather in mid-March?", [Period(None, 3)]),
        ("Which books did I read in the last week of April?", [Period(None, 4)]),
        # An amount is not a year.
        ("我花了2000元买了什么？", []),
        ("What did the $1999 bike come with?", []),
        ("We raised 1500 dollars in 2019.", [Period(2019)]),
    ],
)
def test_absolute_dates_are_read_and_lookalikes_are_not(text, named):
    assert periods(text) == named


def test_a_period_matches_the_times_saved_in_it():
    times = [datetime(2023, 6, 2, 23, tzinfo=UTC), datetime(2023, 6, 4, tzinfo=UTC), datetime(2022, 6, 3, tzinfo=UTC)]
    created = np.array([t.timestamp() for t in times])
    assert period_mask("on June 3, 2023", created).tolist() == [True, True, False]  # the day, give or take one
    assert period_mask("in June", created).tolist() == [True, True, True]  # June of any year
    assert period_mask("in 2022", created).tolist() == [False, False, True]
    assert period_mask("what happened then?", created) is None


def test_a_question_naming_a_month_prefers_the_memory_saved_then(store, tokenizer):
    june = store.add(content="Priya: We went camping by the lake, it was lovely.", created_at="2023-06-27T10:00:00")
    july = store.add(content="Priya: Camping again with the kids, so much fun!", created_at="2023-07-17T10:00:00")
    june_id, july_id = june.added[0], july.added[0]
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("When did Priya go camping in June?").ids[0] == june_id
    assert engine.search("When did Priya go camping in July?").ids[0] == july_id
    # A lift, not a filter: the other camping trip is still found.
    assert set(engine.search("When did Priya go camping in June?").ids) == {june_id, july_id}
    # June's "went" answers the question's "go" (inflection.py), so the July question
    # above is the one where the lift beats the better word match; without the lift and
    # the other verb forms, the word match (camping, twice as dense) wins.
    off = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(date_lift=0.0, inflection_weight=0.0))
    off.build()
    plain = off.search("When did Priya go camping in June?").ids
    assert plain[0] == july_id
    verbs = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(date_lift=0.0))
    verbs.build()
    assert verbs.search("When did Priya go camping in July?").ids[0] == june_id
