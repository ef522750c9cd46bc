"""Strict tools and structured outputs: the schemas the API compiles into a grammar, and the JSON it returns."""

import json

import pydantic

from harness_lab.emulator import emulated_client, say
from tests.emulator.refusals import refusal_of

MODEL = "claude-sonnet-5"
ASK = {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "東京の天気は？"}]}
CLOSED = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "high": {"type": "integer"}},
    "required": ["city", "high"],
    "additionalProperties": False,
}


def refused(**fields) -> str:
    return refusal_of(lambda: emulated_client([say("晴れ")], max_retries=0).messages.create(**ASK, **fields))


def strict_tool(n: int, optional: int = 0) -> dict:
    properties = {f"p{k}": {"type": "string"} for k in range(optional)}
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    return {"name": f"tool_{n}", "description": "t", "input_schema": schema, "strict": True}


def test_a_format_schema_must_close_its_objects():
    open_schema = {**CLOSED, "additionalProperties": True}
    said = refused(output_config={"format": {"type": "json_schema", "schema": open_schema}})
    assert (
        said == "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"
    )


def test_at_most_twenty_strict_tools_and_twenty_four_optional_parameters():
    assert refused(tools=[strict_tool(n) for n in range(21)]) == (
        "Too many strict tools (21). The maximum number of strict tools supported is 20."
    )
    assert refused(tools=[strict_tool(0, 13), strict_tool(1, 12)]).startswith(
        "Schemas contains too many optional parameters (25), which would make grammar compilation inefficient."
    )
    # twenty strict tools, and 24 optional parameters in all, go through
    client = emulated_client([say("晴れ")], max_retries=0)
    assert client.messages.create(**ASK, tools=[strict_tool(n) for n in range(20)]).content
    assert client.messages.create(**ASK, tools=[strict_tool(0, 12), strict_tool(1, 12)]).content


def test_a_final_answer_under_a_format_is_json_its_schema_takes():
    class Weather(pydantic.BaseModel):
        city: str
        high: int

    client = emulated_client([say("東京は晴れ、最高 19 度です。")], max_retries=0)
    answer = client.messages.create(**ASK, output_config={"format": {"type": "json_schema", "schema": CLOSED}})
    assert json.loads(answer.content[-1].text) == {"city": "", "high": 0}
    parsed = client.messages.parse(**ASK, output_format=Weather)
    assert isinstance(parsed.parsed_output, Weather)
