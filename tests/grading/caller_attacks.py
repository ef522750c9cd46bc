"""Learner code that goes after the process that called ``run_limited``: a normal user's process whose
environment holds an API key and whose output is that user's pipe (a learner's kernel, an instructor's
script). Each attack is a job: it reads the caller's environment for the key, writes a verdict of its own
into the caller's output, kills every process it may signal, or connects to an abstract socket of the
caller's (they have no owner and no mode).

``test_sandbox.py`` runs them where the kernel makes the job its namespaces, ``test_grading_without_namespaces.py``
on a machine that gives a normal user none (``no_user_namespaces.PRELUDE``). One caller runs every attack in
turn, each in a ``run_limited`` of its own, and prints a line for each (a caller per attack cost a Python
start each, more than the attack).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-ant-api03-CALLERS-OWN-KEY-0000"
# "everyone" last: where it kills the caller, the other attacks have reported already.
ATTACKS = ("environ", "output", "abstract", "everyone")

CALLER = """
import os, signal, socket, sys
from harness_lab.grading import namespaces
from harness_lab.grading.sandbox import run_limited

child = os.fork()
if child == 0:
    os._exit(0 if namespaces.make() else 1)
made = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0
print("namespaces", "made" if made else "refused", flush=True)
caller = os.getpid()
bus, address = socket.socket(socket.AF_UNIX), f"\\0harness-lab-caller-{caller}"
bus.bind(address)
bus.listen()

def environ():
    with open(f"/proc/{caller}/environ", "rb") as f:
        return "key" if KEY.encode() in f.read() else "no key"

def output():
    with open(f"/proc/{caller}/fd/1", "w") as f:
        f.write("FORGED: 3 of 3 criteria met\\n")
    return "written"

def everyone():
    os.kill(-1, signal.SIGKILL)

def abstract():
    socket.socket(socket.AF_UNIX).connect(address)
    return "connected"

for attack in ATTACKS:
    report, (seen, out) = os.dup(1), os.pipe()  # the caller's output: a pipe of this user's, as a terminal is
    os.dup2(out, 1)
    outcome = run_limited(globals()[attack])
    os.dup2(report, 1)
    os.close(out)
    os.close(report)
    forged = b"FORGED" in os.read(seen, 1 << 16)
    print(attack, outcome.status, outcome.value, outcome.error.split(":")[0], forged, flush=True)
"""


def attacked_by_its_jobs(
    attacks: tuple[str, ...] = ATTACKS, machine: str = ""
) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """Run ``CALLER`` with ``attacks`` as a normal user (nobody, when the tests run as root), ``machine`` a
    script of filters put in place first: the finished caller, and for "namespaces" and each attack the rest of its line (an
    attack missing: the caller died before it reported)."""
    env = {"PATH": "/usr/bin:/bin", "ANTHROPIC_API_KEY": KEY, "PYTHONPATH": str(ROOT)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    script = machine + CALLER.replace("ATTACKS", repr(attacks)).replace("KEY", repr(KEY))
    done = subprocess.run(
        [sys.executable, "-P", "-c", script], env=env, capture_output=True, text=True, timeout=120, cwd="/", **nobody
    )
    return done, dict(line.partition(" ")[::2] for line in done.stdout.splitlines())
