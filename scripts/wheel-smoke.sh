#!/usr/bin/env bash
# Builds the Python package's wheel (abi3: one file for every CPython from 3.9) and installs it
# into a fresh virtual environment with no Rust toolchain on PATH, as a course or a cluster
# would, then runs a smoke test whose schedule hash must equal the command line's.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf target/wheels target/wheel-venv
.venv/bin/maturin build -q --release -m python/Cargo.toml -o target/wheels
wheel=$(ls target/wheels/schedlab-*-abi3-*.whl)
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"
# The types go with it: a checker reads the package's annotations and the extension's.
for f in schedlab/py.typed schedlab/_schedlab.pyi; do
  python3 -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' "$wheel" "$f" ||
    { echo "wheel-smoke: $f is not in the wheel" >&2; exit 1; }
done
python3 -m venv target/wheel-venv
# No cargo, rustc or maturin on this PATH: the wheel must install as it is.
env PATH=/usr/local/bin:/usr/bin:/bin target/wheel-venv/bin/pip install -q --disable-pip-version-check "$wheel"
if env PATH=/usr/local/bin:/usr/bin:/bin sh -c 'command -v cargo || command -v rustc' >/dev/null; then
  echo "wheel-smoke: cargo is on the restricted PATH; the check would not show a Rust-free install" >&2
  exit 1
fi
got=$(cd /tmp && env PATH=/usr/local/bin:/usr/bin:/bin "$OLDPWD/target/wheel-venv/bin/python" -c '
import schedlab
t = schedlab.load("example:tsafrir-fig1")
r = schedlab.simulate(t, "easy")
assert r.plot("busy").hash and schedlab.compare(t, "easy,fcfs").shape[0] > 0
print(schedlab.__version__, len(t), r.schedule_hash)')
want=$(target/release/schedlab run example:tsafrir-fig1 --policy easy --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["schedule_hash"])')
echo "wheel-smoke: $got (the command line: $want)"
[ "${got##* }" = "$want" ]
