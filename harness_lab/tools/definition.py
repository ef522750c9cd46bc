"""A tool's definition (lessons 2 and 6: the ``tools`` list the model reads).

``@tool`` turns a plain function into a ``Tool``: the API definition (name, description,
input_schema) is read from the signature and the docstring, so the schema the model sees and the
function that runs can never drift apart.
"""

from __future__ import annotations

import inspect
import re
import reprlib
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union, overload

from ..messages import Block
from ..text import Phrase, t
from .input_check import InputCheck

__all__ = ["NAME_PATTERN", "Tool", "ToolError", "as_tools", "schema_of", "tool"]

# The API's pattern for tool names; checked when a tool is made, not when the first request fails.
NAME_PATTERN = re.compile(r"[a-zA-Z0-9_-]{1,64}")

_SIMPLE_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object"}


class ToolError(Exception):
    """A failure a tool explains in its own words: the message goes to the model unchanged."""


class _Unsupported(TypeError):
    """An annotation with no JSON form; ``schema_of`` names the tool and parameter."""


def _type_schema(annotation: Any) -> Block:
    """JSON schema for one parameter annotation; ``Any`` (or none) accepts any value.

    Other classes (``datetime``, ``Path``, ``bytes``, your own) are refused: the model can only send
    JSON, so the function would get a string where it expects the object and fail at run time.
    """
    if annotation is Any or annotation is object:
        return {}
    if annotation in _SIMPLE_TYPES:
        return {"type": _SIMPLE_TYPES[annotation]}
    if annotation is list:
        return {"type": "array"}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        # Optional[X] is X for the model; leaving it out is how "None" is expressed.
        return _type_schema(options[0]) if len(options) == 1 else {"anyOf": [_type_schema(a) for a in options]}
    if origin is list:
        return {"type": "array", "items": _type_schema(args[0])} if args else {"type": "array"}
    if origin is dict:
        return {"type": "object"}
    raise _Unsupported(annotation)


def _docstring_parts(doc: str | None) -> tuple[str, dict[str, str]]:
    """The first paragraph (the description) and the ``Args:`` lines (name -> text)."""
    doc = inspect.cleandoc(doc or "")
    description = doc.split("\n\n", 1)[0].replace("\n", " ").strip()
    args: dict[str, str] = {}
    match = re.search(r"^Args:\s*\n((?:[ \t]+.*\n?)+)", doc, re.MULTILINE)
    if match:
        for line in match.group(1).splitlines():
            m = re.match(r"\s+(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)", line)
            if m:
                args[m.group(1)] = m.group(2).strip()
    return description, args


def schema_of(fn: Callable[..., Any]) -> Block:
    """The ``input_schema`` for ``fn``: one property per parameter, required unless it has a default."""
    label = getattr(fn, "__name__", repr(fn))
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # a string annotation naming a type that is not imported, say
        raise TypeError(t("usage.annotation_unresolved", tool=label, error=f"{type(exc).__name__}: {exc}")) from None
    _, arg_docs = _docstring_parts(fn.__doc__)
    properties: dict[str, Block] = {}
    required: list[str] = []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        try:
            prop = _type_schema(hints.get(name, Any))
        except _Unsupported:
            shown = getattr(hints[name], "__name__", None) or repr(hints[name])
            raise TypeError(t("usage.annotation", tool=label, param=name, annotation=shown)) from None
        if name in arg_docs:
            prop["description"] = arg_docs[name]
        properties[name] = prop
        if param.default is param.empty:
            required.append(name)
    schema: Block = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


@dataclass
class Tool:
    """A function the model may call, with the definition the API needs.

    ``high_impact`` marks tools that change the world (write, delete, send): the default approval
    policy asks a human before they run (lesson 5). ``timeout`` overrides the loop's per-tool timeout.
    """

    fn: Callable[..., Any]
    name: str
    description: str | Phrase  # a Phrase is read in the language active when the request is built
    input_schema: Block
    high_impact: bool = False
    timeout: float | None = None
    _check: InputCheck | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def definition(self) -> Block:
        """What goes into the request's ``tools`` list."""
        return {"name": self.name, "description": str(self.description), "input_schema": self.input_schema}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def problem_with(self, tool_input: Any) -> str | None:
        """Why ``tool_input`` does not fit ``input_schema`` (None when it fits)."""
        if self._check is None or self._check.schema is not self.input_schema:
            self._check = InputCheck(self.input_schema)
        return self._check.problem(tool_input)


@overload
def tool(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | Phrase | None = None,
    input_schema: Block | None = None,
    high_impact: bool = False,
    timeout: float | None = None,
) -> Tool: ...


@overload
def tool(
    fn: None = None,
    *,
    name: str | None = None,
    description: str | Phrase | None = None,
    input_schema: Block | None = None,
    high_impact: bool = False,
    timeout: float | None = None,
) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | Phrase | None = None,
    input_schema: Block | None = None,
    high_impact: bool = False,
    timeout: float | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a ``Tool`` from a function; use as ``@tool`` or ``@tool(name=..., high_impact=True)``."""

    def build(f: Callable[..., Any]) -> Tool:
        if isinstance(f, Tool):  # already built: only a new name makes a copy
            return f if name in (None, f.name) else replace(f, name=_tool_name(name))
        if not callable(f):
            raise TypeError(t("usage.tool_not_callable", got=reprlib.repr(f)))
        if getattr(f, "__annotations__", {}).get("return") in (Tool, "Tool"):  # hl.make_read_file without ()
            raise TypeError(t("usage.tool_maker", name=f.__name__))
        if inspect.isgeneratorfunction(f) or inspect.isasyncgenfunction(f):  # a result must be one value
            raise TypeError(t("usage.tool_generator", name=getattr(f, "__name__", "?")))
        return Tool(
            fn=f,
            name=_tool_name(name or getattr(f, "__name__", "")),
            description=description if description is not None else _docstring_parts(f.__doc__)[0],
            input_schema=input_schema if input_schema is not None else schema_of(f),
            high_impact=high_impact or getattr(f, "high_impact", False),
            timeout=timeout,
        )

    return build(fn) if fn is not None else build


def _tool_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(t("usage.tool_name", name=reprlib.repr(name)))
    return name


def as_tools(tools: Any) -> dict[str, Tool]:
    """``tools`` as name -> Tool: accepts a list of Tools/functions or a dict name -> callable."""
    if tools is None:
        return {}
    if isinstance(tools, dict):
        return {n: tool(f, name=n) for n, f in tools.items()}
    if callable(tools) or isinstance(tools, str) or not isinstance(tools, Iterable):
        raise TypeError(t("usage.tools", got=reprlib.repr(tools)))
    built: dict[str, Tool] = {}
    for one in map(tool, tools):
        old = built.get(one.name)
        if old is not None and old.fn is not one.fn:  # the API refuses two tools with one name
            raise ValueError(t("usage.tool_duplicate", name=one.name))
        built[one.name] = one
    return built
