"""Shared by the harness tests: is a history valid to send again (every call answered), and the loop tests' Spy
(tools that record the calls they get) with its emulated client.
"""

from __future__ import annotations

import pytest

from harness_lab.emulator import Emulator, emulated_client
from harness_lab.tools import tool
from tests.history_check import history_problems


@pytest.fixture
def check_history():
    def check(messages: list, tools: list[dict] | None = None) -> None:
        problems = history_problems(list(messages), tools or [])
        assert not problems, problems

    return check


class Spy:
    """Tools that record every call they actually receive."""

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []
        spy = self

        @tool
        def read_file(path: str) -> str:
            """Read a file."""
            spy.calls.append(("read_file", {"path": path}))
            return f"contents of {path}"

        @tool
        def get_time() -> str:
            """Now."""
            spy.calls.append(("get_time", {}))
            return "2026-08-26T10:42:07+08:00"

        @tool(high_impact=True)
        def write_file(path: str, content: str) -> str:
            """Write."""
            spy.calls.append(("write_file", {"path": path}))
            return "written"

        @tool(high_impact=True)
        def delete_file(path: str) -> str:
            """Delete."""
            spy.calls.append(("delete_file", {"path": path}))
            return "deleted"

        @tool(high_impact=True)
        def http_post(url: str, body: str) -> str:
            """Post."""
            spy.calls.append(("http_post", {"url": url}))
            return "sent"

        self.tools = [read_file, get_time, write_file, delete_file, http_post]

    def names(self):
        return [name for name, _ in self.calls]


def setup(script, faults=None, **client_kwargs):
    emu = Emulator(script, faults=faults)
    return emu, emulated_client(emu, **client_kwargs), Spy()


def definitions(spy):
    return [t.definition for t in spy.tools]


PROMPT = "README.md の1行目を読んで、それから今何時か教えて"
