"""Running maintenance: reports kept in the database, cancellation that leaves no partial
state, failures that do not stop the run, the optional re-embedding, the CLI."""

import json
from datetime import timedelta

import numpy as np
import pytest

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.domain.times import now_utc
from memdesk.core.maintenance import last_reports, run_maintenance
from memdesk.core.store import Store

NOW = now_utc()


def setup(store):
    """Work for every task, more than one write batch (500) for the bulk ones."""
    old = NOW - timedelta(days=100)
    store.add_many(
        [
            {
                "id": f"exp-{i}",
                "content": f"短期任务 {i}",
                "scope": "short_term",
                "expires_at": NOW - timedelta(hours=1),
            }
            for i in range(600)
        ]
        + [{"id": f"bin-{i}", "content": f"回收站 {i}", "deleted_at": NOW - timedelta(days=40)} for i in range(600)]
        # importance 5 but automatic: written before memories were scored on add, so maintenance rescores them
        + [
            {
                "id": f"old-{i}",
                "content": f"下周三和小王去上海签 {i} 万的合同",
                "created_at": old,
                "heat": 100.0,
                "tier": "hot",
                "importance": 5,
                "importance_set": False,
            }
            for i in range(600)
        ]
        + [
            {"id": "dup-a", "content": "用户养的猫叫团子，是一只很胖的橘猫"},
            {"id": "dup-b", "content": "用户养的猫叫团子，是一只非常胖的橘猫"},
        ]
    )


@pytest.mark.parametrize("task", ["expire", "purge_trash", "heat", "importance", "consolidate"])
def test_cancel_at_the_last_moment_keeps_nothing_of_that_task(tmp_path, task, snapshot, cancel_at):
    counting = cancel_at()
    first = Store.open(tmp_path / "count.db")
    setup(first)
    done = run_maintenance(first, [task], cancel=counting, now=NOW, save=False)
    assert done.task(task).status == "done"
    assert done.changes or done.task(task).counts.get("proposals")  # each task had work to do
    first.close()
    store = Store.open(tmp_path / "cancel.db")
    try:
        setup(store)
        before = snapshot(tmp_path / "cancel.db")
        report = run_maintenance(store, [task], cancel=cancel_at(counting.calls), now=NOW, save=False)
        assert report.task(task).status == "cancelled" and report.cancelled and not report.changes
        assert snapshot(tmp_path / "cancel.db") == before
    finally:
        store.close()


def test_a_cancelled_run_stops_and_its_report_is_kept(store):
    setup(store)
    seen = []
    report = run_maintenance(
        store, ["expire", "heat", "optimize"], now=NOW, on_task=seen.append, cancel=lambda: seen[-1] == "heat"
    )
    assert [(t.name, t.status) for t in report.tasks] == [
        ("expire", "done"),
        ("heat", "cancelled"),
        ("optimize", "skipped"),
    ]
    assert report.changes.deleted and not report.changes.updated  # expire's work stays, heat's does not
    assert store.get("old-1").tier == "hot"
    [stored] = last_reports(store)
    assert stored["cancelled"] and stored["tasks"][1]["status"] == "cancelled"


def test_reports_are_stored_newest_first_and_capped(store):
    for _ in range(22):
        run_maintenance(store, ["duplicates"])
    reports = last_reports(store)
    assert len(reports) == 20 and reports[0]["started_at"] >= reports[-1]["started_at"]
    task = reports[0]["tasks"][0]
    assert task["name"] == "duplicates" and task["status"] == "done" and task["seconds"] >= 0
    assert last_reports(store, 3) == reports[:3]


def test_unknown_tasks_bad_options_and_failures(store):
    with pytest.raises(MemDeskError, match="unknown maintenance task"):
        run_maintenance(store, ["vacuum-everything"])
    with pytest.raises(MemDeskError, match="trash_days"):
        run_maintenance(store, ["purge_trash"], trash_days=-1)
    report = run_maintenance(store, ["reembed", "duplicates"])
    assert [(t.name, t.status) for t in report.tasks] == [("reembed", "skipped"), ("duplicates", "done")]
    assert "reembed" not in [t.name for t in run_maintenance(store).tasks]  # only with an embedder


class HashEmbedder:
    """A stand-in model: deterministic unit vectors from the text's bytes."""

    model_id = "hash-test-v1"
    dim = 8

    def embed(self, texts, *, query=False):
        rows = []
        for text in texts:
            v = np.frombuffer(text.encode("utf-8")[:8].ljust(8, b"\x01"), dtype=np.uint8).astype(np.float32)
            rows.append(v / np.linalg.norm(v))
        return np.vstack(rows)


def test_reembed_runs_when_given_an_embedder(store):
    store.add(content="需要向量的记忆")
    report = run_maintenance(store, embedder=HashEmbedder())
    assert report.task("reembed").counts == {"embedded": 1}
    assert store.stale_vector_ids("hash-test-v1") == []
    names = [t.name for t in report.tasks]
    assert names.index("reembed") < names.index("consolidate")  # fresh vectors for the proposals


def test_cli_maintain_and_proposals(store, capsys):
    """The handlers as `memdesk maintain` / `memdesk proposals` run them (cli/maintenance.py register)."""
    import argparse

    from memdesk.cli import maintenance as cli_maint

    parser = argparse.ArgumentParser(prog="memdesk")
    cli_maint.register(parser.add_subparsers(dest="command"))

    def run(*argv):
        args = parser.parse_args(argv)
        code = args.func(args, store)
        return code, capsys.readouterr().out

    a = store.add(content="用户养的猫叫团子，是一只很胖的橘猫").added[0]
    b = store.add(content="用户养的猫叫团子，是一只非常胖的橘猫").added[0]
    assert run("maintain", "--report")[1].startswith("no maintenance")
    code, out = run("maintain", "--json")
    ran = json.loads(out)
    assert code == 0 and ran["ok"] and ran["tasks"][0]["name"] == "expire"
    code, out = run("maintain", "--report", "--last", "1")
    assert "consolidate" in out and "proposals 1" in out
    listed = json.loads(run("proposals", "--json")[1])
    assert listed[0]["memory_ids"] == [a, b]
    code, out = run("proposals", "merge", listed[0]["id"], "--content", "用户的胖橘猫叫团子", "--json")
    assert code == 0 and set(json.loads(out)["superseded"]) == {a, b}
    with pytest.raises(MemDeskError):
        run("proposals", "dismiss", "nope")
    with pytest.raises(SystemExit):
        parser.parse_args(["maintain", "--task", "nope"])


def test_proposal_commands_take_a_unique_prefix(store, capsys):
    """`memdesk proposals keep 7085`: like memory ids, a proposal id may be cut to a unique prefix."""
    import argparse

    from memdesk.cli import maintenance as cli_maint
    from memdesk.core.maintenance.consolidation import PROPOSALS_KEY, proposals
    from memdesk.core.views.ids import AmbiguousIdError

    parser = argparse.ArgumentParser(prog="memdesk")
    cli_maint.register(parser.add_subparsers(dest="command"))
    store.add(content="用户养的猫叫团子，是一只很胖的橘猫")
    store.add(content="用户养的猫叫团子，是一只非常胖的橘猫")
    run_maintenance(store)
    (proposal,) = proposals(store)
    twin = dict(store.setting(PROPOSALS_KEY)[0], id=proposal.id[:6] + "ffffffffff")  # shares 6 characters
    with store.write():
        store.set_setting(PROPOSALS_KEY, [*store.setting(PROPOSALS_KEY), twin])
    args = parser.parse_args(["proposals", "keep", proposal.id[:6]])
    with pytest.raises(AmbiguousIdError, match="matches 2 merge proposals") as ambiguous:
        args.func(args, store)
    assert proposal.id in str(ambiguous.value)
    args = parser.parse_args(["proposals", "keep", proposal.id[:8], "--json"])
    assert args.func(args, store) == 0
    assert json.loads(capsys.readouterr().out) == {"kept": proposal.id}
    assert [p["id"] for p in store.setting(PROPOSALS_KEY)] == [twin["id"]]  # the one it named left the inbox
