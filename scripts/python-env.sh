#!/usr/bin/env bash
# Builds the Python package into the project's virtual environment .venv (created if missing),
# with what its tests and examples need (idempotent: pip skips what is installed, maturin
# rebuilds only what changed). Then `.venv/bin/python -c "import schedlab"` works.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check "maturin>=1.7,<2" pytest numpy pandas pyarrow "dask[distributed]" dask-jobqueue matplotlib gymnasium "mypy>=2,<3" "vermin>=1.6,<2"
.venv/bin/maturin develop -q --release -m python/Cargo.toml
