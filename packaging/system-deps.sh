#!/bin/sh
# Debian packages Qt needs to run offscreen in tests (PySide6 wheels link to them).
# Installs them when missing and we are root (CI); otherwise says what is missing.
set -e
PKGS="libegl1 libgl1 libxkbcommon0 libfontconfig1 libglib2.0-0 libdbus-1-3 libxcb-cursor0"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "installing system packages:$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "MemDesk's Qt tests need these system packages:$missing" >&2
    echo "install them with: sudo apt-get install$missing" >&2
    exit 1
fi
