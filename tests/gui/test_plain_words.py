"""Statistics, assistant activity, review, import preview and the model tab in plain words (issue 37, item 7)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSettings

from memdesk.core.store import Store


def use_language(language: str) -> None:
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )


def in_sight(widget, top) -> bool:
    """Shown and wholly inside ``top`` (not below a fold that needs scrolling)."""
    if not widget.isVisibleTo(top):
        return False
    corner = widget.mapTo(top, QPoint(0, 0))
    return top.rect().contains(QRect(corner, widget.size()))


# ---- statistics ----------------------------------------------------------------------------------------
def open_stats(window, qtbot):
    window.acts.statistics.trigger()
    dialog = window.statistics_dialog
    qtbot.waitUntil(lambda: dialog.stats is not None, timeout=10000)
    qtbot.waitExposed(dialog)
    return dialog


def tick_labels(axis) -> list[str]:
    return [text for level in axis._tickLevels for _value, text in level]


def drawn_ticks(axis, low: float, high: float) -> list[float]:
    return [v for _spacing, values in axis.tickValues(low, high, 300) for v in values if low <= v <= high]


def test_statistics_read_plainly_and_fit_the_window(launch, db_path, qtbot):
    store = Store.open(db_path)
    store.create_persona(name="工作助手")
    store.add_many([{"content": f"记忆 {i}", "title": f"记忆 {i}", "tags": ["咖啡"]} for i in range(3)])
    store.close()
    use_language("zh_CN")
    window = launch(db_path)
    window.resize(900, 640)
    dialog = open_stats(window, qtbot)
    assert dialog.width() <= window.width() and dialog.height() <= window.height()

    heat = dialog.charts["heat"]
    labels = tick_labels(heat.getAxis("bottom"))
    assert labels == ["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]  # the edges, each alone
    for name, axis_name in (("type", "left"), ("scope", "left"), ("heat", "left"), ("tag", "bottom")):
        chart = dialog.charts[name]
        top = max(chart.counts)
        ticks = drawn_ticks(chart.getAxis(axis_name), 0, top * 1.1)
        assert ticks and all(float(t).is_integer() for t in ticks), (name, ticks)  # 3 memories: no 0.5 or 1.5
    assert dialog.charts["scope"].getPlotItem().titleLabel.text == "按范围"  # the editor's 范围

    legend = dialog.findChild(type(dialog.summary), "statsLegend")
    assert "手动" in legend.text() and "助手" in legend.text() and "导入" in legend.text()
    assert in_sight(legend, dialog)  # above the charts, not below the fold
    dialog.reject()
