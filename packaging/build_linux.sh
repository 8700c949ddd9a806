#!/bin/sh
# Build the Linux one-folder bundle and dist/memdesk-VERSION-linux-ARCH.tar.gz
# (bundle + .desktop file + icon + install script). Run from the repo root.
set -e
PY=${PYTHON:-.venv/bin/python}
VERSION=$($PY -c "import memdesk; print(memdesk.__version__)")
ARCH=$(uname -m)
$PY -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build packaging/memdesk.spec
# A self-built Python (pyenv) ships libpython with ~18 MB of debug info: drop just that. Stripping
# every binary (PyInstaller's strip=True) breaks numpy's OpenBLAS ("not page-aligned").
if command -v strip >/dev/null; then
    for lib in dist/memdesk/_internal/libpython3*.so*; do
        [ -f "$lib" ] && strip --strip-debug "$lib"
    done
fi
STAGE=dist/memdesk-$VERSION-linux-$ARCH
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp -r dist/memdesk "$STAGE/memdesk"
cp packaging/memdesk.desktop "$STAGE/"
cp resources/icons/memdesk-256.png "$STAGE/memdesk.png"
cat > "$STAGE/install.sh" <<'INSTALL'
#!/bin/sh
# Installs MemDesk for the current user (~/.local).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p ~/.local/lib ~/.local/bin ~/.local/share/applications ~/.local/share/icons/hicolor/256x256/apps
rm -rf ~/.local/lib/memdesk && cp -r "$HERE/memdesk" ~/.local/lib/memdesk
ln -sf ~/.local/lib/memdesk/memdesk ~/.local/bin/memdesk
cp "$HERE/memdesk.desktop" ~/.local/share/applications/
cp "$HERE/memdesk.png" ~/.local/share/icons/hicolor/256x256/apps/memdesk.png
echo "MemDesk installed: run 'memdesk' or find 记忆台 / MemDesk in your applications menu."
INSTALL
chmod +x "$STAGE/install.sh"
tar -C dist -cf "$STAGE.tar" "$(basename "$STAGE")"
gzip -9 -f "$STAGE.tar"  # -> $STAGE.tar.gz
echo "built $STAGE.tar.gz"
