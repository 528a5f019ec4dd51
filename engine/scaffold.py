"""A new plugin package from a template (``puzzle-engine plugins new``): the templates
are files shipped with the engine (``plugin_template/``), filled in with
``string.Template``; one working puzzle per strategy, so the package installs, generates,
draws and passes the conformance kit (``puzzle_engine.testing``) as written.

The package, in a folder of its own::

    pyproject.toml           the entry point: group puzzle_engine, NAME = puzzle_engine_NAME
    README.md                how to install, try and test it
    puzzle_engine_NAME/__init__.py   the puzzle type: model data, formats, rules, drawing
    puzzle_engine_NAME/model.mzn     the MiniZinc model
    tests/test_NAME.py       the conformance kit on the type

It is written whole or not at all: into a hidden folder beside the target, then renamed.
"""
from __future__ import annotations

import keyword
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from string import Template

from .errors import PuzzleInputError
from .installer import installed_plugins

#: strategy -> what its template makes, and what its test gives the kit
STRATEGIES = {
    "emptying": {"about": "a random full board is emptied square by square while the "
                          "puzzle keeps one solution (GenPuzzles).",
                 "rules": "fill every row and every column with 1 to n, each once.",
                 "options": ("--size", "4"), "broken": ("12x.",)},
    "growing": {"about": "a level grows a piece at a time from an empty board; every level "
                         "that has one solution up to swapping identical pieces is kept.",
                "rules": "cover every white square with the listed trominoes (I: three in a "
                         "line, L: three in an L), each once.",
                "options": ("--rows", "4", "--cols", "4"), "broken": ("##./... I",)},
    "own": {"about": "the type draws random number triangles itself, and keeps the first "
                     "whose best path is unique and not the greedy one.",
            "rules": "walk from the top number to the bottom row, each step to one of the "
                     "two numbers just below, for the largest total.",
            "options": ("--rows", "4"), "broken": ("1/2 x",)},
}
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
MAX_NAME = 40


@dataclass
class Written:
    name: str
    strategy: str
    folder: Path
    files: list[str] = field(default_factory=list)


def _check_name(name: str) -> None:
    if not NAME.match(name) or len(name) > MAX_NAME:
        raise PuzzleInputError(f"bad plugin name {name!r}: lower-case letters, digits and "
                               f"single '-' between them, from a letter, at most {MAX_NAME} "
                               "characters (e.g. 'kakuro', 'star-battle')")
    taken = installed_plugins().get(name)
    if taken is not None:
        raise PuzzleInputError(f"{taken.line()} is installed already: choose another name")


def _values(name: str, strategy: str) -> dict[str, str]:
    snake = name.replace("-", "_")
    cls = "".join(part.capitalize() for part in name.split("-"))
    if keyword.iskeyword(cls):  # never: keywords are lower-case
        cls += "Puzzle"
    about = STRATEGIES[strategy]
    options = about["options"]
    return {"name": name, "snake": snake, "module": f"puzzle_engine_{snake}", "Class": cls,
            "title": name.replace("-", " ").capitalize(), "package": f"puzzle-engine-{name}",
            "strategy": strategy, "about": about["about"], "rules": about["rules"],
            "options": repr(tuple(options)), "cli_options": " ".join(options),
            "broken": repr(tuple(about["broken"]))}


def files_of(name: str, strategy: str) -> dict[str, str]:
    """The package's files, path (relative to its folder) -> text."""
    templates = files(__package__) / "plugin_template"
    values = _values(name, strategy)

    def fill(template: str) -> str:
        return Template((templates / template).read_text(encoding="utf-8")).substitute(values)

    module = values["module"]
    return {"pyproject.toml": fill("pyproject.toml.tmpl"),
            "README.md": fill("README.md.tmpl"),
            f"{module}/__init__.py": fill(f"{strategy}.py.tmpl"),
            f"{module}/model.mzn": (templates / f"{strategy}.mzn").read_text(encoding="utf-8"),
            f"tests/test_{values['snake']}.py": fill("test_plugin.py.tmpl")}


def write(name: str, strategy: str, folder: Path | None = None) -> Written:
    """Write the package of a new plugin ``name`` made by ``strategy`` into ``folder``
    (default ``./puzzle-engine-NAME``), which must not exist or be empty."""
    if strategy not in STRATEGIES:
        raise PuzzleInputError(f"bad --strategy '{strategy}': expected "
                               f"{', '.join(STRATEGIES)}")
    _check_name(name)
    folder = Path(folder) if folder is not None else Path(f"puzzle-engine-{name}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PuzzleInputError(f"--dir {folder}: exists and is not an empty folder")
    parent = folder.absolute().parent
    if not parent.is_dir():
        raise PuzzleInputError(f"--dir {folder}: no folder {parent} to write it in")
    contents = files_of(name, strategy)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=parent))
    except OSError as exc:
        raise PuzzleInputError(f"--dir {folder}: cannot write in {parent} "
                               f"({exc.strerror or exc})") from None
    try:
        for path, text in contents.items():
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        staging.chmod(0o755)
        if folder.exists():
            folder.rmdir()  # empty, checked above
        staging.rename(folder)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise PuzzleInputError(f"--dir {folder}: cannot write it ({exc.strerror or exc})") \
            from None
    return Written(name, strategy, folder, sorted(contents))
