#!/usr/bin/env bash
# Installs the peer engines (benches/peers/requirements.txt) into one virtualenv, one package at
# a time so that one whose wheel does not install here leaves the others usable (the harness
# skips a missing engine with one line saying why).
#
#   bash benches/peers/install.sh [VENV]     (default: .venv-peers at the workspace root)
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
echo "peers virtualenv: $venv (${#failed[@]} failed)"
