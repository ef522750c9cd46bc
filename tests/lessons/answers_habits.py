"""Wrong answers written from habits of elsewhere (another SDK's shapes: OpenAI's choices, finish_reason,
role "tool" results and system messages, LangChain's invoke; MCP's isError; async code)
and from reading a piece's rule a little off (approve's answer compared with words, asked once per tool
name), each with the hint that must name its cause; and right answers in other styles (match
statements, enums, dataclasses, generators kept inside), which must pass.
"""

from __future__ import annotations

import json
from collections import Counter
from enum import Enum, StrEnum

HIGH_IMPACT = {"write_file", "http_post", "delete_file"}
MODEL = "claude-sonnet-5"


def result_of(block, text, error=False):
    return {"type": "tool_result", "tool_use_id": block.id, "content": text, **({"is_error": True} if error else {})}


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


# --- run_tools (lesson 2) --------------------------------------------------------------------------


def tools_openai_tool_messages(content, impls):  # OpenAI: one {"role": "tool"} message per call
    out = []
    for b in content:
        if b.type == "tool_use":
            try:
                out.append({"role": "tool", "tool_call_id": b.id, "content": _text(impls[b.name](**b.input))})
            except Exception as e:
                out.append({"role": "tool", "tool_call_id": b.id, "content": str(e)})
    return out


def _each(content, run, failed=lambda e: f"失敗: {e}", flag=lambda text: {"is_error": True}):
    out = []
    for b in (b for b in content if b.type == "tool_use"):
        try:
            out.append(result_of(b, _text(run(b))))
        except Exception as e:
            out.append({"type": "tool_result", "tool_use_id": b.id, "content": failed(e), **flag(failed(e))})
    return out


def tools_langchain_invoke(content, impls):  # LangChain's tool.invoke(input)
    return _each(content, lambda b: impls[b.name].invoke(b.input))


def tools_openai_arguments(content, impls):  # OpenAI's arguments are JSON text; input is a dict already
    return _each(content, lambda b: impls[b.name](**json.loads(b.input)))


def tools_is_error_camel(content, impls):  # MCP's isError
    return _each(content, lambda b: impls[b.name](**b.input), flag=lambda text: {"isError": True})


def tools_error_class_only(content, impls):  # the exception's class, not what happened
    return _each(content, lambda b: impls[b.name](**b.input), failed=lambda e: type(e).__name__)


async def tools_async(content, impls):
    return _each(content, lambda b: impls[b.name](**b.input))


def tools_ids_by_position(content, impls):  # an id of its own making, from the call's index
    calls = [b for b in content if b.type == "tool_use"]
    return [dict(r, tool_use_id=f"toolu_{i}") for i, r in enumerate(_each(calls, lambda b: impls[b.name](**b.input)))]


def tools_right_text_blocks(content, impls):  # right: content as a list of text blocks
    return [
        dict(r, content=[{"type": "text", "text": r["content"]}])
        for r in _each(content, lambda b: impls[b.name](**b.input))
    ]


def tools_right_generator_inside(content, impls):  # right: a generator, made a list before it goes back
    def each():
        for b in content:
            if b.type == "tool_use":
                try:
                    yield result_of(b, _text(impls[b.name](**b.input)))
                except Exception as e:
                    yield result_of(b, f"失敗: {e}", error=True)

    return list(each())


# --- run_agent (lesson 2) --------------------------------------------------------------------------


def _loop(client, user_input, tools, impls, go=lambda r: r.stop_reason == "tool_use", first=None, extra=None):
    from harness_lab.lessons.lesson2 import run_tools

    messages = (first or []) + [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while go(response):
        messages.append({"role": "assistant", "content": response.content, **(extra(response) if extra else {})})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_openai_choices(client, user_input, tools, impls):
    return _loop(client, user_input, tools, impls, go=lambda r: r.choices[0].finish_reason == "tool_calls")


def agent_tool_calls_reason(client, user_input, tools, impls):  # OpenAI's finish_reason word
    return _loop(client, user_input, tools, impls, go=lambda r: r.stop_reason == "tool_calls")


def agent_system_message(client, user_input, tools, impls):  # OpenAI's system message in messages
    system = [{"role": "system", "content": "あなたは天気のアシスタントです"}]
    return _loop(client, user_input, tools, impls, first=system)


def agent_tool_calls_key(client, user_input, tools, impls):  # OpenAI's tool_calls beside the content
    calls = lambda r: {"tool_calls": [b.id for b in r.content if b.type == "tool_use"]}  # noqa: E731
    return _loop(client, user_input, tools, impls, extra=calls)


async def agent_async(client, user_input, tools, impls):
    return _loop(client, user_input, tools, impls)


def agent_one_round(client, user_input, tools, impls):  # for _ in range(1): tools run once
    rounds = iter(range(1))
    return _loop(client, user_input, tools, impls, go=lambda r: r.stop_reason == "tool_use" and next(rounds, None) == 0)


def agent_first_words(client, user_input, tools, impls):  # the first response's text kept as the answer
    said: list = []
    _loop(client, user_input, tools, impls, go=lambda r: said.append(r) or r.stop_reason == "tool_use")
    return "".join(b.text for b in said[0].content if b.type == "text")


# --- next_step (lesson 3) --------------------------------------------------------------------------


def step_finish_reason(response):  # OpenAI's field
    return {"tool_calls": "run_tools", "stop": "finish"}.get(response.finish_reason, "stop")


def step_openai_words(response):  # OpenAI's words beside this API's; pause_turn and stop_sequence left out
    reason = response.stop_reason
    return (
        "run_tools" if reason in ("tool_use", "tool_calls") else "finish" if reason in ("end_turn", "stop") else "stop"
    )


class Step(Enum):
    RUN = "run_tools"
    RESEND = "resend"
    FINISH = "finish"
    STOP = "stop"


GO = {"tool_use": "RUN", "pause_turn": "RESEND", "end_turn": "FINISH", "stop_sequence": "FINISH"}


def step_enum_member(response):  # the Enum member, not its value
    return Step[GO.get(response.stop_reason, "STOP")]


def step_tool_use_in_content(response):  # a tool_use block decides, cut off or not
    if any(b.type == "tool_use" for b in response.content):
        return "run_tools"
    return {"pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}.get(response.stop_reason, "stop")


async def step_async(response):
    return "run_tools" if response.stop_reason == "tool_use" else "finish"


class _AsyncStepper:  # a class-style answer whose method is a coroutine function
    async def next_step(self, response):
        return "run_tools" if response.stop_reason == "tool_use" else "finish"


step_async_method = _AsyncStepper().next_step


def step_default_finish(response):  # the TypeScript switch's default: finish
    stops = ("max_tokens", "refusal", "model_context_window_exceeded")
    reason = response.stop_reason
    return {"tool_use": "run_tools", "pause_turn": "resend"}.get(reason) or ("stop" if reason in stops else "finish")


class Next(StrEnum):
    RUN = "run_tools"
    RESEND = "resend"
    FINISH = "finish"
    STOP = "stop"


def step_right_str_enum(response):  # right: a StrEnum is a str
    return Next[GO.get(response.stop_reason, "STOP")]


# --- signature_of (lesson 4) -----------------------------------------------------------------------


def sig_inputs_only(content):  # the tool's name left out
    return " | ".join(sorted(json.dumps(b.input, sort_keys=True) for b in content if b.type == "tool_use"))


def sig_ts_stringify(content):  # the TypeScript's JSON.stringify ported as json.dumps, keys as they came
    return "|".join(
        sorted(f"{c.name}:{json.dumps(c.input, separators=(',', ':'))}" for c in content if c.type == "tool_use")
    )


def sig_model_dump_json_with_id(content):  # pydantic's dump, the id kept in
    return " | ".join(
        sorted(b.model_dump_json(include={"id", "name", "input"}) for b in content if b.type == "tool_use")
    )


def sig_generator(content):  # the parts, never joined
    return (f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use")


def sig_set(content):  # the parts as a set, never joined
    return {f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use"}


def sig_openai_function(content):  # OpenAI's tool_call.function.name / arguments
    return " | ".join(sorted(f"{b.function.name}({b.function.arguments})" for b in content if b.type == "tool_use"))


def sig_sorted_characters(content):  # sorted() over the joined text sorts its characters
    return "".join(
        sorted(" | ".join(f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use"))
    )


def sig_right_counter(content):  # right: each call with how many times it came
    calls = Counter(f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use")
    return " | ".join(f"{call}x{n}" for call, n in sorted(calls.items()))


WRONG_HABITS = [
    ("run_tools", tools_openai_tool_messages, 1, "lesson.rule.other_api_result"),
    ("run_tools", tools_langchain_invoke, 2, "lesson.l2.run_tools.call_failed"),
    ("run_tools", tools_openai_arguments, 2, "lesson.l2.run_tools.call_failed"),
    ("run_tools", tools_is_error_camel, 3, "lesson.rule.is_error_spelled"),
    ("run_tools", tools_error_class_only, 3, "lesson.l2.run_tools.no_message"),
    ("run_tools", tools_async, 1, "lesson.async_def"),
    ("run_tools", tools_ids_by_position, 1, "lesson.l2.run_tools.ids"),
    ("run_agent", agent_openai_choices, 1, "lesson.rule.other_api"),
    ("run_agent", agent_tool_calls_reason, 2, "lesson.l2.run_agent.requests"),
    ("run_agent", agent_system_message, 1, "lesson.rule.system_role"),
    ("run_agent", agent_tool_calls_key, 2, "lesson.rule.message_extra_key"),
    ("run_agent", agent_async, 1, "lesson.async_def"),
    ("run_agent", agent_one_round, 2, "lesson.l2.run_agent.requests"),
    ("run_agent", agent_first_words, 2, "lesson.l2.run_agent.not_text"),
    ("next_step", step_finish_reason, 1, "lesson.rule.other_api"),
    ("next_step", step_openai_words, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", step_enum_member, 1, "lesson.l3.next_step.vocabulary"),
    ("next_step", step_tool_use_in_content, 3, "lesson.l3.next_step.max_tokens"),
    ("next_step", step_async, 1, "lesson.async_def"),
    ("next_step", step_async_method, 1, "lesson.async_def"),
    ("next_step", step_default_finish, 3, "lesson.l3.next_step.unknown"),
    ("signature_of", sig_inputs_only, 2, "lesson.l4.signature.collides"),
    ("signature_of", sig_ts_stringify, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_model_dump_json_with_id, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_generator, 1, "lesson.rule.generator"),  # yield named as the cause
    ("signature_of", sig_set, 1, "lesson.l4.signature.not_text"),
    ("signature_of", sig_openai_function, 1, "lesson.rule.other_api"),
    ("signature_of", sig_sorted_characters, 2, "lesson.l4.signature.pairs"),
]

RIGHT_HABITS = [
    ("run_tools", tools_right_text_blocks),
    ("run_tools", tools_right_generator_inside),
    ("next_step", step_right_str_enum),
    ("signature_of", sig_right_counter),
]
