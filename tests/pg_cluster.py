"""A throwaway PostgreSQL cluster for the tests (and bench scripts): initdb in a temporary
directory, a free port on 127.0.0.1, trust auth, stopped and deleted at the end.

The server refuses to run as root, so when we are root every server command runs as the
`postgres` system user (runuser). fsync is off: the cluster lives for one session, and the
crash tests stop it with -m immediate, which kills the server but keeps the OS page cache;
synchronous_commit stays on, so a commit's WAL is written (if not synced) before it returns.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "postgres"


def find_bin() -> Path | None:
    """The folder holding initdb and pg_ctl: MEMDESK_PG_BIN, PATH, else Debian's newest."""
    env = os.environ.get("MEMDESK_PG_BIN")
    if env:
        return Path(env)
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.as_user: list[str] = []
        owner = None
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(SERVER_USER)
            except KeyError as exc:
                raise RuntimeError(
                    f"running as root and there is no {SERVER_USER!r} system user to run the server"
                ) from exc
            self.as_user = ["runuser", "-u", SERVER_USER, "--"]
        self.root = Path(tempfile.mkdtemp(prefix="memdesk-pg-"))
        if owner is not None:
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self.data = self.root / "data"
        self.port = _free_port()
        self.log = self.root / "server.log"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self.as_user, str(self.bindir / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")

    def start(self) -> Cluster:
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "-N")
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self, mode: str = "immediate") -> None:
        """Kill (immediate: no shutdown checkpoint, like a crash) and start again on the same port."""
        self.stop(mode)
        self.start()

    def remove(self) -> None:
        try:
            self.stop()
        except RuntimeError:
            pass  # already stopped
        shutil.rmtree(self.root, ignore_errors=True)

    def require_password(self, role: str) -> None:
        """Make ``role`` log in with a password (scram) over TCP; everyone else stays on trust."""
        hba = self.data / "pg_hba.conf"
        rule = f"host all {role} 127.0.0.1/32 scram-sha-256\n"
        text = hba.read_text()
        if rule not in text:
            hba.write_text(rule + text)
            self._run("pg_ctl", "-D", str(self.data), "reload")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"
