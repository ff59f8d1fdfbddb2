#!/usr/bin/env bash
# Builds the page and serves it on http://127.0.0.1:8000 (the demo trace loads and runs by itself).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-web.sh
echo "SchedLab on http://127.0.0.1:8000/ (Ctrl-C to stop)"
exec python3 -m http.server 8000 --bind 127.0.0.1 --directory dist
