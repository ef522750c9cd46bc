"""The thinking rules a request must keep, answered with the real API's 400s (lessons 2 and 6).

Two groups, both reading the model table (models.py):

- ``config_error``: the request's own settings. A ``thinking.type`` the model refuses, forced
  ``tool_choice`` where the model refuses it, manual extended thinking together with forced tool
  use, a task budget the model does not take (or under 20,000 tokens), an effort level it does
  not take (or, on Opus 5 and later, ``xhigh`` or ``max`` with thinking disabled; with
  ``between_tools``, on Sonnet 5.5 its one model, likewise), ``display: "updates"`` on a model whose
  text between tool calls is not thinking, ``speed: "fast"``
  on a model without fast mode, ``inference_geo`` on a model before Claude 4.6.
- ``history_error``: the thinking blocks it sends back. Each must carry a seal this emulator made
  (thinking.py), for a model the current one may read, with its text unchanged; on the models with
  preserved thinking, the conversation before it unchanged too. The assistant turn that the final
  tool results answer must still start with its thinking block; a thinking configuration changed
  inside that loop (a tool-use loop is one assistant turn) turns thinking off for the request.

Messages quoted from public reports are the API's; where none was found the wording follows the
same form and its constant says "inferred". docs/api_facts.md lists each text with its source.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from .api_errors import ApiError
from .history import Merged
from .ids import canonical_json
from .models import BINDING_BETA, MODELS, ModelSpec, interleaves_manually
from .server_tools import is_server_result
from .thinking import Mode, block_matches, decode_signature, prefix_matches, read_tool_id
from .tokens import THINKING_KINDS

__all__ = ["config_error", "history_error", "turn_mode"]


FORCED_TOOL_CHOICE = 'tool_choice: type "tool" and "any" are not supported for this model.'
FORCED_WITH_MANUAL_THINKING = "Thinking may not be enabled when tool_choice forces tool use."
# display "updates" shows the progress notes a model writes between tool calls, so only the models whose notes come
# back as thinking take it: "What's new in Claude Fable 5.1" lists it among 5.1's additions, a later summary names
# Fable 5 too (the stricter side is kept, docs/api_facts.md). Inferred: the wording, the between_tools refusal's.
DISPLAY_UPDATES_UNSUPPORTED = '"thinking.display.updates" is not supported for this model.'
# Inferred: the docs list the supported models but quote no text for the others.
TASK_BUDGET_UNSUPPORTED = "output_config.task_budget: task budgets are not supported on this model"
# The task budgets page: "on every model that currently supports task budgets it is 20,000 tokens, and
# values below the minimum return a 400 error"; the wording is inferred (a pydantic bound's).
TASK_BUDGET_MINIMUM = 20_000
TASK_BUDGET_TOO_SMALL = (
    f"output_config.task_budget.total: Input should be greater than or equal to {TASK_BUDGET_MINIMUM}"
)
EFFORT_UNSUPPORTED = "This model does not support the effort parameter."
# Inferred: the effort page lists each model's levels but no public 400 quotes the text for another one.
EFFORT_LEVEL_UNSUPPORTED = "output_config.effort '{effort}' is not supported on this model."
EFFORT_WITHOUT_THINKING = (
    "output_config.effort '{effort}' is not supported when thinking is disabled on this model. "
    "Use effort 'high' or below, or enable thinking."
)
# What's new in Claude Sonnet 5.5: "`between_tools` is accepted at `low`, `medium`, and `high` effort. At
# `xhigh` or `max` effort, a request with `between_tools` returns a 400 error". Inferred: the wording (the page
# quotes none), in the form of the thinking-disabled refusal above.
EFFORT_WITH_BETWEEN_TOOLS = (
    "output_config.effort '{effort}' is not supported with thinking type 'between_tools'. "
    "Use effort 'high' or below, or adaptive thinking."
)
# The fast mode page: requesting `speed: "fast"` on a model without fast mode "returns an
# error"; the text is the live 400 as two public reports quote it (docs/api_facts.md).
SPEED_UNSUPPORTED = "'{model}' does not support the `speed` parameter."
# The pricing page: "Earlier models do not support the inference_geo parameter ...; requests that include
# the parameter on these models return a 400 error". Inferred: the wording is the speed 400's.
GEO_UNSUPPORTED = "'{model}' does not support the `inference_geo` parameter."
MODIFIED = (
    "{path}: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. "
    "These blocks must remain as they were in the original response."
)
INVALID = "{path}: Invalid `{field}` in `{kind}` block"
BOUND_ELSEWHERE = (
    "{path}: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the "
    'block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".'
)
# "If the request didn't send the beta header, the message continues" with this (the preserved thinking page and
# Troubleshooting thinking quote it); the sentence naming what changed that live usually ends it is left out
# ("Its wording can change, so don't match on it in code").
BINDING_BETA_NEEDED = f"That setting requires the `{BINDING_BETA}` value in the `anthropic-beta` header."
MUST_START_WITH_THINKING = (
    "messages.{n}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` "
    "is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of "
    "`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid "
    "this requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)
# Public 400s (claude-code #20705, a request id of 2026-01; other clients quote it with `tool_use`): a
# turn that holds thinking starts with it, in any assistant message, before any seal is read.
THINKING_NOT_FIRST = (
    "messages.{n}.content.0: If an assistant message contains any thinking blocks, the first block must be "
    "thinking or redacted_thinking. Found {found}."
)

# A public 400 (tailcallhq/forgecode #1195, the raw body): a prefill holding thinking while none runs.
THINKING_IN_PREFILL = (
    "messages.{n}.content.0: When thinking is disabled, an `assistant` message in the final position cannot "
    "contain `thinking`. To use thinking blocks, enable `thinking` in your request."
)


def _bad(message: str) -> ApiError:
    return ApiError(400, message)


def config_error(request: dict, spec: ModelSpec, mode: Mode) -> ApiError | None:
    """The request's thinking and tool_choice settings against the model's row."""
    thinking = request.get("thinking")
    if isinstance(thinking, dict):
        refused = spec.rejection(thinking["type"])
        if refused:
            return _bad(refused)
        if thinking.get("display") == "updates" and not spec.text_between_tools_as_thinking:
            return _bad(DISPLAY_UPDATES_UNSUPPORTED)
    choice = request.get("tool_choice")
    forced = isinstance(choice, dict) and choice.get("type") in ("any", "tool")
    if forced and not spec.forced_tool_choice:
        return _bad(FORCED_TOOL_CHOICE)
    if forced and mode.kind == "enabled":
        return _bad(FORCED_WITH_MANUAL_THINKING)
    if request.get("speed") == "fast" and not spec.fast_mode:
        return _bad(SPEED_UNSUPPORTED.format(model=spec.id))
    if request.get("inference_geo") is not None and not spec.inference_geo:
        return _bad(GEO_UNSUPPORTED.format(model=spec.id))
    config = request.get("output_config")
    budget = config.get("task_budget") if isinstance(config, dict) else None
    if budget is not None and not spec.task_budget:
        return _bad(TASK_BUDGET_UNSUPPORTED)
    if budget is not None and budget["total"] < TASK_BUDGET_MINIMUM:
        return _bad(TASK_BUDGET_TOO_SMALL)
    effort = config.get("effort") if isinstance(config, dict) else None
    if effort is None:
        return None
    if not spec.efforts:
        return _bad(EFFORT_UNSUPPORTED)
    if effort not in spec.efforts:
        return _bad(EFFORT_LEVEL_UNSUPPORTED.format(effort=effort))
    if spec.effort_needs_thinking and effort in ("xhigh", "max") and mode.kind == "disabled":
        return _bad(EFFORT_WITHOUT_THINKING.format(effort=effort))
    if mode.kind == "between_tools" and effort in ("xhigh", "max"):
        return _bad(EFFORT_WITH_BETWEEN_TOOLS.format(effort=effort))
    return None


class _Prefixes:
    """Digests of the conversation before each message, made on first need (preserved thinking only)."""

    def __init__(self, request: dict) -> None:
        self.request = request
        self.digests: list[bytes] | None = None

    def before(self, n: int) -> bytes:
        if self.digests is None:
            self.digests = conversation_digests(self.request)
        return self.digests[n]


def conversation_digests(request: dict) -> list[bytes]:
    """``[H(system, tools), H(system, tools, messages[0]), ...]``: what a block's prefix hash covers."""
    running = hashlib.sha256()
    running.update(canonical_json(request.get("system")))
    running.update(canonical_json(request.get("tools")))
    digests = [running.copy().digest()]
    for message in request.get("messages") or ():
        running.update(b"\x00")
        running.update(canonical_json(message))
        digests.append(running.copy().digest())
    return digests


def _latest_assistant_start(messages: list) -> int:
    """Index of the first message of the last run of assistant messages (merged into one turn)."""
    start = len(messages)
    for n in range(len(messages) - 1, -1, -1):
        if messages[n].get("role") == "assistant":
            start = n
        elif start < len(messages):
            break
    return start


def history_error(
    request: dict, merged: list[Merged], spec: ModelSpec, mode: Mode, betas: frozenset = frozenset()
) -> tuple[ApiError | None, list, Mode]:
    """The first thinking rule the history breaks, or None and the blocks dropped on the way; and the
    thinking this request runs with (none, when the configuration changed inside a tool-use loop).

    The shape of the turn before the tool results is checked first (a path into its first block,
    like a schema error), then each block's seal in order.
    """
    loop, mode = _loop_error(merged, spec, mode)
    if loop is None:
        loop = _prefill_error(merged, mode)
    if loop is not None:
        return loop, [], mode
    messages = request["messages"]
    latest = _latest_assistant_start(messages)
    prefixes, dropped, mismatch_seen = _Prefixes(request), [], False
    for n, message in enumerate(messages):
        content = message["content"]
        if message["role"] != "assistant" or isinstance(content, str):
            continue
        # A summary goes first; so does the result of a server tool call the turn before left waiting: the
        # API's reply "starts with the result block" (the server tools page), thinking after it.
        lead = next((b["type"] for b in content if b["type"] != "compaction" and not is_server_result(b["type"])), None)
        if lead not in (None, *THINKING_KINDS) and any(b["type"] in THINKING_KINDS for b in content):
            return _bad(THINKING_NOT_FIRST.format(n=n, found=lead)), [], mode
        for m, block in enumerate(content):
            kind = block["type"]
            if kind not in THINKING_KINDS:
                continue
            path, redacted = f"messages.{n}.content.{m}", kind == "redacted_thinking"
            field = "data" if redacted else "signature"
            signed = decode_signature(block[field], redacted)
            if signed is None:
                return _bad(INVALID.format(path=path, field=field, kind=kind)), [], mode
            if signed.family not in spec.reads:  # another model's block: ignored, the docs say, not refused,
                # and listed by any model under the header (a live reply on Sonnet 5, docs/api_facts.md)
                dropped.append({"type": "thinking_dropped", "path": path, "reason": "model_binding_mismatch"})
                continue
            if not block_matches(signed, block, content[:m]):
                if n >= latest:
                    return _bad(MODIFIED.format(path=path)), [], mode
                return _bad(INVALID.format(path=path, field=field, kind=kind)), [], mode
            # Only a block made by a preserved-thinking model is bound to its conversation ("Each Claude Sonnet 5.5
            # thinking block is also signed over the conversation before it"); an earlier model's block read by one
            # is not (inferred: no page says so of those blocks).
            if not spec.preserved_thinking:
                continue
            bound = MODELS[signed.family].preserved_thinking
            if mismatch_seen or (bound and not prefix_matches(signed, prefixes.before(n), content[:m])):
                if not mode.drop_mismatched:
                    text = BOUND_ELSEWHERE.format(path=path)
                    return _bad(text if BINDING_BETA in betas else f"{text} {BINDING_BETA_NEEDED}"), [], mode
                mismatch_seen = True  # this block and every later thinking block are invalid
                dropped.append({"type": "thinking_dropped", "path": path, "reason": "prefix_binding_mismatch"})
    return None, dropped, mode


def turn_mode(merged: list[Merged], spec: ModelSpec, mode: Mode, betas: frozenset) -> Mode:
    """``mode`` for this reply: manual thinking that does not interleave (no header, or a model without
    it) thinks at the start of its turn only, not again after each tool result [ET]."""
    if mode.kind != "enabled" or interleaves_manually(spec, betas) or not _answers_tools(merged):
        return mode
    return replace(mode, continuing=True)


def _answers_tools(merged: list[Merged]) -> bool:
    """Whether the request ends with a user message holding tool results."""
    last = merged[-1] if merged else None
    return (
        last is not None
        and last.role == "user"
        and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last.content)
    )


def _first_type(content: list) -> str:
    first = content[0]
    return str(first.get("type")) if isinstance(first, dict) else "text"


def _prefill_error(merged: list[Merged], mode: Mode) -> ApiError | None:
    """A prefill (a final assistant message, on a model that takes one) while manual thinking is on:
    the thinking page says "You can't pre-fill the assistant response while thinking is on", and the
    live 400 is the must-start one (public reports quote it with "but found `text`")."""
    final = merged[-1] if merged else None
    if final is None or final.role != "assistant" or not final.content:
        return None
    if mode.kind == "disabled" and any(isinstance(b, dict) and b.get("type") in THINKING_KINDS for b in final.content):
        return _bad(THINKING_IN_PREFILL.format(n=final.index))
    if mode.kind != "enabled":
        return None
    found = _first_type(final.content)
    return None if found in THINKING_KINDS else _bad(MUST_START_WITH_THINKING.format(n=final.index, found=found))


def _loop_error(merged: list[Merged], spec: ModelSpec, mode: Mode) -> tuple[ApiError | None, Mode]:
    """The assistant turn the final tool results answer: its thinking, and the configuration it ran with.

    A configuration changed inside the loop is no error: the request runs without thinking (the
    thinking page: "the API doesn't error. Instead, it silently disables thinking for that request").
    Manual extended thinking still insists that the turn start with a thinking block.
    """
    if len(merged) < 2 or merged[-2].role != "assistant" or not _answers_tools(merged):
        return None, mode
    turn = merged[-2]
    if not turn.content:
        return None, mode
    found = _first_type(turn.content)
    starts = found in THINKING_KINDS
    call = next((b for b in turn.content if isinstance(b, dict) and b.get("type") == "tool_use"), None)
    state = read_tool_id(call.get("id"), spec.family) if call else None
    must_start = _bad(MUST_START_WITH_THINKING.format(n=turn.index, found=found))
    if mode.kind == "enabled" and not starts and (state is None or state.mode != mode.kind):
        return must_start, mode
    if state is None:  # a turn this emulator did not make (or another model did)
        return None, mode
    if state.mode != mode.kind:
        return None, Mode("disabled", mode.display)
    if state.began_with_thinking and not starts:
        return must_start, mode
    return None, mode
