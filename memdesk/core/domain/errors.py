"""Errors the core raises. Every message is meant to be shown to a user as is.

Each error carries a ``code`` and the ``params`` of its wording (error_codes.py lists them with
their English words), so a window or the command line says it in the user's language by code;
str() stays the English message, for logs and assistants.
"""

from memdesk.core.domain.error_codes import VALIDATION, english


class MemDeskError(Exception):
    """Base class: a problem the user can act on (exit code 1 in the CLI).

    ``MemDeskError(code="no_memory", id=...)`` takes its English words from the code; raised
    with words only, the code is "message" and a UI shows those words as they are.
    """

    code = "message"

    def __init__(self, message: str | None = None, *, code: str | None = None, **params):
        if code is not None:
            self.code = code
        elif message is not None and self.code == "message":
            params = {"text": message}
        self.params = params
        super().__init__(english(self.code, params) if message is None else message)


class ValidationError(MemDeskError):
    """A field has a bad value; nothing was written. str(): "FIELD: what is wrong"."""

    def __init__(self, field: str, message: str | None = None, *, code: str | None = None, **params):
        self.field = field
        if code is None:
            code, params = "invalid", {"detail": message or ""}
        assert code in VALIDATION, code
        words = english(code, params) if message is None else message
        super().__init__(f"{field}: {words}", code=code, field=field, **params)


class NotFoundError(MemDeskError):
    """Nothing has that id (or name)."""


class ConflictError(MemDeskError):
    """The memory changed since the caller read it (optimistic update failed)."""

    def __init__(self, memory_id: str, expected_version: int | None, current):
        self.memory_id = memory_id
        self.expected_version = expected_version
        self.current = current  # the MemoryRecord as it is now in the store
        super().__init__(code="changed_elsewhere", id=memory_id, expected=expected_version, found=current.version)


class SchemaTooNewError(MemDeskError):
    def __init__(self, path: str, found: int, supported: int, *, what: str = "file"):
        self.found, self.supported = found, supported
        super().__init__(code="schema_too_new", path=path, found=found, supported=supported, what=what)


class CorruptDatabaseError(MemDeskError):
    pass


class CancelledError(MemDeskError):
    """A background task was cancelled; its transaction was rolled back."""

    def __init__(self, message: str | None = None, *, code: str | None = None, **params):
        super().__init__(message, code=code or ("cancelled" if message is None else None), **params)


class ModelError(MemDeskError):
    """A model could not be downloaded, installed or switched to.

    ``kind`` lets a window say what happened in the user's language:
    "network" (no connection, timeout, dropped transfer), "server" (an HTTP
    error), "checksum", "disk" (not enough space), "not_model" (a folder or
    archive without a usable model), "exists" (the name is taken), "broken"
    (the model fails on a test input); the code and params say the details.
    """

    def __init__(self, message: str | None = None, kind: str = "other", *, code: str | None = None, **params):
        self.kind = kind
        super().__init__(message, code=code, **params)


class DatabaseUnavailableError(MemDeskError):
    """A PostgreSQL store cannot be reached or entered. ``kind`` lets a window say what to do:
    "password" (the server wants one and none was given), "auth" (wrong user or password),
    "missing" (no such database), "unreachable" (no server there, refused, timed out),
    "other". The message never holds the password."""

    def __init__(self, message: str | None = None, kind: str = "other", *, code: str | None = None, **params):
        self.kind = kind
        super().__init__(message, code=code, **params)


class ConnectionLostError(DatabaseUnavailableError):
    """The connection to a PostgreSQL server dropped during a write. The transaction either
    committed whole or not at all (never half); ``maybe_saved`` is False when the drop came
    before COMMIT was sent (then it was not saved), else a reload shows which."""

    def __init__(self, where: str, *, maybe_saved: bool = True):
        self.maybe_saved = maybe_saved
        code = "connection_lost_maybe_saved" if maybe_saved else "connection_lost_not_saved"
        super().__init__(kind="lost", code=code, where=where)


class NoStoreError(MemDeskError):
    """``--db`` (or MEMDESK_DB) names a file that does not exist; nothing was created."""

    def __init__(self, path: str):
        self.path = path
        super().__init__(code="no_store", path=path)


class StoreInUseError(MemDeskError):
    """A store cannot be replaced (a backup restored) while a process has it open; nothing
    was changed. ``holders``: the processes that could be named ("an MCP server (pid 42)")."""

    def __init__(self, path: str, holders: list[str]):
        self.path, self.holders = path, holders
        super().__init__(code="store_in_use", path=path, holders=", ".join(holders), n=len(holders))


class DatabaseDroppedError(DatabaseUnavailableError):
    """The PostgreSQL database an open store was using no longer exists (dropped or renamed
    on the server). Nothing more can be read from or saved to it."""

    def __init__(self, where: str):
        self.where = where
        super().__init__(kind="missing", code="database_dropped", where=where)
