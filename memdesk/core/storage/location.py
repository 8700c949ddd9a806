"""Where a store lives: a SQLite file path, or a PostgreSQL URL; and how to show it.

A URL (postgresql://user@host:5432/db?sslmode=require, or postgres://) may carry a
password. It is passed to libpq untouched (so PGPASSWORD, ~/.pgpass and PGSERVICE keep
working), but everything shown or stored — window title, recent files, settings, logs,
error messages, exports, repr — uses ``redact``, which drops the password wherever the
URL can hold one (user:password@, ?password=).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import platformdirs

SCHEMES = ("postgresql://", "postgres://")
_SECRET_PARAMS = frozenset({"password", "sslpassword"})


def is_url(target) -> bool:
    return isinstance(target, str) and target.strip().lower().startswith(SCHEMES)


def normalise_url(url: str) -> str:
    """postgres:// -> postgresql:// (both are libpq's; peewee only recognises the second)."""
    url = url.strip()
    if url.lower().startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    return url


def redact(target) -> str:
    """``target`` fit to show: a path as is; a URL without its password (a '***' marks where it was)."""
    if not is_url(target):
        return str(target)
    try:
        parts = urlsplit(normalise_url(target))
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, host = netloc.rsplit("@", 1)
            if ":" in userinfo:
                userinfo = userinfo.split(":", 1)[0] + ":***"
            netloc = f"{userinfo}@{host}"
        query = [(k, "***" if k.lower() in _SECRET_PARAMS else v) for k, v in parse_qsl(parts.query, True)]
        return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe="*"), ""))
    except ValueError:
        # unparseable: keep only what cannot hold a secret
        return re.sub(r"//[^/?#]*@", "//***@", target.split("?", 1)[0])


def scrub(text: str, url: str) -> str:
    """``text`` (an error message from libpq, say) with any secret of ``url`` taken out."""
    secrets = []
    try:
        parts = urlsplit(normalise_url(url))
        if parts.password:
            secrets.append(parts.password)
        secrets += [v for k, v in parse_qsl(parts.query, True) if k.lower() in _SECRET_PARAMS and v]
    except ValueError:
        pass
    text = text.replace(url, redact(url))
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def display_name(target) -> str:
    """Short form for a window title: the file name, or database@host."""
    if not is_url(target):
        return Path(target).name
    try:
        parts = urlsplit(normalise_url(target))
        database = parts.path.lstrip("/") or (parts.username or "")
        return f"{database}@{parts.hostname or 'localhost'}"
    except ValueError:
        return redact(target)


def require_store(target, *, create: bool = False) -> None:
    """Refuse a store path that does not exist (NoStoreError; nothing is created, not even its
    folder) unless ``create``. A mistyped --db or MEMDESK_DB would otherwise open a new, empty
    store that looks like the user's own with everything gone, and take their writes. Only
    the default store (the user data directory's memdesk.db) is made on first use. ``target``
    None means MEMDESK_DB, else the default. A PostgreSQL URL is the server's to refuse."""
    from memdesk.core.domain.errors import NoStoreError

    target = target or default_target()
    if create or is_url(target):
        return
    path = Path(target).expanduser()
    if not path.exists() and path.absolute() != _default_file().absolute():
        raise NoStoreError(str(path))


def _default_file() -> Path:
    return Path(platformdirs.user_data_dir("MemDesk", appauthor=False)) / "memdesk.db"


def default_target() -> str | Path:
    """MEMDESK_DB (a path or a URL), else memdesk.db in the user data directory."""
    env = os.environ.get("MEMDESK_DB")
    if env:
        return normalise_url(env) if is_url(env) else Path(env).expanduser()
    return _default_file()
