#!/usr/bin/env bash
# Builds the page and serves it on http://127.0.0.1:8000 (the demo trace loads and runs by itself).
# The responses but the page's carry its Content-Security-Policy as a header: the meta tag covers
# the page, but a module worker takes its policy from its own response.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-web.sh
echo "SchedLab on http://127.0.0.1:8000/ (Ctrl-C to stop)"
exec python3 - <<'PY'
import functools, http.server, re
csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', open("dist/index.html", encoding="utf-8").read()).group(1)
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".js": "text/javascript"}
    def end_headers(self):
        if not self.path.split("?")[0].endswith((".html", "/")):
            self.send_header("Content-Security-Policy", csp)
        super().end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", 8000), functools.partial(Handler, directory="dist")).serve_forever()
PY
