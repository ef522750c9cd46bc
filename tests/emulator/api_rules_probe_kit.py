"""What the probe's rules share: the registry, an emulated client, and how a refusal is read."""

from __future__ import annotations

from collections.abc import Callable

import anthropic

from harness_lab.emulator import emulated_client, say

MODEL = "claude-sonnet-5"
TOOL = {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}
ASK = [{"role": "user", "content": "今何時?"}]
RULES: list[tuple[str, str, Callable[[], bool]]] = []


def rule(source: str):
    def register(check: Callable[[], bool]) -> Callable[[], bool]:
        RULES.append((check.__doc__ or check.__name__, source, check))
        return check

    return register


def client(script=None, **kwargs) -> anthropic.Anthropic:
    return emulated_client(script or [say("はい")], max_retries=0, **kwargs)


def refusal(fn: Callable[[], object]) -> anthropic.APIStatusError | None:
    try:
        fn()
    except anthropic.APIStatusError as exc:
        return exc
    return None


def refused_with(fn: Callable[[], object], *parts: str, status: int = 400) -> bool:
    exc = refusal(fn)
    return exc is not None and exc.status_code == status and all(p in str(exc.message) for p in parts)


def create(script=None, **fields):
    body = {"model": MODEL, "max_tokens": 1024, "messages": ASK, **fields}
    return client(script).messages.create(**body)
