"""Fuzzing the importers: no crash, a clear error per bad file, the store unchanged on refusal.

Normal runs try a few hundred inputs; HYPOTHESIS_PROFILE=fuzz (bench/fuzz.sh) runs ≥ 10,000.
"""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.io.plan import apply_import, plan_file

pytestmark = pytest.mark.slow  # fuzzing: `make test-all` runs it, bench/fuzz.sh at full size

settings.register_profile("fuzz", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64),
    st.floats(allow_nan=True),
    st.text(max_size=40),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=12), inner, max_size=6)),
    max_leaves=30,
)
field_names = st.sampled_from(
    [
        "id",
        "content",
        "title",
        "tags",
        "group",
        "personaId",
        "persona_id",
        "createdAt",
        "created_at",
        "updatedAt",
        "importance",
        "type",
        "scope",
        "memory",
        "document",
        "metadata",
        "user_id",
        "format",
        "version",
        "memories",
        "personas",
        "revisions",
    ]
)
record = st.dictionaries(field_names, json_values, max_size=8)
memory_files = st.one_of(
    st.builds(lambda rs: {"memories": rs}, st.lists(record, max_size=6)),
    st.lists(record, max_size=6),
    st.builds(
        lambda rs, ps: {"format": "memdesk", "version": 1, "memories": rs, "personas": ps},
        st.lists(record, max_size=5),
        st.lists(record, max_size=3),
    ),
    json_values,
)


def _snapshot(store):
    return sorted((m.id, m.version, m.deleted_at) for m in store.list(state="all")), len(store.personas())


def _check_file(store, path):
    before = _snapshot(store)
    try:
        plan = plan_file(store, path)
    except MemDeskError as exc:
        assert str(exc)
        assert _snapshot(store) == before
        return
    for item in plan.items:
        assert item.status in ("new", "updated", "unchanged", "conflict", "invalid")
        if item.status == "invalid":
            assert item.reason
    try:
        apply_import(store, plan, backup=False)
    except MemDeskError as exc:
        assert str(exc)
        assert _snapshot(store) == before


@given(data=memory_files)
def test_structured_json_never_crashes(fuzz_store, data):
    store, folder = fuzz_store("fuzz_json")
    path = folder / "in.json"
    path.write_text(json.dumps(data, ensure_ascii=False, allow_nan=True), encoding="utf-8")
    _check_file(store, path)


@given(raw=st.binary(max_size=400))
def test_arbitrary_bytes_never_crash(fuzz_store, raw):
    store, folder = fuzz_store("fuzz_bytes")
    path = folder / "in.dat"
    path.write_bytes(raw)
    _check_file(store, path)
