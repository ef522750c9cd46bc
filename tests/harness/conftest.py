"""Shared checks for the harness tests: is a history valid to send again, and is every call answered?"""

from __future__ import annotations

import pytest

from tests.history_check import history_problems


@pytest.fixture
def check_history():
    def check(messages: list, tools: list[dict] | None = None) -> None:
        problems = history_problems(list(messages), tools or [])
        assert not problems, problems

    return check
