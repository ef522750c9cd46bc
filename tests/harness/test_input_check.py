"""A tool's input check answers exactly as jsonschema does, quick path or not.

The quick path may only ever say "fits"; these tests compare every verdict and message with
jsonschema's own, over schemas ``@tool`` writes and schemas written by hand.
"""

from __future__ import annotations

import enum
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from harness_lab.json_schema import jsonschema_module
from harness_lab.tools import tool
from harness_lab.tools.input_check import InputCheck
from tests.examples import examples


def jsonschema_says(schema: dict, value: Any) -> str | None:
    jsonschema = jsonschema_module()
    if not isinstance(value, dict):
        return "not an object"
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message


class Colour(enum.IntEnum):
    RED = 1


class Name(str):
    pass


def f_plain(text: str, count: int, ratio: float, flag: bool, meta: dict, items: list, anything: Any = None):
    """All the plain types."""


def f_shaped(mode: Literal["a", "b"], maybe: int | None = None, nums: list[int] | None = None, either: int | str = 0):
    """Types the quick path leaves to jsonschema."""


HAND_WRITTEN = [
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]},
    {"type": "object", "properties": {"s": {"type": "string", "description": "d"}}, "additionalProperties": False},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^a+$"}}},
    {"type": "object", "properties": {"s": {"type": ["string", "null"]}}, "required": ["s"]},
    {"type": "object", "properties": {"x": {}}, "required": ["x", "y"], "title": "t"},
    {"type": "object", "properties": {"x": {"type": "number", "default": 1}}},
    {"type": "object"},
]
SCHEMAS = [tool(f_plain).input_schema, tool(f_shaped).input_schema, *HAND_WRITTEN]
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False),
    st.sampled_from([1.0, -0.0, 2.5]),
    st.text(max_size=4),
    st.sampled_from(["a", "b", "aa"]),
)
# Values a parsed JSON input never holds but a direct call may pass: subclasses of the plain types.
odd_leaf = st.sampled_from([Colour.RED, Name("a"), (1, 2), b"x", True, 0])
# One value of each type next to another: what a wrong type test would let through.
NEAR_MISSES = [
    True,
    False,
    0,
    1,
    -1,
    2.0,
    2.5,
    -0.0,
    "1",
    "",
    b"x",
    (1,),
    Colour.RED,
    Name("a"),
    None,
    [],
    {},
    [1],
    {"a": 1},
]
near_miss = st.sampled_from(NEAR_MISSES)
values = st.recursive(
    st.one_of(json_leaf, odd_leaf),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=8,
)


FITTING = {
    "string": st.text(max_size=3),
    "integer": st.integers(-3, 3),
    "number": st.floats(allow_nan=False),
    "boolean": st.booleans(),
    "object": st.dictionaries(st.text(max_size=2), values, max_size=2),
    "array": st.lists(values, max_size=2),
}


@st.composite
def schema_and_input(draw):
    """A schema and an input that fits its types, then has a few names changed, dropped or added."""
    schema = draw(st.sampled_from(SCHEMAS))
    if draw(st.integers(0, 9)) == 0:
        return schema, draw(values)  # often not an object at all
    given = {}
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        given[name] = draw(FITTING[kind] if isinstance(kind, str) and kind in FITTING else values)
    given |= {name: draw(values) for name in schema.get("required", []) if name not in given}
    for name in draw(st.lists(st.sampled_from([*given, "other"]), max_size=2)):
        given[name] = draw(st.one_of(near_miss, values))
    if given and draw(st.integers(0, 3)) == 0:
        given.pop(draw(st.sampled_from(sorted(given))))
    return schema, given


@settings(max_examples=examples("input_check"), deadline=None)
@given(schema_and_input())
def test_every_verdict_and_message_is_jsonschemas(case):
    schema, value = case
    said = InputCheck(schema).problem(value)
    expected = jsonschema_says(schema, value)
    if expected == "not an object":
        assert said is not None and said != ""
    else:
        assert said == expected


CANONICAL = {"string": "s", "integer": 1, "number": 0.5, "boolean": True, "object": {}, "array": []}


def canonical_input(schema: dict) -> dict:
    kinds = {name: prop.get("type") for name, prop in schema.get("properties", {}).items()}
    typed = {
        name: CANONICAL[kind] if isinstance(kind, str) and kind in CANONICAL else "a" for name, kind in kinds.items()
    }
    return typed | {name: None for name in schema.get("required", []) if name not in typed}


def test_every_near_miss_in_every_place_is_judged_as_jsonschema_judges_it():
    checked = 0
    for schema in SCHEMAS:
        check, base = InputCheck(schema), canonical_input(schema)
        cases = [base, *({k: v for k, v in base.items() if k != gone} for gone in base)]
        cases += [base | {name: value} for name in [*base, "other"] for value in NEAR_MISSES]
        for case in cases:
            assert check.problem(case) == jsonschema_says(schema, case), (schema, case)
            checked += 1
    assert checked > 500


def test_inputs_of_the_right_shape_fit_and_near_misses_do_not():
    check = InputCheck(tool(f_plain).input_schema)
    good = {"text": "t", "count": 3, "ratio": 0.5, "flag": False, "meta": {}, "items": []}
    assert check.problem(good) is None
    assert check.problem({**good, "ratio": 2}) is None  # an integer is a JSON number
    assert check.problem({**good, "count": 2.0}) is None  # and 2.0 is a JSON integer (draft 2020-12)
    assert check.problem({**good, "count": True}) == "count: True is not of type 'integer'"
    assert check.problem({**good, "ratio": False}) == "ratio: False is not of type 'number'"
    assert check.problem({**good, "items": (1,)}) == "items: (1,) is not of type 'array'"
    missing = dict(good)
    del missing["flag"]
    assert check.problem(missing) == "'flag' is a required property"


def test_a_schema_swapped_on_a_tool_is_the_one_checked():
    made = tool(f_plain)
    good = {"text": "t", "count": 3, "ratio": 0.5, "flag": False, "meta": {}, "items": []}
    assert made.problem_with(good) is None
    made.input_schema = {"type": "object", "properties": {"count": {"type": "string"}}}
    assert made.problem_with(good) == "count: 3 is not of type 'string'"


def test_a_schema_edited_in_place_is_read_again():
    made = tool(f_plain)
    good = {"text": "t", "count": 3, "ratio": 0.5, "flag": False, "meta": {}, "items": []}
    assert made.problem_with(good) is None
    made.input_schema["properties"]["count"]["type"] = "string"
    assert made.problem_with(good) == "count: 3 is not of type 'string'"
    made.input_schema["properties"]["count"]["type"] = "integer"
    assert made.problem_with(good) is None
