"""Tools the model can call (lessons 2 and 6: ``runToolUses`` and the tool definitions).

``@tool`` turns a plain function into a ``Tool``: the API definition (name, description,
input_schema) is read from the signature and the docstring, so the schema the model sees and the
function that runs can never drift apart. ``Tool.run`` is what the loop calls: it checks the input
against the schema, runs the function with a timeout and always answers ``(text, is_error)`` —
a tool that fails never takes the harness down with it.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import queue
import re
import reprlib
import sys
import threading
import time
import types
import typing
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Literal, Union

from .messages import to_json_text
from .text import t

__all__ = [
    "Tool",
    "ToolError",
    "ToolsInterrupted",
    "as_tools",
    "delete_file",
    "describe",
    "get_time",
    "http_post",
    "make_delete_file",
    "make_http_post",
    "make_read_file",
    "make_write_file",
    "read_file",
    "result_text",
    "run_calls",
    "schema_of",
    "tool",
    "write_file",
]

# The API's pattern for tool names; checked when a tool is made, not when the first request fails.
NAME_PATTERN = re.compile(r"[a-zA-Z0-9_-]{1,64}")

# Past this many characters a result is cut: one runaway tool must not blow the token budget.
MAX_RESULT_CHARS = 20_000

_SIMPLE_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object"}


class ToolError(Exception):
    """A failure a tool explains in its own words: the message goes to the model unchanged."""


class ToolsInterrupted(KeyboardInterrupt):
    """Ctrl-C arrived while calls were running; ``answers`` holds every call's answer so far.

    Calls that finished keep their real answer; the others get an ``is_error`` answer saying they
    were interrupted. The loop records these instead of forgetting them, so a resumed run never
    repeats a call whose effect (a write, a post) has already happened.
    """

    def __init__(self, answers: list[tuple[str, bool]]):
        super().__init__()
        self.answers = answers


class _Unsupported(TypeError):
    """An annotation with no JSON form; ``schema_of`` names the tool and parameter."""


def _type_schema(annotation: Any) -> dict:
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


def schema_of(fn: Callable) -> dict:
    """The ``input_schema`` for ``fn``: one property per parameter, required unless it has a default."""
    label = getattr(fn, "__name__", repr(fn))
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # a string annotation naming a type that is not imported, say
        raise TypeError(t("usage.annotation_unresolved", tool=label, error=f"{type(exc).__name__}: {exc}")) from None
    _, arg_docs = _docstring_parts(fn.__doc__)
    properties, required = {}, []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        try:
            prop = _type_schema(hints.get(name, Any))
        except _Unsupported as exc:
            shown = getattr(hints[name], "__name__", None) or repr(hints[name])
            raise TypeError(t("usage.annotation", tool=label, param=name, annotation=shown)) from None
        if name in arg_docs:
            prop["description"] = arg_docs[name]
        properties[name] = prop
        if param.default is param.empty:
            required.append(name)
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema



def _jsonschema() -> Any:
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

@dataclass
class Tool:
    """A function the model may call, with the definition the API needs.

    ``high_impact`` marks tools that change the world (write, delete, send): the default approval
    policy asks a human before they run (lesson 5). ``timeout`` overrides the loop's per-tool timeout.
    """

    fn: Callable
    name: str
    description: str
    input_schema: dict
    high_impact: bool = False
    timeout: float | None = None
    _validator: Any = field(default=None, init=False, repr=False, compare=False)

    @property
    def definition(self) -> dict:
        """What goes into the request's ``tools`` list."""
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def problem_with(self, tool_input: Any) -> str | None:
        """Why ``tool_input`` does not fit ``input_schema`` (None when it fits)."""
        if not isinstance(tool_input, dict):
            return t("result.input_not_object")
        jsonschema = _jsonschema()
        if self._validator is None:
            self._validator = jsonschema.Draft202012Validator(self.input_schema)
        error = jsonschema.exceptions.best_match(self._validator.iter_errors(tool_input))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path)
        return f"{where}: {error.message}" if where else error.message

    def run(self, tool_input: Any, timeout: float | None = None) -> tuple[str, bool]:
        """Check the input, call the function, and answer ``(content_text, is_error)``."""
        return run_calls([(self, tool_input)], timeout)[0]


def tool(
    fn: Callable | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: dict | None = None,
    high_impact: bool = False,
    timeout: float | None = None,
) -> Any:
    """Make a ``Tool`` from a function; use as ``@tool`` or ``@tool(name=..., high_impact=True)``."""

    def build(f: Callable) -> Tool:
        if isinstance(f, Tool):  # already built: only a new name makes a copy
            return f if name in (None, f.name) else replace(f, name=_tool_name(name))
        if not callable(f):
            raise TypeError(t("usage.tool_not_callable", got=reprlib.repr(f)))
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


def _tool_name(name: str) -> str:
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


def result_text(value: Any) -> str:
    """Any output or error text as a tool_result's content: valid UTF-8 and of bounded size.

    A lone surrogate would make the next request unencodable, and a megabyte of output would make
    it too long, so both are mended here, before anything enters the history.
    """
    text = to_json_text(value).encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + "\n" + t("result.truncated", limit=MAX_RESULT_CHARS, total=len(text))
    return text


def describe(exc: BaseException) -> str:
    """``Type: message`` for the model; an exception whose ``__str__`` itself raises still gets a name."""
    try:
        message = str(exc)
    except Exception:
        message = ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _invoke(one: Tool, tool_input: Any) -> tuple[str, bool]:
    """One call, answered as ``(text, is_error)``; runs inside a worker thread."""
    problem = one.problem_with(tool_input)
    if problem:
        return result_text(t("result.invalid_input", name=one.name, problem=problem)), True
    try:
        # A copy: the history must keep the input exactly as the model sent it, whatever the tool does.
        value = one.fn(**copy.deepcopy(tool_input))
        if inspect.iscoroutine(value):  # an ``async def`` tool, as the lesson's own tools are
            value = asyncio.run(value)  # this worker thread has no event loop of its own
        return result_text(value), False
    except ToolError as exc:
        return result_text(t("result.failed", error=describe(exc).removeprefix("ToolError: "))), True
    except BaseException as exc:  # any tool failure (even SystemExit) becomes a result the model can read
        return result_text(t("result.failed", error=describe(exc))), True


class _Workers:
    """Daemon threads reused across calls: ``Thread.start`` waits until the new thread is scheduled,
    which on a busy machine costs as much as a model round trip on the emulator (docs/benchmarks.md).

    A worker stuck in a hung tool is simply not idle; the next call gets a new worker, so a hang
    never delays other calls, and daemon threads never keep the interpreter from exiting.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = 0
        self._lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> threading.Event:
        done = threading.Event()
        with self._lock:
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, daemon=True, name="harness_lab-tool").start()
        self._jobs.put((job, done))
        return done

    def _work(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                job()
            finally:  # whatever happened, the caller must not wait for this call forever
                done.set()
            with self._lock:
                self._idle += 1


_WORKERS = _Workers()


def _wait(event: threading.Event, deadline: float | None) -> bool:
    """``event.wait`` in short slices: a Ctrl-C that the OS handed to a worker thread reaches the
    main thread only when it next wakes, so it must not sleep through a whole tool timeout."""
    while not event.is_set():
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return False
        event.wait(0.1 if left is None else min(left, 0.1))
    return True


def run_calls(calls: Iterable[tuple[Tool, Any]], timeout: float | None = None) -> list[tuple[str, bool]]:
    """Run calls concurrently, each with its own timeout; answers come back in call order.

    A tool that hangs past its timeout is abandoned (Python cannot kill a thread): its answer is
    decided now, and a late result is ignored.
    """
    calls = list(calls)
    done: dict[int, tuple[str, bool]] = {}

    def job(i: int, one: Tool, tool_input: Any) -> Callable[[], None]:
        return lambda: done.__setitem__(i, _invoke(one, tool_input))

    finished: list[threading.Event] = []
    answers: list[tuple[str, bool]] = []
    try:  # from the first submit on: a call may already be running when Ctrl-C arrives
        for i, c in enumerate(calls):
            finished.append(_WORKERS.submit(job(i, *c)))
        started = time.monotonic()
        for i, ((one, _), event) in enumerate(zip(calls, finished)):
            limit = one.timeout if one.timeout is not None else timeout
            in_time = _wait(event, None if limit is None else started + limit)
            if not in_time:
                answers.append((t("result.timeout", seconds=limit), True))
            else:  # a job that died before answering (it cannot raise, but fail closed if it did)
                answers.append(done.get(i, (t("result.failed", error="internal error"), True)))
    except KeyboardInterrupt:
        cut = (t("result.interrupted"), True)
        answers += [done.get(i, cut) for i in range(len(answers), len(calls))]
        raise ToolsInterrupted(answers) from None
    return answers


# The built-ins live in their own file; re-exported here so ``from harness_lab.tools import
# read_file`` works as the lesson writes it. Imported last because they are built with ``tool``.
from .builtin_tools import (  # noqa: E402
    delete_file,
    get_time,
    http_post,
    make_delete_file,
    make_http_post,
    make_read_file,
    make_write_file,
    read_file,
    write_file,
)
