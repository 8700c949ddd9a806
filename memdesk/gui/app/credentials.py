"""Opening a PostgreSQL store from the window: the password, asked once.

libpq's own sources come first (PGPASSWORD, ~/.pgpass, a service file, a password in the
URL): the URL goes to Store.open as given. Only when the server still asks for a password
(or refuses the one given) does the window ask, in a password field. What the user types
is kept in this process's memory for that server and database (``Passwords``), so opening
it again, or reconnecting after a restart, does not ask again; it is put in the system
keyring only when the user ticks "remember" and the optional ``keyring`` package has a
working backend. The password travels to libpq inside the connection URL (its
``password`` parameter), which location.redact masks wherever the URL is shown or stored:
never in settings, recent files, the title, logs or error messages.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from memdesk.core.domain.errors import CancelledError, DatabaseUnavailableError
from memdesk.core.storage.location import is_url, normalise_url, redact
from memdesk.gui.reasons import error_text

SERVICE = "MemDesk"  # the keyring's service name; the entry's user name is the redacted URL


def with_password(url: str, password: str) -> str:
    """``url`` with ``password`` as its libpq parameter (replacing one there)."""
    parts = urlsplit(normalise_url(url))
    query = [(k, v) for k, v in parse_qsl(parts.query, True) if k.lower() != "password"]
    query.append(("password", password))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))


def key_of(url: str) -> str:
    """What a password is kept under: the URL without any password (user, host, port, database)."""
    parts = urlsplit(normalise_url(url))
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    query = [(k, v) for k, v in parse_qsl(parts.query, True) if k.lower() not in ("password", "sslpassword")]
    return urlunsplit((parts.scheme, f"{user}{parts.hostname or ''}{port}", parts.path, urlencode(query), ""))


class KeyringVault:
    """The system keyring through the optional ``keyring`` package; ``usable`` says whether
    it is installed and has a backend that stores anything (not the "fail" one)."""

    def __init__(self):
        self.reason = ""
        try:
            import keyring
            from keyring.backends import fail
        except ImportError:
            self._keyring = None
            self.reason = "the keyring package is not installed (pip install keyring)"
            return
        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 1) <= 0:
            self._keyring = None
            self.reason = "no system keyring is available here"
            return
        self._keyring = keyring

    @property
    def usable(self) -> bool:
        return self._keyring is not None

    def get(self, key: str) -> str | None:
        if self._keyring is None:
            return None
        try:
            return self._keyring.get_password(SERVICE, key)
        except Exception:  # noqa: BLE001 - a locked or broken keyring: ask instead
            return None

    def set(self, key: str, password: str) -> None:
        if self._keyring is not None:
            self._keyring.set_password(SERVICE, key, password)


class Passwords:
    """Passwords the user typed this session, by key_of(url); memory only."""

    def __init__(self, vault=None):
        self._typed: dict[str, str] = {}
        self._vault = vault

    @property
    def vault(self):
        if self._vault is None:
            self._vault = KeyringVault()
        return self._vault

    def known(self, url: str) -> str | None:
        key = key_of(url)
        return self._typed.get(key) or self.vault.get(key)

    def open(self, target, ask, parent):
        """Store.open(target); for a URL whose server wants a password, ask for it (once) and
        try again. Raises CancelledError when the user gives up, or the open's own error."""
        from memdesk.core.store import Store

        if not is_url(target):
            return Store.open(target)
        key = key_of(target)
        known = self.known(target)
        try:
            return Store.open(with_password(target, known) if known else target)
        except DatabaseUnavailableError as exc:
            if exc.kind not in ("password", "auth"):
                raise
            problem = "" if exc.kind == "password" and not known else error_text(exc)
        while True:
            answer = ask.password(
                parent, redact(target), problem, can_remember=self.vault.usable, why_not=self.vault.reason
            )
            if answer is None:
                raise CancelledError(f"{redact(target)} was not opened (no password given)")
            password, remember = answer
            try:
                store = Store.open(with_password(target, password))
            except DatabaseUnavailableError as exc:
                if exc.kind not in ("password", "auth"):
                    raise
                problem = error_text(exc)
                continue
            self._typed[key] = password
            if remember and self.vault.usable:
                self.vault.set(key, password)
            return store
