"""`memdesk search --why` words its answer like the window's "Why found" tab (the CLI cannot import Qt,
so cli/format.py repeats the panel's labels; this keeps the two in step)."""

from memdesk.cli.format import WHY_LABELS
from memdesk.gui.editor.explain import ExplainPanel


def test_cli_why_labels_are_the_windows(qtbot):
    panel = ExplainPanel()
    qtbot.addWidget(panel)
    names = panel._names()
    assert {key: names.get(key) for key in WHY_LABELS} == WHY_LABELS
