"""Which local persona each persona of an import file goes to.

A file names personas by id (seed 000's ``personaId`` UUIDs, a MemDesk file's
persona objects). Ids this store knows are used as they are. For the others
the user chooses, once per source id: map to an existing persona, create one
with a name they type, or make those memories global. The choice is kept as
an alias (setting ``import.persona_aliases``: source id -> local persona id,
or None for global), so the next import of the same file maps by itself.

Without a choice an unknown id becomes a new persona with a readable name
("Imported persona 3f2a9c1e" / "导入的角色 3f2a9c1e"): never a bare UUID.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field

from memdesk.core.domain import validation as v
from memdesk.core.domain.errors import ValidationError
from memdesk.core.storage.models import Persona, Setting

ALIASES_KEY = "import.persona_aliases"
_ID_LIKE = re.compile(r"^[0-9a-fA-F]{8}(-?[0-9a-fA-F]{4}){3}-?[0-9a-fA-F]{12}$|^[0-9a-fA-F-]{16,}$")
_NAME_TEMPLATES = {"zh": "导入的角色 {short}", "en": "Imported persona {short}"}


def looks_like_id(text: str) -> bool:
    """A UUID or a long hex string: never a name for a person to read."""
    return bool(_ID_LIKE.match(text.strip()))


def readable_name(source_id: str, language: str = "en") -> str:
    """The name a persona made from an unknown id gets unless the user names it."""
    if not looks_like_id(source_id) and source_id.strip():
        return source_id.strip()[:100]  # already a name ("p-42", "工作助手")
    short = re.sub(r"[^0-9a-zA-Z]", "", source_id)[:8] or "?"
    return _NAME_TEMPLATES["zh" if language.startswith("zh") else "en"].format(short=short)


@dataclass(frozen=True)
class Choice:
    """What to do with one source persona id: 'map' (persona_id), 'create' (name) or 'global'."""

    action: str
    persona_id: str | None = None
    name: str = ""

    @classmethod
    def map_to(cls, persona_id: str) -> Choice:
        return cls("map", persona_id=persona_id)

    @classmethod
    def create(cls, name: str) -> Choice:
        return cls("create", name=name)

    @classmethod
    def make_global(cls) -> Choice:
        return cls("global")


@dataclass
class UnknownPersona:
    """A persona id of the file that this store does not know, and what the plan does with it."""

    source_id: str
    suggested_name: str  # the file's name for it, or a readable one
    records: int = 0
    choice: Choice = field(default_factory=Choice.make_global)
    local_id: str | None = None  # where its records go (None: global)
    chosen: bool = False  # the user chose (else the plan's default: a new, readably named persona)

    def to_json(self) -> dict:
        return {
            "id": self.source_id,
            "records": self.records,
            "action": self.choice.action,
            "name": self.choice.name if self.choice.action == "create" else None,
            "persona_id": self.local_id,
            "chosen": self.chosen,
        }


def load_aliases() -> dict:
    row = Setting.get_or_none(Setting.key == ALIASES_KEY)
    if row is None:
        return {}
    try:
        value = json.loads(row.value)
    except ValueError:
        return {}
    return (
        {k: val for k, val in value.items() if isinstance(k, str) and (val is None or isinstance(val, str))}
        if isinstance(value, dict)
        else {}
    )


def check_name(name, taken: set[str]) -> str:
    """A typed name for a new persona, or ValidationError saying what is wrong with it."""
    if not isinstance(name, str) or not name.strip():
        raise ValidationError("persona name", code="persona_name_needed")
    name = v.persona_name(name)
    if looks_like_id(name):
        raise ValidationError("persona name", code="persona_name_like_id", name=name)
    if name in taken:
        raise ValidationError("persona name", code="persona_name_exists", name=name)
    return name


class Resolver:
    """Incoming persona references → local ids; personas to create on apply.

    ``choices``: source id -> Choice (what the user picked). ``everything``: a
    Choice for every record, with or without a persona (the CLI's --persona).
    """

    def __init__(
        self, personas: list, *, choices: dict | None = None, everything: Choice | None = None, language: str = "en"
    ):
        local = list(Persona.select(Persona.id, Persona.name).tuples())
        self.ids = {pid for pid, _ in local}
        self.by_name = {name: pid for pid, name in local}
        self.names = dict(local)  # local id -> name, plus the personas this plan creates
        self.aliases = {k: val for k, val in load_aliases().items() if val is None or val in self.ids}
        self.choices = dict(choices or {})
        self.everything = everything
        self.language = language
        self.mapping: dict[str, str | None] = {}
        self.create: dict[str, dict] = {}
        self.unknown: dict[str, UnknownPersona] = {}
        self.remember: dict[str, str | None] = {}  # aliases to store on apply
        self.file_personas = {}
        for item in personas:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                self.file_personas[item["id"].strip()] = item
        if everything is not None:  # every record into one persona: the file's own are not needed
            self.everything_id = self._apply_choice("", everything, {})
            return
        for pid in [*self.choices, *self.file_personas]:  # a bad choice fails the plan, not one record
            self._resolve_ref(pid, count=False)

    def _apply_choice(self, ref: str, choice: Choice, extras: dict) -> str | None:
        if choice.action == "global":
            return None
        if choice.action == "map":
            if choice.persona_id not in self.ids:
                raise ValidationError("persona", code="no_persona_id", id=choice.persona_id)
            return choice.persona_id
        if choice.action != "create":
            raise ValidationError("persona", code="unknown_choice", choice=choice.action)
        name = check_name(choice.name, set(self.by_name) | {f["name"] for f in self.create.values()})
        keep = ref and ref not in self.ids and ref not in self.create and _valid_id(ref)
        key = ref if keep else str(uuid.uuid4())  # the file's id when it can be ours: round trips keep it
        self.create[key] = {**extras, "name": name}
        self.names[key] = name
        return key

    def _resolve_ref(self, ref: str, *, count: bool = True) -> str | None:
        if ref in self.mapping:
            if count and ref in self.unknown:
                self.unknown[ref].records += 1
            return self.mapping[ref]
        item = self.file_personas.get(ref, {})
        file_name = str(item.get("name") or "").strip()[:100]
        if ref in self.choices:
            target = self._unknown(ref, file_name, self.choices[ref], item)
        elif ref in self.ids:
            target = ref
        elif ref in self.aliases:
            target = self.aliases[ref]
        elif ref in self.by_name:
            target = self.by_name[ref]
        elif file_name and file_name in self.by_name:
            target = self.by_name[file_name]
        else:
            suggested = file_name if file_name and not looks_like_id(file_name) else readable_name(ref, self.language)
            taken = set(self.by_name) | {f["name"] for f in self.create.values()}
            name, n = suggested, 2
            while name in taken:
                name, n = f"{suggested} ({n})", n + 1
            target = self._unknown(ref, suggested, Choice.create(name), item)
        self.mapping[ref] = target
        if count and ref in self.unknown:
            self.unknown[ref].records += 1
        return target

    def _unknown(self, ref: str, suggested: str, choice: Choice, item: dict) -> str | None:
        extras = {
            "description": item.get("description"),
            "colour": item.get("colour"),
            "auto_save_memory": item.get("auto_save_memory", True),
        }
        target = self._apply_choice(ref, choice, extras)
        self.unknown[ref] = UnknownPersona(
            ref,
            suggested if suggested and not looks_like_id(suggested) else readable_name(ref, self.language),
            choice=choice,
            local_id=target,
            chosen=ref in self.choices,
        )
        self.remember[ref] = target
        return target

    def resolve(self, ref) -> str | None:
        """A record's persona: an id or a name; unknown ones per the choices (default: a new persona)."""
        if self.everything is not None:
            return self.everything_id
        if ref in (None, ""):
            return None
        if not isinstance(ref, str):
            raise ValidationError("persona_id", code="must_be_text")
        return self._resolve_ref(ref.strip())


def _valid_id(ref: str) -> bool:
    try:
        return v.memory_id(ref) == ref
    except ValidationError:
        return False
