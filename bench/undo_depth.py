"""Undo to any depth in the real window: N random operations, undo all, redo all.

    python bench/undo_depth.py [--steps 200] [--seed 1] [--json]

Opens the real main window (memdesk/gui, offscreen unless QT_QPA_PLATFORM
says otherwise) on a temporary store with a few memories and personas, then
makes ``--steps`` random changes through the window itself: the editor
(new memory, edits saved with its Save), the memory actions the menus, keys
and drops use (importance, type, group, tags, persona, delete, restore,
delete for good, empty trash, rename group), the personas dialog's
operations (add, rename, delete with either policy), an import of a small
JSON file and saved searches, each through the session's own undo stack.
After every step that reached the stack it records the store's visible state
(every memory's fields but access counters, times and version; personas; the
trash; settings). Then it triggers the window's Undo action until the stack
is empty, comparing each state with the one recorded a step earlier, and the
Redo action back to the top, comparing with the later ones.

Prints {"steps": N, "undone_exact": n, "redone_exact": n} (plus the errors
the window showed, if any, and the time taken).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.undo_state import visible_state  # noqa: E402  (the invariant the property test checks)

WORDS = ["咖啡", "绿茶", "例会", "跑步", "项目", "周三", "报告", "tea", "review", "deadline"]
GROUPS = ["", "甲", "工作", "工作/会议", "生活/饮食", "学习"]
TAGS = ["习惯", "会议", "健康", "重要"]
TYPES = ["fact", "preference", "project", "task", "note"]
NAMES = ["助手", "教练", "老师", "翻译", "秘书"]


def make_asker(rng: random.Random):
    from memdesk.gui.dialogs.ask import Asker

    class BenchAsker(Asker):
        """Answers the window's questions as a decided user would (the texts come from the bench)."""

        def __init__(self):
            self.texts: list[str] = []

        def confirm(self, parent, title, text, *, yes, detail="", warning=False):
            return True

        def choose(self, parent, title, text, options, *, default=None, cancel=None, detail="", warning=False):
            keys = [k for k, _ in options if k != cancel]
            return rng.choice(keys) if keys else cancel

        def text(self, parent, title, label, default="", *, suggestions=()):
            return self.texts.pop(0) if self.texts else None

        def inform(self, parent, title, text):
            pass

    return BenchAsker()


def words(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))


class Driver:
    def __init__(self, window, asker, rng: random.Random, folder: Path):
        from PySide6.QtWidgets import QApplication

        self.window, self.asker, self.rng, self.folder = window, asker, rng, folder
        self.session = window.session
        self.store = window.session.store
        self.qapp = QApplication.instance()
        self.imports = 0

    # ---- waiting for the window -------------------------------------------------------------------
    def settle(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.qapp.processEvents()
            if not self.session.busy and not self.session.taskman.lane_busy("db"):
                self.qapp.processEvents()
                if not self.session.busy and not self.session.taskman.lane_busy("db"):
                    return
            if time.monotonic() > deadline:
                raise TimeoutError("the window's db lane did not finish")
            time.sleep(0.002)

    # ---- what is there to act on ----------------------------------------------------------------
    def ids(self, state: str) -> list[str]:
        return [r.id for r in self.store.list(state=state, limit=None, sort="created_at")]

    def pick(self, ids: list[str], most: int = 4) -> list[str]:
        return self.rng.sample(ids, self.rng.randint(1, min(most, len(ids))))

    # ---- the operations -------------------------------------------------------------------------------
    def operations(self):
        active, deleted = self.ids("active"), self.ids("deleted")
        personas = self.store.personas()
        ops = [self.new_memory, self.add_persona, self.import_file, self.saved_search]
        if active:
            ops += [
                self.edit_memory,
                self.importance,
                self.type,
                self.group,
                self.add_tag,
                self.remove_tag,
                self.move_persona,
                self.delete,
                self.rename_group,
            ]
        if deleted:
            ops += [self.restore, self.purge, self.empty_trash]
        if personas:
            ops += [self.rename_persona, self.delete_persona]
        return ops

    def new_memory(self):
        w = self.window
        w.new_memory()
        w.editor.form.title.setText(self.rng.choice(["", "标题", words(self.rng)]))
        w.editor.form.content.setPlainText(words(self.rng))
        w.editor.save()

    def edit_memory(self):
        w = self.window
        w.open_memory(self.rng.choice(self.ids("active")))
        w.editor.form.content.setPlainText(words(self.rng) + " 改")
        if self.rng.random() < 0.5:
            w.editor.form.title.setText(words(self.rng))
        w.editor.save()

    def importance(self):
        self.window.actions_.set_importance(self.pick(self.ids("active")), self.rng.randint(1, 10))

    def type(self):
        self.window.actions_.set_type(self.pick(self.ids("active")), self.rng.choice(TYPES))

    def group(self):
        self.window.actions_.move_to_group(self.pick(self.ids("active")), self.rng.choice(GROUPS))

    def add_tag(self):
        self.window.actions_.add_tag(self.pick(self.ids("active")), self.rng.choice(TAGS))

    def remove_tag(self):
        ids = self.pick(self.ids("active"))
        tags = sorted({t for r in self.store.get_many(ids).values() for t in r.tags}) or TAGS
        self.window.actions_.remove_tag(ids, self.rng.choice(tags))

    def move_persona(self):
        choices = [(None, "Global")] + [(p.id, p.name) for p in self.store.personas()]
        persona_id, name = self.rng.choice(choices)
        self.window.actions_.set_persona(self.pick(self.ids("active")), persona_id, name)

    def delete(self):
        self.window.actions_.delete(self.pick(self.ids("active"), 3))

    def restore(self):
        self.window.actions_.restore(self.pick(self.ids("deleted"), 3))

    def purge(self):
        self.window.actions_.purge(self.pick(self.ids("deleted"), 3))

    def empty_trash(self):
        self.window.actions_.empty_trash()

    def rename_group(self):
        groups = [g for g in self.store.group_names() if g]
        if groups:
            self.asker.texts.append(self.rng.choice(["乙", "工作/新", "归档/" + self.rng.choice(WORDS)]))
            self.window.actions_.rename_group(self.rng.choice(groups))

    def _personas_dialog(self):
        w = self.window
        w.open_personas()
        return w.personas_dialog

    def add_persona(self):
        self.asker.texts.append(self.rng.choice(NAMES))  # a taken name is refused: no step
        self._personas_dialog().add()

    def rename_persona(self):
        from memdesk.core import ops as operations

        persona = self.rng.choice(self.store.personas())
        fields = {"name": self.rng.choice(NAMES)} if self.rng.random() < 0.7 else {"colour": "#225588"}
        self.session.perform(
            partial(operations.update_persona, persona_id=persona.id, **fields), label=f"Edit persona “{persona.name}”"
        )

    def delete_persona(self):
        from memdesk.core import ops as operations

        persona = self.rng.choice(self.store.personas())
        self.session.perform(
            partial(operations.delete_persona, persona_id=persona.id, memories=self.rng.choice(["global", "trash"])),
            label=f"Delete persona “{persona.name}”",
        )

    def import_file(self):
        from memdesk.core import ops as operations
        from memdesk.core.io.plan import plan_file

        self.imports += 1
        memories = [{"content": words(self.rng), "tags": ["导入"]} for _ in range(self.rng.randint(1, 3))]
        personas = []
        if self.rng.random() < 0.5:
            pid = f"imp-{self.imports}"
            personas.append({"id": pid, "name": f"导入{self.imports}"})
            memories[0]["persona_id"] = pid
        existing = self.ids("all")
        if existing and self.rng.random() < 0.5:
            memories.append({"id": self.rng.choice(existing), "content": "文件里的版本", "importance": 7})
        path = self.folder / f"import-{self.imports}.json"
        path.write_text(
            json.dumps(
                {"format": "memdesk", "version": 1, "personas": personas, "memories": memories}, ensure_ascii=False
            ),
            encoding="utf-8",
        )
        plan = plan_file(self.store, path)
        on_conflict = self.rng.choice(["skip", "theirs"])
        self.session.perform(
            partial(operations.import_plan, plan=plan, on_conflict=on_conflict),
            label=f"Import {path.name}",
            background=True,
        )

    def saved_search(self):
        from memdesk.core import ops as operations

        names = self.rng.sample(["工作", "生活", "学习"], self.rng.randint(0, 2))
        self.session.perform(
            partial(operations.set_saved_searches, searches=[{"name": n, "query": f"group:{n}"} for n in names]),
            label="Saved searches",
        )


def seed_store(path: Path, rng: random.Random) -> None:
    from memdesk.core.store import Store

    store = Store.open(path)
    pid, _ = store.create_persona(name="写作")
    for n in range(20):
        store.add(
            content=words(rng),
            title=rng.choice(["", words(rng)]),
            group=rng.choice(GROUPS),
            tags=rng.sample(TAGS, rng.randint(0, 2)),
            persona_id=pid if n % 4 == 0 else None,
        )
    store.close()


def run(steps: int, seed: int) -> dict:
    from memdesk.gui.main import App, application

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="memdesk-undo-bench-"))
    db = folder / "memdesk.db"
    seed_store(db, rng)
    application()
    asker = make_asker(rng)
    app = App(ask=asker, maintenance_delay_ms=10**9)
    if not app.open(db, create=True):
        raise SystemExit("could not open the bench store")
    window = app.window
    window.show()
    driver = Driver(window, asker, rng, folder)
    session, stack = window.session, window.session.undo_stack
    stack.setUndoLimit(0) if steps > stack.undoLimit() else None  # keep every step (only possible while empty)
    errors: list[str] = []
    session.error_raised.connect(errors.append)
    driver.settle()
    started = time.monotonic()
    states = [visible_state(session.store)]
    attempts = 0
    kinds: dict[str, int] = {}
    while stack.count() < steps:
        attempts += 1
        if attempts > steps * 20:
            raise SystemExit(f"only {stack.count()} of {steps} operations reached the undo stack")
        before = stack.count()
        errors_before = len(errors)
        operation = rng.choice(driver.operations())
        operation()
        driver.settle()
        del errors[errors_before:]  # a refused operation (a taken persona name) is no step: not counted
        if stack.count() > before:
            states.append(visible_state(session.store))
            kinds[operation.__name__] = kinds.get(operation.__name__, 0) + 1
    operation_errors = list(errors)

    undone_exact = 0
    for k in range(1, steps + 1):
        window.acts.undo.trigger()
        driver.settle()
        undone_exact += visible_state(session.store) == states[steps - k]
    emptied = not stack.canUndo()
    redone_exact = 0
    for k in range(1, steps + 1):
        window.acts.redo.trigger()
        driver.settle()
        redone_exact += visible_state(session.store) == states[k]
    elapsed = time.monotonic() - started
    result = {"steps": steps, "undone_exact": undone_exact, "redone_exact": redone_exact}
    extra = {
        "errors_shown": errors[len(operation_errors) :],
        "undo_stack_empty_after_undo_all": emptied,
        "redo_left_after_redo_all": stack.canRedo(),
        "operations": dict(sorted(kinds.items())),
        "seconds": round(elapsed, 1),
        "unexpected_errors": [repr(e) for e in session.unexpected_errors],
    }
    window.editor._dirty = False
    window.close()
    app.shutdown()
    return result, extra


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only the result line as JSON")
    args = parser.parse_args()
    result, extra = run(args.steps, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result))
        print(json.dumps(extra, ensure_ascii=False, indent=2))
    ok = (
        result["undone_exact"] == result["redone_exact"] == args.steps
        and not extra["errors_shown"]
        and extra["undo_stack_empty_after_undo_all"]
        and not extra["unexpected_errors"]
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
