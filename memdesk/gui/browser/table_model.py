"""The memory table (Anki's Browse window): a virtual model over the rows of the window's
column store (core/views/brief_table.py), in display order as one numpy array.

Nothing is made per row until the view paints it: a row is a number into the
BriefTable's columns, and the snippets of the rows on screen are read from the
store a block at a time. Sorting is one stable numpy argsort on a key array per
column: numbers as they are; titles, groups and personas by their place in pinyin
order (core/search/language/collation.py), worked out per distinct text once (titles on the work
lane as the table loads, see TablePane.prepare_keys). Search results are the
hits' rows in rank order, fetched a page at a time as the view scrolls
(canFetchMore / fetchMore ask the BrowserPane for the next page).
"""

from __future__ import annotations

from bisect import bisect_left
from datetime import datetime

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from memdesk.core.search.language import collation
from memdesk.core.views.brief_table import STATES, BriefTable
from memdesk.core.views.listing import contents
from memdesk.gui import labels

from .hit_marks import hit_marks
from .marked_text import RUNS_ROLE, runs, snippet
from .tree_model import MIME_IDS, mime_for_ids

COLUMNS = ("title", "snippet", "found", "group", "persona", "type", "importance", "updated", "heat")
UNSORTABLE = frozenset({"snippet", "found"})  # the snippet is read from the store only for rows on screen
DEFAULT_HIDDEN = frozenset({"heat"})
ID_ROLE = Qt.ItemDataRole.UserRole + 1
SNIPPET_BLOCK = 100
SORT_ALL_MAX = 5_000  # a sorted search fetches every hit up to this many first
SYNC_KEYS = 10_000  # titles keyed at once on the UI thread (~60 ms); more wait for the work lane
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


def rows_of_place(table: BriefTable, place: tuple | None) -> np.ndarray:
    """The table's rows a tree node stands for: a group with its subgroups, a type, a tier or
    a tag (active memories), a state (the trash...), or every active memory."""
    state = table.column("state")
    kind, key = place if place else ("group", None)
    if kind == "state":
        return np.flatnonzero(state == STATES.index(key)).astype(np.int32)
    if kind == "section" and key == "inactive":
        return np.flatnonzero((state == STATES.index("expired")) | (state == STATES.index("superseded")))
    active = state == _ACTIVE
    if kind in ("group", "type", "tier", "tag") and key is not None:
        column = table.column("tags" if kind == "tag" else kind)
        codes = np.unique(column[active])
        wanted = [int(c) for c in codes if _matches(kind, key, table.value(int(c)))]
        active &= np.isin(column, np.array(wanted, dtype=column.dtype))
    return np.flatnonzero(active).astype(np.int32)


def _matches(kind: str, key, value) -> bool:
    if kind == "tag":
        return key in value
    if kind == "group" and key:
        return value == key or value.startswith(key + "/")
    return value == key


class MemoryTableModel(QAbstractTableModel):
    snippets_wanted = Signal(list)  # ids whose contents a cell on screen needs (add_snippets)
    more_wanted = Signal(int, int)  # search: more hits, from this position, this many (0: a page)

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
        self.sort_column = 0  # -1: rank order (a search before a header click)
        self.descending = False
        self._snippets: dict[str, str] = {}
        self._asked: set[str] = set()  # snippets on their way
        self._brief: tuple | None = None  # (row, table, Brief) of the row painted last
        self._title_keys: list[str] | None = None  # the distinct titles' pinyin keys, sorted
        self._title_ranks: np.ndarray | None = None  # per table row: its title's place in that order

    # ---- what is shown ---------------------------------------------------------------------------
    def set_table(self, table: BriefTable, title_ranks=None) -> None:
        self.table = table
        self._title_keys, self._title_ranks = title_ranks or (None, None)
        self._snippets.clear()

    def set_title_ranks(self, table: BriefTable, ranks) -> None:
        """Keys worked out on the work lane (title_ranks); dropped when the table changed since."""
        if table is self.table:
            self._title_keys, self._title_ranks = ranks
            if self.sort_column == COLUMNS.index("title"):
                self.resort()

    def show_rows(self, rows: np.ndarray) -> None:
        self.beginResetModel()
        self.outcome, self.hits, self.total, self.fetching = None, {}, 0, False
        self._brief = None
        self.rows = self._sorted(rows)
        self.endResetModel()

    def show_outcome(self, outcome) -> None:
        self.beginResetModel()
        self.outcome, self.fetching, self._brief = outcome, False, None
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
        return not parent.isValid() and self.searching and not self.fetching and len(self.hits) < self.total

    def fetchMore(self, parent=QModelIndex()):
        if self.canFetchMore(parent):
            self.fetching = True
            self.more_wanted.emit(len(self.hits), 0)

    def fetch_all(self) -> bool:
        """Every remaining hit, when there are not too many (a sort is of every match then);
        False when the sort stays with the rows fetched so far."""
        missing = self.total - len(self.hits)
        if not self.searching or missing <= 0 or self.total > SORT_ALL_MAX:
            return False
        self.fetching = True
        self.more_wanted.emit(len(self.hits), missing)
        return True

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
        keys = self.sort_keys(COLUMNS[self.sort_column], rows)
        return rows[collation.order(keys, descending=self.descending)]

    def sort_keys(self, name: str, rows: np.ndarray) -> np.ndarray:
        """One number per row whose order is the column's order."""
        table = self.table
        if name in ("importance", "updated", "heat"):
            return table.column(name)[rows]
        if name == "title":
            return self._title_rank(rows)
        column = table.column(name)[rows]
        codes = np.unique(column)
        texts = [self._text_of(name, table.value(int(c))) for c in codes]
        places = collation.rank_of(texts)
        lookup = np.zeros(int(codes.max()) + 1, dtype=np.int64)
        lookup[codes] = [places[t] for t in texts]
        return lookup[column]

    def _text_of(self, name: str, value) -> str:
        if name == "persona":
            return self.persona_name(value)
        if name == "type":
            return labels.label("type", value)
        return value or ""

    def _title_rank(self, rows: np.ndarray) -> np.ndarray:
        if self._title_ranks is None and self.table.size() <= SYNC_KEYS:
            self._title_keys, self._title_ranks = title_ranks(self.table)
        ranks, keys = self._title_ranks, self._title_keys
        if ranks is None or keys is None:  # the keys are on their way (set_title_ranks sorts again)
            return np.zeros(len(rows))
        if len(ranks) < self.table.size():
            ranks = self._title_ranks = np.concatenate([ranks, np.full(self.table.size() - len(ranks), np.nan)])
        stale = rows[np.isnan(ranks[rows])]
        for row in stale.tolist():  # rows added or retitled since: between their neighbours
            ranks[row] = bisect_left(keys, collation.sort_key(self.table.title(row))) - 0.5
        return ranks[rows]

    def retitled(self, ids) -> None:
        """These memories' titles may have changed: their sort keys are worked out again."""
        if self._title_ranks is None:
            return
        for memory_id in ids:
            row = self.table.row(memory_id, gone=True)
            if row is not None and row < len(self._title_ranks):
                self._title_ranks[row] = np.nan

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
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return self.column_title(COLUMNS[section]) if 0 <= section < len(COLUMNS) else None

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
            at = self.row_of(memory_id)
            start = max(0, at - at % SNIPPET_BLOCK)
            ids = [self.memory_id(r) for r in range(start, min(len(self.rows), start + SNIPPET_BLOCK))]
            ids = [i for i in ids if i not in self._snippets and i not in self._asked] or [memory_id]
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


def title_ranks(table: BriefTable) -> tuple[list[str], np.ndarray]:
    """(the distinct titles' pinyin keys in order, each row's title's place among them): the
    title column's sort keys, worked out once per table on the work lane."""
    titles = [table.title(row) for row in range(table.size())]
    keyed = {title: collation.sort_key(title) for title in set(titles)}
    ordered = sorted(keyed, key=keyed.__getitem__)
    places = {title: place for place, title in enumerate(ordered)}
    return [keyed[t] for t in ordered], np.array([places[t] for t in titles], dtype=np.float64)
