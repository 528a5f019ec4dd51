"""A logic puzzle on the HTML play page (``play_grid``): a ``ChoiceBoard``. A puzzle with
options (``A. ...`` lines closing its problem text, criterion's ``options``) is answered
by choosing one; any other by typing its answer (the key), a list of values (``camera,
book, rope``) in any order."""
from __future__ import annotations

import re

from puzzle_engine import ChoiceBoard

OPTION = re.compile(r"([A-Z])\. (.+)")
ANSWERS = "===="  #: between the answers of a puzzle with several questions


def play_grid(instance) -> ChoiceBoard:
    lines = instance.problem.split("\n")
    options: list[str] = []
    while lines and (found := OPTION.fullmatch(lines[-1].strip())):
        options.insert(0, found.group(2))
        lines.pop()
    letters = "".join(chr(ord("A") + k) for k in range(len(options)))
    if instance.check == "options" and options and len(options) == len(instance.options) \
            and instance.problem.count("\n" + letters[-1] + ". ") == 1 \
            and 0 <= instance.answer_index < len(options):
        return ChoiceBoard(question="\n".join(lines), options=tuple(options),
                           answer=instance.answer_index)
    return ChoiceBoard(question=instance.problem,
                       answer=instance.key.replace(ANSWERS, "; "), unordered=True)
