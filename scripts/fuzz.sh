#!/usr/bin/env bash
# Fuzzes the SWF parser, the streaming loader and the simulator with cargo-fuzz (libFuzzer), one
# target after the other, SECONDS each (default 600), and prints per target the executions, the
# executions per second and whether it crashed. Exits non-zero if any target crashed or hung.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: swf_parse simulate swf_chunks (default all)
#   FUZZ_MINIMIZE=1 scripts/fuzz.sh ...       afterwards, cmin each target's inputs of up to 1 KB
#                                             into fuzz/corpus/TARGET (by coverage edges)
#
# Installs the nightly toolchain and cargo-fuzz only if missing. The committed corpus
# (fuzz/corpus/TARGET) is read, never written: new inputs go to fuzz/work/TARGET (ignored by
# git). Seeds from ../shared/traces and hand-made hostile inputs (scripts/fuzz-seeds.py) are
# added when ../shared is there. Crashes land in fuzz/artifacts/TARGET/; to keep one as a
# regression, copy it to fuzz/regressions/TARGET/ (tests/fuzz_regressions.rs replays it).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-600}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(swf_parse simulate swf_chunks)

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked

if [ -d ../shared/traces ]; then
  python3 scripts/fuzz-seeds.py fuzz/seeds
fi

# Inputs longer than these carry nothing the target reads (simulate decodes at most 40 jobs).
max_len() {
  case "$1" in
    simulate) echo 256 ;;
    *) echo 8192 ;;
  esac
}

stat() { # stat NAME LOG: the last value libFuzzer printed for stat::NAME, or "?"
  grep -a "^stat::$1:" "$2" | tail -n 1 | awk '{print $2}' | grep . || echo "?"
}

failed=0
summary=()
for t in "${TARGETS[@]}"; do
  mkdir -p "fuzz/work/$t" "fuzz/corpus/$t" "fuzz/artifacts/$t"
  log="fuzz/work/$t.log"
  dirs=("fuzz/work/$t" "fuzz/corpus/$t")
  [ -d "fuzz/seeds/$t" ] && dirs+=("fuzz/seeds/$t")
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  echo "== $t: ${SECONDS_EACH} s (log: $log)"
  cargo +nightly fuzz build -a "$t" 2>&1 | tail -n 1
  set +e
  cargo +nightly fuzz run -a "$t" "${dirs[@]}" -- \
    -max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 -max_len="$(max_len "$t")" \
    >"$log" 2>&1
  rc=$?
  set -e
  after=$(find "fuzz/artifacts/$t" -type f | wc -l)
  execs=$(stat number_of_executed_units "$log")
  rate=$(stat average_exec_per_sec "$log")
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    failed=1
    result="CRASH (exit $rc; artifacts in fuzz/artifacts/$t)"
    grep -a -m 5 -E "panicked|ERROR: libFuzzer|deadly signal|Test unit written" "$log" || true
  else
    result="no crash"
  fi
  line="$t: $execs executions, $rate exec/s, $result"
  echo "$line"
  summary+=("$line")
  if [ "${FUZZ_MINIMIZE:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
    tmp="fuzz/work/$t.cmin"
    rm -rf "$tmp" && mkdir -p "$tmp"
    # Inputs up to 1 KB: the committed corpus stays small; the trace seeds come back every run.
    find "fuzz/corpus/$t" "fuzz/work/$t" -type f -size -1025c -exec cp {} "$tmp/" \;
    # Edges only, not hit counts: a corpus of a few hundred small files instead of thousands.
    cargo +nightly fuzz cmin -a "$t" "$tmp" -- -max_len="$(max_len "$t")" -use_counters=0 \
      >"fuzz/work/$t.cmin.log" 2>&1
    rm -rf "fuzz/corpus/$t" && mv "$tmp" "fuzz/corpus/$t"
    echo "$t: corpus minimized to $(find "fuzz/corpus/$t" -type f | wc -l) files, $(du -sb "fuzz/corpus/$t" | cut -f1) bytes"
  fi
done

echo "== summary (${SECONDS_EACH} s per target)"
printf '%s\n' "${summary[@]}"
exit "$failed"
