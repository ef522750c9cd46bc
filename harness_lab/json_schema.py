"""jsonschema, loaded only when something needs it, and the one question the API itself asks of a schema.

The tools ask whether an input fits a tool's schema (``tools/input_check.py``); the emulator asks,
as the real API does, whether a tool's ``input_schema`` is JSON Schema draft 2020-12 at all.
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["is_valid_schema", "jsonschema_module"]

# Schemas already judged, by their JSON text: every request resends its tools, and the metaschema
# check costs far more than writing a small schema out.
_JUDGED: dict[str, bool] = {}
_JUDGED_MAX = 512


def jsonschema_module() -> Any:
    """jsonschema, imported on first use and without its optional IRI format checker.

    When ``rfc3987_syntax`` is installed (JupyterLab brings it), jsonschema imports it at once and
    that compiles a grammar for seconds; tool schemas never use the "iri" formats it serves, so the
    optional import is made to fail fast. ``import harness_lab`` itself stays free of jsonschema.
    """
    if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # the import now fails fast
        try:
            import jsonschema
        finally:
            del sys.modules["rfc3987_syntax"]
    import jsonschema

    return jsonschema


def is_valid_schema(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` is valid under draft 2020-12's metaschema (its structure; formats are not checked)."""
    key = json.dumps(schema, sort_keys=True, ensure_ascii=False, default=repr)
    judged = _JUDGED.get(key)
    if judged is None:
        meta = jsonschema_module().Draft202012Validator
        judged = meta(meta.META_SCHEMA).is_valid(schema)
        if len(_JUDGED) >= _JUDGED_MAX:
            _JUDGED.clear()
        _JUDGED[key] = judged
    return judged
