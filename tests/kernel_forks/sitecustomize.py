"""A test kernel's start, handed to the suite's kernel forker (``server.py`` beside this file).

The tests put this folder on ``PYTHONPATH``, so every Python they start runs this at startup. Only
``python -m ipykernel_launcher ...`` with ``HARNESS_LAB_TEST_KERNELS`` set acts: it asks the forker
for a kernel forked from a process that has already imported the SDK (two of a kernel's three CPU
seconds of start-up, a hundred kernels a run), then stands in for that kernel: it passes on the
signals Jupyter sends it and exits with the kernel's exit code. When the forker is absent or
refuses (another interpreter, other flags, a module the kernel's own folder would shadow), this
returns and the kernel starts the ordinary way.
"""

import os
import sys


def _stand_in() -> None:
    address = os.environ.get("HARNESS_LAB_TEST_KERNELS")
    if not address or sys.orig_argv[1:3] != ["-m", "ipykernel_launcher"]:
        return
    import json
    import signal
    import socket

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(address)
    except OSError:
        connection.close()
        return
    request = {
        "executable": sys.executable,
        "flags": list(sys.flags),
        # `-m` puts the working folder first only after this runs (unless -P / PYTHONSAFEPATH)
        "path": ([] if sys.flags.safe_path else [os.getcwd()]) + sys.path,
        "env": dict(os.environ),
        "cwd": os.getcwd(),
        "argv": sys.orig_argv[3:],
        "pid": os.getpid(),
    }
    body = json.dumps(request).encode()
    socket.send_fds(connection, [len(body).to_bytes(8, "big") + body], [0, 1, 2])
    answers = connection.makefile("r", encoding="utf-8")
    answer = json.loads(answers.readline() or '{"refused": "the forker closed"}')
    if "pid" not in answer:
        connection.close()
        return
    kernel = answer["pid"]

    def pass_on(number, _frame):
        try:
            os.kill(kernel, number)
        except ProcessLookupError:
            pass

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(number, pass_on)
    code = json.loads(answers.readline() or '{"exit": 1}')["exit"]
    if code < 0:  # killed by a signal: so is its stand-in, as Jupyter would see a kernel
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code & 0xFF)


_stand_in()
