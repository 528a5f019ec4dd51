"""``puzzle-engine specs``: the templates (specs) that puzzle types ship, for types that
generate from templates (the ``Templates`` facet's ``shipped_specs``)."""
from __future__ import annotations

from rich.table import Table

from .. import calls
from ..errors import PluginError
from ..hookspecs import Templates
from . import app
from .common import _errors, _host, err_console, out_console


@app.command()
def specs():
    """List the specs shipped with puzzle types that generate from templates (use one
    with ``gen TYPE --spec NAME``). A type whose list is broken is named on stderr and
    left out; the others are listed."""
    with _errors():
        host = _host()
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
