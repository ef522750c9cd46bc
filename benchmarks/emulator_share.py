"""The emulator's own share of the bare loop: the cost every contender pays alike.

A bare run is done untimed to collect the request bodies it sent; the timed part replays those
bodies through a fresh emulator: parse the JSON, ``respond`` (validation, token estimate, reply) and
encode the answer, which is the server's side of each round trip, without the SDK. Its time over
the bare loop's time is the share the emulator takes.
"""

from __future__ import annotations

import json

from harness_lab.emulator import emulated_client
from harness_lab.emulator.server import body_bytes

from . import bare_loop, workload
from .contender import Outcome, Prepared, scripted_emulator


def prepare(rounds: int) -> Prepared:
    recorder = scripted_emulator(rounds)
    bare_loop.run_conversation(
        emulated_client(recorder), workload.PROMPT, workload.TOOL_DEFINITIONS, workload.TOOL_FUNCTIONS
    )
    raw = [json.dumps(r, ensure_ascii=False).encode("utf-8") for r in recorder.requests]

    def go() -> Outcome:
        emulator = scripted_emulator(rounds)
        body = None
        for request in raw:
            _, _, body = emulator.respond(json.loads(request))
            body_bytes(body)
        text = "".join(b.get("text", "") for b in body["content"] if b["type"] == "text")
        return Outcome(text, len(raw) - 1, len(emulator.requests))

    return go
