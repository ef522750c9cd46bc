"""Which tool versions a model takes, and what may stand next to a client toolset.

- ``web_search`` and ``web_fetch`` from ``_20260209`` on default ``allowed_callers`` to code execution
  (dynamic filtering), which needs programmatic tool calling: on a model without it (Haiku 4.5, not
  in the programmatic tool calling page's list) such a tool is refused unless its ``allowed_callers``
  is ``["direct"]`` ("the API returns a 400 error that tells you to set it", the web search page), in
  the live words public reports quote.
- ``computer_toolset_20260801`` on the models the computer use page lists (Fable 5, Mythos 5, Opus
  4.8 and 5, Sonnet 5; the later models inferred to keep it): Opus 4.7, 4.6, Sonnet 4.6 and Opus 4.5
  "support computer use only through the earlier ``computer_20251124``", Haiku 4.5 only through
  ``computer_20250124``. ``computer_20251124`` is refused where that page's list of earlier versions
  leaves it out and on Opus 5.5 and Sonnet 5.5, whose pages say they no longer accept it;
  ``computer_20250124`` everywhere but Haiku 4.5 (that list names no other model of the table).
- The tool reference page: a toolset entry twice, or "another tool that carries that toolset's name:
  a tool named ``computer`` alongside ``computer_toolset_20260801``" (``browser`` likewise), is an
  ``invalid_request_error``; so is ``computer_20251124`` in the same request (the computer use page).

The refusal of a tool version is the live text's first sentence; the texts of the toolset rules are
inferred (docs/api_facts.md): the pages quote none.
"""

from __future__ import annotations

from .model_list import model_info
from .models import spec

__all__ = ["tool_version_error"]

NEEDS_PROGRAMMATIC = (
    "'{model}' does not support programmatic tool calling. The following tools have `allowed_callers` that require"
    ' it: {names}. Explicitly set `allowed_callers=["direct"]` on these tools, or use a model that supports'
    " programmatic tool calling."
)
DYNAMIC = ("web_search_", "web_fetch_")
# The live 400 as Sonnet 5.5's and Opus 5.5's What's new pages quote its start ("'claude-opus-5-5' does not
# support tool types: computer_20251124."); live it goes on with "Did you mean one of" and every tool type the
# model takes, a list no page gives whole, so the emulator ends after the first sentence.
UNSUPPORTED_TOOL = "'{model}' does not support tool types: {type}."
# Each computer tool version and the row's field that says whether the model takes it.
VERSIONED = {
    "computer_toolset_20260801": "computer_toolset",
    "computer_20251124": "computer_20251124",
    "computer_20250124": "computer_20250124",
}
TOOLSETS = {"computer_toolset_20260801": "computer", "browser_toolset_20260801": "browser"}
TWICE = "tools.{i}: `{type}` may be declared only once"
NAMED_LIKE = "tools.{i}: a tool named '{name}' cannot be declared alongside `{type}`"


def _needs_programmatic(tool: dict) -> bool:
    kind = str(tool.get("type") or "")
    if not kind.startswith(DYNAMIC) or kind[kind.rindex("_") + 1 :] < "20260209":
        return False
    callers = tool.get("allowed_callers")
    return callers is None or any(caller != "direct" for caller in callers)


def tool_version_error(request: dict) -> str | None:
    """The first tool the model does not take, or that clashes with a client toolset (the model is known)."""
    tools = [t for t in request.get("tools") or () if isinstance(t, dict)]
    row = spec(request["model"])
    if not row.programmatic_tool_calling:
        names = sorted({str(t.get("name")) for t in tools if _needs_programmatic(t)})
        if names:
            listed = (model_info(request["model"]) or {}).get("id", request["model"])  # the dated id, as live
            return NEEDS_PROGRAMMATIC.format(model=listed, names=", ".join(names))
    declared = {t.get("type") for t in tools}
    seen: set = set()
    for i, tool in enumerate(tools):
        kind = tool.get("type")
        if kind in VERSIONED and not getattr(row, VERSIONED[kind]):
            return UNSUPPORTED_TOOL.format(model=request["model"], type=kind)
        if kind in TOOLSETS and kind in seen:
            return TWICE.format(i=i, type=kind)
        seen.add(kind)
        clash = next((t for t, name in TOOLSETS.items() if t in declared and tool.get("name") == name), None)
        if clash and kind not in TOOLSETS:
            return NAMED_LIKE.format(i=i, name=tool.get("name"), type=clash)
    return None
