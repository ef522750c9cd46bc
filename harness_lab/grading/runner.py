"""The grading commands' side of a grading host: start it, prove its sandbox, hand it calls (issue 24).

    host = Host(Launch.choose(), slot=0)     # starts the process (python -I -m harness_lab.grading.host)
    host.start()                             # waits until it is ready; in the sandbox, runs the probe
    outcome = host.call(Call("harness_lab.grading.notebook:grade_in_folder", {name: data}, (name, 60.0, 5.0), 70.0))
    host.close()

A ``Call`` names a function of this package, the files it gets in its private folder and its plain
arguments; the host runs it under ``run_limited`` (its own namespaces in the sandbox, see
``host.py``) and the outcome comes back as a ``JobResult``. This is the one runner for learner code
the grading commands use: ``grade`` and ``python -m harness_lab.grading`` start one host,
``grade-class`` one per worker (``workers.Pool``).

A host that cannot start, dies or stops answering raises ``HostFailed``: the grader's failure, never
the learner's. A host that finds its own limits or scheduling changed by the call it ran raises
``HostAltered`` (``host.state``): that outcome is void, and the host gone. ``SandboxUnavailable`` says, in the catalog's words, why the sandbox cannot be had
(bubblewrap missing or failing, or its probe reaching something it must not).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..text import t
from .isolation import ENVIRONMENT, PASSED_ON, Launch, fingerprint, host_command
from .memory_cgroup import HOST_MEMORY, Cgroup
from .processes import descendants, kill_group
from .sandbox import ANSWER_LIMIT, JobResult
from .wire import framed, receive

__all__ = ["Call", "Host", "HostAltered", "HostFailed", "SandboxUnavailable"]

START_WITHIN = 120.0  # seconds a host may take to import the graders (seconds on a loaded machine)
ANSWER_MARGIN = 10.0  # seconds past a call's own limit before its host is taken for stuck
_PROBE = "harness_lab.grading.isolation:probe"
# A host's reply is the outcome of one limited run, whose answer it read only up to ANSWER_LIMIT
# (sandbox.py): anything much larger is not a host's.
REPLY_LIMIT = 4 * ANSWER_LIMIT


class HostFailed(Exception):
    """A grading host did not start, died, or stopped answering."""


class HostAltered(HostFailed):
    """The call left its host with other limits, priority, CPUs or I/O class than it started with."""


class SandboxUnavailable(Exception):
    """No working sandbox: the message says why and how to get one."""


@dataclass(frozen=True)
class Call:
    """``target(folder, *args)`` in a host, with ``files`` in ``folder``, for at most ``timeout`` seconds."""

    target: str
    files: dict[str, bytes]
    args: tuple
    timeout: float
    memory: int | None = None  # bytes beyond the call's size at its start (None: the sandbox's default)

    def request(self) -> tuple:
        return ("call", self.target, self.files, self.args, self.timeout, self.memory)


class Host:
    """One grading host process (see the module docstring); one call at a time."""

    def __init__(self, launch: Launch, slot: int = 0) -> None:
        self.launch, self.slot = launch, slot
        self.uid = launch.uid_of(slot)  # the user learner code runs as (run as root), else None
        self.cgroup: Cgroup | None = None
        self._oom_before = 0
        self.scratch = None if launch.sandboxed else _scratch(launch, slot)
        argv, env = host_command(launch, slot, self.scratch or "/")
        try:
            self.process = subprocess.Popen(
                argv,
                env=env,
                cwd=self.scratch or "/",
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # no controlling terminal, and a group of its own to end
            )
        except OSError as exc:
            self._remove_scratch()
            raise HostFailed(str(exc)) from exc

    def fileno(self) -> int:
        assert self.process.stdout is not None
        return self.process.stdout.fileno()

    def start(self) -> None:
        """Wait until the host is ready, then (sandboxed) prove it isolates; raise if either fails."""
        try:
            self.ready(time.monotonic() + START_WITHIN)
        except HostFailed as exc:
            if self.launch.sandboxed:
                raise SandboxUnavailable(t("grade.sandbox.broken", reason=exc)) from exc
            raise
        if self.launch.sandboxed:
            try:
                self.prove()
            except HostFailed as exc:  # the probe's call itself failed: no learner code has run
                self.kill()
                raise SandboxUnavailable(t("grade.sandbox.broken", reason=exc)) from exc

    def ready(self, until: float) -> None:
        message = self.receive(until)
        if not (type(message) is tuple and message[:1] == ("ready",)):
            reason = self._stderr() or f"exit status {self.process.poll()}"
            self.kill()
            raise HostFailed(reason)
        assert self.process.stderr is not None
        self.process.stderr.close()
        self._contain()

    def _contain(self) -> None:
        """Hold the host's processes to their memory in a cgroup of their own, where one can be made
        (memory_cgroup.py). The host waits for its first call now, so every process it will start is
        born inside."""
        self.cgroup = Cgroup.make(f"harness-lab-{os.getpid()}-{self.slot}-{self.process.pid}")
        if self.cgroup is not None and not self.cgroup.add([self.process.pid, *descendants(self.process.pid)]):
            self.kill()
            raise HostFailed("the host could not be moved into its memory cgroup")

    def prove(self) -> None:
        """Run the probe where learner code would run; refuse the sandbox if it reached anything."""
        passed = {*ENVIRONMENT, *PASSED_ON, "HOME", "TMPDIR"}
        secrets = [(name, fingerprint(value)) for name, value in sorted(os.environ.items()) if name not in passed]
        with tempfile.TemporaryDirectory(prefix="harness-lab-probe-") as folder, socket.socket() as listener:
            os.chmod(folder, 0o755)  # readable by anyone, so only the sandbox can hide it
            outside = Path(folder) / "outside.txt"
            outside.write_text("the grader's probe: learner code must not read this\n", encoding="utf-8")
            outside.chmod(0o644)
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            args = (str(outside), listener.getsockname()[1], secrets, os.getpid())
            outcome = self.call(Call(_PROBE, {}, args, 10.0))
            findings = list(outcome.value) if outcome.status == "ok" else []
            listener.setblocking(False)
            try:
                listener.accept()[0].close()
                findings.append("connect")
            except BlockingIOError:
                pass
        if outcome.status != "ok":
            self.kill()
            raise SandboxUnavailable(t("grade.sandbox.broken", reason=outcome.error or outcome.status))
        if findings:
            self.kill()
            found = ", ".join(t(f"grade.sandbox.finding.{name}") for name in sorted(set(findings)))
            raise SandboxUnavailable(t("grade.sandbox.leaks", findings=found))

    def submit(self, call: Call) -> None:
        assert self.process.stdin is not None
        self._oom_before = self.cgroup.oom_kills() if self.cgroup is not None else 0
        try:
            self.process.stdin.write(framed(call.request()))
            self.process.stdin.flush()
        except (OSError, ValueError) as exc:
            raise HostFailed(f"the host took no call: {exc}") from exc

    def result(self, until: float) -> JobResult:
        """The outcome of the call submitted last; HostFailed if the host died or is late."""
        reply = self.receive(until)
        oom_kills = self.cgroup.oom_kills() if self.cgroup is not None else 0
        if type(reply) is tuple and len(reply) == 4 and reply[0] == "done":
            _, status, value, error = reply
            if status == "crashed" and oom_kills > self._oom_before:  # the kernel ended it for want of memory:
                return JobResult("memory", value=HOST_MEMORY >> 20)  # the notebook's PID 1, and its namespace
            return JobResult(status, value=value, error=error)
        if type(reply) is tuple and reply[:1] == ("refused",):
            return JobResult("unavailable", error=str(reply[1:]))
        if type(reply) is tuple and len(reply) == 2 and reply[0] == "altered":
            self.kill()
            raise HostAltered(f"the call changed its grading host: {', '.join(map(str, reply[1]))}")
        # Ended for want of memory while it graded this call: the call's verdict, not the grader's failure.
        self.kill()
        if oom_kills > self._oom_before:
            return JobResult("memory", value=HOST_MEMORY >> 20)
        raise HostFailed("the host stopped answering" if reply is None else "the host's answer was garbled")

    def call(self, call: Call) -> JobResult:
        self.submit(call)
        return self.result(time.monotonic() + call.timeout + ANSWER_MARGIN)

    def receive(self, until: float) -> Any:
        """One framed message from the host, or None if it ended, garbled, ran over ``REPLY_LIMIT``
        or ``until`` passed."""
        return receive(self.fileno(), until, REPLY_LIMIT)[0]

    def close(self) -> None:
        """Let the host leave (it reads the end of its input), then make sure it and its tree are gone."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(2.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def kill(self) -> None:
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._end_process()
        if not self.launch.sandboxed and self.uid is not None:
            _end_user(self.uid)  # what the host left (stopped, or out of its group): everything of its user
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        self._remove_scratch()

    def _stderr(self) -> str:
        """The last lines the host wrote to stderr (a traceback's gist), read once it is gone."""
        self._end_process()
        try:
            assert self.process.stderr is not None
            text = self.process.stderr.read(1 << 16).decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return " / ".join(lines[-2:])

    def _end_process(self) -> None:
        # In the sandbox the host is bwrap's child and the init of its PID namespace: killed from here,
        # it takes the whole namespace with it. (bwrap's --die-with-parent does not reach a host that
        # became another user: a change of uid clears the parent-death signal, and bwrap keeps no
        # right to kill that user.)
        for pid in [self.process.pid, *descendants(self.process.pid)]:
            kill_group(pid)
        self.process.wait()

    def _remove_scratch(self) -> None:
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


def _scratch(launch: Launch, slot: int) -> str:
    """An unsandboxed host's own folder (its HOME and TMPDIR), owned by the user it runs learner code as."""
    folder = tempfile.mkdtemp(prefix="harness-lab-host-")
    uid = launch.uid_of(slot)
    if uid is not None:
        os.chown(folder, uid, uid)
    return folder


def _end_user(uid: int) -> None:
    """Kill every process of ``uid`` (a user of the grader's own, never a person's): from a child
    that becomes that user, so ``kill(-1)`` reaches no one else."""
    if uid <= 0:
        return
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
