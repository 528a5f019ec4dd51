"""A throwaway virtual environment that sees the project's: plugins installed into it with
``puzzle-engine plugins install`` (pip, run by its own interpreter) land in it and never
in the test venv, while puzzle-engine, pip, setuptools and pytest come from the test venv.

It is made without pip (fast: no wheels unpacked); a ``.pth`` file in its site-packages
adds the test venv's site-packages as a site directory (its own ``.pth`` files, the
editable install of puzzle-engine, included). pip, run by the throwaway interpreter,
installs into the throwaway's site-packages, and refuses to remove anything outside it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from puzzle_engine.solving.compiled import CACHE_ENV


@dataclass
class Venv:
    root: Path
    python: Path
    site: Path

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a command in the venv: no PUZZLE_ENGINE_* setting but the
        test session's FlatZinc cache, no PYTHONPATH."""
        env = {k: v for k, v in os.environ.items()
               if (not k.startswith("PUZZLE_ENGINE_") or k == CACHE_ENV)
               and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update(extra)
        return env

    def run(self, *args: str, cwd: Path | None = None, input: str | None = None,
            timeout: float = 900) -> subprocess.CompletedProcess:
        """``python ARGS`` in the venv."""
        return subprocess.run([str(self.python), *args], cwd=cwd or self.root, env=self.env(),
                              input=input, text=True, capture_output=True, timeout=timeout)

    def pe(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        """``puzzle-engine ARGS`` run by the venv's interpreter."""
        return self.run("-m", "puzzle_engine", *args, **kwargs)

    def plugins(self) -> dict[str, dict]:
        """``plugins --json`` in the venv, by plugin name."""
        proc = self.pe("plugins", "--json")
        assert proc.returncode == 0, proc.stderr
        import json
        return {p["name"]: p for p in json.loads(proc.stdout)}


def make_venv(root: Path, also: tuple[Path, ...] = ()) -> Venv:
    """A venv at ``root`` that sees the test venv's packages, and those of the site
    directories ``also`` (another such venv's, before the test venv's)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True,
                   capture_output=True)
    python = root / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    project_site = sysconfig.get_paths()["purelib"]
    dirs = [*map(str, also), project_site]
    (site / "zz_project_site.pth").write_text(
        "".join(f"import site; site.addsitedir({d!r})\n" for d in dirs))
    return Venv(root, python, site)
