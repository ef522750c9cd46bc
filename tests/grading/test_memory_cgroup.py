"""A grading host's memory cgroup (harness_lab/grading/memory_cgroup.py): memory no process maps counts too."""

from __future__ import annotations

import os
import signal
import time

import pytest

from harness_lab.grading.isolation import Launch
from harness_lab.grading.memory_cgroup import Cgroup
from harness_lab.grading.runner import Host


def _cgroup_or_skip(limit: int) -> Cgroup:
    group = Cgroup.make(f"harness-lab-test-{os.getpid()}-{time.monotonic_ns()}", limit)
    if group is None:
        pytest.skip("this machine lets the tests make no memory cgroup (root and a writable memory controller)")
    return group


def test_memory_written_to_a_memfd_and_never_mapped_is_held_to_the_cgroups_limit():
    group = _cgroup_or_skip(128 << 20)
    try:
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(ready_w)
            os.read(ready_r, 1)  # wait until the parent moved this process in
            fd = os.memfd_create("hoard")
            chunk = b"x" * (1 << 20)
            for _ in range(512):  # 512 MB, four times the limit, in no process's address space
                os.write(fd, chunk)
            os._exit(0)
        os.close(ready_r)
        assert group.add([pid])
        os.write(ready_w, b"go")
        os.close(ready_w)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL  # the kernel ended it
    finally:
        group.remove()


def test_a_grading_host_and_what_it_starts_live_in_a_cgroup_of_their_own_removed_after():
    _cgroup_or_skip(1 << 30).remove()
    launch = Launch.choose()
    if launch.bwrap is None and launch.uid is None:
        pytest.skip("no grading host here: neither bubblewrap nor root")
    host = Host(launch)
    host.start()
    path = host.cgroup.path if host.cgroup else None
    try:
        assert path is not None and str(host.process.pid) in (path / "cgroup.procs").read_text().split()
    finally:
        host.close()
    assert path is not None and not path.exists()
