"""Grading: the multiple method of paper 002 (``multiple``), registered as the grader
``multiple``, and difficulty levels learnt from labelled puzzles (``levels``)."""
from .multiple import (MAX_JOBS, MULTIPLE, PLAIN, STRENGTHENED, Grade, GradeOptions, Grader,
                       LevelStats, PassStats)

__all__ = ["MAX_JOBS", "MULTIPLE", "PLAIN", "STRENGTHENED", "Grade", "GradeOptions", "Grader",
           "LevelStats", "PassStats"]
