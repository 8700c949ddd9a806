"""The one change channel: every mutation returns a Changes value.

Views refresh from it (the GUI has a single changes_applied signal); ids are
plain strings so a Changes value can cross threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class Changes:
    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()  # moved to the trash
    restored: tuple[str, ...] = ()
    purged: tuple[str, ...] = ()  # gone for good
    personas: bool = False  # persona list or a persona's settings changed
    note: str = field(default="", compare=False)

    def __or__(self, other: Changes) -> Changes:
        merged = {}
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "personas":
                merged[f.name] = a or b
            elif f.name == "note":
                merged[f.name] = "; ".join(x for x in (a, b) if x)
            else:
                merged[f.name] = tuple(dict.fromkeys(a + b))
        return Changes(**merged)

    @property
    def memory_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.added + self.updated + self.deleted + self.restored + self.purged))

    def __bool__(self) -> bool:
        return bool(self.memory_ids) or self.personas


NO_CHANGES = Changes()
