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


# Round five's per-model rules send the same request to every model of the table, dated ids aside; each rule
# writes the answer its sources give per model (None where no source gives one: any answer then passes).
LINEUP = (
    "claude-fable-5-2",
    "claude-mythos-5-2",
    "claude-fable-5-1",
    "claude-mythos-5-1",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-sonnet-5",
    "claude-opus-5",
    "claude-fable-5",
    "claude-mythos-5",
    "claude-opus-4-8",
    "claude-opus-4-7",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-haiku-4-5",
    "claude-opus-4-5",
)
MISSES: dict[str, list[str]] = {}


def per_model(name: str, expected: Callable[[str], object], answer: Callable[[str], object]) -> bool:
    """Whether every model answers as ``expected`` says; the models that do not are kept in MISSES[name]."""
    misses = []
    for model in LINEUP:
        want = expected(model)
        if want is None:
            continue
        try:
            got = answer(model)
        except anthropic.APIStatusError as exc:
            got = f"{exc.status_code}: {exc.message}"[:160]
        if got != want:
            misses.append(f"{model}: {got!r} (want {want!r})")
    MISSES[name] = misses
    return not misses


def status_of(fn: Callable[[], object]) -> int:
    """200, or the status of the error the request met."""
    exc = refusal(fn)
    return 200 if exc is None else exc.status_code
