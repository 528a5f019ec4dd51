"""``puzzle-engine render``: draw puzzles from INPUT (JSON Lines from ``gen``, or a puzzle
store with ``db query``'s filters) as a
printable sheet (SVG, PDF, PNG) with an optional answer key, or as an HTML page to play.
The work is ``puzzle_engine.render``'s; solutions come from the solver in effect."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import files
from ..engine import Engine
from ..errors import PuzzleInputError
from ..render import convert, document, hints, sheet
from ..render.caption import CAPTIONS
from ..render.sources import Entry, Selection, open_source
from ..store import Filters
from ..store.query import check_draw
from . import app, progress
from .db import ParamOpt, TypeOpt
from ..solving.discovery import find_solver
from .common import (ConfigOpt, SolverOpt, TimeOpt, _engine, _errors, _host, _settings,
                     err_console)
from .solve import _EngineFor


class _Solutions:
    """Each puzzle's solution, on the engine for its type and params (``solve``'s)."""

    def __init__(self, host, solver, config, time_limit):
        self._make = lambda ptype: _EngineFor(host, ptype, solver, config, time_limit)
        self._by_type: dict[str, _EngineFor] = {}

    def __call__(self, entry: Entry):
        name = entry.ptype.name
        if name not in self._by_type:
            self._by_type[name] = self._make(entry.ptype)
        engine = self._by_type[name](entry.params)
        result, solutions = engine.solve(entry.ptype, entry.params, entry.instance)
        if not solutions:
            what = ("the solver timed out (raise --time-limit)" if result.status == "unknown"
                    else "the puzzle has no solution")
            raise PuzzleInputError(f"{entry.where}: no answer to draw: {what}")
        return solutions[0]

    def key(self, entry: Entry):
        """The solution an answer key draws: one only for a puzzle its type's criterion
        accepts (a unique solution, for most types); for another, a one-line warning
        naming it, and None. A puzzle without a solution, or whose solve timed out, is
        refused as for the play page (``__call__``)."""
        name = entry.ptype.name
        if name not in self._by_type:
            self._by_type[name] = self._make(entry.ptype)
        engine = self._by_type[name](entry.params)
        criterion = engine.criterion(entry.ptype)
        verdict = criterion.judge(engine, entry.ptype, entry.params, entry.instance)
        if verdict.accepted:
            return verdict.solution if verdict.solution is not None else self(entry)
        if verdict.solutions == 0:
            return self(entry)  # no solution, or a time-out: refused, naming the puzzle
        what = ("has 2 or more solutions" if verdict.solutions >= 2 and criterion.name == "unique"
                else f"is not accepted by its criterion '{criterion.name}'")
        if verdict.accepted is None:
            what = f"could not be judged by its criterion '{criterion.name}' in time"
        err_console.print(f"puzzle-engine: warning: {entry.where}: the puzzle {what}: no "
                          "answer key drawn for it", markup=False)
        return None

    def close(self):
        for engines in self._by_type.values():
            engines.close()


class _Steps:
    """Each puzzle's explained steps for the play page's hints, on a CP-SAT engine per type
    (as ``explain`` runs)."""

    def __init__(self, host, config, seconds: float):
        self._make = lambda ptype: _engine(host, ptype, "cp-sat", config, None)
        self._by_type: dict[str, Engine] = {}
        self._seconds = seconds

    def __call__(self, entry: Entry, solution) -> list[dict]:
        name = entry.ptype.name
        if name not in self._by_type:
            self._by_type[name] = self._make(entry.ptype)
        try:
            return hints.explained_steps(self._by_type[name], entry.ptype, entry.params,
                                         entry.instance, seconds=self._seconds)
        except PuzzleInputError as exc:
            raise PuzzleInputError(f"{entry.where}: cannot explain the puzzle for its hints "
                                   f"(--no-explain gives plain hints): {exc}") from None

    def close(self):
        for engine in self._by_type.values():
            engine.close()


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given on the command line (not its default)."""
    source = ctx.get_parameter_source(name)  # Click's ParameterSource, vendored by Typer
    return getattr(source, "name", None) in ("COMMANDLINE", "ENVIRONMENT")


def _format_and_out(fmt: str | None, out: Path | None, source: str) -> tuple[str, Path]:
    """The format (``--format``, else ``--out``'s suffix, else pdf) and the file to write
    (``--out`` with the format's suffix added when it has none; else INPUT's name). A
    suffix that is no format, or not ``--format``'s, is refused."""
    if out is not None and str(out) == "-":
        raise PuzzleInputError("render writes files, not standard output: give --out a file "
                               "name")
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    if suffix and suffix not in document.FORMATS:
        raise PuzzleInputError(f"bad --out {out}: unknown suffix '.{suffix}' (expected "
                               f"{', '.join('.' + f for f in document.FORMATS)}, or none "
                               "for the format's own)")
    if fmt is None:
        fmt = suffix or "pdf"
    if fmt not in document.FORMATS:
        raise PuzzleInputError(f"bad --format '{fmt}': expected one of "
                               f"{', '.join(document.FORMATS)}")
    if suffix and suffix != fmt:
        raise PuzzleInputError(f"bad --out {out}: its suffix says {suffix}, but --format is "
                               f"{fmt} (name it {out.with_suffix('.' + fmt)})")
    if out is None:
        out = Path("puzzles" if source == "-" else Path(source).stem)
    return fmt, out if suffix else out.with_name(f"{out.name}.{fmt}")


def _selection(type_name, params, level, limit, draw) -> Selection | None:
    """The store's puzzles to draw (``db query``'s filters; no dates or batches, which
    'db query' shows), or None when no option chooses."""
    if type_name is None and not params and level is None and limit is None and draw is None:
        return None
    check_draw(limit, draw)
    return Selection(Filters.parse(type_name, params, level, None, None, None), limit, draw)


@app.command()
def render(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="INPUT", help="JSON Lines from 'gen --format "
                      "json' (a file, or - for stdin; puzzles of several types may mix), or a "
                      "store from 'batch --db' or 'gen --db' (its puzzles, in the order "
                      "stored; choose them with --type, --param, --level, --limit, --draw).")],
    fmt: Annotated[Optional[str], typer.Option("--format", help="svg, pdf, png (sheets) or "
                   "html (a page to play); default: from --out's suffix, else pdf.")] = None,
    per_page: Annotated[int, typer.Option("--per-page", help="Puzzles on a page.")] = 4,
    force: Annotated[bool, typer.Option("--force", help="Replace output files that are not "
                     "empty (without it, they are refused).")] = False,
    solutions: Annotated[bool, typer.Option("--solutions", help="Add the answer key, on "
                         "pages of its own.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="The file to write (default: "
                   "INPUT's name, in the working folder; the format's suffix is added when "
                   "it has none). SVG and "
                   "PNG write a file per page: OUT, or STEM-1.EXT, STEM-2.EXT...; the key "
                   "STEM-key.EXT...")] = None,
    paper: Annotated[str, typer.Option("--paper", help="a4, letter, or fit (each page "
                     "just holds its puzzles at their own size).")] = "a4",
    title: Annotated[str, typer.Option("--title", help="The title on every page.")] = "Puzzles",
    dpi: Annotated[float, typer.Option("--dpi", help="Resolution of PNG pages.")] = document.PNG_DPI,
    type_name: TypeOpt = None,
    param: ParamOpt = None,
    level: Annotated[Optional[str], typer.Option("--level", help="From a store: only puzzles "
                     "graded at this level (batch --difficulty or --grade).")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", help="From a store: at most this "
                     "many (the first stored, or with --draw a random draw).")] = None,
    draw: Annotated[Optional[int], typer.Option("--draw", help="From a store: draw --limit "
                    "puzzles at random with this seed (the same seed, the same draw).")] = None,
    solver: SolverOpt = None,
    config: ConfigOpt = None,
    time_limit: TimeOpt = None,
    no_explain: Annotated[bool, typer.Option("--no-explain", help="HTML: plain hints (the "
                          "first square filled in wrong, else the first empty one), without "
                          "running the explainer (seconds to minutes a puzzle, by type and size: "
                          "see the user guide).")] = False,
    caption_mode: Annotated[str, typer.Option("--caption", help="Under each puzzle: short "
                            "(number, type, level or rating, the parameters you set and the "
                            "id that makes it again), full (also the plugin version and the "
                            "solver), or none.")] = "short",
    explain_seconds: Annotated[float, typer.Option("--explain-seconds", help="HTML: the "
                               "explainer's CPU seconds for each puzzle's hints (at least its "
                               "first round); past them, only reasons of one group, and the "
                               "solution's value (a plain hint) where none is found.")] = 0.25,
):
    """Draw puzzles: a printable sheet with an answer key, or an HTML page to play."""
    with _errors():
        fmt, out = _format_and_out(fmt, out, source)
        if caption_mode not in CAPTIONS:
            raise PuzzleInputError(f"bad --caption '{caption_mode}': expected one of "
                                   f"{', '.join(CAPTIONS)}")
        if per_page < 1:
            raise PuzzleInputError(f"bad --per-page {per_page}: must be at least 1")
        if paper in sheet.PAPERS and per_page > sheet.most_per_page(paper):
            raise PuzzleInputError(f"bad --per-page {per_page}: at most "
                                   f"{sheet.most_per_page(paper)} puzzles fit a page of "
                                   f"{paper}, whatever they are (or use --paper fit)")
        if not 24 <= dpi <= 1200:
            raise PuzzleInputError(f"bad --dpi {dpi:g}: expected 24 to 1200")
        if paper not in (*sheet.PAPERS, sheet.FIT):
            raise PuzzleInputError(f"bad --paper '{paper}': expected one of "
                                   f"{', '.join((*sheet.PAPERS, sheet.FIT))}")
        selection = _selection(type_name, param, level, limit, draw)
        files.check_out(out, force=force, new_file=True, devices=False)
        if not explain_seconds > 0:
            raise PuzzleInputError(f"bad --explain-seconds {explain_seconds:g}: must be "
                                   "more than 0")
        html_only = {"no_explain", "explain_seconds"}
        given = {name for name in ("solutions", "per_page", "paper", "dpi", *html_only)
                 if _given(ctx, name)}
        ignored = (given - html_only if fmt == "html"
                   else given & {"dpi", *html_only} if fmt != "png" else given & html_only)
        for name in sorted(ignored):
            err_console.print(f"puzzle-engine: warning: --{name.replace('_', '-')} does "
                              f"nothing for --format {fmt}", markup=False)
        if fmt in ("pdf", "png"):
            try:
                convert.check_available()
            except convert.MissingExtraError as exc:
                if _given(ctx, "fmt"):
                    raise
                raise convert.MissingExtraError(f"{exc} (PDF is the default format: "
                                                "--format svg or html needs no extra)") from None
        # The solver in effect (a bad --solver or --config) is checked before the input
        # is read, as 'solve' does, when it is named or will solve (keys, play page).
        if solver is not None or config is not None or solutions or fmt == "html":
            find_solver(_settings(None, solver, config, time_limit).solver)
        host = _host()
        entries = open_source(host, source, selection).entries()
        solve = _Solutions(host, solver, config, time_limit)
        steps = None if no_explain or fmt != "html" else _Steps(host, config, explain_seconds)
        try:
            with progress.bar() as shown:
                written = document.render(entries, fmt, out, solve, per_page=per_page,
                                          solutions=solutions, paper=paper, title=title,
                                          dpi=dpi, steps=steps, key=solve.key, force=force,
                                          captions=caption_mode,
                                          progress=progress.Stages(shown))
        finally:
            solve.close()
            if steps is not None:
                steps.close()
        for path in written:
            err_console.print(f"puzzle-engine: wrote {path}", markup=False)
