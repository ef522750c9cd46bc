"""Checking a tool_use's input against its tool's ``input_schema`` before the function is entered.

jsonschema gives the exact message the model reads when an input does not fit, but it costs more
than a trivial tool call. Most schemas are the plain ones ``@tool`` reads from a signature (an
object whose properties are each one JSON type), and most inputs fit them; for those a direct type
test answers "fits" at once. It only ever says "fits" where jsonschema would too (any doubt, any
keyword it does not know, goes to jsonschema), so the verdict and the messages stay jsonschema's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ..json_schema import jsonschema_module
from ..text import t

__all__ = ["InputCheck"]

# A JSON type and the Python types a parsed JSON value of it has (bool is not an integer in JSON).
_EXACT = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}
# Keywords that document a property or a schema without changing what fits it.
_NOTES = {"description", "title", "examples", "default", "$comment"}


class InputCheck:
    """``problem(tool_input)``: why the input does not fit ``schema``, or None when it fits."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._read()

    def _read(self) -> None:
        # A copy to compare with: a schema edited in place (as a notebook may) is read again.
        self._as_read = copy.deepcopy(self.schema)
        self._fits = _plain_fit(self.schema)
        self._validator: Any = None

    def problem(self, tool_input: Any) -> str | None:
        if not isinstance(tool_input, dict):
            return t("result.input_not_object")
        if self.schema != self._as_read:
            self._read()
        if self._fits is not None and self._fits(tool_input):
            return None
        jsonschema = jsonschema_module()
        if self._validator is None:
            jsonschema.Draft202012Validator.check_schema(self.schema)  # SchemaError names what is wrong
            self._validator = jsonschema.Draft202012Validator(self.schema)
        error = jsonschema.exceptions.best_match(self._validator.iter_errors(tool_input))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path)
        return f"{where}: {error.message}" if where else error.message


def _plain_fit(schema: Any) -> Callable[[dict[str, Any]], bool] | None:
    """A quick "fits" test for a plain object schema; None when the schema is not that plain."""
    if (
        not isinstance(schema, dict)
        or schema.get("type") != "object"
        or set(schema) - _NOTES - {"type", "properties", "required"}
    ):
        return None
    properties, required = schema.get("properties", {}), schema.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        return None
    kinds: dict[str, tuple[type, ...] | None] = {}  # None: any value fits
    for name, prop in properties.items():
        if not isinstance(prop, dict) or set(prop) - _NOTES - {"type"}:
            return None
        kind = prop.get("type")
        if kind is not None and not (isinstance(kind, str) and kind in _EXACT):
            return None
        kinds[name] = _EXACT[kind] if kind is not None else None
    needed = [name for name in required if isinstance(name, str)]
    if len(needed) != len(required):
        return None

    def fits(tool_input: dict[str, Any]) -> bool:
        for name in needed:
            if name not in tool_input:
                return False
        for name, value in tool_input.items():
            exact = kinds.get(name)
            if exact is not None and type(value) not in exact:
                return False  # maybe a misfit, maybe a subclass jsonschema accepts: jsonschema decides
        return True

    return fits
