#!/usr/bin/env bash
# Installs what local-cluster.sh needs (Debian's slurm-wlm and munge: slurmctld, slurmd, the
# client commands, munged) when any of it is missing. Idempotent; .ci/run calls it so that
# the Slurm integration test runs in CI.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin
missing=0
for tool in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done
[ $missing -eq 0 ] && exit 0
echo "deferral-sim: installing slurm-wlm and munge with apt-get..." >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1; then
  sudo_cmd=(sudo)
else
  echo "deferral-sim: slurm-wlm and munge are missing and neither root nor sudo is available;" >&2
  echo "install them yourself: apt-get install slurm-wlm munge" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
command -v slurmctld >/dev/null && command -v munged >/dev/null
