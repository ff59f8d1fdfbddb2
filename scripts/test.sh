#!/usr/bin/env bash
# Installs what the tests need (idempotent) and runs every test: formatting, lints, unit,
# integration, pyss peer cases, real-trace invariants, published-figure checks, the wasm build,
# the page in headless Chromium, then the Python package (built into .venv) and its pytest
# suite. The real-trace tests need ../shared beside the repository and run in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/traces ]; then
  echo "error: ../shared (traces, papers, peer tests) must sit beside this repository" >&2
  exit 1
fi
for c in rustfmt clippy; do
  rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
done

if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq chromium
fi
npm ci --no-audit --no-fund

cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test --release --doc
cargo test --release --all-targets

./scripts/build-web.sh
cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings
# The start wasm the page opens with is built without the feature `whole`.
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
npm test

# Python: the package built into the project's virtual environment, then its tests.
./scripts/python-env.sh
cargo fmt --check --manifest-path python/Cargo.toml
cargo clippy --release --manifest-path python/Cargo.toml -- -D warnings
.venv/bin/pytest -q python/tests
# The annotations it ships: the package and its examples, and a typed program using it.
(cd python && ../.venv/bin/python -m mypy --ignore-missing-imports --check-untyped-defs schedlab examples)
.venv/bin/python -m mypy --strict --ignore-missing-imports python/tests/test_typed.py
# Nothing in the package needs a newer Python than the wheel's 3.9 (only 3.11 is here to run).
.venv/bin/vermin -q -t=3.9- --eval-annotations --no-tips --violations python/schedlab python/examples
./scripts/wheel-smoke.sh
