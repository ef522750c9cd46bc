"""Strict tools and structured outputs: the schemas the API compiles into a grammar for the model.

A strict tool (``strict: true``) and ``output_config.format`` both make the model write JSON that its
schema accepts, which the API builds a grammar for; so their schemas must close every object, and the
API caps how much grammar one request may ask for. The texts are the live 400s public reports quote.
"""

from __future__ import annotations

import json
from typing import Any

from .tool_choice import placeholder

__all__ = ["STRICT_OPEN_OBJECT", "formatted", "leaves_an_object_open", "structured_error"]

# A strict tool's schema must close every object; Bedrock relays the API's 400 as quoted in vercel/ai #20681.
STRICT_OPEN_OBJECT = "tools.{i}.custom: For 'object' type, 'additionalProperties' must be explicitly set to false"


def leaves_an_object_open(schema: object) -> bool:
    """Whether any object in the schema, nested ones included, lacks ``additionalProperties: false``."""
    waiting = [schema]
    while waiting:
        node = waiting.pop()
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        if (kind == "object" or (isinstance(kind, list) and "object" in kind)) and node.get(
            "additionalProperties"
        ) is not False:
            return True
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), dict):
                waiting.extend(node[key].values())
        for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
            if isinstance(node.get(key), list):
                waiting.extend(node[key])
        waiting.append(node.get("items"))
    return False


# Public 400s (2026-09 and -10, several clients, one probed on claude-sonnet-5-5).
TOO_MANY_STRICT = "Too many strict tools ({n}). The maximum number of strict tools supported is 20."
TOO_MANY_OPTIONAL = (
    "Schemas contains too many optional parameters ({n}), which would make grammar compilation inefficient. "
    "Reduce the number of optional parameters in your tool schemas (limit: 24)."
)
# veryfront/veryfront-code #3921 (2026-08, the live API): the format's schema closes its objects too.
FORMAT_OPEN_OBJECT = (
    "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"
)


def structured_error(request: dict) -> str | None:
    """The 400 for strict tools and an output format the API could not compile, or None."""
    strict = [t["input_schema"] for t in request.get("tools") or () if t.get("strict") is True and "input_schema" in t]
    if len(strict) > 20:
        return TOO_MANY_STRICT.format(n=len(strict))
    config = request.get("output_config")
    schema = (config.get("format") or {}).get("schema") if isinstance(config, dict) else None
    if schema is not None and leaves_an_object_open(schema):
        return FORMAT_OPEN_OBJECT
    optional = sum(_optional(s) for s in (*strict, *([schema] if schema is not None else ())))
    return TOO_MANY_OPTIONAL.format(n=optional) if optional > 24 else None


def _optional(schema: Any) -> int:
    """Properties no ``required`` lists, nested objects' own counted too."""
    count, waiting = 0, [schema]
    while waiting:
        node = waiting.pop()
        if not isinstance(node, dict):
            continue
        found, listed = node.get("properties"), node.get("required")
        properties: dict = found if isinstance(found, dict) else {}
        required: list = listed if isinstance(listed, list) else []
        count += sum(1 for name in properties if name not in required)
        waiting.extend(properties.values())
        for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
            if isinstance(node.get(key), list):
                waiting.extend(node[key])
        waiting.append(node.get("items"))
        if isinstance(node.get("$defs"), dict):
            waiting.extend(node["$defs"].values())
    return count


def formatted(content: list, request: dict) -> list:
    """A final answer under ``output_config.format`` is JSON its schema accepts, in one text block (the
    script's words cannot be: the simplest value the schema takes stands in for them)."""
    config = request.get("output_config")
    schema = (config.get("format") or {}).get("schema") if isinstance(config, dict) else None
    if schema is None or any(b.get("type") == "tool_use" for b in content):
        return content
    kept = [b for b in content if b.get("type") != "text"]
    return [*kept, {"type": "text", "text": json.dumps(placeholder(schema), ensure_ascii=False)}]
