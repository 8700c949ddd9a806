"""MemDesk opens no listening socket, and never unpickles or evals user data."""

import io
import os
import re
import subprocess
import sys
import time
import tokenize
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "memdesk"


def _listening_inodes() -> set[str]:
    inodes = set()
    for name in ("tcp", "tcp6", "udp", "udp6"):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            parts = line.split()
            # TCP state 0A = LISTEN; any bound UDP socket counts as listening.
            if name.startswith("udp") or parts[3] == "0A":
                inodes.add(parts[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        match = re.match(r"socket:\[(\d+)\]", target)
        if match:
            found.add(match.group(1))
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
def test_mcp_server_listens_on_no_socket(db_path):
    from memdesk.core.store import Store

    Store.open(db_path).close()  # the server refuses a --db that does not exist
    proc = subprocess.Popen(
        [sys.executable, "-m", "memdesk", "--db", str(db_path), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        request = (
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
            b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
        )
        proc.stdin.write(request)
        proc.stdin.flush()
        assert proc.stdout.readline().startswith(b"{")  # the server answered over stdio
        time.sleep(0.3)
        assert not (_socket_inodes(proc.pid) & _listening_inodes())
    finally:
        proc.kill()
        proc.wait()


def _calls_and_imports(path: Path):
    """(name, line) of bare calls and imported modules, ignoring comments and strings."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    ]
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME:
            continue
        before = tokens[i - 1].string if i else ""
        after = tokens[i + 1].string if i + 1 < len(tokens) else ""
        if after == "(" and before != "." and tok.string in ("eval", "exec"):
            yield tok.string, tok.start[0]
        if before in ("import", "from") and tok.string in ("pickle", "marshal", "shelve", "dill"):
            yield tok.string, tok.start[0]
        if tok.string == "yaml" and after == "." and tokens[i + 2].string == "load":
            yield "yaml.load", tok.start[0]


def test_no_pickle_eval_or_exec_in_the_code():
    offenders = [
        f"{path.relative_to(SOURCE)}:{line}: {name}"
        for path in SOURCE.rglob("*.py")
        for name, line in _calls_and_imports(path)
    ]
    assert offenders == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import pickle\nx = eval('1')  # eval( in a comment is fine\nobj.exec()\n", encoding="utf-8")
    assert sorted(name for name, _ in _calls_and_imports(bad)) == ["eval", "pickle"]
