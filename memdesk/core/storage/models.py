"""peewee models: the stored shape of memories, personas, revisions and vectors.

Models are bound to one DatabaseProxy, so a process works on one database at a
time (as the app does); the Store opens it. Peewee keeps one connection per
thread, so model objects never need to cross threads — records.py does.
"""

from __future__ import annotations

from datetime import datetime, timezone

from peewee import (
    BlobField,
    BooleanField,
    CompositeKey,
    DatabaseProxy,
    Field,
    FloatField,
    ForeignKeyField,
    IntegerField,
    Model,
    ModelIndex,
    TextField,
    fn,
)

database = DatabaseProxy()
_FMT = "%Y-%m-%d %H:%M:%S.%f"
_WIDTH = len("2024-05-31 10:30:00.000000")


def stored_time(value: datetime) -> str:
    """An aware datetime in the store's fixed-width UTC text form (text order = time order)."""
    if value.tzinfo is None:
        raise ValueError("naive datetime reached the store; times must be UTC-aware")
    v = value.astimezone(timezone.utc)
    # By hand, not strftime: its %Y writes year 371 as '371', which strptime cannot read back,
    # and formatting the fields is 2.5x faster (an import writes two a memory).
    return f"{v.year:04d}-{v.month:02d}-{v.day:02d} {v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}"


class UTCDateTimeField(Field):
    """Aware UTC datetimes stored as fixed-width text, so text order = time order."""

    field_type = "TEXT"

    def db_value(self, value):
        if value is None:
            return None
        if isinstance(value, str):  # already in storage form (raw query values)
            return value
        return stored_time(value)

    def python_value(self, value):
        if value is None:
            return None
        # zfill: rows written before the fix above hold years < 1000 unpadded
        return datetime.strptime(value.zfill(_WIDTH), _FMT).replace(tzinfo=timezone.utc)


class BaseModel(Model):
    class Meta:
        database = database
        legacy_table_names = False


class Persona(BaseModel):
    id = TextField(primary_key=True)
    name = TextField(unique=True)
    description = TextField(default="")
    colour = TextField(default="")
    auto_save_memory = BooleanField(default=True)
    created_at = UTCDateTimeField()


class Memory(BaseModel):
    id = TextField(primary_key=True)
    persona = ForeignKeyField(Persona, null=True, column_name="persona_id", on_delete="RESTRICT")
    group = TextField(default="", column_name="group_name", index=True)
    title = TextField(default="")
    content = TextField()
    summary = TextField(default="")
    tags = TextField(default="[]")  # JSON list for display; memory_tag indexes them
    type = TextField(default="note")
    scope = TextField(default="long_term")
    importance = IntegerField(default=5)
    importance_set = BooleanField(default=False)
    source = TextField(default="manual")
    dedup_key = TextField(null=True)
    content_hash = TextField(index=True)
    created_at = UTCDateTimeField(index=True)
    updated_at = UTCDateTimeField(index=True)
    last_access_at = UTCDateTimeField(null=True)
    access_count = IntegerField(default=0)
    mention_count = IntegerField(default=0)
    expires_at = UTCDateTimeField(null=True, index=True)
    deleted_at = UTCDateTimeField(null=True, index=True)
    superseded_by = TextField(null=True, index=True)
    tier = TextField(default="hot", index=True)
    heat = FloatField(default=100.0)
    version = IntegerField(default=1)


# One live memory per (persona, dedup_key): an upsert finds it, a clash is an IntegrityError.
Memory.add_index(
    ModelIndex(
        Memory,
        (fn.COALESCE(Memory.persona, ""), Memory.dedup_key),
        name="memory_dedup_key",
        unique=True,
    ).where(Memory.dedup_key.is_null(False) & Memory.superseded_by.is_null())
)


class MemoryTag(BaseModel):
    memory = ForeignKeyField(Memory, column_name="memory_id", on_delete="CASCADE")
    tag = TextField(index=True)

    class Meta:
        primary_key = CompositeKey("memory", "tag")


class Revision(BaseModel):
    memory = ForeignKeyField(Memory, column_name="memory_id", on_delete="CASCADE", index=True)
    at = UTCDateTimeField()
    reason = TextField()
    version = IntegerField()
    before = TextField()  # JSON: previous values of the fields that changed
    after = TextField()  # JSON: their new values


class MemoryVector(BaseModel):
    memory = ForeignKeyField(Memory, column_name="memory_id", on_delete="CASCADE")
    model_id = TextField(index=True)
    text_hash = TextField()
    dim = IntegerField()
    vector = BlobField()  # float32, little-endian

    class Meta:
        primary_key = CompositeKey("memory", "model_id")


class Setting(BaseModel):
    key = TextField(primary_key=True)
    value = TextField()  # JSON


class ToolCall(BaseModel):
    at = UTCDateTimeField(index=True)
    persona_id = TextField(null=True)
    client = TextField(default="")
    tool = TextField()
    arguments = TextField()  # JSON
    result = TextField()  # JSON
    ok = BooleanField()
    effects = TextField()  # JSON list: {"id", "action", "version", "revision"}
    reverted_at = UTCDateTimeField(null=True)


ALL_MODELS = (Persona, Memory, MemoryTag, Revision, MemoryVector, Setting, ToolCall)
