"""Every example in docs/plugin-authoring.md runs as printed, on the real solvers.

Each file the document shows under a caption (a line '`name`:' and then a fenced block)
is written into a temporary directory exactly as printed. The Latin-square package is
built into a wheel from its printed pyproject.toml and installed into a target directory
(never the venv), as 'pip install ./latin_example' would install it. Then every command
of every console block is run in that directory by bash, with the installed plugin on
PYTHONPATH and a terminal 100 columns wide, and must print the lines the document shows
below it, stdout and stderr together as a terminal shows them (trailing spaces aside).
The try scripts of the three strategies generate on Gecode and on Chuffed.
"""
import importlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from puzzle_engine.plugins import get_host
from puzzle_engine.solving.compiled import CACHE_ENV

DOC = Path(__file__).resolve().parents[1] / "docs" / "plugin-authoring.md"
TEXT = DOC.read_text()
BIN = Path(sys.executable).parent


def captioned_files(text: str) -> dict[str, str]:
    """Every file the document shows: caption -> content."""
    found = {}
    for m in re.finditer(r"^`([\w./-]+)`:\n\n```\w*\n(.*?)^```", text, re.M | re.S):
        assert m.group(1) not in found, f"{m.group(1)} is shown twice in {DOC.name}"
        found[m.group(1)] = m.group(2)
    return found


def transcripts(text: str) -> list[tuple[str, str]]:
    """``(command, output)`` for each '$ ' line of each console block, in order."""
    found = []
    for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
        parts = re.split(r"^\$ ", block, flags=re.M)
        assert parts[0] == "", f"a console block in {DOC.name} starts with no command"
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            found.append((command, output))
    return found


FILES = captioned_files(TEXT)
COMMANDS = transcripts(TEXT)
#: The try script of each strategy's example, and the type it makes.
STRATEGIES = {"emptying": ("try_latin.py", "latin"), "growing": ("try_trominoes.py", "trominoes"),
              "own": ("try_triangle.py", "triangle")}


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The document's files as printed, and the Latin-square package installed from them
    into ``site``."""
    root = tmp_path_factory.mktemp("doc")
    for name, content in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    # Build from a copy: a build leaves build/ and an egg-info behind, and an egg-info
    # in latin_example/ would register the plugin a second time in the try scripts.
    src = root / "build-src"
    shutil.copytree(root / "latin_example", src)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(root / "wheels"), str(src)],
                   check=True, capture_output=True)
    wheels = [str(p) for p in (root / "wheels").glob("*.whl")]
    assert len(wheels) == 1, wheels
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(root / "site"), *wheels], check=True, capture_output=True)
    shutil.rmtree(src)
    return root


def test_the_latin_package_declares_its_entry_point():
    project = tomllib.loads(FILES["latin_example/pyproject.toml"])
    assert project["project"]["entry-points"]["puzzle_engine"] == {"latin": "puzzle_engine_latin"}
    assert project["tool"]["setuptools"]["py-modules"] == ["puzzle_engine_latin"]
    assert "PUZZLE_ENGINE_CONTRACT = 3" in FILES["latin_example/puzzle_engine_latin.py"]


def test_one_complete_example_per_strategy(workdir, monkeypatch):
    """Each strategy has a plugin module whose type uses it, registered as printed, and a
    try script that is run in a console block and generates on both solvers."""
    monkeypatch.syspath_prepend(str(workdir))
    monkeypatch.syspath_prepend(str(workdir / "latin_example"))
    host = get_host()
    modules = sorted(Path(n).stem for n in FILES if re.fullmatch(r"(.*/)?puzzle_engine_\w+\.py", n))
    assert {"puzzle_engine_latin", "puzzle_engine_trominoes", "puzzle_engine_triangle"} <= set(modules)
    for name in modules:
        assert host.register(importlib.import_module(name), name=name), host.failures
    assert not host.failures, host.failures
    commands = [c for c, _ in COMMANDS]
    for strategy, (script, type_name) in STRATEGIES.items():
        ptype = host.get_type(type_name)
        assert ptype.strategy == strategy and ptype.plugin.startswith("puzzle_engine_")
        assert any(c.endswith(f"python {script}") for c in commands), f"{script} is never run"
        assert 'for solver in ("gecode", "chuffed"):' in FILES[script], script


def test_every_try_script_is_run():
    scripts = [n for n in FILES if n.startswith("try_")]
    assert len(scripts) >= 4
    for script in scripts:
        assert any(c.endswith(f"python {script}") for c, _ in COMMANDS), script


def _run(workdir, command: str) -> str:
    """``command`` run by bash in ``workdir`` with the Latin-square plugin installed (on
    PYTHONPATH), no PUZZLE_ENGINE_* settings but the test session's FlatZinc cache, and a
    terminal 100 columns wide: what a terminal shows (stdout and stderr)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PUZZLE_ENGINE_") or k == CACHE_ENV}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(workdir / "site"),
               COLUMNS="100")
    proc = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    return proc.stdout


@pytest.mark.parametrize("command, shown", COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_command_prints_what_the_doc_shows(workdir, command, shown):
    assert _lines(_run(workdir, command)) == _lines(shown)


TRY = [(c, shown) for c, shown in COMMANDS if re.search(r"PYTHONPATH=\S+ python try_", c)]


@pytest.mark.parametrize("command, shown", TRY, ids=[c.split()[-1] for c, _ in TRY])
def test_the_try_scripts_work_with_the_plugin_installed(workdir, command, shown):
    """The document installs the Latin-square package before it runs the try scripts, so
    they must print the same with it installed: site-packages follows PYTHONPATH."""
    assert len(TRY) >= 4
    assert "PUZZLE_ENGINE_PLUGINS= PYTHONPATH=.:latin_example python" in command
    installed = command.replace("PYTHONPATH=.:latin_example",
                                f"PYTHONPATH=.:latin_example:{workdir / 'site'}")
    assert _lines(_run(workdir, installed)) == _lines(shown)
