"""Server-side context management (beta): tool-result clearing, thinking clearing and compaction.

These are valve 2's counterparts on the server (lesson 6). The request's
``context_management.edits`` run in order on the history the client sent, before the model sees
it; the client keeps its full history. The response says what was done:

- ``clear_tool_uses_20250919`` (beta ``context-management-2025-06-27``): once the prompt reaches
  ``trigger`` (default 100,000 input tokens, or a count of tool uses), the oldest tool results are
  replaced by a placeholder, keeping the last ``keep`` tool uses (default 3) and any tool named in
  ``exclude_tools``; ``clear_tool_inputs`` empties the calls' inputs too; nothing is cleared when
  less than ``clear_at_least`` tokens would go. Reported as ``context_management.applied_edits``
  ``{type, cleared_tool_uses, cleared_input_tokens}``.
- ``clear_thinking_20251015`` (same beta): keeps the thinking of the last ``keep`` assistant turns
  that have any (at least 1, or ``"all"``), reported with ``cleared_thinking_turns``. Without ``keep``
  a model keeps what it keeps anyway: all of it, or only the last turn on the models that keep only
  the current turn's thinking (``models.keeps_prior_thinking``). It needs a request that thinks, and
  comes first among the edits.
- ``compact_20260112`` (beta ``compact-2026-01-12``): once the prompt reaches ``trigger`` (default
  150,000 input tokens) the reply starts with a ``compaction`` block holding a summary, and stops
  right there (``stop_reason: "compaction"``) when ``pause_after_compaction`` is set. Sent back,
  the block stands for everything before it: the server drops those blocks.

The placeholder's wording is the emulator's own (the docs only say it tells the model the result
was removed). The scripted model still reads the whole history after a compaction (a script
counts its turns there), but tokens are counted on what the real model would see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import Bool, Int, ListOf, Lit, Model, Nullable, Problem, Str, Tagged
from .models import MODELS, keeps_prior_thinking
from .tokens import estimate_reply, estimate_request, in_tokenizer

__all__ = [
    "BETAS",
    "CLEARED",
    "CONTEXT_MANAGEMENT",
    "Managed",
    "compacted_view",
    "compacting",
    "compaction_usage",
    "counted",
    "edit_error",
    "manage",
    "missing_beta",
    "unread_compaction",
]

CLEARED = "[tool result cleared by context management]"


class _Either:
    """A value the first of several kinds accepts; else the last kind's complaint (wording inferred:
    pydantic words a union's errors per member, which the API's public 400s do not show here)."""

    __slots__ = ("kinds",)

    def __init__(self, *kinds) -> None:
        self.kinds = kinds

    def check(self, value: object, path: tuple) -> Problem | None:
        problem = None
        for kind in self.kinds:
            problem = kind.check(value, path)
            if problem is None:
                return None
        return problem


_INPUT_TOKENS = Model({"type": Lit("input_tokens"), "value": Int(ge=1)}, ["type", "value"])
_TOOL_USES = Model({"type": Lit("tool_uses"), "value": Int(ge=0)}, ["type", "value"])
# The context editing page: "N must be > 0" (the wording of the 400 is pydantic's for that bound, inferred).
_THINKING_TURNS = Model({"type": Lit("thinking_turns"), "value": Int(ge=1)}, ["type", "value"])
EDIT = Tagged(
    {
        "clear_tool_uses_20250919": Model(
            {
                "type": Lit("clear_tool_uses_20250919"),
                "clear_at_least": Nullable(_INPUT_TOKENS),
                "clear_tool_inputs": Nullable(_Either(Bool(), ListOf(Str()))),
                "exclude_tools": Nullable(ListOf(Str())),
                "keep": _TOOL_USES,
                "trigger": Tagged({"input_tokens": _INPUT_TOKENS, "tool_uses": _TOOL_USES}),
            },
            ["type"],
        ),
        "clear_thinking_20251015": Model(
            {
                "type": Lit("clear_thinking_20251015"),
                "keep": _Either(
                    Lit("all"),
                    Tagged({"thinking_turns": _THINKING_TURNS, "all": Model({"type": Lit("all")}, ["type"])}),
                ),
            },
            ["type"],
        ),
        "compact_20260112": Model(
            {
                "type": Lit("compact_20260112"),
                "instructions": Nullable(Str()),
                "pause_after_compaction": Bool(),
                "trigger": Nullable(_INPUT_TOKENS),
            },
            ["type"],
        ),
    }
)
CONTEXT_MANAGEMENT = Nullable(Model({"edits": ListOf(EDIT)}))

BETAS = {
    "clear_tool_uses_20250919": "context-management-2025-06-27",
    "clear_thinking_20251015": "context-management-2025-06-27",
    "compact_20260112": "compact-2026-01-12",
}
DEFAULT_CLEAR_TRIGGER = 100_000
DEFAULT_KEEP = 3
DEFAULT_COMPACT_TRIGGER = 150_000
MIN_COMPACT_TRIGGER = 50_000  # the compaction page: "`value` must be at least 50,000 tokens"


def missing_beta(request: dict, betas: frozenset) -> str | None:
    """Without its beta header the GA API does not know the field (wording inferred from its
    answer to any unknown parameter)."""
    config = request.get("context_management")
    if not isinstance(config, dict):
        return None
    for edit in config.get("edits") or ():
        if BETAS[edit["type"]] not in betas:
            return "context_management: Extra inputs are not permitted"
    return None


# Compaction on a model the compaction page does not list: the wording is inferred (a client's test
# mocks the 400 so; no live one is quoted in public).
COMPACTION_UNSUPPORTED = "context_management: compact_20260112 is not supported for this model"


# The live 400 for clear_thinking in a request that does not think (CLIProxyAPI #4957, 2026-08, with its request id):
# the thinking that runs decides, so an absent field passes on a model that thinks unasked (docs/api_facts.md).
NEEDS_THINKING = "`clear_thinking_20251015` strategy requires `thinking` to be enabled or adaptive"
# The context editing page: "When using multiple strategies, the clear_thinking_20251015 strategy must be listed
# first in the edits array". Inferred: the wording (no live 400 is quoted).
THINKING_EDIT_NOT_FIRST = (
    "context_management.edits.{n}: the clear_thinking_20251015 strategy must be listed first in the edits array"
)


def edit_error(request: dict) -> str | None:
    """What the API refuses in edits their schema takes: a compaction trigger under 50,000 tokens (the live
    400's words, docs/api_facts.md), compaction on a model without it (an unknown model is left to the
    model check's 404), and thinking clearing in a request that does not think or after another strategy."""
    config = request.get("context_management")
    row = MODELS.get(str(request.get("model")))
    for n, edit in enumerate(config.get("edits") or () if isinstance(config, dict) else ()):
        if edit["type"] == "compact_20260112" and row is not None and not row.compaction:
            return COMPACTION_UNSUPPORTED
        if edit["type"] == "clear_thinking_20251015":
            thinking = request.get("thinking")
            runs = thinking["type"] if isinstance(thinking, dict) else row.thinking_default if row else "adaptive"
            if runs not in ("enabled", "adaptive"):
                return NEEDS_THINKING
            if n:
                return THINKING_EDIT_NOT_FIRST.format(n=n)
        trigger = edit.get("trigger") if edit["type"] == "compact_20260112" else None
        if trigger and trigger["value"] < MIN_COMPACT_TRIGGER:
            return (
                f"context_management.edits.{n}.compact_20260112: trigger.value must be at least {MIN_COMPACT_TRIGGER}"
            )
    return None


# A compaction block is read by the edit that writes it, or by on-demand compaction (its own beta): without
# either, the live 400 a public probe recorded on claude-opus-5-5 (docs/api_facts.md, "Context management").
ON_DEMAND_BETA = "compact-2026-09-04"
UNREAD_COMPACTION = (
    "messages.{n}.content.{m}: `compaction` blocks require a `compact_20260112` strategy in `context_management.edits`."
)


def compacting(request: dict) -> bool:
    """Whether the request sets ``compact_20260112``."""
    config = request.get("context_management")
    edits = config.get("edits") or () if isinstance(config, dict) else ()
    return any(edit["type"] == "compact_20260112" for edit in edits)


def unread_compaction(request: dict, betas: frozenset) -> str | None:
    if ON_DEMAND_BETA in betas or compacting(request):
        return None
    for n, message in enumerate(request.get("messages") or ()):
        content = message.get("content")
        for m, block in enumerate(content if isinstance(content, list) else ()):
            if isinstance(block, dict) and block.get("type") == "compaction":
                return UNREAD_COMPACTION.format(n=n, m=m)
    return None


@dataclass
class Managed:
    """The request as the model sees it, and what the response reports."""

    request: dict
    applied: list = field(default_factory=list)
    compaction: dict | None = None  # the block to start the reply with
    pause: bool = False


def compacted_view(request: dict) -> dict:
    """The request with every block before the last compaction block dropped, as the server does."""
    if request.get("context_management") is None:
        return request
    messages = request.get("messages") or []
    for n in range(len(messages) - 1, -1, -1):
        content = messages[n].get("content")
        if messages[n].get("role") != "assistant" or not isinstance(content, list):
            continue
        for m in range(len(content) - 1, -1, -1):
            if isinstance(content[m], dict) and content[m].get("type") == "compaction":
                kept = [{**messages[n], "content": content[m:]}, *messages[n + 1 :]]
                return {**request, "messages": kept}
    return request


def _tokens(request: dict) -> int:
    """The prompt's input tokens as the request's model counts them: triggers, ``clear_at_least`` and
    ``cleared_input_tokens`` are in the units ``usage`` and count_tokens report (the older tokenizer's
    on the Claude 4.6 and earlier models)."""
    row = MODELS.get(str(request.get("model")))
    return in_tokenizer(estimate_request(request).total, row.tokenizer if row else "2026")


def _tool_uses(messages: list) -> list[tuple[int, int, dict]]:
    return [
        (n, m, block)
        for n, message in enumerate(messages)
        if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for m, block in enumerate(message["content"])
        if isinstance(block, dict) and block.get("type") == "tool_use"
    ]


def _clear_tool_uses(request: dict, edit: dict) -> tuple[dict, dict | None]:
    messages = request["messages"]
    uses = _tool_uses(messages)
    trigger = edit.get("trigger") or {"type": "input_tokens", "value": DEFAULT_CLEAR_TRIGGER}
    before = _tokens(request)
    reached = len(uses) >= trigger["value"] if trigger["type"] == "tool_uses" else before >= trigger["value"]
    if not reached:
        return request, None
    keep = (edit.get("keep") or {"value": DEFAULT_KEEP})["value"]
    excluded = set(edit.get("exclude_tools") or ())
    inputs = edit.get("clear_tool_inputs")
    candidates = [u for u in uses if u[2].get("name") not in excluded]
    cleared = {u[2].get("id"): u for u in candidates[: max(len(candidates) - keep, 0)]}
    if not cleared:
        return request, None
    edited = []
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            edited.append(message)
            continue
        blocks = []
        for block in content:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "tool_result" and block.get("tool_use_id") in cleared:
                block = {**block, "content": CLEARED}
            elif (
                kind == "tool_use"
                and block.get("id") in cleared
                and (inputs is True or (isinstance(inputs, list) and block.get("name") in inputs))
            ):
                block = {**block, "input": {}}
            blocks.append(block)
        edited.append({**message, "content": blocks})
    result = {**request, "messages": edited}
    freed = before - _tokens(result)
    at_least = edit.get("clear_at_least")
    if at_least and freed < at_least["value"]:
        return request, None
    return result, {
        "type": "clear_tool_uses_20250919",
        "cleared_tool_uses": len(cleared),
        "cleared_input_tokens": freed,
    }


def _clear_thinking(request: dict, edit: dict) -> tuple[dict, dict | None]:
    # The context editing page's default is per model ("Opus 4.5+ and Sonnet 4.6+: all turns. Earlier
    # Opus/Sonnet and all Haiku: last turn only"), the thinking page's preservation default.
    default = "all" if keeps_prior_thinking(request.get("model")) else {"type": "thinking_turns", "value": 1}
    keep = edit.get("keep", default)
    if keep == "all" or (isinstance(keep, dict) and keep.get("type") == "all"):
        return request, None
    messages = request["messages"]
    thinking_turns = [
        n
        for n, message in enumerate(messages)
        if message.get("role") == "assistant"
        and isinstance(message.get("content"), list)
        and any(isinstance(b, dict) and b.get("type") in ("thinking", "redacted_thinking") for b in message["content"])
    ]
    cleared = set(thinking_turns[: max(len(thinking_turns) - keep["value"], 0)])
    if not cleared:
        return request, None
    before = _tokens(request)
    edited = [
        {**m, "content": [b for b in m["content"] if b.get("type") not in ("thinking", "redacted_thinking")]}
        if n in cleared
        else m
        for n, m in enumerate(messages)
    ]
    result = {**request, "messages": edited}
    freed = before - _tokens(result)
    return result, {
        "type": "clear_thinking_20251015",
        "cleared_thinking_turns": len(cleared),
        "cleared_input_tokens": freed,
    }


def manage(request: dict, summary=None) -> Managed:
    """Apply the request's edits in order; ``summary(request)`` writes the compaction text, should one
    happen (without it, as on count_tokens, no new compaction is made).

    Only a request with ``context_management`` is edited or compacted (a compaction block is sent
    back with the edit that made it still configured), so a plain request pays nothing here.
    """
    config = request.get("context_management")
    if config is None:
        return Managed(request)
    managed = Managed(compacted_view(request))
    for edit in config.get("edits") or ():
        kind = edit["type"]
        if kind == "clear_tool_uses_20250919":
            managed.request, applied = _clear_tool_uses(managed.request, edit)
        elif kind == "clear_thinking_20251015":
            managed.request, applied = _clear_thinking(managed.request, edit)
        else:
            applied = None
            trigger = (edit.get("trigger") or {}).get("value", DEFAULT_COMPACT_TRIGGER)
            if summary is not None and _tokens(managed.request) >= trigger:
                managed.compaction = {"type": "compaction", "content": summary(request)}
                managed.pause = bool(edit.get("pause_after_compaction"))
        if applied:
            managed.applied.append(applied)
    return managed


def counted(request: dict) -> dict:
    """The count_tokens answer: the prompt after the edits and earlier compactions ("applies existing
    `compaction` blocks in your prompt but does not trigger new compactions", the compaction page), and
    with ``context_management`` the count before them, as the context editing page's example reads it."""
    tokens = _tokens(manage(request).request)
    if request.get("context_management") is None:
        return {"input_tokens": tokens}
    original = _tokens(request)
    return {"input_tokens": tokens, "context_management": {"original_input_tokens": original}}


_NO_CACHE = {
    "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
}


def compaction_usage(usage: dict, managed: Managed, tokenizer: str) -> dict:
    """The usage of a reply under a ``compact_20260112`` edit. One that did not compact lists its one
    ``message`` iteration, which the top level matches (a live reply of 2026-09-26, docs/api_facts.md).
    One that compacted: ``iterations`` lists a ``compaction`` iteration (the prompt
    read, the summary written), then the ``message`` iteration that continued from the summary, which
    the top-level fields repeat (the compaction page, "Understanding usage"; the SDK: a compaction
    entry's tokens "are not included in the top-level usage fields").

    Inferred: the continuing iteration reads the system prompt, the tools and the summary, uncached;
    a paused reply has no such iteration, and its top-level fields stay the compaction's (what it was
    billed for), so a budget summing top-level usage does not miss it.
    """
    if managed.compaction is None:
        kept = {key: usage[key] for key in (*_NO_CACHE, "input_tokens", "output_tokens")}
        return {**usage, "iterations": [{"type": "message", **kept}]}
    block = managed.compaction
    summary = in_tokenizer(estimate_reply([block]), tokenizer)
    read = {key: usage[key] for key in ("cache_creation", *_NO_CACHE, "input_tokens") if key in usage}
    compaction = {"type": "compaction", **read, "output_tokens": summary}
    if managed.pause:
        return {
            **usage,
            "output_tokens": summary,
            "output_tokens_details": {"thinking_tokens": 0},
            "iterations": [compaction],
        }
    context = _tokens({**managed.request, "messages": [{"role": "assistant", "content": [block]}]})
    output = max(usage["output_tokens"] - summary, 1)
    message = {"type": "message", **_NO_CACHE, "input_tokens": context, "output_tokens": output}
    return {**usage, **_NO_CACHE, "input_tokens": context, "output_tokens": output, "iterations": [compaction, message]}
