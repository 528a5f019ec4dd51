"""Difficulty levels from a level model (``puzzle-engine train``): the model to use, the
type's grader, and a judge that gives a puzzle's level (the run pipeline, ``run``, keeps
the puzzles of the level asked for).

A level model holds the grading options and solver it was trained with; a puzzle is
graded with those, and a model trained otherwise is refused. The judge also serves as the
complexity function ``difficulty`` (``--complexity difficulty``), which bins puzzles by
their level. The grading modules (scikit-learn) load only when a level is wanted.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import calls
from .errors import PuzzleInputError
from .explain.rating import step_rater
from .grading.levels import LevelModel, grading_signature
from .hookspecs import GradingSession, PuzzleType
from .types import Board, Complexity

#: The name of the complexity function a judge provides.
DIFFICULTY = "difficulty"
#: The graders of a level model: thresholds on ln(mean nodes), or the SVM.
WHICH = ("svm", "thresholds")


def make_grader(engine, ptype: PuzzleType, params: Mapping[str, Any], options):
    """The type's grader (``PuzzleType.grader``) for these params and grading options."""
    maker = engine.host.get("graders", ptype.grader, f" (named by {calls.owner(ptype)})")
    if getattr(options, "steps", False):  # the step rating is the explainer's: passed in
        made = maker.grader(engine, ptype, params, options,
                            rate_steps=step_rater(engine, ptype, params))
    else:
        made = maker.grader(engine, ptype, params, options)
    return engine.host.made("graders", ptype.grader, made, GradingSession, "grading")


def level_model(ptype: PuzzleType, params: Mapping[str, Any], model: Path | None,
                needed: bool):
    """The level model to use: ``model`` (``--model``), else the one the plugin ships for
    ``params``, else None (an error when ``needed``)."""
    path = model
    if path is None:
        path = calls.call(ptype, "grading_model", params=params)
        if path is None or not path.is_file():
            if needed:
                raise PuzzleInputError(f"no trained level model for '{ptype.name}' with these "
                                       "options: pass --model FILE from 'puzzle-engine train'")
            return None
    return LevelModel.load(path)


def check_model(level_model, engine, ptype: PuzzleType, params: Mapping[str, Any], options,
                grade) -> None:
    """Refuse ``level_model`` unless it was trained with the grading ``options``, the
    engine's solver and the features of ``grade`` (a puzzle graded with them)."""
    signature = grading_signature(options, engine.backend.solver_id, ptype.name, params)
    level_model.check_compatible(signature, list(grade.features()))


def checked_model(engine, ptype: PuzzleType, params: Mapping[str, Any], model: Path | None,
                  options, grade):
    """The level model for ``params`` (``model`` or the plugin's), refused unless it was
    trained with the same grading options, solver and features as ``grade``; or None."""
    found = level_model(ptype, params, model, False)
    if found is not None:
        check_model(found, engine, ptype, params, options, grade)
    return found


class Judge:
    """A level model with a grader built from the options it was trained with; ``which``
    of the model's graders gives the level."""

    def __init__(self, model, grader, which: str):
        self.model, self.grader, self.which = model, grader, which
        self.labels = model.labels
        # The model's content, not its path, tells a resumed batch it is the same model.
        try:
            self.digest = hashlib.sha256(Path(model.source).read_bytes()).hexdigest()[:16]
        except OSError:  # a model that is no file (inside a zipped package)
            self.digest = None
        self._checked = False

    def grade(self, board: Board):
        """The grade of ``board``, its level, and every grader's levels."""
        g = self.grader.grade(board)
        if not self._checked:
            check_model(self.model, self.grader.engine, self.grader.ptype, self.grader.params,
                        self.grader.options, g)
            self._checked = True
        levels = self.model.predict(g)
        return g, levels[self.which], levels

    def check_level(self, level: str) -> None:
        """Refuse a level the model does not know."""
        if level not in self.labels:
            raise PuzzleInputError(f"unknown --difficulty '{level}' (the levels of "
                                   f"{self.model.source}: {', '.join(self.labels)})")

    def complexity(self) -> Complexity:
        """The complexity function ``difficulty``: a puzzle's level."""
        return Complexity(DIFFICULTY, lambda ptype, params, board: self.grade(board)[1],
                          f"the level from {self.model.source} ({self.which})")

    def close(self) -> None:
        self.grader.close()


def make_judge(ptype: PuzzleType, params: Mapping[str, Any], model: Path | None, which: str,
          engine_for: Callable[[str], Any]) -> Judge:
    """The judge of ``model`` (or the plugin's level model) with its grader ``which``;
    ``engine_for(solver)`` is the engine on the solver the model was trained with."""
    if which not in WHICH:
        raise PuzzleInputError(f"bad --grader '{which}': expected svm or thresholds")
    found = level_model(ptype, params, model, True)
    engine = engine_for(found.grading["solver"])
    return Judge(found, make_grader(engine, ptype, params, found.grade_options(jobs=2)), which)


def check_complexity(host, name: str | None) -> None:
    """Refuse a complexity function that is neither registered nor ``difficulty`` (which
    a judge registers when it is asked for)."""
    if name is not None and name not in host.complexities:
        known = ", ".join(sorted([*host.complexities, DIFFICULTY]))
        raise PuzzleInputError(f"unknown complexity function '{name}' (known: {known})")
