#!/usr/bin/env bash
# Installs what the tests need (idempotent) and runs every test: formatting, lints, unit,
# integration, pyss peer cases, real-trace invariants and published-figure checks.
# The real-trace tests need ../shared beside the repository and run in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/traces ]; then
  echo "error: ../shared (traces, papers, peer tests) must sit beside this repository" >&2
  exit 1
fi
for c in rustfmt clippy; do
  rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
done

cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test --release --doc
cargo test --release --all-targets
