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

# Two wasm files: schedlab_all_bg.wasm with every export (and its glue schedlab_all.js), and
# schedlab_bg.wasm, the one the page opens with, built without the feature `whole`: it lacks
# the exports of the studies, Learn, explain, the generator, the load sweep, the
# AccountingLoader and the downloads (a chart's SVG, a schedule, the trace as SWF), and the
# linker leaves out the code and data only they reach. The page and its workers load the whole
# one when a view, task or download first needs it; the loader worker, when a file is not SWF.
# binaryen's optimizer (the npm package: Debian's older wasm-opt breaks wasm-bindgen's externref
# tables) shrinks each by about a tenth.
[ -x node_modules/binaryen/bin/wasm-opt ] && [ -x node_modules/.bin/esbuild ] || npm ci --no-audit --no-fund
features=(--enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-multivalue)
raw=target/wasm32-unknown-unknown/wasm/schedlab.wasm
rm -rf www/pkg
cargo build --lib --profile wasm --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir www/pkg --out-name schedlab_all "$raw"
# The single-file build has one wasm, the whole one, loaded by the classic (no-modules) glue.
wasm-bindgen --target no-modules --no-typescript --out-dir target/pkg-no-modules --out-name schedlab_all "$raw"
cargo build --lib --profile wasm --target wasm32-unknown-unknown --no-default-features
wasm-bindgen --target web --no-typescript --out-dir www/pkg "$raw"
for w in www/pkg/schedlab_all_bg.wasm www/pkg/schedlab_bg.wasm; do
  node_modules/binaryen/bin/wasm-opt -Oz --converge --strip-producers "${features[@]}" "$w" -o "$w"
done
cp www/pkg/schedlab_all_bg.wasm target/pkg-no-modules/schedlab_all_bg.wasm

rm -rf www/tz
cargo run --release --quiet --example tzdb -- www/tz

rm -rf dist
mkdir -p dist/www
cp index.html dist/
cp -r www/*.js www/*.css www/*.html www/demo www/pkg www/tz dist/www/
# The served scripts, style and glue minified (comments and long names cost a third of their
# gzipped size); www/ keeps the sources, which the single-file build and the tests read.
node_modules/.bin/esbuild dist/www/*.js dist/www/pkg/schedlab.js dist/www/pkg/schedlab_all.js dist/www/style.css --minify --log-level=warning \
  --outdir=dist/www --outbase=dist/www --allow-overwrite
python3 scripts/build-single.py target/pkg-no-modules/schedlab_all.js target/pkg-no-modules/schedlab_all_bg.wasm \
  index.html www www/tz dist/schedlab.html

# What opening the page downloads, each file gzipped (-9) as a server sends it: the page, its
# scripts and style, the glue, the wasm and the demo's zone file; the demo trace is counted aside.
gz() { gzip -9c "$1" | wc -c; }
demo=dist/www/demo/KTH-SP2-1996-2.1-cln.excerpt.swf
demo_zone=$(sed -n 's/^; *TimeZoneString: *//p' "$demo" | head -n 1 | tr -d '\r')
# The modules of the study panels, the Load view and Learn (and their markup, panels.html) load
# when a view first shows them (app.js's PLATFORM.panels);
# tests/browser/compact.test.mjs checks what the page fetches as it opens.
start_js=()
for f in dist/www/*.js; do
  case $(basename "$f") in study.js | learn.js) ;; *) start_js+=("$f") ;; esac
done
start_files=(dist/index.html "${start_js[@]}" dist/www/*.css dist/www/pkg/schedlab.js dist/www/pkg/schedlab_bg.wasm "dist/www/tz/$demo_zone")
page_gz=0
for f in "${start_files[@]}"; do page_gz=$((page_gz + $(gz "$f"))); done
wasm=dist/www/pkg/schedlab_bg.wasm
all=dist/www/pkg/schedlab_all_bg.wasm
echo "built dist/ ($(du -sh dist | cut -f1)); wasm on start $(wc -c < $wasm) bytes, $(gz $wasm) gzipped" \
  "(the whole one, loaded when first needed: $(wc -c < $all) bytes, $(gz $all) gzipped);" \
  "page $page_gz bytes gzipped on start (${#start_files[@]} files), demo trace $(gz "$demo") more"
