"""The process table read from /proc: what a test started, and proof that it all stopped.

A hub's children outlive it if it dies first (they are reparented to init), and the single-user
servers and kernels run in sessions of their own, so neither the hub's PID nor its process group
finds them at the end. The watcher instead records every descendant of the test process while they
run, by (pid, start time) so a reused PID is never mistaken for one of ours, plus anything owned by
the test accounts.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    uid: int
    start: int  # clock ticks after boot: (pid, start) names one process even if the pid is reused
    cmdline: str

    @property
    def key(self) -> tuple[int, int]:
        return self.pid, self.start

    def line(self) -> str:
        return f"{self.pid:>7} uid={self.uid:<6} {self.cmdline[:160]}"


def table() -> dict[int, Proc]:
    """Every live process (zombies are dead already and left out)."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            after_name = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            uid = entry.stat().st_uid
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError):
            continue  # it ended while we looked
        if after_name[0] == "Z":
            continue
        pid = int(entry.name)
        found[pid] = Proc(pid, int(after_name[1]), uid, int(after_name[19]), cmdline)
    return found


def descendants(root: int, procs: dict[int, Proc]) -> list[Proc]:
    children: dict[int, list[Proc]] = {}
    for proc in procs.values():
        children.setdefault(proc.ppid, []).append(proc)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child.pid)
    return found


def listening(pid: int) -> tuple[set[int], set[str]]:
    """(TCP ports, Unix socket paths) that process ``pid`` listens on; an abstract Unix name starts with @."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            if (link := os.readlink(fd)).startswith("socket:["):
                inodes.add(link[8:-1])
    ports = set()
    for name in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    paths = set()
    for line in Path(f"/proc/{pid}/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) > 7 and int(fields[3], 16) & 0x10000 and fields[6] in inodes:  # __SO_ACCEPTCON
            paths.add(fields[7])
    return ports, paths


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Watch:
    """Remembers what this test started; lists and kills what is still running of it."""

    def __init__(self, uids: set[int]):
        self.uids = uids
        self.seen: dict[tuple[int, int], Proc] = {}
        # Not this test's: what this process already ran (without xdist, the tests' kernel forker).
        self.before = {proc.key for proc in descendants(os.getpid(), table())}

    def snapshot(self) -> None:
        for proc in descendants(os.getpid(), table()):
            if proc.key not in self.before:
                self.seen[proc.key] = proc

    def alive(self) -> list[Proc]:
        now = table()
        ours = [p for p in now.values() if p.key in self.seen or p.uid in self.uids]
        return sorted(ours, key=lambda p: p.pid)

    def wait_gone(self, timeout: float) -> list[Proc]:
        """What is still alive after ``timeout`` seconds of waiting for it to end by itself."""
        deadline = time.monotonic() + timeout
        while (left := self.alive()) and time.monotonic() < deadline:
            time.sleep(0.2)
        return left

    def kill_all(self) -> None:
        for proc in self.alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
