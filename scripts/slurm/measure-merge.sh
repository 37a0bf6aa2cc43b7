#!/usr/bin/env bash
# The merge's cost against the number of partials (docs/scaling-out.md): for N = 16, 256
# and 4096 shards of one small run, the flat merge's wall time and peak RSS; then, on the
# 4096, a tree of fan-in 64 (64 merges --partial-out of 64 partials each, then one merge of
# the 64) against the flat merge, with the CSVs of both compared byte for byte.
#   bash scripts/slurm/measure-merge.sh BINARY WORKDIR [run options...]
# Default options: --users 2048 --replications 2 --seed 7 (the default scenario: 8 work items,
# so most shards are empty, and every partial holds the same 2 × 8 tallies).
# Needs GNU time (/usr/bin/time) for the peak RSS. Writing the 4,368 partials takes a few
# minutes (one process each); set DEFERRAL_SIM_MERGE_SIZES="16 256" to stop earlier.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BINARY WORKDIR [run options...]" >&2
  exit 2
fi
bin=$(realpath "$1")
mkdir -p "$2"
work=$(realpath "$2")
shift 2
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--users 2048 --replications 2 --seed 7)
[ -x /usr/bin/time ] || {
  echo "measure-merge: needs GNU time (apt-get install time)" >&2
  exit 2
}
files=(summary.csv paired.csv by-screen.csv by-reason.csv replications.csv)

# measured NAME COMMAND...: runs it; prints its wall time and peak RSS; sets wall and kib.
measured() {
  local name=$1 out
  shift
  out=$(/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1)
  wall=${out% *}
  kib=${out#* }
  awk -v n="$name" -v w="$wall" -v k="$kib" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
    'BEGIN { printf "%-44s wall %7.2f s, peak RSS %7.1f MB   (load %s)\n", n, w, k / 1024, l }'
}

echo "options: ${options[*]}; $(nproc) cores; binary $bin"
for n in ${DEFERRAL_SIM_MERGE_SIZES:-16 256 4096}; do
  parts=$work/$n/parts
  if [ "$(find "$parts" -name "partial-*-of-$n.json" 2>/dev/null | wc -l)" -ne "$n" ]; then
    rm -rf "$work/$n"
    mkdir -p "$parts"
    seq 0 $((n - 1)) | xargs -P "$(nproc)" -I{} \
      "$bin" run "${options[@]}" --shard "{}/$n" --out "$parts" --quiet >/dev/null
  fi
  size=$(du -sk "$parts" | cut -f 1)
  echo "N = $n: partials $(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1024 }')" \
    "($((size / n)) KB each on disk)"
  rm -rf "$work/$n/flat"
  measured "flat merge of $n" "$bin" merge "$parts" --out "$work/$n/flat"
done

n=4096
if [ -d "$work/$n/flat" ]; then
  fan_in=64
  tree=$work/$n/tree
  rm -rf "$tree" "$work/$n/tree-out"
  mkdir -p "$tree"
  total=0
  peak=0
  for ((first = 0; first < n; first += fan_in)); do
    last=$((first + fan_in - 1))
    group=()
    for ((k = first; k <= last; k++)); do group+=("$work/$n/parts/partial-$k-of-$n.json"); done
    out=$(/usr/bin/time -f '%e %M' "$bin" merge "${group[@]}" \
      --partial-out "$tree/partial-$first-$last-of-$n.json" 2>&1 >/dev/null | tail -n 1)
    total=$(awk -v a="$total" -v b="${out% *}" 'BEGIN { print a + b }')
    peak=$((${out#* } > peak ? ${out#* } : peak))
  done
  awk -v t="$total" -v p="$peak" -v f="$fan_in" -v c="$((n / fan_in))" \
    'BEGIN { printf "%-44s wall %7.2f s, peak RSS %7.1f MB   (sum of the %d jobs; largest)\n", "tree level 1: " c " merges of " f, t, p / 1024, c }'
  measured "tree level 2: merge of the $((n / fan_in))" "$bin" merge "$tree" --out "$work/$n/tree-out"
  for file in "${files[@]}"; do cmp "$work/$n/flat/$file" "$work/$n/tree-out/$file"; done
  echo "tree (fan-in $fan_in) and flat merge of $n: the five CSVs are identical"
fi
