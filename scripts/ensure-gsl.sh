#!/usr/bin/env bash
# Installs GSL (Debian's libgsl-dev) when pkg-config cannot find it. Idempotent.
set -euo pipefail
if pkg-config --exists gsl 2>/dev/null; then
  exit 0
fi
echo "deferral-sim: installing libgsl-dev (GNU Scientific Library) with apt-get..." >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1; then
  sudo_cmd=(sudo)
else
  echo "deferral-sim: libgsl-dev is missing and neither root nor sudo is available;" >&2
  echo "install it yourself: apt-get install libgsl-dev" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq libgsl-dev pkg-config >/dev/null
pkg-config --exists gsl
