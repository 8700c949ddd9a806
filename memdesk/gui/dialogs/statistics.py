"""Tools → Statistics: the store in pictures (pyqtgraph), from one core call.

The figures come from ``memdesk.core.views.stats.overview`` (the same dict
`memdesk stats --json` prints), computed on the task manager's work lane.
Each bar that names a set of memories carries its search text; a click on
it puts that text in the search bar, so the browser lists those memories.
Counts are whole numbers, so their axis only has whole-number ticks; the heat
histogram names the edges of its bins (0 10 20 … 100), not each bin, so the
labels never run together; the legend and the hint sit above the charts; and
the dialog is never larger than the window it belongs to.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import labels

COLOURS = {"manual": "#4a7fd0", "ai": "#e0883a", "import": "#5aa469"}
BAR = "#4a7fd0"


def count_step(top: float) -> int:
    """A whole-number tick step giving at most about five ticks up to ``top`` (1, 2, 5, 10, 20, 50…)."""
    step = 1
    while top / step > 5:
        for factor in (2, 2.5, 2):  # 1 → 2 → 5 → 10 → 20 → 50 …
            step = int(step * factor)
            if top / step <= 5:
                break
    return step


class BarChart(pg.PlotWidget):
    """Bars with names; ``bar_clicked(index)`` when one is clicked."""

    bar_clicked = Signal(int)

    def __init__(self, title: str, *, horizontal: bool = False, parent=None):
        super().__init__(parent, background="w")
        self.horizontal = horizontal
        self.counts: list[float] = []
        self.setTitle(title, color="#333", size="10pt")
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.setMinimumHeight(190)
        self.getPlotItem().showGrid(x=horizontal, y=not horizontal, alpha=0.2)
        self.scene().sigMouseClicked.connect(self._clicked)

    def set_bars(self, names: list[str], counts: list[float], *, stacks=None, edges=None) -> None:
        """One bar per name; ``stacks`` [(counts, colour), ...] draws stacked bars instead;
        ``edges`` (len(names) + 1 labels) names the bars' boundaries instead of the bars."""
        self.clear()
        self.counts = list(counts)
        positions = list(range(len(names)))
        layers = stacks or [(counts, BAR)]
        base = [0.0] * len(names)
        for values, colour in layers:
            if self.horizontal:
                item = pg.BarGraphItem(x0=base, y=positions, width=values, height=0.7, brush=colour, pen=None)
            else:
                item = pg.BarGraphItem(x=positions, y0=base, height=values, width=0.7, brush=colour, pen=None)
            self.addItem(item)
            base = [b + v for b, v in zip(base, values)]
        self.counts = base
        axis = self.getAxis("left" if self.horizontal else "bottom")
        if edges is not None:
            axis.setTicks([[(i - 0.5, edge) for i, edge in enumerate(edges)]])
        else:
            step = max(1, len(names) // 13) if not self.horizontal else 1
            axis.setTicks([[(i, n if len(n) <= 14 else n[:13] + "…") for i, n in enumerate(names) if i % step == 0]])
        top = max(base, default=0) or 1
        count_axis = self.getAxis("bottom" if self.horizontal else "left")
        count_axis.setTickSpacing(count_step(top), count_step(top))
        if self.horizontal:
            self.setXRange(0, top * 1.05, padding=0)
            self.setYRange(-0.6, max(len(names), 1) - 0.4, padding=0)
            self.getViewBox().invertY(True)
            # a line of text per name: the labels never overlap (the dialog scrolls)
            self.setMinimumHeight(max(190, self.fontMetrics().lineSpacing() * len(names) + 70))
        else:
            self.setYRange(0, top * 1.1, padding=0)
            margin = 1.0 if edges is not None else 0.6  # room for the first and last edge's label
            self.setXRange(-margin, max(len(names), 1) - 1 + margin, padding=0)

    def bar_at(self, view: QPointF) -> int | None:
        along, value = (view.y(), view.x()) if self.horizontal else (view.x(), view.y())
        index = round(along)
        if 0 <= index < len(self.counts) and abs(along - index) <= 0.4 and 0 <= value <= max(self.counts[index], 0):
            return index
        return None

    def bar_centre(self, index: int) -> QPointF:
        """Where bar ``index`` is on this widget (tests click there)."""
        half = self.counts[index] / 2
        view = QPointF(half, index) if self.horizontal else QPointF(index, half)
        scene = self.getViewBox().mapViewToScene(view)
        return self.mapFromScene(scene)

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        view = self.getViewBox().mapSceneToView(event.scenePos())
        index = self.bar_at(view)
        if index is not None:
            self.bar_clicked.emit(index)


class StatisticsDialog(QDialog):
    """Charts of the store; ``query_requested(text)`` when a bar is clicked."""

    query_requested = Signal(str)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.setObjectName("statisticsDialog")
        self.session = session
        self.stats: dict | None = None
        self.setWindowTitle(self.tr("Statistics"))
        self.summary = QLabel(self.tr("Counting…"), self)
        self.summary.setObjectName("statsSummary")
        self.summary.setWordWrap(True)
        self._build_state_buttons()
        body = QWidget(self)
        body.setLayout(self._build_charts())
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        refresh = buttons.addButton(self.tr("Refresh"), QDialogButtonBox.ButtonRole.ActionRole)
        refresh.clicked.connect(self.refresh)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(self.states_row)
        layout.addLayout(self._build_key())
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        self.fit_to(parent)

    def fit_to(self, parent) -> None:
        """1100×820 at most, and never larger than the window it opens over."""
        width, height = 1100, 820
        if parent is not None:
            width = min(width, parent.width() - 40)
            height = min(height, parent.height() - 40)
        self.resize(max(width, 480), max(height, 360))

    def _build_state_buttons(self) -> None:
        """In the trash / expired / superseded: counts that list those memories when clicked."""
        self.states_row = QHBoxLayout()
        self.state_buttons: dict[str, QPushButton] = {}
        for key in ("deleted", "expired", "superseded"):
            button = QPushButton(self)
            button.setObjectName(f"state_{key}")
            button.setFlat(True)
            button.clicked.connect(lambda _=False, k=key: self._state_clicked(k))
            self.state_buttons[key] = button
            self.states_row.addWidget(button)
        self.states_row.addStretch(1)

    def _build_charts(self) -> QGridLayout:
        """The charts in a grid, the weekly one across the top; legend and hint in the last row."""
        self.charts = {
            "persona": BarChart(self.tr("By persona"), horizontal=True),
            "group": BarChart(self.tr("Largest groups"), horizontal=True),
            "tag": BarChart(self.tr("Top tags"), horizontal=True),
            "type": BarChart(self.tr("By type")),
            "scope": BarChart(self.tr("By scope")),  # 按范围, the editor's word
            "tier": BarChart(self.tr("By tier")),
            "heat": BarChart(self.tr("Heat")),
            "weekly": BarChart(self.tr("Added per week (last year): manual, assistant, import")),
        }
        for name, chart in self.charts.items():
            chart.setObjectName(f"chart_{name}")
            chart.bar_clicked.connect(lambda index, n=name: self.bar_clicked(n, index))
        self.charts["weekly"].setMaximumHeight(240)
        grid = QGridLayout()
        grid.addWidget(self.charts["weekly"], 0, 0, 1, 3)
        grid.addWidget(self.charts["persona"], 1, 0)
        grid.addWidget(self.charts["group"], 1, 1)
        grid.addWidget(self.charts["tag"], 1, 2)
        grid.addWidget(self.charts["type"], 2, 0)
        grid.addWidget(self.charts["tier"], 2, 1)
        grid.addWidget(self.charts["heat"], 2, 2)
        grid.addWidget(self.charts["scope"], 3, 0)
        return grid

    def _build_key(self) -> QHBoxLayout:
        """What the colours mean and what a click does, above the charts where they are seen."""
        legend = QLabel(
            "  ".join(
                f'<span style="color:{COLOURS[k]}">■</span> {text}'
                for k, text in (
                    ("manual", self.tr("manual")),
                    ("ai", self.tr("assistant")),
                    ("import", self.tr("import")),
                )
            ),
            self,
        )
        legend.setObjectName("statsLegend")
        hint = QLabel(
            self.tr(
                "Charts count memories in use (not in the trash, expired or superseded). "
                "Click a bar to list those memories."
            ),
            self,
        )
        hint.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(hint, 1)
        row.addWidget(legend)
        return row

    # ---- figures ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        from memdesk.core.views.stats import overview

        store = self.session.store
        self.session.taskman.run(
            lambda cancel, progress: overview(store),
            label=self.tr("Counting"),
            lane="work",
            visible=False,
            on_done=self.show_stats,
            on_failed=self.session.report,
        )

    def show_stats(self, stats: dict) -> None:
        self.stats = stats
        c = stats["charts"]
        self.summary.setText(
            self.tr("{active} memories in use · {total} in the store · {personas} personas · {groups} groups").format(
                active=stats["active"], total=stats["total"], personas=stats["personas"], groups=c["groups_total"]
            )
        )
        state_names = labels.states()
        for bar in c["states"]:
            self.state_buttons[bar["key"]].setText(f"{state_names[bar['key']]}: {bar['count']}")
        names = {"type": labels.types(), "scope": labels.scopes(), "tier": labels.tiers()}
        for name in ("persona", "group", "tag", "type", "scope", "tier"):
            bars = c[name]
            shown = [
                names[name].get(b["label"], b["label"])
                if name in names
                else (self.tr("Global") if b["key"] is None and name == "persona" else b["label"])
                for b in bars
            ]
            self.charts[name].set_bars(shown, [b["count"] for b in bars])
        heat = c["heat"]
        edges = heat["edges"]
        self.charts["heat"].set_bars(
            [f"{edges[i]:g}–{edges[i + 1]:g}" for i in range(len(edges) - 1)],
            heat["counts"],
            edges=[f"{edge:g}" for edge in edges],
        )
        weekly = c["weekly"]
        self.charts["weekly"].set_bars(
            [w[5:] for w in weekly["weeks"]],
            [0] * len(weekly["weeks"]),
            stacks=[(weekly[s], COLOURS[s]) for s in ("manual", "ai", "import")],
        )

    # ---- clicks ----------------------------------------------------------------------------------
    def query_of(self, chart: str, index: int) -> str | None:
        if self.stats is None:
            return None
        c = self.stats["charts"]
        if chart == "weekly":
            return c["weekly"]["queries"][index]
        if chart == "heat":
            return None  # the search language has no heat filter
        return c[chart][index]["query"]

    def bar_clicked(self, chart: str, index: int) -> None:
        query = self.query_of(chart, index)
        if query:
            self.query_requested.emit(query)

    def _state_clicked(self, key: str) -> None:
        self.query_requested.emit(f"is:{key}")
