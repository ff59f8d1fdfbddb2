#!/usr/bin/env bash
# Counts the instructions one simulation of each policy takes on a trace, under valgrind's
# callgrind: the same count from run to run, where timings on a shared machine move by a third,
# so two builds compare exactly. Only the simulation counts (not reading the trace): the count of
# four runs less that of two, halved.
#   scripts/instructions.sh TRACE [--cluster slurm.conf] -- easy easy-cluster slurm
# SCHEDLAB=path/to/schedlab picks the build (target/release/schedlab otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 1; }
bin=${SCHEDLAB:-target/release/schedlab}
[ -n "${SCHEDLAB:-}" ] || cargo build --release --quiet
args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift
policies=("$@")
[ ${#policies[@]} -gt 0 ] || policies=(easy easy-cluster slurm)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
    valgrind --tool=callgrind --toggle-collect='*simulate_observed*' --callgrind-out-file="$out/cg" \
        "$bin" bench "${args[@]}" --policy "$1" --repeat "$2" -j 1 >/dev/null 2>"$out/err" || { cat "$out/err" >&2; exit 1; }
    awk '/^(summary|totals):/ {print $2; exit}' "$out/cg"
}
for p in "${policies[@]}"; do
    # bench runs once untimed and then --repeat times.
    one=$(count "$p" 1)
    three=$(count "$p" 3)
    printf '%-14s %14d instructions per simulation\n' "$p" $(( (three - one) / 2 ))
done
