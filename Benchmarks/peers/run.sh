#!/usr/bin/env bash
# Runs the SimPy peer model in its own virtual environment (Benchmarks/peers/.venv), creating
# it on first use with the pinned simpy from requirements.txt. Idempotent.
#   bash Benchmarks/peers/run.sh --setup-only        # create or check the environment only
#   bash Benchmarks/peers/run.sh [simpy_model.py options]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"
stamp="$venv/.requirements"
if [[ ! -x "$venv/bin/python" ]] || ! cmp -s "$here/requirements.txt" "$stamp"; then
  echo "peers: creating $venv with $(grep -v '^#' "$here/requirements.txt" | tr '\n' ' ')" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$here/requirements.txt" >&2
  cp "$here/requirements.txt" "$stamp"
fi
if [[ "${1:-}" == "--setup-only" ]]; then
  "$venv/bin/python" -c 'import simpy, sys; print("simpy", simpy.__version__, "python", sys.version.split()[0])'
  exit 0
fi
exec "$venv/bin/python" "$here/simpy_model.py" "$@"
