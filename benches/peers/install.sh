#!/usr/bin/env bash
# Installs the peer engines (benches/peers/requirements.txt) into one virtualenv, one package at
# a time so that one whose wheel does not install here leaves the others usable (the harness
# skips a missing engine with one line saying why), then FastFiz from its source.
#
#   bash benches/peers/install.sh [VENV]     (default: .venv-peers at the workspace root)
#
# FastFiz (P6-Pool/fastfiz, C++ with SWIG bindings) has no wheel: it is built from
# $FASTFIZ_SRC (a .tar.gz or a directory holding its setup.py), else from
# git+https://github.com/P6-Pool/fastfiz@2c1c920 when the network allows. Its build needs
# Debian's `swig` and `libgsl-dev`, installed here with apt-get when run as root; otherwise the
# one command that would is printed and FastFiz is skipped.
#
# The harness finds the engines in $PEERS_PYTHON, else <workspace>/.venv-peers/bin/python.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${1:-$root/.venv-peers}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || { echo "install.sh: cannot create a virtualenv at $venv"; exit 1; }
fi
"$venv/bin/pip" install --quiet --upgrade pip >/dev/null 2>&1 || true
failed=()
while read -r req; do
    case "$req" in ''|'#'*) continue ;; esac
    if "$venv/bin/pip" install --quiet "$req"; then
        echo "installed $req"
    else
        echo "could not install $req: its engine will be skipped"
        failed+=("$req")
    fi
done < "$root/benches/peers/requirements.txt"

install_fastfiz() {
    if ! command -v swig >/dev/null 2>&1 || [ ! -e /usr/include/gsl/gsl_poly.h ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            apt-get install -y -qq swig libgsl-dev >/dev/null 2>&1 \
                || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq swig libgsl-dev >/dev/null 2>&1; }
        fi
        if ! command -v swig >/dev/null 2>&1 || [ ! -e /usr/include/gsl/gsl_poly.h ]; then
            echo "could not install fastfiz: it needs swig and the GSL headers (sudo apt-get install -y swig libgsl-dev): skipped"
            return 1
        fi
    fi
    local src="${FASTFIZ_SRC:-}" build
    if [ -n "$src" ] && [ -f "$src" ]; then
        build="$(mktemp -d)"
        tar xzf "$src" -C "$build" || { echo "could not install fastfiz: cannot unpack $src: skipped"; return 1; }
        src="$(dirname "$(find "$build" -maxdepth 2 -name setup.py | head -1)")"
    elif [ -z "$src" ]; then
        src="git+https://github.com/P6-Pool/fastfiz@2c1c92099a2b0c891dfaa944193de89692f01177"
    fi
    "$venv/bin/pip" install --quiet setuptools wheel >/dev/null 2>&1
    if "$venv/bin/pip" install --quiet "$src" >/dev/null 2>&1; then
        echo "installed fastfiz from ${FASTFIZ_SRC:-GitHub}"
    else
        echo "could not install fastfiz from ${FASTFIZ_SRC:-GitHub} (set FASTFIZ_SRC to its source archive): skipped"
        return 1
    fi
}
install_fastfiz || failed+=("fastfiz")
echo "peers virtualenv: $venv (${#failed[@]} failed)"
