"""The memory table (Anki's Browse window): a virtual model over the rows of the window's
column store (core/views/brief_table.py), in display order as one numpy array.

Nothing is made per row until the view paints it: a row is a number into the
BriefTable's columns, and the snippets of the rows on screen are read from the
store a block at a time. Sorting is one stable numpy argsort on a key array per
column (table_keys.py: titles, content, groups and personas by pinyin). Search results
are the hits' rows in rank order, a page at a time as the view scrolls (canFetchMore /
fetchMore ask the BrowserPane for the next page); sorted by a column, a search lists
every match: the search lane hands over all their rows at once, without their records
(all_wanted -> add_matches), and the hits of the rows on screen come a block at a time
(hits_wanted -> add_hits), for the why-found column and the marks.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from memdesk.core.search.language import collation
from memdesk.core.views.brief_table import GONE, STATES, BriefTable
from memdesk.core.views.listing import contents
from memdesk.gui import labels

from .hit_marks import hit_marks
from .marked_text import RUNS_ROLE, runs, snippet
from .table_keys import ColumnKeys
from .tree_model import MIME_IDS, mime_for_ids

COLUMNS = ("title", "snippet", "found", "group", "persona", "type", "importance", "updated", "heat")
# Why a hit was found is worked out for the rows on screen only, and is a few words of
# several kinds at once: Anki's browser, too, leaves such columns unsorted and says so.
UNSORTABLE = frozenset({"found"})
DEFAULT_HIDDEN = frozenset({"heat"})
ID_ROLE = Qt.ItemDataRole.UserRole + 1
SNIPPET_BLOCK = 100
HIT_BLOCKS_KEPT = 4  # blocks of hits fetched of those asked for last (a screen spans two)
SNIPPET_CHARS = 80
_ACTIVE, _DELETED = STATES.index("active"), STATES.index("deleted")
_DIM = QColor("#8a8a8a")
_DISPLAY, _TOOLTIP, _ALIGN, _FOREGROUND = (
    int(role.value)
    for role in (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ForegroundRole,
    )
)
_ROLES = frozenset({_DISPLAY, _TOOLTIP, _ALIGN, _FOREGROUND, int(ID_ROLE), int(RUNS_ROLE)})
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled


class MemoryTableModel(QAbstractTableModel):
    snippets_wanted = Signal(list)  # ids whose contents a cell on screen needs (add_snippets)
    more_wanted = Signal(int, int)  # search: more hits, from this position, this many (0: a page)
    all_wanted = Signal()  # search: every match's row (add_matches), for a sort of all of them
    hits_wanted = Signal(list)  # search: the hits of these ids, rows on screen (add_hits)
    content_keys_wanted = Signal()  # the content column's sort keys (set_content_ranks)

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.store = store
        self.table = BriefTable().seal()
        self.rows = np.zeros(0, dtype=np.int32)
        self.persona_names: dict[str, str] = {}
        self.outcome = None  # the search shown, or None when browsing
        self.hits: dict[str, object] = {}  # id -> Hit of the pages fetched
        self.total = 0  # matches of the search (all pages)
        self.fetching = False
        self.complete = False  # every match's row is in (add_matches)
        self.sort_column = 0  # -1: rank order (a search before a header click)
        self.descending = False
        self._snippets: dict[str, str] = {}
        self._asked: set[str] = set()  # snippets on their way
        self._hits_asked: set[str] = set()  # and hits (hits_wanted)
        self.hit_blocks: tuple[str, ...] = ()  # the first id of the last blocks asked (hits_still_wanted)
        self._brief: tuple | None = None  # (row, table, Brief) of the row painted last
        self.keys = ColumnKeys(store, self._text_of, self.content_keys_wanted.emit)
        self._sorting = False

    # ---- what is shown ---------------------------------------------------------------------------
    def set_table(self, table: BriefTable, title_ranks=None) -> None:
        self.table = table
        self.keys.reset(title_ranks)
        self._snippets.clear()

    def set_title_ranks(self, table: BriefTable, ranks) -> None:
        """Keys worked out on the work lane (title_ranks); dropped when the table changed since."""
        if table is self.table:
            self.keys.titles.set(ranks)
            if self.sort_column == COLUMNS.index("title"):
                self.resort()

    def set_content_ranks(self, table: BriefTable, ranks) -> None:
        """The content column's keys (table_keys.content_ranks, on the work lane)."""
        if table is self.table:
            self.keys.set_contents(ranks)
            if self.sort_column == COLUMNS.index("snippet") and not self._sorting:
                self.resort()

    def show_rows(self, rows: np.ndarray) -> None:
        self.beginResetModel()
        self.outcome, self.hits, self.total, self.fetching, self.complete = None, {}, 0, False, False
        self._hits_asked.clear()
        self._brief = None
        self.rows = self._sorted(rows)
        self.endResetModel()

    def show_outcome(self, outcome) -> None:
        self.beginResetModel()
        self.outcome, self.fetching, self.complete, self._brief = outcome, False, False, None
        self._hits_asked.clear()
        self.hits = {h.id: h for h in outcome.hits}
        self.total = max(outcome.total, len(outcome.hits))
        self.rows = self._rows_of_hits(outcome.hits)
        if self.sort_column >= 0:
            self.rows = self._sorted(self.rows)
        self.endResetModel()

    def add_page(self, outcome) -> None:
        """The next page of the search being shown (appended; a hit already shown is skipped)."""
        self.fetching = False
        if self.outcome is None or outcome.query != self.outcome.query:
            return
        if self.complete:  # every match's row is in already: these are hits for them
            self.add_hits(outcome.hits)
            return
        fresh = [h for h in outcome.hits if h.id not in self.hits]
        if not fresh:
            self.total = self.loaded  # the engine has no more than this after all
            return
        self.hits.update((h.id, h) for h in fresh)
        rows = self._rows_of_hits(fresh)
        if not len(rows):
            return
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(rows) - 1)
        self.rows = np.concatenate([self.rows, rows])
        self.endInsertRows()
        if self.sort_column >= 0:
            self.resort()  # the current row and the selection move with their memories

    def _rows_of_hits(self, hits) -> np.ndarray:
        found = (self.table.row(h.id) for h in hits)
        return np.array([r for r in found if r is not None], dtype=np.int32)

    @property
    def loaded(self) -> int:
        return len(self.rows)

    @property
    def searching(self) -> bool:
        return self.outcome is not None

    def forget(self, ids) -> None:
        self._brief = None
        for memory_id in ids:
            self._snippets.pop(memory_id, None)
            self._asked.discard(memory_id)

    # ---- paging -----------------------------------------------------------------------------------
    def canFetchMore(self, parent=QModelIndex()):
        searching = self.searching and not self.complete
        return not parent.isValid() and searching and not self.fetching and len(self.hits) < self.total

    def fetchMore(self, parent=QModelIndex()):
        if self.canFetchMore(parent):
            self.fetching = True
            self.more_wanted.emit(len(self.hits), 0)

    def fetch_all(self) -> bool:
        """Ask for every match's row (a sort is of all of them); False when they are all in."""
        if not self.searching or self.complete or self.total <= len(self.hits):
            return False
        self.fetching = True
        self.all_wanted.emit()
        return True

    def add_matches(self, table: BriefTable, rows: np.ndarray) -> None:
        """Every match's row (the search lane's, of this table: BriefTable.rows_of), in rank
        order: those not shown yet join, and the rows are sorted again."""
        self.fetching = False
        if table is not self.table or not self.searching:
            return
        rows = rows[table.column("state")[rows] != GONE] if len(rows) else rows
        fresh = rows[~np.isin(rows, self.rows)]
        self.complete, self.total = True, len(self.rows) + len(fresh)
        if len(fresh):
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(fresh) - 1)
            self.rows = np.concatenate([self.rows, fresh]).astype(np.int32)
            self.endInsertRows()
        if self.sort_column >= 0:
            self.resort()

    def add_hits(self, hits) -> None:
        """Hits for rows already shown (asked by hits_wanted): their why-found and marks."""
        for hit in hits:
            self.hits[hit.id] = hit
            self._hits_asked.discard(hit.id)
        if len(self.rows):
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1))

    def _want_hit(self, row: int) -> None:
        """A row on screen without its hit (a sort of every match): its block's hits are asked."""
        memory_id = self.table.memory_id(row)
        if memory_id not in self._hits_asked:
            ids = self._block(memory_id, lambda i: i in self.hits or i in self._hits_asked)
            self._hits_asked.update(ids)
            self.hit_blocks = (*self.hit_blocks[-(HIT_BLOCKS_KEPT - 1) :], ids[0])  # (a new tuple: lanes read it)
            self.hits_wanted.emit(ids)

    def hits_still_wanted(self, ids: list[str]) -> bool:
        """Whether a block of hits asked for is among the last few (any thread may ask): a drag
        down 50k rows asks for a block at each paint, each a ranking of every match."""
        return bool(ids) and ids[0] in self.hit_blocks

    def hits_dropped(self, ids: list[str]) -> None:
        """A block of hits not fetched after all (scrolled past): asked again if shown again."""
        self._hits_asked.difference_update(ids)

    def _block(self, memory_id: str, done) -> list[str]:
        """The ids of the block of rows around this memory's (those on screen) not yet ``done``."""
        at = self.row_of(memory_id)
        start = max(0, at - at % SNIPPET_BLOCK)
        ids = [self.memory_id(r) for r in range(start, min(len(self.rows), start + SNIPPET_BLOCK))]
        return [i for i in ids if not done(i)] or [memory_id]

    # ---- sorting ----------------------------------------------------------------------------------
    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS) or COLUMNS[column] in UNSORTABLE:
            return
        self.sort_column, self.descending = column, order == Qt.SortOrder.DescendingOrder
        self.resort()

    def resort(self) -> None:
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        ids = [self.memory_id(i.row()) for i in persistent]
        self.rows = self._sorted(self.rows)
        self.changePersistentIndexList(persistent, [self.index_of(i, p.column()) for i, p in zip(ids, persistent)])
        self.layoutChanged.emit()

    def _sorted(self, rows: np.ndarray) -> np.ndarray:
        if self.sort_column < 0 or not len(rows):
            return rows
        self._sorting = True  # keys given while asked for (set_content_ranks) need no sort of their own
        try:
            keys = self.sort_keys(COLUMNS[self.sort_column], rows)
        finally:
            self._sorting = False
        return rows[collation.order(keys, descending=self.descending)]

    def sort_keys(self, name: str, rows: np.ndarray) -> np.ndarray:
        """One number per row whose order is the column's order."""
        return self.keys.of(name, self.table, rows)

    def _text_of(self, name: str, value) -> str:
        if name == "persona":
            return self.persona_name(value)
        if name == "type":
            return labels.label("type", value)
        return value or ""

    def retitled(self, ids) -> None:
        """These memories may have changed: their title and content keys are worked out again."""
        self.keys.stale([self.table.row(memory_id, gone=True) for memory_id in ids])

    # ---- Qt's model -------------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(COLUMNS)

    def memory_id(self, row: int) -> str:
        return self.table.memory_id(int(self.rows[row]))

    def row_of(self, memory_id: str | None) -> int:
        row = self.table.row(memory_id) if memory_id else None
        if row is None:
            return -1
        at = np.flatnonzero(self.rows == row)
        return int(at[0]) if len(at) else -1

    def index_of(self, memory_id: str, column: int = 0) -> QModelIndex:
        row = self.row_of(memory_id)
        return self.index(row, column) if row >= 0 else QModelIndex()

    def hit(self, row: int):
        return self.hits.get(self.memory_id(row)) if 0 <= row < len(self.rows) else None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] in UNSORTABLE:
            return self.tr("Cannot be sorted: why a memory was found is worked out for the rows on screen only")
        return self.column_title(COLUMNS[section]) if role == Qt.ItemDataRole.DisplayRole else None

    def column_title(self, name: str) -> str:
        return {
            "title": self.tr("Title"),
            "snippet": self.tr("Content"),
            "group": self.tr("Group"),
            "persona": self.tr("Persona"),
            "type": self.tr("Type"),
            "importance": self.tr("Importance"),
            "updated": self.tr("Updated"),
            "heat": self.tr("Heat"),
            "found": self.tr("Found by"),
        }[name]

    def data(self, index, role=_DISPLAY):
        # Called for every role of every cell a paint touches (~1,000 calls a page): the roles
        # not answered return first, and one row's brief serves all its cells.
        if role not in _ROLES:
            return None
        at = index.row()
        if not 0 <= at < len(self.rows):
            return None
        row = int(self.rows[at])
        name = COLUMNS[index.column()]
        if role == _DISPLAY:
            return self._display(row, name)
        if role == ID_ROLE:
            return self.table.memory_id(row)
        if role == RUNS_ROLE:
            return self._marked(row, name) if self.outcome is not None and name in ("title", "snippet") else None
        if role == _TOOLTIP:
            return (self._display(row, name) or None) if name in ("title", "snippet", "found") else None
        if role == _ALIGN:
            return _RIGHT if name in ("importance", "heat") else None
        if name != "found" and self.table.state_code(row) != _ACTIVE:  # ForegroundRole
            return _DIM  # in the trash, expired or superseded
        return None

    def _marked(self, row: int, name: str):
        """The cell's text cut into runs with the search's words marked; None: nothing to mark."""
        hit = self.hits.get(self.table.memory_id(row))
        if hit is None:
            if self.complete:  # (the why-found column may be hidden: the marks ask too)
                self._want_hit(row)
            return None
        terms = (*hit.terms, *self.outcome.terms)
        if name == "title":
            pieces = runs(self.table.title(row), terms)
        elif hit.record is not None:
            content, title = hit.record.content, hit.record.title
            if not title:  # untitled: the title column shows the content's start already
                shown = self.table.title(row).rstrip("…")
                content = content[len(shown) :] if content.startswith(shown) else content
            pieces = snippet(content, terms, SNIPPET_CHARS) if content.strip() else [("", False)]
        else:
            pieces = runs(self._snippet(row), terms)
        return pieces if any(marked for _, marked in pieces) else None

    def _display(self, row: int, name: str):
        table = self.table
        if name == "title":
            return table.title(row) or self.tr("(untitled)")
        if name == "snippet":
            marked = self._marked(row, name) if self.outcome is not None else None
            return "".join(piece for piece, _ in marked) if marked else self._snippet(row)
        if name == "found":
            hit = self.hits.get(table.memory_id(row))
            if hit is None and self.complete:
                self._want_hit(row)
            return hit_marks(hit, table.brief(row)) if hit is not None else ""
        cached = self._brief
        if cached is None or cached[0] != row or cached[1] is not table:
            cached = self._brief = (row, table, table.brief(row))
        brief = cached[2]
        if name == "group":
            return brief.group or self.tr("(no group)")
        if name == "persona":
            return self.persona_name(brief.persona_id)
        if name == "type":
            return labels.label("type", brief.type)
        if name == "importance":
            return str(brief.importance)
        if name == "updated":
            return datetime.fromtimestamp(brief.updated).strftime("%Y-%m-%d %H:%M") if brief.updated else ""
        return str(round(brief.heat))

    def persona_name(self, persona_id) -> str:
        if not persona_id:
            return self.tr("Global")
        return self.persona_names.get(persona_id, persona_id[:8])

    def _snippet(self, row: int) -> str:
        """The content after what the title shows, once read: a cell on screen asks for its
        block, read on a worker (snippets_wanted -> add_snippets). Read here, a block of
        contents not in the page cache held the UI thread on the disk: 100-160 ms at 100k."""
        memory_id = self.table.memory_id(row)
        text = self._snippets.get(memory_id)
        if text is None and memory_id not in self._asked:
            ids = self._block(memory_id, lambda i: i in self._snippets or i in self._asked)
            self._asked.update(ids)
            self.snippets_wanted.emit(ids)
        return text or ""

    def read_snippets(self, ids) -> None:
        """Read the snippets of ``ids`` now (a model without a worker to ask: tests)."""
        self.add_snippets(contents(self.store, ids), ids)

    def add_snippets(self, found: dict, ids) -> None:
        """Contents read for ``ids`` (id -> (title, content)): their cells repaint."""
        if len(self._snippets) > 20 * SNIPPET_BLOCK:
            self._snippets.clear()
        for memory_id in ids:
            self._asked.discard(memory_id)
            line = " ".join(found.get(memory_id, ("", ""))[1].split())
            at = self.table.row(memory_id, gone=True)
            title = self.table.title(at).rstrip("…") if at is not None else ""
            if title and line.startswith(title):  # an untitled memory: its title is the content's start
                line = line[len(title) :].lstrip()
            self._snippets[memory_id] = line[:SNIPPET_CHARS] + ("…" if len(line) > SNIPPET_CHARS else "")
        if len(self.rows):
            column = COLUMNS.index("snippet")
            self.dataChanged.emit(self.index(0, column), self.index(len(self.rows) - 1, column))

    def flags(self, index):
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def mimeData(self, indexes):
        return mime_for_ids(list(dict.fromkeys(self.memory_id(i.row()) for i in indexes if i.isValid())))

    def mimeTypes(self):
        return [MIME_IDS]

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction
