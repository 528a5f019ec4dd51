"""Who runs a batch: one run at a time per batch and store.

The run that writes a batch (the ``batch`` command's process, whatever executes its
seeds) holds the batch's row in the ``owners`` table: its host, the machine's boot, its
pid and the process's start time, and a heartbeat. A run takes the row in the
transaction that finds or starts its batch, so two runs started at once cannot both take
it, and drops it when it ends. A row is stale, and taken over, when its holder is gone:

- on the same host and boot, when no process has its pid and start time (so a run killed
  with SIGKILL holds nothing once it is dead, and a reused pid is not mistaken for it);
- after a reboot of its host (its last heartbeat is from before this boot; a machine of
  the same name with a later heartbeat is another host);
- from another host (a store on a shared file system), when its heartbeat, written every
  ``LEASE / 6`` seconds by a thread of the holder, is older than ``LEASE``.
"""
from __future__ import annotations

import os
import socket
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

#: Seconds without a heartbeat after which a holder on another host is taken for gone.
LEASE = 120.0

_STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


def _now() -> datetime:
    return datetime.now(timezone.utc)


def stamp(moment: datetime | None = None) -> str:
    """A time as the store writes it (ISO 8601 in UTC, to the microsecond)."""
    return (moment or _now()).strftime(_STAMP)


def _boot() -> str:
    """This boot of the machine ('' where the system does not say)."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as file:
            return file.read().strip()
    except OSError:
        return ""


def started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from ``/proc``), None when
    there is no such process, '' when it lives but the system does not say."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:  # gone, or hidden: another user's under /proc's hidepid (kill -0 says)
        stat = None
    if stat:
        # The command name, in brackets, may hold spaces and brackets itself.
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[0] in (b"Z", b"X"):
            return None  # dead, not yet reaped by its parent
        return fields[19].decode()  # field 22 of proc(5), counting from 1
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:  # PermissionError: it lives, as another user
        pass
    return ""


@dataclass(frozen=True)
class Owner:
    """A run that holds a batch."""

    host: str
    boot: str
    pid: int
    started: str

    @classmethod
    def this_process(cls) -> "Owner":
        pid = os.getpid()
        return cls(socket.gethostname(), _boot(), pid, started(pid) or "")

    def describe(self, taken_at: str) -> str:
        return f"pid {self.pid} on {self.host}, since {taken_at[:19].replace('T', ' ')} UTC"


def holder(conn: sqlite3.Connection, batch_id: int) -> tuple[Owner, str, str] | None:
    """The run holding batch ``batch_id``, when it took it and its last heartbeat."""
    row = conn.execute("SELECT host, boot, pid, started, taken_at, beat_at FROM owners "
                       "WHERE batch_id = ?", (batch_id,)).fetchone()
    if row is None:
        return None
    host, boot, pid, start, taken_at, beat_at = row
    return Owner(host, boot, pid, start), taken_at, beat_at


def alive(owner: Owner, beat_at: str, me: Owner) -> bool:
    """Whether ``owner`` (seen by ``me``) may still be running."""
    if owner.host == me.host and owner.boot == me.boot:
        now = started(owner.pid)
        if now is None:
            return False
        # '' when the process lives but its start time cannot be read (another user's,
        # under /proc's hidepid): a reused pid cannot be told from it, so it may be the
        # holder, and taking the batch over could run it twice at once
        return now == owner.started or "" in (now, owner.started)
    try:
        beat = datetime.strptime(beat_at, _STAMP).replace(tzinfo=timezone.utc)
    except ValueError:
        return False
    if owner.host == me.host:
        # Another boot: this host was rebooted since (the holder's last heartbeat is from
        # before this boot), or another machine has the same name (``localhost``) and
        # shares the store, alive while its heartbeat is.
        booted = _booted_at()
        if booted is None or beat < booted:
            return False
    return _now() - beat < timedelta(seconds=LEASE)


def _booted_at() -> datetime | None:
    """When this machine booted (``btime`` of ``/proc/stat``), None where not known."""
    try:
        with open("/proc/stat", encoding="ascii") as file:
            for line in file:
                if line.startswith("btime "):
                    return datetime.fromtimestamp(int(line.split()[1]), timezone.utc)
    except (OSError, ValueError):
        pass
    return None


def take(conn: sqlite3.Connection, batch_id: int, me: Owner) -> tuple[Owner, str] | None:
    """Take batch ``batch_id`` for ``me``, in the caller's write transaction: None when
    taken (a stale holder's row replaced), else the live holder and when it took it."""
    held = holder(conn, batch_id)
    if held is not None:
        owner, taken_at, beat_at = held
        if owner != me and alive(owner, beat_at, me):
            return owner, taken_at
    now = stamp()
    conn.execute("INSERT OR REPLACE INTO owners (batch_id, host, boot, pid, started, "
                 "taken_at, beat_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (batch_id, me.host, me.boot, me.pid, me.started, now, now))
    return None


def holds(conn: sqlite3.Connection, batch_id: int, me: Owner) -> bool:
    """Whether ``me`` still holds the batch (checked in each write transaction)."""
    held = holder(conn, batch_id)
    return held is not None and held[0] == me


def release(conn: sqlite3.Connection, batch_id: int, me: Owner) -> None:
    """Drop ``me``'s hold on the batch, in the caller's write transaction."""
    conn.execute("DELETE FROM owners WHERE batch_id = ? AND host = ? AND boot = ? AND pid = ? "
                 "AND started = ?", (batch_id, me.host, me.boot, me.pid, me.started))


class Heartbeat:
    """A thread that writes the holder's heartbeat every ``LEASE / 6`` seconds, on its own
    connection, until stopped."""

    def __init__(self, path, batch_id: int, me: Owner):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, args=(path, batch_id, me),
                                        name="batch-heartbeat", daemon=True)
        self._thread.start()

    def _beat(self, path, batch_id: int, me: Owner) -> None:
        while not self._stop.wait(LEASE / 6):
            try:
                conn = sqlite3.connect(path, timeout=LEASE / 6, isolation_level=None)
                try:
                    conn.execute("UPDATE owners SET beat_at = ? WHERE batch_id = ? AND host = ? "
                                 "AND boot = ? AND pid = ? AND started = ?",
                                 (stamp(), batch_id, me.host, me.boot, me.pid, me.started))
                finally:
                    conn.close()
            except sqlite3.Error:
                pass  # a busy or failing store: the run's own writes will say so

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
