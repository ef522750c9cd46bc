"""The Messages API request body's top level: each parameter's kind, to create, to count tokens, in beta.

Taken from the installed SDK's request types like the blocks and tools they hold (``schema.py``);
tests/emulator/test_schema.py compares the parameter names with them.
"""

from __future__ import annotations

from .context_management import CONTEXT_MANAGEMENT
from .kinds import Int, ListOf, Lit, Model, Nullable, StrOr, Tagged
from .schema import BOOL, CACHE_CONTROL, DICT, JSON, MESSAGE, OPT_STR, STR, TEXT, TOOL

__all__ = ["BETA_COUNT_TOKENS", "BETA_FIELDS", "COUNT_TOKENS", "CREATE", "THINKING", "THREAD", "TOOL_CHOICE"]

TOOL_CHOICE = Tagged(
    {
        "auto": Model({"type": Lit("auto"), "disable_parallel_tool_use": BOOL}, ["type"]),
        "any": Model({"type": Lit("any"), "disable_parallel_tool_use": BOOL}, ["type"]),
        "tool": Model({"name": STR, "type": Lit("tool"), "disable_parallel_tool_use": BOOL}, ["name", "type"]),
        "none": Model({"type": Lit("none")}, ["type"]),
    }
)
DISPLAY = Nullable(Lit("summarized", "omitted", "updates"))  # "updates" is beta
# Preserved thinking: what a replayed block that fails the conversation check does (beta).
BLOCK_BINDING = Nullable(Model({"prefix_mismatch_behavior": Nullable(Lit("error", "drop_block"))}))
THINKING = Tagged(
    {
        # budget_tokens >= 1024 is the public 400 "thinking.enabled.budget_tokens: Input should be
        # greater than or equal to 1024"; block_binding is beta.
        "enabled": Model(
            {
                "budget_tokens": Int(ge=1024),
                "type": Lit("enabled"),
                "block_binding": BLOCK_BINDING,
                "display": DISPLAY,
            },
            ["budget_tokens", "type"],
        ),
        "disabled": Model({"type": Lit("disabled")}, ["type"]),
        "between_tools": Model({"type": Lit("between_tools")}, ["type"]),
        "adaptive": Model({"type": Lit("adaptive"), "block_binding": BLOCK_BINDING, "display": DISPLAY}, ["type"]),
    }
)
OUTPUT_CONFIG = Model(
    {
        "effort": Nullable(Lit("low", "medium", "high", "xhigh", "max")),
        "format": Nullable(
            Tagged({"json_schema": Model({"schema": DICT, "type": Lit("json_schema")}, ["schema", "type"])})
        ),
        # beta: an advisory budget the model sees counting down (docs: "Task budgets")
        "task_budget": Nullable(
            Model({"total": Int(ge=1), "type": Lit("tokens"), "remaining": Nullable(Int(ge=0))}, ["total", "type"])
        ),
    }
)
CONTAINER = Nullable(
    StrOr(
        Model(
            {
                "id": OPT_STR,
                "skills": Nullable(
                    ListOf(
                        Model(
                            {"skill_id": STR, "type": Lit("anthropic", "custom"), "version": STR}, ["skill_id", "type"]
                        )
                    )
                ),
            }
        )
    )
)
THREAD = Nullable(
    Tagged(
        {  # beta: the SDK's tool_runner keeps its conversation on the server
            "create": Model({"type": Lit("create")}, ["type"]),
            "continue": Model({"previous_message_id": STR, "type": Lit("continue")}, ["previous_message_id", "type"]),
        }
    )
)

# In the order their problems are reported. Required: model, messages (and max_tokens to create).
# Both end with the conversation's setting: its system prompt, thinking and tools, and whose it is.
SETTING = {
    "system": StrOr(ListOf(TEXT)),
    "thinking": THINKING,
    "tool_choice": TOOL_CHOICE,
    "tools": ListOf(TOOL),
    "user_profile_id": STR,
    "workspace_id": STR,
}
SPEED = Nullable(Lit("fast", "standard"))
COUNT_TOKENS = {
    "model": STR,
    "messages": ListOf(MESSAGE),
    "cache_control": CACHE_CONTROL,
    "output_config": OUTPUT_CONFIG,
    "speed": SPEED,
    **SETTING,
}
CREATE = {
    "model": STR,
    "max_tokens": Int(ge=0),  # 0 pre-warms the prompt cache (validate.py says what it cannot go with)
    "messages": ListOf(MESSAGE),
    "cache_control": CACHE_CONTROL,
    "container": CONTAINER,
    "diagnostics": Nullable(Model({"previous_message_id": OPT_STR})),
    "inference_geo": OPT_STR,
    "metadata": Model({"user_id": OPT_STR}),
    "output_config": OUTPUT_CONFIG,
    "service_tier": Lit("auto", "standard_only"),
    "speed": SPEED,
    "stop_sequences": ListOf(STR),
    "stream": BOOL,
    **SETTING,
}
# The beta API's extra parameters (same URL, told apart by a header the emulator does not read).
BETA_FIELDS = {
    "billing_policy": JSON,
    "compaction": JSON,
    "context_management": CONTEXT_MANAGEMENT,
    "fallback_credit_token": JSON,
    "fallbacks": JSON,
    "mcp_servers": JSON,
    "thread": THREAD,
}
# What the beta count_tokens endpoint takes besides (the SDK's beta MessageCountTokensParams): the
# context editing and compaction pages count a request's tokens after its edits.
BETA_COUNT_TOKENS = {
    name: BETA_FIELDS[name] for name in ("billing_policy", "compaction", "context_management", "mcp_servers")
}
