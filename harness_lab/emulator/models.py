"""The model table: one row per model id the emulator answers for (lesson 6 uses ``claude-sonnet-5``).

Every per-model rule reads this table: the context window ("prompt is too long"), the output
limit (``max_tokens``), which ``thinking.type`` values a model accepts, rejects (with the real
400 text) and runs when the field is absent, the default ``display``, whether forced
``tool_choice`` is accepted, whether replayed thinking is bound to its conversation (preserved
thinking), whose thinking blocks a model may read, the smallest cacheable prompt and task-budget
support, whether an assistant prefill is accepted, whether a ``role: "system"`` message may sit
in ``messages`` (mid-conversation system messages), whether manual thinking interleaves, whether
earlier turns' thinking stays in context, whether compaction, programmatic tool calling and
each computer tool version are taken, and the rate-limit allowance the answers' headers give. Each fact and its
source page are in docs/api_facts.md, whose two model tables tests/emulator/test_models.py compares with this one
row by row; a cell the docs do not give is marked there as the emulator's assumption.

An id outside the table gets the real API's 404 ``model: <id>``, a retired model's id too ("Requests
to retired models will fail", the model deprecations page): Mythos Preview (retired 2026-06-30, the
installed SDK's list of deprecated models) and Sonnet 4.5 (2026-11-30, its model page) have no row.
Dated ids are aliases: they share their family's row, and a thinking block made by one reads as made
by the other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..model import DEFAULT_MODEL
from .thinking_reads import READS

__all__ = [
    "BINDING_BETA",
    "CONTEXT_WINDOW",
    "DEFAULT_MODEL",
    "DEPRECATED_ON",
    "KNOWN_MODELS",
    "MODELS",
    "ModelSpec",
    "context_window",
    "dated_id",
    "is_known",
    "spec",
]

# The real 400 texts for a rejected ``thinking.type``, as public reports quote them (sources in
# docs/api_facts.md, "Thinking configuration").
_USE_ADAPTIVE = 'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
ENABLED_REJECTED = f'"thinking.type.enabled" is not supported for this model. {_USE_ADAPTIVE}'
DISABLED_REJECTED = f'"thinking.type.disabled" is not supported for this model. {_USE_ADAPTIVE}'
DISABLED_REJECTED_SONNET_5_5 = (
    '"thinking.type.disabled" is not supported for this model. Use "thinking.type.between_tools" for the lowest '
    'thinking setting, or "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
)
DISABLED_REJECTED_PREVIEW = (
    '"thinking.type.disabled" is not supported for this model. Thinking defaults to adaptive mode when not '
    'specified; use "thinking.type.enabled" with "budget_tokens" for extended thinking.'
)
ADAPTIVE_REJECTED = "adaptive thinking is not supported on this model"
BETWEEN_TOOLS_REJECTED = '"thinking.type.between_tools" is not supported for this model.'
# A conversation ending with an assistant message on a model without prefill (the 4.6-and-later ones).
PREFILL_REFUSED = (
    "This model does not support assistant message prefill. The conversation must end with a user message."
)

# A ``role: "system"`` message in ``messages`` sent to a model without mid-conversation system messages:
# the Claude 4.6 and 4.7 models answer the first text, the 4.5 ones the older second one (sources in
# docs/api_facts.md, "Mid-conversation system messages").
SYSTEM_ROLE_UNSUPPORTED = "role 'system' is not supported on this model"
SYSTEM_ROLE_UNEXPECTED = (
    'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, '
    'not "system" as an input message role.'
)

THINKING_TYPES = ("adaptive", "enabled", "disabled", "between_tools")
EFFORTS = ("low", "medium", "high", "xhigh", "max")


@dataclass(frozen=True)
class ModelSpec:
    """One row of the table. ``rejects`` maps each refused ``thinking.type`` to its 400 text; a fact a row
    leaves out has the value most models have."""

    id: str
    family: str  # the undated id: thinking blocks and prices are per family
    context_window: int
    max_output: int
    rejects: tuple  # ((thinking type, 400 text), ...); every other type is accepted
    thinking_default: str  # what a request without ``thinking`` runs: "adaptive" or "disabled"
    display_default: str  # "omitted" (empty thinking text, a signature) or "summarized"
    forced_tool_choice: bool = True  # tool_choice "any" / "tool" accepted (adaptive thinking then skipped)
    preserved_thinking: bool = False  # a replayed block is bound to its conversation (prefix check)
    reads: frozenset = frozenset()  # families whose thinking blocks this model may read
    text_between_tools_as_thinking: bool = False  # text between tool calls comes back as thinking blocks
    min_cacheable: int = 1024  # prompts shorter than this are not cached
    tokenizer: str = "2026"  # "2026": the Claude 4.7-and-later tokenizer (~1.3x the tokens of "2025")
    task_budget: bool = False  # output_config.task_budget accepted
    prefill: bool = False  # a final assistant message accepted (only a pause_turn's own content is resent where not)
    system_role: str | None = None  # the 400 a role "system" message gets, or None where the model takes one
    efforts: tuple = EFFORTS  # the output_config.effort levels accepted; () where the model has no effort parameter
    effort_needs_thinking: bool = False  # xhigh and max refused with thinking disabled (Opus 5 and later)
    fast_mode: str = ""  # speed "fast": "fast" runs fast, "standard" runs at standard speed (Opus 4.6), "" is a 400
    inference_geo: bool = True  # the inference_geo parameter accepted (Claude 4.6 and later)
    # A reply that did not think has usage.output_tokens_details ({"thinking_tokens": 0}); live Haiku 4.5
    # replies have none at all (docs/api_facts.md, the usage paragraph of "Cache diagnostics").
    output_details_without_thinking: bool = True
    # What a request without output_config.effort runs at: "medium" on Opus 5.5 and Haiku 5.5 (docs/api_facts.md,
    # what invalidates a cache: the effort page of late 2026).
    effort_default: str = "high"
    # Manual thinking interleaves (thinks again between tool calls, budget_tokens spanning the turn) with
    # INTERLEAVED_BETA: Opus 4.5 and Sonnet 4.6 (docs/api_facts.md, "Thinking in responses and the round trip").
    manual_interleaving: bool = False
    # Older turns' thinking kept in context and billed as input. Haiku 4.5 (like the retired Sonnet 4.5) keeps
    # only the current turn's: older blocks sent back are stripped and cost nothing (docs/api_facts.md, "Thinking
    # in responses and the round trip", citing the thinking page's "Thinking block preservation by model").
    keeps_prior_thinking: bool = True
    # compact_20260112 accepted: the compaction page's supported models (Fable 5, Mythos 5, Opus 4.6 to 5, Sonnet
    # 4.6 and 5; their 5.1, 5.2 and 5.5 successors inferred), no Haiku, no 4.5 model (docs/api_facts.md, "Context
    # management, compaction, task budgets, stop reasons").
    compaction: bool = True
    # Code execution may call the request's other tools; Haiku 4.5 is not in the programmatic tool calling
    # page's list (docs/api_facts.md, "Tool versions per model").
    programmatic_tool_calling: bool = True
    # The computer tool versions taken (docs/api_facts.md, "Tool versions per model"): the toolset not on Opus 4.7,
    # 4.6, Sonnet 4.6 and the 4.5 models; computer_20251124 not on Haiku 4.5 nor on the 5.5 and 5.2 models, which
    # take the toolset only; computer_20250124 on Haiku 4.5 alone (the other models of its page's list are retired).
    computer_toolset: bool = True
    computer_20251124: bool = True
    computer_20250124: bool = False
    # The rate-limit headers' per-minute allowance (requests, input tokens, output tokens): the Rate limits page's
    # tier-1 row for the model's line, 50,000 and 10,000 tokens for Haiku (docs/api_facts.md, "Rate-limit headers").
    rate_limits: tuple = (50, 30_000, 8_000)

    def ran_at(self, speed: str | None) -> str | None:
        """The speed ``usage.speed`` reports for the request's ``speed`` (Opus 4.6 quietly runs standard)."""
        return "standard" if speed == "fast" and self.fast_mode == "standard" else speed

    def rejection(self, thinking_type: str) -> str | None:
        return dict(self.rejects).get(thinking_type)

    @property
    def accepts(self) -> tuple:
        return tuple(t for t in THINKING_TYPES if self.rejection(t) is None)


def _row(family: str, window: int, output: int, rejects: dict, default: str, display: str, **facts: Any) -> ModelSpec:
    """A row: the table's first columns in order, then the facts where the model differs (ModelSpec's names)."""
    # Only Sonnet 5.5 takes between_tools; its row says so with None (accepted).
    rejects = {k: v for k, v in {"between_tools": BETWEEN_TOOLS_REJECTED, **rejects}.items() if v is not None}
    reads = frozenset({family, *READS.get(family, ())})
    return ModelSpec(
        family, family, window, output, tuple(sorted(rejects.items())), default, display, reads=reads, **facts
    )


M, K = 1_000_000, 1_000
# The extended thinking page: manual thinking interleaves (thinks again between tool calls, its budget
# spanning the turn) only with this header, and only on Opus 4.5, Sonnet 4.5 (retired) and Sonnet 4.6;
# Opus 4.6's manual mode never does, and Haiku 4.5 ignores the header.
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
# The beta that thinking.block_binding and a response's input_transformations need (the preserved thinking page).
BINDING_BETA = "thinking-binding-controls-2026-08-01"


def interleaves_manually(row: ModelSpec, betas: frozenset) -> bool:
    return INTERLEAVED_BETA in betas and row.manual_interleaving


# The day each deprecated family was deprecated, which the Models API's ``deprecated_at`` gives ("Populated for
# `deprecated` and `retired` models", the SDK's ModelInfo); the end date is the SDK's own list. Opus 4.5: the
# model deprecations page as modelpin 0.5.7 read it on 2026-11-26 (no first-party copy of the page is stored).
DEPRECATED_ON = {"claude-opus-4-5": "2026-11-23"}


def _row_of(model: object) -> ModelSpec | None:
    return MODELS.get(model) if isinstance(model, str) else None


def keeps_prior_thinking(model: object) -> bool:
    row = _row_of(model)
    return row is None or row.keeps_prior_thinking


def cache_family(model: object) -> str:
    """Whose cache a request reads: the model's family (a dated id and its alias share one)."""
    row = _row_of(model)
    return row.family if row else str(model)


def default_thinking(model: object) -> str:
    row = _row_of(model)
    return row.thinking_default if row else "adaptive"


def default_effort(model: object) -> str:
    row = _row_of(model)
    return row.effort_default if row else "high"


_ALWAYS_ADAPTIVE = {"enabled": ENABLED_REJECTED, "disabled": DISABLED_REJECTED}
# The errors page quotes the (retired) Mythos Preview's text for Fable 5 and Mythos 5 too (whose "enabled" it names
# is refused as well); their 5.1 and later models answer as Opus 5.5 does.
_ALWAYS_ADAPTIVE_5 = {"enabled": ENABLED_REJECTED, "disabled": DISABLED_REJECTED_PREVIEW}
_NO_MANUAL = {"enabled": ENABLED_REJECTED}
_MANUAL_ONLY = {"adaptive": ADAPTIVE_REJECTED}
_UNSUPPORTED = SYSTEM_ROLE_UNSUPPORTED  # the models before Opus 4.8
# The Claude 4.5 rows: manual extended thinking only, the older tokenizer, prefill, no system messages,
# no compaction.
_CLAUDE_4_5: dict[str, Any] = {
    "tokenizer": "2025",
    "prefill": True,
    "system_role": SYSTEM_ROLE_UNEXPECTED,
    "efforts": (),
    "inference_geo": False,
    "compaction": False,
    "computer_toolset": False,
}
_NO_XHIGH = ("low", "medium", "high", "max")  # max came before xhigh
_PRESERVED: dict[str, Any] = {
    "preserved_thinking": True,
    "forced_tool_choice": False,
    "text_between_tools_as_thinking": True,
    "task_budget": True,
    "min_cacheable": 512,
}
_FABLE_5_2: dict[str, Any] = {**_PRESERVED, "computer_20251124": False}
# Haiku's tier-1 line; Haiku 5.5, which the page's table does not name, **inferred** to share it.
_HAIKU_RATE_LIMITS = (50, 50_000, 10_000)

_ROWS = [
    # The newest generation: preserved thinking, no forced tool choice, text between tools as thinking.
    # What's new in Claude Fable 5.2: "The earlier computer_20251124 computer use tool returns an error on every
    # platform except Amazon Bedrock" (Fable 5.2 and Mythos 5.2).
    _row("claude-fable-5-2", M, 128 * K, _ALWAYS_ADAPTIVE, "adaptive", "omitted", fast_mode="fast", **_FABLE_5_2),
    _row("claude-mythos-5-2", M, 128 * K, _ALWAYS_ADAPTIVE, "adaptive", "omitted", fast_mode="fast", **_FABLE_5_2),
    _row("claude-fable-5-1", M, 128 * K, _ALWAYS_ADAPTIVE, "adaptive", "omitted", **_PRESERVED),
    _row("claude-mythos-5-1", M, 128 * K, _ALWAYS_ADAPTIVE, "adaptive", "omitted", **_PRESERVED),
    _row(
        "claude-opus-5-5",
        M,
        128 * K,
        _ALWAYS_ADAPTIVE,
        "adaptive",
        "omitted",
        fast_mode="fast",
        effort_default="medium",
        computer_20251124=False,
        **_PRESERVED,
    ),
    _row(
        "claude-sonnet-5-5",
        M,
        128 * K,
        {"enabled": ENABLED_REJECTED, "disabled": DISABLED_REJECTED_SONNET_5_5, "between_tools": None},
        "adaptive",
        "omitted",
        computer_20251124=False,
        **_PRESERVED,
    ),
    _row(
        "claude-haiku-5-5",
        M,
        128 * K,
        _NO_MANUAL,
        "adaptive",
        "omitted",
        preserved_thinking=True,
        min_cacheable=512,
        task_budget=True,
        effort_needs_thinking=True,
        effort_default="medium",
        compaction=False,
        rate_limits=_HAIKU_RATE_LIMITS,
        # What's new in Claude Haiku 5.5: on the Claude API computer use "requires the toolset" (a breaking change).
        computer_20251124=False,
    ),
    # Claude 5: thinking on by default, manual extended thinking refused, forced tool choice accepted.
    _row("claude-sonnet-5", M, 128 * K, _NO_MANUAL, "adaptive", "omitted"),
    _row(
        "claude-opus-5",
        M,
        128 * K,
        _NO_MANUAL,
        "adaptive",
        "omitted",
        task_budget=True,
        min_cacheable=512,
        effort_needs_thinking=True,
        fast_mode="fast",
    ),
    _row("claude-fable-5", M, 128 * K, _ALWAYS_ADAPTIVE_5, "adaptive", "omitted", task_budget=True, min_cacheable=512),
    _row("claude-mythos-5", M, 128 * K, _ALWAYS_ADAPTIVE_5, "adaptive", "omitted", task_budget=True, min_cacheable=512),
    # Claude 4.7 and 4.8: adaptive when asked, manual extended thinking refused; fast mode left Opus 4.8
    # on 2026-11-30 (the fast mode page: after that "requests ... with speed: fast return an error").
    _row("claude-opus-4-8", M, 128 * K, _NO_MANUAL, "disabled", "omitted", task_budget=True),
    _row(
        "claude-opus-4-7",
        M,
        128 * K,
        _NO_MANUAL,
        "disabled",
        "omitted",
        task_budget=True,
        min_cacheable=2048,
        system_role=_UNSUPPORTED,
        computer_toolset=False,
    ),
    # Claude 4.6: every mode (manual extended thinking deprecated but accepted), the older tokenizer.
    _row(
        "claude-opus-4-6",
        M,
        128 * K,
        {},
        "disabled",
        "summarized",
        tokenizer="2025",
        min_cacheable=4096,
        system_role=_UNSUPPORTED,
        efforts=_NO_XHIGH,
        fast_mode="standard",
        computer_toolset=False,
    ),
    _row(
        "claude-sonnet-4-6",
        M,
        128 * K,
        {},
        "disabled",
        "summarized",
        tokenizer="2025",
        system_role=_UNSUPPORTED,
        efforts=_NO_XHIGH,
        manual_interleaving=True,
        computer_toolset=False,
    ),
    # Claude 4.5: manual extended thinking only, 200K window, 64K output, the last with assistant prefill.
    _row(
        "claude-haiku-4-5",
        200 * K,
        64 * K,
        _MANUAL_ONLY,
        "disabled",
        "summarized",
        min_cacheable=4096,
        output_details_without_thinking=False,
        keeps_prior_thinking=False,
        rate_limits=_HAIKU_RATE_LIMITS,
        programmatic_tool_calling=False,
        computer_20251124=False,
        computer_20250124=True,
        **_CLAUDE_4_5,
    ),
    _row(
        "claude-opus-4-5",
        200 * K,
        64 * K,
        _MANUAL_ONLY,
        "disabled",
        "summarized",
        min_cacheable=4096,
        manual_interleaving=True,
        **{**_CLAUDE_4_5, "efforts": ("low", "medium", "high")},  # the one 4.5 model with effort
    ),
]
_DATED = {
    "claude-haiku-4-5-20251001": "claude-haiku-4-5",
    "claude-opus-4-5-20251101": "claude-opus-4-5",
}

MODELS: dict[str, ModelSpec] = {row.id: row for row in _ROWS}
MODELS.update({dated: replace(MODELS[family], id=dated) for dated, family in _DATED.items()})
KNOWN_MODELS = frozenset(MODELS)

# The course's default model's window (what a context gauge shows when it knows no model).
CONTEXT_WINDOW = MODELS[DEFAULT_MODEL].context_window


def is_known(model: object) -> bool:
    return isinstance(model, str) and model in MODELS


def spec(model: str) -> ModelSpec:
    """The row of a known model id (``KeyError`` for an unknown one: check ``is_known`` first)."""
    return MODELS[model]


def dated_id(model: str) -> str:
    """The id a response names for a known model: an alias answers with its family's dated id, as live
    (a request for ``claude-haiku-4-5`` is answered by ``claude-haiku-4-5-20251001``: a recorded live
    exchange, docs/api_facts.md "The Models API"); an id without a dated twin answers with itself."""
    family = spec(model).family
    return next((dated for dated, undated in _DATED.items() if undated == family), model)


def context_window(model: object) -> int:
    """The model's context window; the default model's for an id the table does not know."""
    row = MODELS.get(model) if isinstance(model, str) else None
    return (row or MODELS[DEFAULT_MODEL]).context_window
