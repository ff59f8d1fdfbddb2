#!/usr/bin/env bash
# Builds the page into dist/: the engine compiled to wasm, its JS glue (wasm-bindgen, pinned to
# the crate's exact version), the front end, the demo trace and the tz database as one TZif file
# per zone (the wasm has none: a worker fetches the zone a trace names; written by a native
# example from the database the command line bundles); and dist/schedlab.html, the
# whole page in one file that works when opened straight from disk. Installs the wasm target and the
# wasm-bindgen CLI if they are missing (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."

wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wb_version"; then
  echo "installing wasm-bindgen-cli $wb_version (a one-time build of several minutes)" >&2
  cargo install wasm-bindgen-cli --version "$wb_version"
fi

cargo build --lib --profile wasm --target wasm32-unknown-unknown
rm -rf www/pkg
wasm-bindgen --target web --no-typescript --out-dir www/pkg target/wasm32-unknown-unknown/wasm/schedlab.wasm

wasm-bindgen --target no-modules --no-typescript --out-dir target/pkg-no-modules \
  target/wasm32-unknown-unknown/wasm/schedlab.wasm

# binaryen's optimizer (the npm package: Debian's older wasm-opt breaks wasm-bindgen's externref
# tables) shrinks the wasm by about a tenth. Both glues load the same wasm.
[ -x node_modules/binaryen/bin/wasm-opt ] || npm ci --no-audit --no-fund
node_modules/binaryen/bin/wasm-opt -Oz --converge --strip-producers --enable-reference-types --enable-bulk-memory \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  www/pkg/schedlab_bg.wasm -o www/pkg/schedlab_bg.wasm
cp www/pkg/schedlab_bg.wasm target/pkg-no-modules/schedlab_bg.wasm

rm -rf www/tz
cargo run --release --quiet --example tzdb -- www/tz

rm -rf dist
mkdir -p dist/www
cp index.html dist/
cp -r www/*.js www/*.css www/demo www/pkg www/tz dist/www/
python3 scripts/build-single.py target/pkg-no-modules/schedlab.js target/pkg-no-modules/schedlab_bg.wasm \
  index.html www www/tz dist/schedlab.html

# What opening the page downloads, each file gzipped (-9) as a server sends it: the page, its
# scripts and style, the glue, the wasm and the demo's zone file; the demo trace is counted aside.
gz() { gzip -9c "$1" | wc -c; }
demo=dist/www/demo/KTH-SP2-1996-2.1-cln.excerpt.swf
demo_zone=$(sed -n 's/^; *TimeZoneString: *//p' "$demo" | head -n 1 | tr -d '\r')
start_files=(dist/index.html dist/www/*.js dist/www/*.css dist/www/pkg/schedlab.js dist/www/pkg/schedlab_bg.wasm "dist/www/tz/$demo_zone")
page_gz=0
for f in "${start_files[@]}"; do page_gz=$((page_gz + $(gz "$f"))); done
wasm=dist/www/pkg/schedlab_bg.wasm
echo "built dist/ ($(du -sh dist | cut -f1)); wasm $(wc -c < $wasm) bytes, $(gz $wasm) gzipped;" \
  "page $page_gz bytes gzipped on start (${#start_files[@]} files), demo trace $(gz "$demo") more"
