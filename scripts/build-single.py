#!/usr/bin/env python3
"""Builds dist/schedlab.html: the whole page in one file that works when opened from disk.

Browsers refuse ES modules, module workers and fetch() on file:// pages, so this file uses
wasm-bindgen's `no-modules` glue in classic scripts, the wasm inlined as base64 and compiled
once on the page, and classic workers made from a Blob that receive the compiled
WebAssembly.Module by postMessage; the page instantiates the same module for its charts. The page's own scripts are reused verbatim, less their
import/export lines and the block that only module builds need.

The tz database goes in too: the served page fetches the TZif file of the zone a trace names
(tz/Area/City), which a page opened from disk cannot, so its workers carry every zone's file.

Usage: build-single.py GLUE.js WASM INDEX.html WWW_DIR TZ_DIR OUT.html
"""

import base64
import gzip
import json
import os
import re
import sys


def strip_module_syntax(src: str) -> str:
    src = re.sub(r"^import .*?;\n", "", src, flags=re.M | re.S)
    src = re.sub(r"^export (const|function|class|async function) ", r"\1 ", src, flags=re.M)
    src = re.sub(r"// @module-only-begin\n.*?// @module-only-end\n", "", src, flags=re.S)
    return src


def check_no_clashes(sources: dict) -> None:
    """Fails the build if two modules declare the same top-level name: joined into one script,
    the later declaration would silently replace the earlier one."""
    seen = {}
    for name, src in sources.items():
        for m in re.finditer(r"^(?:async function|function|const|let|class) (\w+)", src, flags=re.M):
            other = seen.setdefault(m.group(1), name)
            if other != name:
                sys.exit(f"build-single: {m.group(1)} is declared at top level in both {other} and {name}")


def js_string(text: str) -> str:
    """A JavaScript string literal that cannot close the surrounding <script> element."""
    return json.dumps(text).replace("</", "<\\/")


def zone_table(tz_dir: str) -> str:
    """`zoneFile(name)` for the Blob worker: every TZif file under `tz_dir` by its zone name,
    each distinct file once (a zone and its aliases share one)."""
    names, data, index = {}, [], {}
    paths = sorted(os.path.join(root, f) for root, _, files in os.walk(tz_dir) for f in files)
    for path in paths:
        b64 = base64.b64encode(open(path, "rb").read()).decode()
        names[os.path.relpath(path, tz_dir).replace(os.sep, "/")] = index.setdefault(b64, len(index))
        if len(index) > len(data):
            data.append(b64)
    if not names:
        sys.exit(f"build-single: no zone files in {tz_dir}")
    return (
        f"const ZONES = {json.dumps(names, sort_keys=True)};\n"
        f"const ZONE_DATA = {json.dumps(data)};\n"
        "async function zoneFile(name) {\n"
        "  if (!(name in ZONES)) throw new Error(`no zone ${name}`);\n"
        "  return Uint8Array.from(atob(ZONE_DATA[ZONES[name]]), (c) => c.charCodeAt(0));\n"
        "}\n"
    )


def main() -> None:
    glue_path, wasm_path, index_path, www, tz_dir, out_path = sys.argv[1:7]
    glue = open(glue_path, encoding="utf-8").read()
    wasm_b64 = base64.b64encode(open(wasm_path, "rb").read()).decode()
    demo = open(f"{www}/demo/KTH-SP2-1996-2.1-cln.excerpt.swf", "rb").read()
    demo_b64 = base64.b64encode(gzip.compress(demo, 9, mtime=0)).decode()
    worker_src = open(f"{www}/worker.js", encoding="utf-8").read()
    worker_body = worker_src.split("// @shared\n", 1)[1]
    # The modules in dependency order, concatenated into one scope, so their names must not clash.
    sources = {
        name: strip_module_syntax(open(f"{www}/{name}", encoding="utf-8").read())
        for name in ("figures.js", "study.js", "learn.js", "app.js")
    }
    check_no_clashes(sources)
    # The served page imports these modules when a view first needs them; here they are in the
    # one scope already, and the platform hands over their exports.
    lazy = ("study.js", "learn.js")
    panel_names = [
        m.group(1)
        for name in lazy
        for m in re.finditer(r"^export (?:const|function|async function|class) (\w+)", open(f"{www}/{name}", encoding="utf-8").read(), flags=re.M)
    ]
    modules = "\n".join(sources.values())
    css = open(f"{www}/style.css", encoding="utf-8").read()
    index = open(index_path, encoding="utf-8").read()
    body = re.search(r"<body>(.*)</body>", index, flags=re.S).group(1)
    # The markup of the views the served page fetches later goes into their empty sections here.
    panels_html = open(f"{www}/panels.html", encoding="utf-8").read()
    for m in re.finditer(r'<section id="([^"]+)">(.*?)</section>\n(?=<section id=|$)', panels_html, flags=re.S):
        shell = re.search(r'<section\b[^>]*\bid="%s"[^>]*>(?=</section>)' % re.escape(m.group(1)), body)
        body = body[: shell.end()] + m.group(2) + body[shell.end() :]

    worker_blob = (
        glue
        + "\nconst engine = wasm_bindgen;\n"
        + "let gotModule;\n"
        + "const ready = new Promise((r) => (gotModule = r)).then((m) => wasm_bindgen({ module_or_path: m }));\n"
        + "const wholeEngine = () => ready.then(() => engine); // this file's one wasm has every export\n"
        + "self.addEventListener('message', (e) => {\n"
        + "  if (e.data && e.data.wasmModule) { gotModule(e.data.wasmModule); e.stopImmediatePropagation(); }\n"
        + "});\n"
        + zone_table(tz_dir)
        + worker_body
    )
    platform = f"""
const WASM_MODULE = WebAssembly.compile(Uint8Array.from(atob({js_string(wasm_b64)}), (c) => c.charCodeAt(0)));
const WORKER_URL = URL.createObjectURL(new Blob([{js_string(worker_blob)}], {{ type: 'text/javascript' }}));
{glue}
globalThis.SCHEDLAB_PLATFORM = {{
  async engine() {{
    await wasm_bindgen({{ module_or_path: await WASM_MODULE }});
    return wasm_bindgen;
  }},
  async wholeEngine() {{
    return this.engine(); // one wasm with every export
  }},
  async panels() {{
    return {{ {", ".join(panel_names)} }};
  }},
  worker() {{
    const w = new Worker(WORKER_URL);
    WASM_MODULE.then((m) => w.postMessage({{ wasmModule: m }}));
    return w;
  }},
  async demo() {{
    const gz = Uint8Array.from(atob({js_string(demo_b64)}), (c) => c.charCodeAt(0));
    return gz; // the engine reads gzip itself
  }},
}};
"""
    csp = (
        "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:; "
        "style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; object-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )
    html = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>SchedLab — parallel job scheduling in your browser (single file)</title>
<link rel="icon" href="data:,">
<style>
{css}</style>
</head>
<body>{body}<script>
(() => {{
{platform}
{modules}
}})();
</script>
</body>
</html>
"""
    # The page's module <script> tag is not part of <body>, so nothing refers to www/ any more.
    assert "www/" not in body
    open(out_path, "w", encoding="utf-8").write(html)


if __name__ == "__main__":
    main()
