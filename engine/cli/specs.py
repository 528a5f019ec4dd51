"""``puzzle-engine specs``: the templates (specs) that puzzle types ship, for types that
generate from templates (the ``Templates`` facet's ``shipped_specs``)."""
from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import calls
from ..errors import PluginError, PuzzleEngineError, PuzzleInputError
from ..hookspecs import Templates
from . import app
from .common import _errors, _host, err_console, out_console


ShowOpt = Annotated[Optional[str], typer.Option("--show", metavar="NAME", help="Print the "
                   "shipped spec NAME as it is (YAML), to read or to copy and change.")]


@app.command()
def specs(show: ShowOpt = None):
    """List the specs shipped with puzzle types that generate from templates (use one
    with ``gen TYPE --spec NAME``). A type whose list is broken is named on stderr and
    left out; the others are listed. With ``--show NAME``, print that spec."""
    with _errors():
        host = _host()
        if show is not None:
            _show(host, show)
            return
        table = Table("type", "spec", "about")
        for ptype in host.types.values():
            if not isinstance(ptype, Templates):
                continue
            try:
                found = calls.call(ptype, "shipped_specs")
                if not isinstance(found, dict) or not all(
                        isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
                    raise calls.bad_result("shipped_specs", ptype, found, "a dict of name to text")
            except PluginError as exc:
                err_console.print(f"puzzle-engine: warning: {exc}", markup=False)
                continue
            for name, about in found.items():
                table.add_row(ptype.name, name, about)
        out_console.print(table)


def _show(host, name: str) -> None:
    """The text of the shipped spec ``name``: from the first type that ships it and
    offers its text (``spec_text(name)``)."""
    shipped = []
    for ptype in host.types.values():
        if not isinstance(ptype, Templates):
            continue
        try:
            found = calls.call(ptype, "shipped_specs")
        except PuzzleEngineError:
            continue
        if not isinstance(found, dict):
            continue
        shipped += [k for k in found if isinstance(k, str)]
        if name not in found:
            continue
        text = calls.call(ptype, "spec_text", name=name)
        if text is None:
            continue
        if not isinstance(text, str):
            raise calls.bad_result("spec_text", ptype, text, "the spec's text")
        out_console.print(text, markup=False, highlight=False, end="" if
                          text.endswith("\n") else "\n", soft_wrap=True)
        return
    raise PuzzleInputError(f"bad --show '{name}': no shipped spec of that name "
                           f"(shipped: {', '.join(shipped) or 'none'}; see 'puzzle-engine "
                           "specs')")
