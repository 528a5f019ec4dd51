"""Explanations: the next deductions of a puzzle, each with a smallest reason over the
constraint groups its type declares (``Explanation.constraint_groups``), found in-process
with CP-SAT on the type's flattened MiniZinc model. See ``explainer`` for the method."""
from .explainer import Explainer, Explanation, Fact, Step

__all__ = ["Explainer", "Explanation", "Fact", "Step"]
