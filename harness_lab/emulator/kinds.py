"""The vocabulary of the request schema: what a field may hold, refused in the API's own words.

The real API validates bodies with pydantic in strict mode: ``max_tokens: "700"`` is refused with
``max_tokens: Input should be a valid integer`` (public reports), not coerced. Its paths are the
field names and list indexes joined by dots, and a tagged union (content blocks, tools,
``tool_choice``, ``cache_control``...) adds the tag after the index:
``messages.65.content.1.tool_use.text: Extra inputs are not permitted``. Each kind below checks one
value and returns the first ``Problem`` in that order (declared fields first, extras last), or
None. The texts are pydantic's; docs/architecture.md lists which ones public 400s confirm.

Kinds only recurse along the schema, which is a few levels deep. Free-form JSON (a tool's
``input``, an ``input_schema``) is measured iteratively instead, so a value nested 10,000 deep is
reported as the parser's depth error rather than crashing the emulator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from .wire import MAX_DEPTH

__all__ = [
    "Bool",
    "Int",
    "Json",
    "JsonDict",
    "ListOf",
    "Lit",
    "Model",
    "Nullable",
    "Problem",
    "Role",
    "Str",
    "StrOr",
    "Tag",
    "Tagged",
]


class Tag(str):
    """A union tag in a path: printed like a key, but not a level of nesting in the body."""


class Problem(NamedTuple):
    """Where and what. validate.py asks wire.py first whether the body is readable at all, since
    the API parses before it validates: a value nested too deep is reported as the parser's error."""

    path: tuple
    message: str

    def text(self) -> str:
        where = ".".join(str(segment) for segment in self.path)
        return f"{where}: {self.message}" if where else self.message


def _quoted(values: tuple) -> str:
    """pydantic's list of allowed values: ``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``."""
    quoted = [f"'{v}'" for v in values]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


class Str:
    __slots__ = ("max_length", "min_length", "pattern", "source")

    def __init__(self, pattern: str | None = None, max_length: int | None = None, min_length: int = 0) -> None:
        self.source = pattern
        self.pattern = re.compile(pattern) if pattern else None
        self.max_length = max_length
        self.min_length = min_length

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not str:
            return Problem(path, "Input should be a valid string")
        if len(value) < self.min_length:  # before the pattern: an empty name is told so live (round five)
            return Problem(path, f"String should have at least {self.min_length} character")
        if self.pattern is not None and not self.pattern.search(value):
            return Problem(path, f"String should match pattern '{self.source}'")
        # After the pattern: a bound the docs set below the live pattern's, so whatever the API refuses
        # keeps the API's own text.
        if self.max_length is not None and len(value) > self.max_length:
            return Problem(path, f"String should have at most {self.max_length} characters")
        return None


# orjson reads integers that fit 64 bits as integers; anything longer arrives as a float, which
# strict validation refuses as an integer (and past a double's range, as no JSON at all).
_INT_RANGE = (-(2**63), 2**64 - 1)


def _unreadable_number(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return True
    return False


class Int:
    __slots__ = ("below", "ge")

    def __init__(self, ge: int | None = None, below: str = "Input should be greater than or equal to {ge}") -> None:
        self.ge = ge
        self.below = below  # what a value under ``ge`` is told: the API words some bounds its own way

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not int:
            return Problem(path, "Input should be a valid integer")
        if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            return Problem(path, "Input should be a valid integer")
        if self.ge is not None and value < self.ge:
            return Problem(path, self.below.format(ge=self.ge))
        return None


class Bool:
    __slots__ = ()

    def check(self, value: object, path: tuple) -> Problem | None:
        return None if type(value) is bool else Problem(path, "Input should be a valid boolean")


class Lit:
    __slots__ = ("values",)

    def __init__(self, *values: str) -> None:
        self.values = values

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is str and value in self.values:
            return None
        return Problem(path, f"Input should be {_quoted(self.values)}")


class Role(Lit):
    """A message's ``role``: the live API names an unknown one on ``messages`` in words of its own
    (docs/api_facts.md, round six); a role that is no string keeps the schema's text (no source shows it)."""

    __slots__ = ()

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is str and value not in self.values:
            return Problem(path[:-2], f'Unexpected role "{value}". Allowed roles are "user" or "assistant".')
        return Lit.check(self, value, path)


class Nullable:
    __slots__ = ("kind",)

    def __init__(self, kind) -> None:
        self.kind = kind

    def check(self, value: object, path: tuple) -> Problem | None:
        return None if value is None else self.kind.check(value, path)


class ListOf:
    __slots__ = ("item",)

    def __init__(self, item) -> None:
        self.item = item

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not list:
            return Problem(path, "Input should be a valid array")  # the live text (live reports of `system: null`)
        check = self.item.check
        for index, item in enumerate(value):
            problem = check(item, path + (index,))
            if problem:
                return problem
        return None


class StrOr:
    """A string, or the other kind (``content``: a string or a list of blocks)."""

    __slots__ = ("other",)

    def __init__(self, other) -> None:
        self.other = other

    def check(self, value: object, path: tuple) -> Problem | None:
        return None if type(value) is str else self.other.check(value, path)


def _enclosing(path: tuple) -> int:
    """How many arrays and objects enclose the value at ``path``: one per key or index, body included."""
    return sum(1 for segment in path if not isinstance(segment, Tag))


def _depth(value: Any, limit: int) -> int:  # Any: mypy narrows isinstance(), not the fast type() tests
    """How deeply ``value`` nests (1 for a flat object), counting no further than ``limit``; -1 when
    it holds an integer the parser cannot read."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                return depth
        for child in item.values() if type(item) is dict else item:
            kind = type(child)
            if kind is dict or kind is list or kind is tuple:
                stack.append((child, depth + 1))
            elif kind is int and not _INT_RANGE[0] <= child <= _INT_RANGE[1] and _unreadable_number(child):
                return -1
    return deepest


class Json:
    """Any JSON value, as deep as the parser allows (tool inputs, JSON schemas, beta settings)."""

    __slots__ = ()

    def check(self, value: Any, path: tuple) -> Problem | None:  # Any: as in _depth
        kind = type(value)
        if kind is dict or kind is list or kind is tuple:
            depth = _depth(value, MAX_DEPTH)
            if depth < 0:
                return Problem(path, "number is infinity when parsed as double")
            # len(path) bounds the enclosing levels from above: count them only when it matters.
            if depth + len(path) > MAX_DEPTH and depth + _enclosing(path) > MAX_DEPTH:
                return Problem(path, "array and object recursion depth exceeded")
        elif kind is int and not _INT_RANGE[0] <= value <= _INT_RANGE[1] and _unreadable_number(value):
            return Problem(path, "number is infinity when parsed as double")
        return None


class JsonDict(Json):
    """A JSON object with any keys (``dict[str, object]``)."""

    __slots__ = ()

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not dict:
            return Problem(path, "Input should be a valid dictionary")
        return Json.check(self, value, path)


class Model:
    """An object with known fields: a missing required one, a wrong one, then any unknown one."""

    __slots__ = ("fields", "kinds", "plain", "required")

    def __init__(self, fields: dict, required: Iterable[str] = ()) -> None:
        self.fields = tuple(fields.items())
        self.kinds = dict(fields)
        self.required = tuple(required)
        unknown = set(self.required) - fields.keys()
        assert not unknown, f"required fields not declared: {unknown}"
        # A type test that accepts most values of a field (a string, a boolean, a literal) without
        # a call: a long history has thousands of them and nearly all are right.
        tests = {name: _plain(kind) for name, kind in fields.items()}
        self.plain = {name: test for name, test in tests.items() if test is not None}

    def names(self) -> frozenset:
        return frozenset(self.kinds)

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not dict:
            return Problem(path, "Input should be a valid dictionary")
        kinds, plain = self.kinds, self.plain
        for key, item in value.items():
            test = plain.get(key)
            if test is not None and type(item) is test[0] and (test[1] is None or item in test[1]):
                continue
            kind = kinds.get(key)
            if kind is None or kind.check(item, path + (key,)):
                return self._first_problem(value, path)
        for name in self.required:
            if name not in value:
                return self._first_problem(value, path)
        return None

    def _first_problem(self, value: dict, path: tuple) -> Problem | None:
        """The problem pydantic reports first: declared fields in order, then unknown ones."""
        present = 0
        for name, kind in self.fields:
            if name in value:
                present += 1
                problem = kind.check(value[name], path + (name,))
                if problem:
                    return problem
            elif name in self.required:
                return Problem(path + (name,), "Field required")
        if present != len(value):
            extra = next(key for key in value if key not in self.kinds)
            return Problem(path + (extra,), "Extra inputs are not permitted")
        return None


def _plain(kind) -> tuple | None:
    """(type, allowed values or None) for a test that proves a value right; others go to ``check``."""
    if type(kind) is Nullable:
        kind = kind.kind
    bare = type(kind) is Str and kind.pattern is None and kind.max_length is None and not kind.min_length
    if bare or type(kind) is StrOr:
        return (str, None)
    if type(kind) is Bool:
        return (bool, None)
    if type(kind) is Lit or type(kind) is Role:
        return (str, frozenset(kind.values))
    return None


class Tagged:
    """A union told apart by ``type``; a member's errors are reported under its tag."""

    __slots__ = ("default", "expected", "members", "tags")

    def __init__(self, members: dict, default: str | None = None) -> None:
        self.members = members
        self.default = default  # the tag of an object with no "type" (or a null one): custom tools
        self.expected = ", ".join(f"'{tag}'" for tag in members)
        self.tags = {tag: (Tag(tag),) for tag in members}

    def check(self, value: object, path: tuple) -> Problem | None:
        if type(value) is not dict:
            # The live text (tool_choice given "auto": a public probe of claude-haiku-4-5, 2026-08-28, in
            # docs/api_facts.md); that every tagged union answers so is inferred. Not pydantic's wording.
            return Problem(path, "Input should be an object")
        tag = value.get("type")
        if tag is None:
            if self.default is None:
                # The live text for a block and a tool_choice without "type" (round six); a null one
                # answered alike is inferred.
                return Problem(path + ("type",), "Field required")
            tag = self.default
        member = self.members.get(tag) if type(tag) is str else None
        if member is None:
            return Problem(
                path, f"Input tag '{tag}' found using 'type' does not match any of the expected tags: {self.expected}"
            )
        return member.check(value, path + self.tags[tag])
