"""The engine factory: the solver settings a command resolved, as plain data that crosses
to worker processes and Dask workers, and the one place an ``Engine`` is made from them
(in the command, and once per worker), so that a worker's puzzle for a seed is the one the
command itself would make."""
from __future__ import annotations

from dataclasses import dataclass

from .. import calls
from ..engine import Engine
from ..hookspecs import PuzzleType
from ..solving.backend import Backend
from ..solving.discovery import find_solver


@dataclass(frozen=True)
class SolverSettings:
    """A backend as the command resolved it."""

    solver: str
    time_limit: float | None
    free_search: bool
    check_flags: tuple[str, ...] | None  # None: the solver's default

    @classmethod
    def of(cls, backend: Backend) -> "SolverSettings":
        return cls(backend.info.id, backend.time_limit, backend.free_search,
                   tuple(backend.check_flags))

    @classmethod
    def resolved(cls, ptype: PuzzleType | None, settings) -> "SolverSettings":
        """The settings of the engine for ``ptype`` (if any) from ``settings``, those the
        command resolved (``config.resolve``): the type decides free search where they
        leave it open."""
        info = find_solver(settings.solver)
        free = settings.free_search
        if free is None:
            free = ptype is not None and calls.wants_free_search(ptype, info.id, info.tags)
        flags = settings.check_flags
        return cls(settings.solver, settings.time_limit, bool(free),
                   tuple(flags) if flags is not None else None)

    def backend(self) -> Backend:
        return Backend(self.solver, self.time_limit, free_search=self.free_search,
                       check_flags=self.check_flags)

    def engine(self, host) -> Engine:
        """An engine of ``host``'s plugins on these settings."""
        return Engine(host, self.backend())
