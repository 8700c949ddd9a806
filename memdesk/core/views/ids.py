"""Memory ids as people type them: a full id, or a unique prefix of one (`memdesk list` shows 8 characters).

resolve_memory_id is read-only: one query on the memory table's primary key. It lives
outside the Store on purpose (the Store's facade is being reworked separately); it points
the shared model proxy at the store first, as io and maintenance do.
"""

from __future__ import annotations

from peewee import fn

from memdesk.core.domain.error_codes import english
from memdesk.core.domain.errors import MemDeskError, NotFoundError
from memdesk.core.domain.records import MIN_ID_PREFIX as MIN_PREFIX
from memdesk.core.domain.records import MemoryRecord
from memdesk.core.storage.convert import memory_record
from memdesk.core.storage.models import Memory

SHOWN_CANDIDATES = 10
WHERE = ("any", "live", "trash")  # every memory; those not in the trash; those in the trash


class AmbiguousIdError(MemDeskError):
    """A prefix matches more than one memory (or proposal, persona…); ``candidates`` holds (up
    to 10 of) them, ``describe`` says each in a line."""

    def __init__(self, prefix: str, candidates: list, total: int, *, kind: str = "memories", describe=None):
        self.prefix, self.candidates, self.total, self.kind = prefix, candidates, total, kind
        params = {"prefix": prefix, "total": total, "kind": kind}
        lines = [english("ambiguous_id", params)]
        lines += [f"  {(describe or _candidate)(m)}" for m in candidates]
        if total > len(candidates):
            lines.append(f"  … and {total - len(candidates)} more")
        super().__init__("\n".join(lines), code="ambiguous_id", **params)


def resolve_prefix(text: str, known: dict[str, str], *, kind: str) -> str | None:
    """The id among ``known`` (id → a line naming it) that ``text`` is, or is the unique prefix of
    (4+ characters). None when none fits; AmbiguousIdError when several do. For ids that are not
    memories' (merge proposals, personas); memories have resolve_memory_id, one indexed query."""
    typed = (text or "").strip()
    if typed in known:
        return typed
    if len(typed) < MIN_PREFIX:
        return None
    fits = sorted(i for i in known if i.startswith(typed))
    if len(fits) > 1:
        shown = fits[:SHOWN_CANDIDATES]
        raise AmbiguousIdError(typed, shown, len(fits), kind=kind, describe=lambda i: f"{i}  {known[i]}".rstrip())
    return fits[0] if fits else None


def _candidate(m: MemoryRecord) -> str:
    title = " ".join(m.display_title.split())
    title = title if len(title) <= 40 else title[:39] + "…"
    state = "  (in the trash)" if m.is_deleted else "  (superseded)" if m.is_superseded else ""
    return f"{m.id}  {title}{state}"


def _in(where: str):
    if where == "trash":
        return Memory.deleted_at.is_null(False)
    if where == "live":
        return Memory.deleted_at.is_null()
    return None


def resolve_memory_id(store, text: str, *, where: str = "any") -> str:
    """The full id of the memory ``text`` names: the id itself, or a unique prefix of at least 4 characters.

    ``where`` limits which memories a prefix may match: "trash" for commands that act on the trash
    (restore, purge), "live" for those that act on memories not in it (delete), "any" otherwise.
    A full id is returned as is whatever its state, so the command says what it makes of it.
    Raises NotFoundError (unknown, or too short) or AmbiguousIdError (lists the candidates).
    """
    if where not in WHERE:
        raise ValueError(f"where must be one of {WHERE}, not {where!r}")
    typed = (text or "").strip()
    if not typed:
        raise NotFoundError(code="no_id_given")
    store.bind()
    if Memory.select(Memory.id).where(Memory.id == typed).exists():
        return typed
    if len(typed) < MIN_PREFIX:
        raise NotFoundError(code="id_too_short", typed=typed, min=MIN_PREFIX)
    # The range lets SQLite walk the primary-key index; substr keeps the match exact
    # (LIKE would ignore case and treat % and _ as wildcards).
    starts = (Memory.id >= typed) & (Memory.id < typed + "\U0010ffff") & (fn.substr(Memory.id, 1, len(typed)) == typed)
    scope = _in(where)
    query = Memory.select().where(starts if scope is None else starts & scope).order_by(Memory.id)
    total = query.count()
    if total == 1:
        return query.get().id
    if total > 1:
        raise AmbiguousIdError(typed, [memory_record(r) for r in query.limit(SHOWN_CANDIDATES)], total)
    elsewhere = Memory.select().where(starts).order_by(Memory.id)
    count = elsewhere.count()
    if count == 1:  # it exists, just not where this command looks: say where it is
        code = "id_in_trash" if where == "live" else "id_not_in_trash"
        raise NotFoundError(code=code, typed=typed, id=elsewhere.get().id)
    if count > 1:
        code = "ids_only_in_trash" if where == "live" else "ids_not_in_trash"
        raise NotFoundError(code=code, n=count, typed=typed)
    raise NotFoundError(code="no_id_prefix", typed=typed)
