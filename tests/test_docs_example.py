"""The complete example in docs/plugin-authoring.md works as printed: its files are taken
from the Markdown, its entry point is declared in the puzzle_engine group, and its
try-it script prints exactly the output the document shows, on both solvers."""
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "plugin-authoring.md"


def _block(text, caption):
    """The fenced block that follows the line '`caption`:'."""
    m = re.search(rf"^`{re.escape(caption)}`:\n\n```\w*\n(.*?)^```", text, re.M | re.S)
    assert m, f"no code block after `{caption}`: in {DOC.name}"
    return m.group(1)


def test_documented_plugin_runs_as_printed(tmp_path):
    text = DOC.read_text()
    project = tomllib.loads(_block(text, "latin_example/pyproject.toml"))
    assert project["project"]["entry-points"]["puzzle_engine"] == {"latin": "puzzle_engine_latin"}
    (tmp_path / "puzzle_engine_latin.py").write_text(
        _block(text, "latin_example/puzzle_engine_latin.py"))
    (tmp_path / "try_latin.py").write_text(_block(text, "try_latin.py"))

    m = re.search(r"^```console\n\$ PYTHONPATH=\. python try_latin\.py\n(.*?)^```", text, re.M | re.S)
    assert m, "the output of try_latin.py is not shown"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PUZZLE_ENGINE_")}
    proc = subprocess.run([sys.executable, "try_latin.py"], cwd=tmp_path, capture_output=True,
                          text=True, env={**env, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == m.group(1)
