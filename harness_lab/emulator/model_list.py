"""``GET /v1/models`` and ``GET /v1/models/{id}``: the model table as the Models API lists it.

A notebook that asks the API which models there are, and how large their window and output are,
needs no hard-coded id, and the id a lesson names is checked against what the API offers. The
rows are the emulator's own table (models.py): ``max_input_tokens`` is its window, ``max_tokens`` its
largest output, and a model the installed SDK warns about (its list of deprecated models, with the
date it ends) is ``deprecated`` with that date as ``retires_at``, and the day it was deprecated as
``deprecated_at`` where models.py knows it; a retired model is answered from ``_RETIRED`` below.
What the table does not hold is left as the API allows: ``created_at`` is the epoch ("may be set to an epoch value if the release
date is unknown"), so the list keeps the table's order, newest first.

``capabilities`` says what this emulator takes from the model, read from the same table and rules
that accept or refuse a request (the SDK's ``ModelCapabilities``: "Keys are always present for all
known capabilities"), so the Models API and a Messages request never disagree offline: the
``thinking.type`` values the row accepts, its effort levels, compaction where the compaction page
lists the model, programmatic tool calling (``code_execution``) except where tool_versions.py
refuses it. What no row tells apart (batches, citations, images, PDFs, structured outputs, the web
search and code execution tools) every model takes offline, and so says supported.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from urllib.parse import parse_qs, unquote

from .api_errors import ApiError, bad
from .models import (
    DEPRECATED_ON,
    EFFORTS,
    MODELS,
    THINKING_TYPES,
    ModelSpec,
    is_known,
    spec,
)

__all__ = ["model_info", "model_page", "models_answer"]

_EPOCH = "1970-01-01T00:00:00Z"
_LINES = ("haiku", "sonnet", "opus", "fable", "mythos")
_LIFECYCLES = ("active", "deprecated", "retired")

# A retired model "is no longer available for use; inference requests naming it fail. It remains in the catalogue as
# the historical record of its retirement" (the SDK's ModelInfo.lifecycle), and a list shows it "only when `retired`
# is requested explicitly" (its ModelListParams), so models.py has no row for it (a Messages request is the 404 of an
# unknown id) and the Models API answers it from here: the retired rows of the model deprecations page's "Model
# status" table (the page of 2026-08-22 in gpambrozio/ClaudeDocs: the day each was deprecated and retired), newest
# first, and Sonnet 4.5, which "retires on November 30, 2026" with a 200K window and 64K output (its model page; no
# stored page gives the day it was deprecated). Limits no stored page gives, and capabilities no request can use any
# more, are null. (display name, deprecated on, retired on, window, max output)
_RETIRED = {
    "claude-sonnet-4-5-20250929": ("Claude Sonnet 4.5", None, "2026-11-30", 200_000, 64_000),
    "claude-opus-4-1-20250805": ("Claude Opus 4.1", "2026-06-05", "2026-08-05", None, None),
    "claude-opus-4-20250514": ("Claude Opus 4", "2026-04-14", "2026-06-15", None, None),
    "claude-sonnet-4-20250514": ("Claude Sonnet 4", "2026-04-14", "2026-06-15", None, None),
    "claude-3-7-sonnet-20250219": ("Claude Sonnet 3.7", "2025-10-28", "2026-02-19", None, None),
    "claude-3-5-haiku-20241022": ("Claude Haiku 3.5", "2025-12-19", "2026-02-19", None, None),
    "claude-3-haiku-20240307": ("Claude Haiku 3", "2026-02-19", "2026-04-20", None, None),
}
_RETIRED_ALIASES = {"claude-sonnet-4-5": "claude-sonnet-4-5-20250929"}


def _day(day: str | None) -> str | None:
    return f"{day}T00:00:00Z" if day else None


def _retired_info(model: str) -> dict | None:
    listed = _RETIRED_ALIASES.get(model, model)
    if listed not in _RETIRED:
        return None
    display, deprecated, retired, window, output = _RETIRED[listed]
    return {
        "type": "model",
        "id": listed,
        "display_name": display,
        "created_at": _EPOCH,
        "lifecycle": "retired",
        "deprecated_at": _day(deprecated),
        "retires_at": _day(retired),
        "line": display.split()[1].lower(),
        "max_input_tokens": window,
        "max_tokens": output,
        "capabilities": None,
    }


def _retirements() -> dict[str, str]:
    """The SDK's deprecated models, each with the day it ends as an RFC 3339 time."""
    try:
        from anthropic._data.deprecated_models import DEPRECATED_MODELS
    except ImportError:  # an SDK without the list: every model is active
        return {}
    found = {}
    for model, day in DEPRECATED_MODELS.items():
        plain = re.sub(r"(\d+)(st|nd|rd|th)", r"\1", day)  # "January 22nd, 2027"
        try:
            when = datetime.strptime(plain, "%B %d, %Y").replace(tzinfo=UTC)
        except ValueError:
            continue
        found[model] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return found


def _canonical() -> list[str]:
    """Each model once, by the id the API lists it under (a dated id where the family has one)."""
    dated = {row.family: model for model, row in MODELS.items() if model != row.family}
    return list(dict.fromkeys(dated.get(row.family, row.family) for row in MODELS.values()))


def _yes(supported: bool) -> dict:
    return {"supported": supported}


def capabilities(row: ModelSpec) -> dict:
    """The SDK's ``ModelCapabilities`` for a row, as the emulator's own checks decide them."""
    types = {kind: _yes(row.rejection(kind) is None) for kind in THINKING_TYPES}
    levels = {level: _yes(level in row.efforts) for level in EFFORTS}
    return {
        "batch": _yes(True),
        "citations": _yes(True),
        "code_execution": _yes(row.programmatic_tool_calling),
        "context_management": {
            "supported": True,
            "clear_thinking_20251015": _yes(True),
            "clear_tool_uses_20250919": _yes(True),
            "compact_20260112": _yes(row.compaction),
        },
        "effort": {"supported": bool(row.efforts), **levels},
        "image_input": _yes(True),
        "pdf_input": _yes(True),
        "server_tools": {"supported": True, "code_execution": _yes(True), "web_search": _yes(True)},
        "structured_outputs": _yes(True),
        "thinking": {
            "supported": types["adaptive"]["supported"] or types["enabled"]["supported"],
            "types": types,
        },
    }


def model_info(model: str) -> dict | None:
    """One model as the Models API describes it (an alias gives its canonical id); None if unknown."""
    if not is_known(model):
        return _retired_info(model)
    row = spec(model)
    listed = next(m for m in _canonical() if spec(m).family == row.family)
    name = row.family.removeprefix("claude-").split("-")
    numbers = [part for part in name[1:] if part.isdigit()]
    words = [part for part in name[1:] if not part.isdigit()]
    display = " ".join(["Claude", name[0].capitalize(), *(w.capitalize() for w in words), ".".join(numbers)]).strip()
    retires = _retirements().get(listed) or _retirements().get(row.family)
    return {
        "type": "model",
        "id": listed,
        "display_name": display,
        "created_at": _EPOCH,
        "lifecycle": "deprecated" if retires else "active",
        "deprecated_at": f"{DEPRECATED_ON[row.family]}T00:00:00Z" if retires and row.family in DEPRECATED_ON else None,
        "retires_at": retires,
        "line": name[0] if name[0] in _LINES else None,
        "max_input_tokens": row.context_window,
        "max_tokens": row.max_output,
        "capabilities": capabilities(row),
    }


def model_page(query: str) -> dict | ApiError:
    """``GET /v1/models?...``: a page of models, newest first, with the cursors the SDK pages by."""
    params = parse_qs(query)
    try:
        limit = int(params.get("limit", ["20"])[-1])
    except ValueError:
        return bad("limit: Input should be a valid integer")
    if not 1 <= limit <= 1000:
        return bad(
            f"limit: Input should be {'greater' if limit < 1 else 'less'} than or equal to {1 if limit < 1 else 1000}"
        )
    wanted = params.get("lifecycle[]") or params.get("lifecycle") or ["active", "deprecated"]
    if not set(wanted) <= set(_LIFECYCLES):
        return bad("lifecycle: Input should be 'active', 'deprecated' or 'retired'")
    rows = [info for info in map(model_info, [*_canonical(), *_RETIRED]) if info and info["lifecycle"] in wanted]
    ids = [row["id"] for row in rows]
    after, before = params.get("after_id", [None])[-1], params.get("before_id", [None])[-1]
    start, end = 0, len(rows)
    if after is not None:
        start = ids.index(after) + 1 if after in ids else len(rows)
    if before is not None:
        end = ids.index(before) if before in ids else 0
        start = max(start, end - limit)
    page = rows[start : min(end, start + limit)]
    more = start + len(page) < end if before is None else start > 0
    return {
        "data": page,
        "first_id": page[0]["id"] if page else None,
        "last_id": page[-1]["id"] if page else None,
        "has_more": more,
    }


def models_answer(path: str, query: str) -> dict | ApiError:
    """The answer to ``GET /v1/models`` (a page) or ``GET /v1/models/{id}`` (one model, or a 404)."""
    if path == "/v1/models":
        return model_page(query)
    model = unquote(path.removeprefix("/v1/models/"))
    return model_info(model) or ApiError(404, f"model: {model}")
