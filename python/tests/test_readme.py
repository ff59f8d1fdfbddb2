"""The README's sweep on a LocalCluster, saved as a script and run as a user runs it: its
workers re-import the script, which must not start a second sweep."""

import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
SACCT = ROOT.parent / "shared" / "accounting-logs" / "slurm2sql__test-data1.csv"


def test_the_readme_sweep_runs_as_a_script(tmp_path):
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- readme-sweep -->\n```python\n(.*?)```", readme, re.S)
    assert block, "the README's sweep block"
    script = tmp_path / "sweep.py"
    script.write_text(block.group(1))
    out = subprocess.run([os.sys.executable, str(script), str(SACCT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[0].split() == ["rank", "degradation", "window"]
    assert sorted(line.split()[2] for line in lines[1:4]) == ["1", "2", "4"]
