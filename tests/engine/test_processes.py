"""No process the engine starts outlives it, and no temporary folder outlives the next
start: workers, solvers, MiniZinc and the resource tracker, under SIGINT, SIGTERM and
SIGKILL. Each command runs as the real console script in a session of its own, so that
every process it starts can be found by its session id."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from puzzle_engine import processes
from puzzle_engine.solving import cpsat

CLI = Path(sys.executable).with_name("puzzle-engine")
#: A batch of many solver runs (16x16 Sudoku on Gecode), in two worker processes
#: (Fillomino decides most removals by its own deductions now, with no solver running),
#: far too long to end before a test signals it, however loaded the machine (4 puzzles
#: did end first: the test never saw two solvers at once).
BATCH = ["gen", "sudoku", "--size", "16", "--solver", "gecode", "--time-limit", "20",
         "--count", "1000", "--seed", "1", "--format", "json", "--workers", "2"]
#: A model Gecode cannot finish in minutes with n = 14: n pigeons, n - 1 holes, no
#: global reasoning.
PIGEONS = ("int: n;\narray[1..n] of var 1..n-1: x;\n"
           "constraint forall(i, j in 1..n where i < j)(x[i] != x[j]);\nsolve satisfy;\n")


def live_processes():
    """``(pid, parent pid, session id, command line)`` of each live process (zombies are
    dead), read from /proc."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            yield int(entry.name), int(fields[1]), int(fields[3]), cmd.strip()


def session(sid: int) -> list[str]:
    """The command lines of the live processes of session ``sid``."""
    return [cmd for _, _, session_id, cmd in live_processes() if session_id == sid]


def children(pid: int, word: str) -> list[str]:
    """The live child processes of ``pid`` whose command line holds ``word``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, NotADirectoryError):
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z" and word in cmd:
            found.append(cmd)
    return found


def start(argv, tmp_path, ignore=()):
    """``argv`` in a session of its own, with the default dispositions of the signals the
    tests send (a test run started as a background job inherits SIGINT ignored), but for
    those in ``ignore``."""
    def dispositions():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN if sig in ignore else signal.SIG_DFL)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    return subprocess.Popen(argv, start_new_session=True, env=env, cwd=tmp_path, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=dispositions)


#: The most a test waits for something that must happen (solvers to start, a marker): a
#: guard against a hung test only, never a time anything is expected to take.
SAFETY = 600
#: How soon a signalled command must be gone: far less than the work it stops would take
#: (a 600 s time limit, a puzzle of a minute), and room for a loaded machine: the command
#: itself answers in well under 2 s when idle.
STOPPED = 30.0


def wait_for(condition, seconds: float) -> float:
    """Poll ``condition`` until it holds; how long that took (``seconds`` at the most)."""
    begin = time.monotonic()
    while not condition() and time.monotonic() - begin < seconds:
        time.sleep(0.05)
    return time.monotonic() - begin


def running_solvers(proc, count=1, keepers=0) -> None:
    """Wait until ``count`` solvers of ``proc``'s session run at once, and it has
    ``keepers`` keepers (each worker starts one with its first solver, and keeps it)."""
    seen = []

    def ready(found):
        return (sum("fzn-" in c for c in found) >= count
                and sum("read _; kill" in c for c in found) >= keepers)
    wait_for(lambda: ready(seen.append(session(proc.pid)) or seen[-1])
             or proc.poll() is not None, SAFETY)
    assert ready(seen[-1]), (proc.poll(), seen[-1])


def owned_dirs(tmp_path):
    return sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(processes.PREFIX))


@pytest.mark.parametrize("sig, to_group, code", [
    (signal.SIGINT, True, 130),     # Ctrl-C: the terminal signals the whole process group
    (signal.SIGTERM, False, 143),   # kill PID
    (signal.SIGTERM, True, 143),    # kill -- -PGID
    (signal.SIGKILL, False, -9),    # kill -9 PID: only the kernel acts
])
def test_a_killed_batch_leaves_no_process(tmp_path, sig, to_group, code):
    out = tmp_path / "batch.jsonl"
    proc = start([str(CLI), *BATCH, "--out", str(out)], tmp_path)
    try:
        # Both workers have started solvers (a keeper each), and a solver runs: two at
        # once, as asked before, could be missed by every look on a loaded machine.
        running_solvers(proc, 1, keepers=2)
        before = session(proc.pid)
        assert sum("spawn_main" in c for c in before) == 2, before  # the two workers
        assert sum("read _; kill" in c for c in before) == 2, before  # and their keepers
        assert any("resource_tracker" in c for c in before), before
        (os.killpg if to_group else os.kill)(proc.pid, sig)
        took = wait_for(lambda: not session(proc.pid), STOPPED)
        assert session(proc.pid) == [], f"still running {took:.1f} s after {sig.name}"
        assert took < STOPPED, f"{sig.name}: the command took {took:.1f} s to end"
        assert proc.wait(SAFETY) == code
    finally:
        with_group_killed(proc)
    if sig != signal.SIGKILL:
        assert "interrupted; the finished puzzles are in" in proc.stderr.read()
        assert owned_dirs(tmp_path) == []
    else:  # nothing could clean up; the next start sweeps the dead processes' folders
        assert len(owned_dirs(tmp_path)) >= 2
        swept = start([str(CLI), "plugins"], tmp_path)
        assert swept.wait(SAFETY) == 0
        assert owned_dirs(tmp_path) == []
    # what was finished is whole, and resumes to the batch
    kept = out.read_text() if out.exists() else ""
    assert all(json.loads(line)["seed"] == 1 + i for i, line in enumerate(kept.splitlines()))


def pigeons(tmp_path, call: str, handlers: bool = True):
    """A process that runs one solve of minutes, ``Backend('gecode').CALL`` on the
    pigeonhole model, set up as the command is (``handle_signals``) or as a library user's
    program is; started, with its solver running."""
    script = tmp_path / "pigeons.py"
    script.write_text(
        "from puzzle_engine import processes\n"
        "from puzzle_engine.solving.backend import Backend\n"
        "from puzzle_engine import PuzzleType\n"
        + ("processes.handle_signals()\n" if handlers else "")
        + f"t = type('Pigeons', (PuzzleType,), dict(name='pigeons', models=({PIGEONS!r},), "
        "decision='x'))()\n"
        f"Backend('gecode', time_limit=600).{call}\n")
    proc = start([sys.executable, str(script)], tmp_path)
    running_solvers(proc)
    return proc


def assert_all_end(proc, sig, to_group=False) -> None:
    """Send ``sig`` (to the process group, like a terminal's Ctrl-C, with ``to_group``):
    every process of the session ends soon (``STOPPED``)."""
    (os.killpg if to_group else os.kill)(proc.pid, sig)
    took = wait_for(lambda: not session(proc.pid), STOPPED)
    assert session(proc.pid) == [], f"still running {took:.1f} s after {sig.name}"
    assert took < STOPPED


@pytest.mark.parametrize("sig, to_group", [
    (signal.SIGINT, True), (signal.SIGTERM, False), (signal.SIGKILL, False)])
def test_a_killed_engine_leaves_no_solver(tmp_path, sig, to_group):
    """A compiled check: its solver runs in a process group of its own, which the
    terminal's Ctrl-C does not reach, so the engine ends it, or its keeper does."""
    proc = pigeons(tmp_path, "compile(t, {'n': 14}).count((0,) * 14, 1)")
    try:
        assert_all_end(proc, sig, to_group)
    finally:
        with_group_killed(proc)


def marked(tmp_path, argv, nth: int, thread: str = "main", prelude: str = ""):
    """``puzzle-engine ARGV`` as the console script runs it (after ``prelude``), in a
    program that creates the file it returns when its ``nth`` in-process CP-SAT search
    (``run_interruptibly``) begins, counting those of the main thread (``thread="main"``)
    or of other threads (``"other"``): the event a test waits for before it signals."""
    marker = tmp_path / "searching"
    script = tmp_path / "marked.py"
    script.write_text(
        prelude +
        "import sys, threading\n"
        "from pathlib import Path\n"
        "from puzzle_engine.solving import cpsat\n"
        "run, seen, lock = cpsat.run_interruptibly, [], threading.Lock()\n"
        "def counted(*args, **kwargs):\n"
        "    main = threading.current_thread() is threading.main_thread()\n"
        f"    if main == {thread == 'main'!r}:\n"
        "        with lock:\n"
        "            seen.append(1)\n"
        f"            if len(seen) == {nth}:\n"
        f"                Path({str(marker)!r}).touch()\n"
        "    return run(*args, **kwargs)\n"
        "cpsat.run_interruptibly = counted\n"
        "from puzzle_engine.cli import main\n"
        f"sys.argv = ['puzzle-engine', *{list(argv)!r}]\n"
        "main()\n")
    return start([sys.executable, str(script)], tmp_path), marker


def wait_for_marker(proc, marker) -> None:
    wait_for(lambda: marker.exists() or proc.poll() is not None, SAFETY)
    assert marker.exists() and proc.poll() is None, proc.poll()


@pytest.mark.parametrize("sig, probes, nth, thread, code", [
    (signal.SIGINT, "1", 2, "main", 130), (signal.SIGINT, "2", 1, "other", 130),
    (signal.SIGTERM, "1", 2, "main", 143), (signal.SIGTERM, "1", 12, "main", 143)])
def test_an_interrupt_stops_an_in_process_cp_sat_search(tmp_path, sig, probes, nth, thread,
                                                        code):
    """CP-SAT runs inside the engine. It must neither take Ctrl-C for itself (it would
    end the search as a time-out, and the batch go on) nor hold the command until its
    time limit, nor outlive the interpreter (an abort, exit 134, 'terminate called...',
    which came in some runs only: hence two SIGTERM moments). The command ends within 2 s
    of the signal, in the main thread's solve (--probes 1) and in a probe thread's
    (--probes 2). The signal comes when the ``nth`` search of that thread begins (the
    main thread's first one makes the full board; the probe threads start after some 25
    checks of the main thread), whatever the load."""
    proc, marker = marked(tmp_path, ["gen", "sudoku", "--size", "25", "--seed", "3",
                                     "--solver", "cp-sat", "--probes", probes, "--format",
                                     "line"], nth, thread)
    try:
        wait_for_marker(proc, marker)
        (os.killpg if sig == signal.SIGINT else os.kill)(proc.pid, sig)
        took = wait_for(lambda: proc.poll() is not None and not session(proc.pid), STOPPED)
    finally:
        with_group_killed(proc)  # before reading its output: a live writer never ends it
    err = proc.stderr.read()
    assert proc.returncode == code, err
    assert took < STOPPED
    assert "interrupted" in err and "terminate called" not in err


@pytest.mark.slow
def test_an_interrupt_stops_a_plugins_own_cp_sat_check(tmp_path):
    """Fillomino's exact check asks a CP-SAT session in the engine's process (exact.py).
    Ctrl-C must stop the command there too: CP-SAT took it for itself, ended its search
    as if its work limit were up, and the command went on to finish the puzzle (exit 0,
    50 s after the Ctrl-C on a 12x12). Here every removal the search does not decide goes
    to that session, which has no limit."""
    # The signal comes when the first of these CP-SAT checks begins.
    proc, marker = marked(tmp_path, ["gen", "fillomino", "--size", "12", "--seed", "1",
                                     "--format", "line"], 1, prelude=(
        "from puzzle_engine_plugins.fillomino import deduce, exact, local\n"
        "deduce.DEFAULT_BUDGET = deduce.DEEP_BUDGET = local.NODES = 0\n"))
    try:
        wait_for_marker(proc, marker)
        os.killpg(proc.pid, signal.SIGINT)
        took = wait_for(lambda: proc.poll() is not None, STOPPED)
    finally:
        with_group_killed(proc)
    err = proc.stderr.read()
    assert proc.returncode == 130, err
    assert took < STOPPED and "interrupted" in err


def signal_mask(pid: int, field: str) -> set[int]:
    """The signals in ``field`` of ``/proc/PID/status`` (SigIgn: ignored; SigCgt: caught)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            bits = int(line.split()[1], 16)
            return {n for n in range(1, 65) if bits >> (n - 1) & 1}
    raise AssertionError(f"no {field} for {pid}")


def test_nohup_still_protects_a_batch(tmp_path):
    """A command started with SIGHUP ignored (nohup) keeps ignoring it: while its solvers
    run, SIGHUP is ignored (the kernel drops it), not caught, and a SIGHUP then a SIGTERM
    end it by the SIGTERM (143), not the SIGHUP (129). No time is waited for: signals to
    one process are taken lowest number first."""
    proc = start([str(CLI), *BATCH], tmp_path, ignore=(signal.SIGHUP,))
    try:
        running_solvers(proc)
        assert signal.SIGHUP in signal_mask(proc.pid, "SigIgn")
        assert signal.SIGHUP not in signal_mask(proc.pid, "SigCgt")
        assert signal.SIGTERM in signal_mask(proc.pid, "SigCgt")  # the command's handler
        os.kill(proc.pid, signal.SIGHUP)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(SAFETY) == 143
    finally:
        with_group_killed(proc)
    assert proc.stderr.read().count("puzzle-engine: interrupted") == 1


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_minizinc_and_its_solver_die_with_the_engine(tmp_path, sig):
    """A whole solve through minizinc-python is two processes deep (minizinc starts the
    solver), here in a program without the command's handlers: both go."""
    proc = pigeons(tmp_path, "solve(t, {'n': 14})", handlers=False)
    try:
        assert any("minizinc" in c for c in session(proc.pid))
        assert_all_end(proc, sig)
    finally:
        with_group_killed(proc)


def test_a_solver_run_ends_at_its_time_limit(host, monkeypatch):
    """The solver process is killed at the time limit: the run is unknown, and no solver
    is left behind."""
    from puzzle_engine.solving.backend import Backend
    from puzzle_engine import PuzzleType

    class Pigeons(PuzzleType):
        name, models, decision = "pigeons", (PIGEONS,), "x"
    pigeons = Pigeons()
    model = Backend("gecode", time_limit=1.0).compile(pigeons, {"n": 14})
    started = []  # when the solver process had started: the time limit counts from there

    class Timed(subprocess.Popen):
        def __init__(self, args, *rest, **kwargs):
            super().__init__(args, *rest, **kwargs)
            if any("fzn-" in str(a) for a in args):
                started.append(time.monotonic())
    monkeypatch.setattr(subprocess, "Popen", Timed)
    try:
        assert model.count((0,) * 14, 1) == (0, False)
        ended = time.monotonic()
        assert len(started) == 1 and ended - started[0] < STOPPED  # the model takes minutes unlimited
        assert children(os.getpid(), "fzn-") == []
    finally:
        model.close()


@pytest.mark.fast
def test_sweep_removes_only_abandoned_folders(tmp_path):
    """A folder is swept when its lock file can be locked (its owner is gone), whatever
    its process number; a folder whose owner holds the lock, one without a lock file,
    a link, and names not of ours are kept. Nothing in a name can crash the sweep."""
    import fcntl

    def folder(name, lock=True):
        path = tmp_path / name
        path.mkdir()
        if lock:
            (path / processes._LOCK).touch()
        return path
    live = folder(f"{processes.PREFIX}{os.getpid()}-live")
    held = os.open(live / processes._LOCK, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)
    dead = folder(f"{processes.PREFIX}{os.getpid()}-dead")  # a pid reused: the lock decides
    huge = folder(f"{processes.PREFIX}{'9' * 20}-x")
    bare = folder(f"{processes.PREFIX}123-bare", lock=False)
    other = folder("puzzle-engine-notes")
    link = tmp_path / f"{processes.PREFIX}1-link"
    link.symlink_to(dead)
    try:
        assert processes.sweep_temp_dirs(tmp_path) == 2
    finally:
        os.close(held)
    assert live.is_dir() and bare.is_dir() and other.is_dir() and link.is_symlink()
    assert not dead.exists() and not huge.exists()


@pytest.mark.fast
def test_temp_root_is_locked_while_its_process_runs(tmp_path):
    """This process's own folder is never swept while it runs."""
    root = processes.temp_root()
    assert (root / processes._LOCK).is_file()
    assert processes.sweep_temp_dirs(root.parent) >= 0 and root.is_dir()


def with_group_killed(proc) -> None:
    """Whatever happened in the test, leave nothing of it running."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(SAFETY)


@pytest.mark.fast
def test_threads_of_one_process_write_the_same_file_at_once(tmp_path):
    """The speculative checks of a batch run in threads, and each may write the guarded
    MiniZinc script: two threads sharing one part file renamed it under each other's feet
    (FileNotFoundError on chmod, seen once in test_docs_example)."""
    import threading

    from puzzle_engine.cache import write_if_changed

    target = tmp_path / "guarded-minizinc"
    errors, start = [], threading.Barrier(16)

    def write(i):
        start.wait()
        try:
            for j in range(50):
                write_if_changed(target, f"#!/bin/sh\n# {i} {j}\n", 0o700)
        except Exception as exc:  # noqa: BLE001 - the race shows as any error
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text().startswith("#!/bin/sh\n# ")
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("victim", ["command", "worker"])
def test_a_kill_9_leaves_no_resource_tracker_warning(tmp_path, victim):
    """kill -9 of gen --workers 2 (or of one of its workers): multiprocessing's resource
    tracker outlives the command to unlink the pool's semaphores, and said so in two lines
    on stderr ("resource_tracker: There appear to be 8 leaked semaphore objects"). Reading
    stderr to its end waits for every process holding it, the tracker too."""
    proc = start([str(CLI), "gen", "sudoku", "--size", "4", "--count", "100000", "--seed", "1",
                  "--workers", "2", "--format", "line"], tmp_path)
    try:
        assert proc.stdout.readline()  # a first puzzle: the workers and the tracker run
        if victim == "command":
            os.kill(proc.pid, signal.SIGKILL)
        else:
            workers = child_pids(proc.pid, "spawn_main")
            assert workers, session(proc.pid)
            os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=300)  # a safety net: ends when the processes do
    finally:
        with_group_killed(proc)
    assert "resource_tracker" not in err and "leaked" not in err, err
    if victim == "worker":
        assert "a worker process died" in err, err


def child_pids(pid: int, word: str) -> list[int]:
    """The ids of the live child processes of ``pid`` whose command line holds ``word``."""
    return [child for child, parent, _, cmd in live_processes() if parent == pid and word in cmd]


class _StopOnly:
    """A solver whose solve runs until it is stopped, recording what was asked of it."""

    def __init__(self) -> None:
        self.solving = threading.Event()
        self.stopped = threading.Event()

    def solve(self, model, callback=None):
        self.solving.set()
        self.stopped.wait()
        return "stopped"

    def stop_search(self) -> None:
        if self.solving.is_set():
            self.stopped.set()


@pytest.mark.fast
@pytest.mark.parametrize("thread_first", [True, False])
def test_an_interrupt_while_the_solve_thread_starts_leaves_no_solve_running(
        monkeypatch, thread_first):
    """Ctrl-C can come while ``thread.start()`` waits for the solve's thread to begin
    (CI, under load: 'terminate called without an active exception', exit -6). Whether
    the thread reaches the solve before or after the caller gives up, no solve may run
    on after ``run_interruptibly`` has raised."""
    solver = _StopOnly()
    began = threading.Event()
    Real = threading.Thread
    launchers: list[threading.Thread] = []

    class Interrupted(Real):
        def start(self):
            def later():
                if not thread_first:
                    began.wait()
                Real.start(self)
                self.join(SAFETY)
            launchers.append(Real(target=later, daemon=True))
            launchers[-1].start()
            if thread_first:
                assert solver.solving.wait(SAFETY)
            raise KeyboardInterrupt
    monkeypatch.setattr(cpsat.threading, "Thread", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        cpsat.run_interruptibly(solver, None)
    monkeypatch.undo()
    if thread_first:
        assert solver.stopped.is_set()  # stopped before the caller raised
    began.set()
    # The solve's thread begins and ends, or (the failure) begins a solve no one stops.
    wait_for(lambda: not launchers[0].is_alive() or solver.solving.is_set(), SAFETY)
    if not thread_first:
        assert not solver.solving.is_set(), "the thread solved after the caller gave up"
    solver.stopped.set()
    launchers[0].join(SAFETY)
