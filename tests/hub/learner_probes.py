"""What one learner tries against a classmate and the course, run as that learner by the hub test.

The test passes this file's text to the course venv's Python (``python -I -c``) as the learner,
so it needs no path the learner could not read. Each probe prints one JSON object.

    kernels SPEC   connect to each TCP port and Unix socket in SPEC (a classmate's kernel), subscribe
                   to whatever answers, listen for SPEC["listen"] seconds, and ask the classmate's
                   server for their kernels without logging in
    answers SPEC   find harness_lab as a kernel's import does, then try to read the solutions and the graders'
                   tests in the checkout it came from and in SPEC["course"]
"""

import http.client
import json
import socket
import sys
import time
from pathlib import Path


def _connect(family: int, address) -> str:
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        try:
            s.connect(address)
        except OSError as error:
            return f"refused: {error.strerror or error}"
    return "connected"


def kernels(spec: dict) -> dict:
    import zmq

    reached, heard, subscribers = {}, [], []
    context = zmq.Context()
    endpoints = [(f"tcp://127.0.0.1:{p}", socket.AF_INET, ("127.0.0.1", p)) for p in spec["tcp"]]
    # An abstract Unix name (shown with a leading @) has no file, so no permission guards it.
    endpoints += [(f"ipc://{p}", socket.AF_UNIX, "\0" + p[1:] if p.startswith("@") else p) for p in spec["unix"]]
    for url, family, address in endpoints:
        reached[url] = _connect(family, address)
        if reached[url] == "connected":
            sub = context.socket(zmq.SUB)
            sub.setsockopt(zmq.SUBSCRIBE, b"")
            # A topic no one has asked for yet reaches the kernel (its IOPub is an XPUB socket), which
            # then greets the new subscriber: proof that its output would follow.
            sub.setsockopt(zmq.SUBSCRIBE, f"probe-{time.monotonic_ns()}".encode())
            sub.setsockopt(zmq.LINGER, 0)
            sub.connect(url)
            subscribers.append((url, sub))
    poller = zmq.Poller()
    for _, sub in subscribers:
        poller.register(sub, zmq.POLLIN)
    deadline = time.monotonic() + (spec["listen"] if subscribers else 0)
    while (left := deadline - time.monotonic()) > 0:
        for sub, _ in poller.poll(left * 1000):
            url = next(u for u, s in subscribers if s is sub)
            frames = sub.recv_multipart()
            heard.append(f"{url}: " + " | ".join(f.decode(errors="replace") for f in frames[-4:])[:400])
    for port, path in spec["http"]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path)
            reply = connection.getresponse()
            reached[f"http://127.0.0.1:{port}{path}"] = f"HTTP {reply.status}: {reply.read(300)!r}"
        except OSError as error:
            reached[f"http://127.0.0.1:{port}{path}"] = f"refused: {error}"
        finally:
            connection.close()
    return {"reached": reached, "heard": heard}


def answers(spec: dict) -> dict:
    import importlib.util

    package = Path(importlib.util.find_spec("harness_lab").origin).resolve().parent  # what a kernel imports
    read = []
    for checkout in (package.parent, *map(Path, spec["course"])):
        for place in ("exercises/solutions", "tests/grading", ".git"):
            try:
                read.append(f"listed {checkout / place}: {sorted(p.name for p in (checkout / place).iterdir())[:5]}")
            except OSError:
                pass
        for name in spec["solutions"]:
            try:
                text = (checkout / "exercises" / "solutions" / name).read_text(encoding="utf-8")
                read.append(f"read {checkout / 'exercises' / 'solutions' / name}: {len(text)} characters")
            except OSError:
                pass
    return {"package": str(package), "read": read}


if __name__ == "__main__":
    probe = {"kernels": kernels, "answers": answers}[sys.argv[1]]
    print(json.dumps(probe(json.loads(sys.argv[2]))))
