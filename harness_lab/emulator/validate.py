"""The emulator's request checks: the real API's status, error type and message text (lessons 2-3).

A learner who drops the tool_use block from history, forgets ``tools`` on the follow-up, puts text
before the tool results or adds a field of their own must see offline the same 400 the real API
sends. The checks run in the real API's order:

1. the body as JSON (``wire.py``): a lone surrogate, nesting past 1,024 levels, a NaN;
2. its shape (``schema.py``, in the words of ``kinds.py``): every parameter and block type, unknown
   fields (``Extra inputs are not permitted``) and wrong types (``Input should be a valid boolean``);
3. what the shape cannot say: beta parameters without their beta header, the model and what its
   row in the model table allows (``max_tokens``, ``thinking.type``, forced ``tool_choice``: the
   row's 400 texts come from ``models.py`` and ``roundtrip.config_error``), each custom tool's
   ``input_schema`` valid JSON Schema, ``tool_choice`` against ``tools``, stop sequences, system
   blocks and ``metadata`` (``parameters.py``), where a ``role: "system"`` message may stand and
   which models take one (``system_messages.py``), non-empty text, base64 images of the format they
   claim, unique ``tool_use`` ids, ``tools`` present, every tool_use answered first thing in the
   next message, a server tool call left waiting only where the turn goes on (``server_tools.py``).
   The thinking blocks sent back are checked after this, by the server (``roundtrip.history_error``).

Each rule quotes the real message where public reports give it; docs/architecture.md lists them
with their sources, and which ones are inferred. Paths are ``messages.N`` /
``messages.N.content.M`` with ``N`` the index of the (first) original message and ``M`` the block
index inside the merged message.

Each step is one pass, linear in the size of the request, and none copies it deeply.
"""

from __future__ import annotations

from typing import Any

from ..json_schema import is_valid_schema
from . import wire
from .api_errors import STATUS_TYPES, ApiError, bad
from .citations import citation_error
from .context_management import edit_error, missing_beta, unread_compaction
from .history import Merged, merge
from .kinds import Model
from .models import BINDING_BETA, dated_id, interleaves_manually, is_known, spec
from .parameters import image_mismatch, parameter_error
from .placement import misplaced
from .roundtrip import config_error
from .schema import BETA_COUNT_TOKENS, BETA_FIELDS, COUNT_TOKENS, CREATE
from .server_tools import server_tool_error
from .strict import STRICT_OPEN_OBJECT, leaves_an_object_open, structured_error
from .system_messages import system_message_error
from .thinking import mode_of
from .tool_choice import tool_choice_error
from .tool_versions import tool_version_error

__all__ = [
    "ApiError",
    "STATUS_TYPES",
    "TASK_BUDGET_BETA",
    "check_prompt_length",
    "validate",
]

# The Messages API's create / count_tokens bodies, as the installed SDK types them.
_CREATE_BODY = Model({**CREATE, **BETA_FIELDS}, ["max_tokens", "messages", "model"])
_COUNT_TOKENS_BODY = Model({**COUNT_TOKENS, **BETA_COUNT_TOKENS}, ["messages", "model"])

THINKING_BUDGET = (
    "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
)


INVALID_SCHEMA = (
    "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
    "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview."
)

TASK_BUDGET_BETA = "task-budgets-2026-03-13"
DISPLAY_UPDATES_BETA = "thinking-display-updates-2026-08-18"


def _check_betas(request: dict, betas: frozenset) -> ApiError | None:
    """A beta-only field sent without its beta header is a field the GA API does not know; with it, a
    compaction trigger must still be 50,000 tokens or more, and a compaction block needs the edit that reads it."""
    missing = missing_beta(request, betas) or edit_error(request) or unread_compaction(request, betas)
    if missing:
        return bad(missing)
    if not betas:  # the GA API: a beta-only parameter is one it does not know (docs/api_facts.md)
        for name in BETA_FIELDS:
            if request.get(name) is not None:
                return bad(f"{name}: Extra inputs are not permitted")
    thinking = request.get("thinking")
    if isinstance(thinking, dict) and thinking.get("block_binding") is not None and BINDING_BETA not in betas:
        # The preserved thinking page: block_binding "without the beta header returns a 400 error"; the GA
        # schema has no such field (inferred wording: its answer to any unknown field).
        return bad(f"thinking.{thinking['type']}.block_binding: Extra inputs are not permitted")
    if isinstance(thinking, dict) and thinking.get("display") == "updates" and DISPLAY_UPDATES_BETA not in betas:
        # The GA schema's display is "summarized" or "omitted" (the SDK's ThinkingConfig*Param); "updates" is the
        # beta's (inferred wording: the schema's answer to any other value).
        return bad(f"thinking.{thinking['type']}.display: Input should be 'summarized' or 'omitted'")
    config = request.get("output_config")
    if isinstance(config, dict) and config.get("task_budget") is not None and TASK_BUDGET_BETA not in betas:
        return bad("output_config.task_budget: Extra inputs are not permitted")
    return None


def _check_limits(request: dict, count_tokens: bool, betas: frozenset = frozenset()) -> ApiError | None:
    """The model must exist and take these settings (models.py); ``max_tokens`` must fit its
    output and leave room after a manual thinking budget (unless that budget spans the turn's
    interleaved thinking)."""
    model = request["model"]
    if not is_known(model):
        return ApiError(404, f"model: {model}")
    row = spec(model)
    if not count_tokens:
        max_tokens, limit = request["max_tokens"], row.max_output
        if max_tokens > limit:
            # The live text names the model that answers: an alias's dated id (a live probe on claude-haiku-4-5,
            # docs/api_facts.md round five).
            return bad(
                f"max_tokens: {max_tokens} > {limit}, which is the maximum allowed number of output tokens for "
                f"{dated_id(model)}"
            )
    error = config_error(request, row, mode_of(request, row.thinking_default, row.display_default))
    if error or count_tokens:
        return error
    thinking = request.get("thinking")
    if max_tokens == 0:
        return _warming_error(request)
    budget = thinking["budget_tokens"] if isinstance(thinking, dict) and thinking.get("type") == "enabled" else None
    if budget is not None and budget >= max_tokens and not interleaves_manually(row, betas):
        return bad(THINKING_BUDGET)
    return None


# Public 400s (claude-agent-sdk and trae-agent reports, 2025-12): an error result must say something,
# so ``str(TimeoutError())`` as its content is refused; whitespace alone too (oh-my-pi's changelog).
EMPTY_ERROR_RESULT = "content cannot be empty if `is_error` is true"

# The prompt caching page: a ``max_tokens: 0`` request "is rejected with an invalid_request_error" if it
# streams, thinks with a manual budget, asks for structured output or forces a tool, "since each implies
# output that a zero-token budget cannot produce". Inferred: the wording (the page quotes none).
WARMING_REFUSED = "max_tokens: 0 only pre-warms the prompt cache and cannot be used with {what}"


def _warming_error(request: dict) -> ApiError | None:
    thinking, config, choice = request.get("thinking"), request.get("output_config"), request.get("tool_choice")
    clashes = (
        (request.get("stream") is True, "`stream: true`"),
        (isinstance(thinking, dict) and thinking.get("type") == "enabled", '`thinking.type: "enabled"`'),
        (isinstance(config, dict) and config.get("format") is not None, "`output_config.format`"),
        (isinstance(choice, dict) and choice.get("type") in ("any", "tool"), "a forced `tool_choice`"),
    )
    what = next((name for clash, name in clashes if clash), None)
    return bad(WARMING_REFUSED.format(what=what)) if what else None


def _check_system_messages(request: dict) -> ApiError | None:
    refusal = system_message_error(request["messages"], spec(request["model"]))  # the model is known here
    return bad(refusal) if refusal else None


def _not_an_object(schema: dict) -> str | None:
    """What the API says of a tool's input_schema that is no object at its top: ``{}`` (a no-argument
    tool written short) gets the public 400 ``….input_schema.type: Field required``, a top-level union
    ``… does not support oneOf, allOf, or anyOf at the top level`` (Hmbown/Codewhale #4329); another
    ``type`` is refused in pydantic's words (inferred)."""
    if "type" not in schema:
        return ".type: Field required"
    if schema["type"] != "object":
        return ".type: Input should be 'object'"
    if any(key in schema for key in ("oneOf", "allOf", "anyOf")):
        return ": input_schema does not support oneOf, allOf, or anyOf at the top level"
    return None


def _check_tools(tools: list) -> ApiError | None:
    names: set[str] = set()
    for i, tool in enumerate(tools):
        # Custom tools have no "type" (or "custom"); server tools are named by the API.
        if tool.get("type") not in (None, "custom"):
            continue
        if not is_valid_schema(tool["input_schema"]):
            return bad(INVALID_SCHEMA.format(i=i))
        if problem := _not_an_object(tool["input_schema"]):
            return bad(f"tools.{i}.custom.input_schema{problem}")
        if tool.get("strict") is True and leaves_an_object_open(tool["input_schema"]):
            return bad(STRICT_OPEN_OBJECT.format(i=i))
        if tool["name"] in names:
            return bad("tools: Tool names must be unique.")
        names.add(tool["name"])
    if tools and all(tool.get("defer_loading") is True for tool in tools):
        return bad("All tools have defer_loading set. At least one tool must be non-deferred.")
    return None


def _check_messages(messages: list) -> tuple[ApiError | None, bool]:
    """What the shape cannot say about messages; also reports whether any tool block appears."""
    if not messages:
        return bad("messages: at least one message is required"), False
    has_tool_blocks = False
    tool_use_ids: set[str] = set()  # unique across the whole conversation, not per message
    last = len(messages) - 1
    for n, message in enumerate(messages):
        content = message["content"]
        final_assistant = n == last and message["role"] == "assistant"
        if not content:
            if final_assistant:
                continue
            return bad(
                f"messages.{n}: all messages must have non-empty content except for the optional final assistant message"
            ), False
        if isinstance(content, str):
            if not content.strip():
                return bad("messages: text content blocks must contain non-whitespace text"), False
            if final_assistant and content != content.rstrip():
                return bad("messages: final assistant content cannot end with trailing whitespace"), False
            continue
        for m, block in enumerate(content):
            kind = block["type"]
            wrong_role = misplaced(kind, message["role"], n)
            if wrong_role:
                return bad(wrong_role), False
            if kind == "text":
                text = block["text"]
                if not text:
                    return bad("messages: text content blocks must be non-empty"), False
                if not text.strip():
                    return bad("messages: text content blocks must contain non-whitespace text"), False
                if final_assistant and m == len(content) - 1 and text != text.rstrip():
                    return bad("messages: final assistant content cannot end with trailing whitespace"), False
            elif kind == "tool_use":
                has_tool_blocks = True
                if block["id"] in tool_use_ids:
                    return bad(f"messages.{n}.content.{m}: `tool_use` ids must be unique"), False
                tool_use_ids.add(block["id"])
            elif kind == "tool_result":
                has_tool_blocks = True
                inner = block.get("content")
                if block.get("is_error") and _blank(inner):
                    return bad(f"messages.{n}.content.{m}.tool_result: {EMPTY_ERROR_RESULT}"), False
                for k, item in enumerate(inner if isinstance(inner, list) else ()):
                    if item["type"] == "image":
                        mismatch = image_mismatch(item, f"messages.{n}.content.{m}.tool_result.content.{k}.image")
                        if mismatch:
                            return bad(mismatch), False
            elif kind == "image":
                mismatch = image_mismatch(block, f"messages.{n}.content.{m}.image")
                if mismatch:
                    return bad(mismatch), False
    return None, has_tool_blocks


def _blank(content: Any) -> bool:
    """A tool result with nothing to read: no content, only whitespace, or only blank text blocks."""
    if content is None or isinstance(content, str):
        return not (content or "").strip()
    return all(isinstance(b, dict) and b.get("type") == "text" and not str(b.get("text", "")).strip() for b in content)


def _check_pairing(merged: list[Merged]) -> ApiError | None:
    """Every tool_use answered first thing in the next user message, once; no stray tool_result."""
    previous_ids: list[str] = []
    for position, message in enumerate(merged):
        if message.role == "assistant":
            ids = [b["id"] for b in message.content if isinstance(b, dict) and b.get("type") == "tool_use"]  # required
            if ids and position + 1 < len(merged):
                following = merged[position + 1]
                answered = set()
                for block in following.content:  # only the leading run of tool_result blocks counts
                    if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                        break
                    answered.add(block.get("tool_use_id"))
                missing = [i for i in ids if i not in answered]
                if missing:
                    return bad(
                        f"messages.{message.index}: `tool_use` ids were found without `tool_result` blocks "
                        f"immediately after: {', '.join(missing)}. Each `tool_use` block must have a "
                        "corresponding `tool_result` block in the next message."
                    )
            previous_ids = ids
            continue
        allowed = set(previous_ids)
        answered_here: set[str] = set()
        for m, block in enumerate(message.content):
            if isinstance(block, dict) and block.get("type") == "tool_result":
                tool_use_id = block.get("tool_use_id")
                if tool_use_id not in allowed:
                    return bad(
                        f"messages.{message.index}.content.{m}: unexpected `tool_use_id` found in `tool_result` "
                        f"blocks: {tool_use_id}. Each `tool_result` block must have a corresponding `tool_use` "
                        "block in the previous message."
                    )
                if tool_use_id in answered_here:
                    # Wording and prefix as public reports of the real 400 quote them; that M names the
                    # repeated block, not the first, is inferred (reports mostly quote ``content.1``).
                    return bad(
                        f"messages.{message.index}.content.{m}: each tool_use must have a single result. "
                        f"Found multiple `tool_result` blocks with id: {tool_use_id}"
                    )
                answered_here.add(tool_use_id)
        previous_ids = []
    return None


def _unreadable(request: object) -> ApiError | None:
    message = wire.first_error(request)
    return bad(message) if message else None


def validate(
    request: Any, *, count_tokens: bool = False, encodable: bool = False, betas: frozenset = frozenset()
) -> tuple[ApiError | None, list[Merged]]:
    """Check a request body; return the first error (or None) and the merged history.

    ``encodable=True`` says the caller already wrote the body with the C JSON encoder (the server
    does, for its ids), which rules out lone surrogates and NaNs without another pass. ``betas``
    are the request's ``anthropic-beta`` header values.
    """
    walked = False
    if not (encodable or wire.encodes(request)):
        error, walked = _unreadable(request), True
        if error:
            return error, []
    problem = (_COUNT_TOKENS_BODY if count_tokens else _CREATE_BODY).check(request, ())
    if problem:
        # The API parses before it validates: a body it cannot read is refused as such.
        error = None if walked else _unreadable(request)
        return error or bad(problem.text()), []
    error = _check_betas(request, betas) or _check_limits(request, count_tokens, betas)
    error = error or _check_tools(request.get("tools") or []) or _check_system_messages(request)
    if error:
        return error, []
    refusal = tool_choice_error(request) or parameter_error(request) or structured_error(request)
    refusal = refusal or tool_version_error(request) or citation_error(request)
    if refusal:
        return bad(refusal), []
    error, has_tool_blocks = _check_messages(request["messages"])
    if error:
        return error, []
    if has_tool_blocks and not request.get("tools"):
        return bad("Requests which include `tool_use` or `tool_result` blocks must define tools."), []
    merged = merge(request["messages"])
    error = _check_pairing(merged)
    waiting = None if error else server_tool_error(merged, request.get("tools") or [], count_tokens=count_tokens)
    return error or (bad(waiting) if waiting else None), merged


def check_prompt_length(total_tokens: int, model: str) -> ApiError | None:
    """The real API refuses a prompt longer than the model's context window before generating anything."""
    window = spec(model).context_window
    if total_tokens > window:
        return bad(f"prompt is too long: {total_tokens} tokens > {window} maximum")
    return None
