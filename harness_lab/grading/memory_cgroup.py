"""A memory cgroup per grading host, where the machine lets the grading command make one (Linux).

The sandbox caps each learner process's address space and watches what a notebook's processes hold
together (``sandbox.py``), but memory no process maps is not counted there: a ``memfd`` written and
never mapped, a SysV shared memory segment, pipe and socket buffers. The kernel charges all of it to
the memory cgroup of the process that made it. So, run as root on a machine whose memory controller
it may write (cgroup v1, or v2 where its own cgroup may have children with the controller on), each
grading host and everything it starts is held to ``HOST_MEMORY``: past it, the kernel ends
processes of that host only, the learner's job first (it asks to be, ``sandbox.py``), never the
machine's other work. Learner code can undo that request for itself, but not for the judge, PID 1 of
the notebook's own PID namespace, which then goes first and takes the namespace with it. Either way,
a call that crashed, or a host that died, while the kernel ended processes here is that notebook's
memory verdict (``oom_kills``, ``runner.Host.result``), never the grader's failure graded again on
every run. Elsewhere ``Cgroup.make`` gives None and grading goes on without one.
"""

from __future__ import annotations

import time
from pathlib import Path

from .sandbox import MEMORY_LIMIT

__all__ = ["HOST_MEMORY", "Cgroup"]

# A notebook's call may use three job allowances (notebook.py), and the host itself some more.
HOST_MEMORY = 4 * MEMORY_LIMIT
ROOT = Path("/sys/fs/cgroup")


class Cgroup:
    """One cgroup of the memory controller, made for one grading host and removed after it."""

    def __init__(self, path: Path, limits: dict[str, int]) -> None:
        self.path = path
        self.limits = limits

    @classmethod
    def make(cls, name: str, limit: int = HOST_MEMORY) -> Cgroup | None:
        """A new cgroup ``name`` beside this process's own, limited to ``limit`` bytes; None where it cannot be."""
        for parent, limits in _places(limit):
            path = parent / name
            try:
                path.mkdir()
            except OSError:
                continue
            group = cls(path, limits)
            try:
                first, *rest = limits.items()
                (path / first[0]).write_text(str(first[1]))
                for file, value in rest:  # swap: where the kernel keeps count of it
                    if (path / file).exists():
                        (path / file).write_text(str(value))
                return group
            except OSError:
                group.remove()
        return None

    def add(self, pids: list[int]) -> bool:
        """Move these processes in (their later children are born inside); False if any could not be."""
        moved = True
        for pid in pids:
            try:
                (self.path / "cgroup.procs").write_text(str(pid))
            except OSError:
                moved = False
        return moved

    def oom_kills(self) -> int:
        """How many processes the kernel has ended here for want of memory (0 where it does not say)."""
        for file in ("memory.events", "memory.oom_control"):  # v2, v1
            try:
                lines = (self.path / file).read_text().splitlines()
            except OSError:
                continue
            return next((int(line.split()[1]) for line in lines if line.startswith("oom_kill ")), 0)
        return 0

    def remove(self, within: float = 2.0) -> None:
        """Remove the cgroup once its processes are gone (the caller killed them)."""
        deadline = time.monotonic() + within
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.01)


def _places(limit: int) -> list[tuple[Path, dict[str, int]]]:
    """Where a child cgroup may go, with the files that limit it: cgroup v1's memory hierarchy, then v2's."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return []
    places = []
    for line in lines:
        _, controllers, own = line.split(":", 2)
        if "memory" in controllers.split(","):  # v1: memory, and memory with swap
            places.append(
                (
                    ROOT / "memory" / own.lstrip("/"),
                    {"memory.limit_in_bytes": limit, "memory.memsw.limit_in_bytes": limit},
                )
            )
        elif controllers == "" and (ROOT / "cgroup.controllers").exists():  # v2, where memory is delegated
            parent = ROOT / own.lstrip("/")
            if _memory_for_children(parent):
                places.append((parent, {"memory.max": limit, "memory.swap.max": 0}))
    return places


def _memory_for_children(parent: Path) -> bool:
    try:
        if "memory" in (parent / "cgroup.subtree_control").read_text().split():
            return True
        (parent / "cgroup.subtree_control").write_text("+memory")  # refused while parent itself holds processes
        return True
    except OSError:
        return False
