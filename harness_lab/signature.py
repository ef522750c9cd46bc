"""A turn's signature (lesson 4: spinning in place; lesson 6's ``signatureOf``).

The signature flattens a turn's tool calls to ``name(canonical JSON of input)``, sorted and joined
with `` | ``. The lesson uses ``JSON.stringify(input)``, where ``{"a":1,"b":2}`` and ``{"b":2,"a":1}``
differ; sorting the keys makes the same call look the same whatever order the model wrote it in.
"""

from __future__ import annotations

import json
from typing import Any

from .messages import tool_calls

__all__ = ["canonical_json", "signature_of"]


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, Japanese kept readable."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def signature_of(content: Any) -> str:
    """The turn's tool calls as one comparable string (empty when there are none)."""
    return " | ".join(sorted(f"{c['name']}({canonical_json(c['input'])})" for c in tool_calls(content)))
