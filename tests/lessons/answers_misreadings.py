"""Wrong answers from misreading what a piece is handed or asked for (the SDK's objects read as dicts, a
message printed instead of returned, the last block taken for the stop reason, an input cut short, a yes
kept past its run), each with the hint that must name its cause, and right answers in other styles.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.lessons.answers6 import variant
from tests.lessons.answers_capstone import POLICY, RIGHT_MY_AGENT

# --- next_step -------------------------------------------------------------------------------------


def _step(reason, go=("tool_use",), resend=("pause_turn",), finish=("end_turn", "stop_sequence")):
    if reason in go:
        return "run_tools"
    if reason in resend:
        return "resend"
    return "finish" if reason in finish else "stop"


def step_pause_runs_tools(response):  # pause_turn read as "a server tool is running, so run tools"
    return _step(response.stop_reason, go=("tool_use", "pause_turn"), resend=())


def step_pause_finishes(response):  # pause_turn read as a pause at the end of an answer
    return _step(response.stop_reason, resend=(), finish=("end_turn", "stop_sequence", "pause_turn"))


def step_last_block_decides(response):  # a tool_use last means tools, whatever the stop_reason says
    if response.content and response.content[-1].type == "tool_use":
        return "run_tools"
    return _step(response.stop_reason)


def step_window_resends(response):  # "the window was full: send it again"
    return _step(response.stop_reason, resend=("pause_turn", "model_context_window_exceeded"))


def step_refusal_finishes(response):  # a refusal is the model's last word, so an answer
    return _step(response.stop_reason, finish=("end_turn", "stop_sequence", "refusal"))


def step_unknown_finishes(response):  # the three known stops listed, and everything else an answer
    reason = response.stop_reason
    if reason in ("max_tokens", "refusal", "model_context_window_exceeded"):
        return "stop"
    return _step(reason, finish=(reason,))


def step_reads_a_dict(response):  # the article's JSON, read as in JavaScript
    return {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish"}.get(response["stop_reason"], "stop")


def step_in_capitals(response):
    return _step(response.stop_reason).upper()


def step_right_by_table(response):
    go = {"tool_use": "run_tools", "pause_turn": "resend"}
    reason = getattr(response, "stop_reason", None)
    return go.get(reason) or ("finish" if reason in frozenset({"end_turn", "stop_sequence"}) else "stop")


# --- signature_of ----------------------------------------------------------------------------------


def sig_as_tuple(content):  # sorted pairs, never made into one string
    return tuple(sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content if b.type == "tool_use"))


def sig_cut_short(content):  # the input's JSON cut to keep the signature short to print
    parts = [
        f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)[:40]})"
        for b in content
        if b.type == "tool_use"
    ]
    return " | ".join(sorted(parts))


def sig_skips_calls_without_input(content):  # "no arguments, nothing to compare"
    parts = [f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use" and b.input]
    return " | ".join(sorted(parts))


def sig_right_model_dump(content):
    calls = [b.model_dump(include={"name", "input"}) for b in content if b.type == "tool_use"]
    return json.dumps(sorted(calls, key=lambda c: json.dumps(c, sort_keys=True)), sort_keys=True, ensure_ascii=False)


def sig_right_without_separator(content):  # name then JSON: the JSON's own braces keep the calls apart
    return "".join(
        sorted(b.name + json.dumps(b.input, sort_keys=True) for b in content if getattr(b, "type", None) == "tool_use")
    )


# --- read_file -------------------------------------------------------------------------------------


def read_refuses_a_link_named(path, root="."):  # only the last part of the path is looked at for a link
    base = os.path.realpath(root)
    full = os.path.normpath(os.path.join(base, path))
    if os.path.islink(full) or os.path.commonpath([full, base]) != base:
        raise PermissionError(path)
    with open(full, encoding="utf-8") as f:
        return f.read(2000)


def read_refuses_leading_dots(path, root="."):  # ../ refused, an absolute path let through
    if path.startswith(".."):
        raise PermissionError(path)
    with open((Path(root).resolve() / path).resolve(), encoding="utf-8") as f:
        return f.read(2000)


def read_returns_the_error(path, root="."):  # every exception caught and handed back as a value
    base = Path(root).resolve()
    target = (base / path).resolve()
    try:
        if not target.is_relative_to(base):
            raise PermissionError(path)
        with open(target, encoding="utf-8") as f:
            return f.read(2000)
    except Exception as exc:
        return f"エラー: {exc}"


def read_2000_lines(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return "".join(f.readlines()[:2000])


def read_root_not_resolved(path, root="."):  # the root made absolute, its link not followed
    base = Path(root).absolute()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_relative_to_raises(path, root="."):  # relative_to's ValueError left as the refusal
    base = Path(root).resolve()
    target = (base / path).resolve()
    target.relative_to(base)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_right_parents(path, root="."):
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if base not in map(str, Path(target).parents):
        raise PermissionError(f"{path}: outside")
    return Path(target).read_text(encoding="utf-8")[:2000]


def read_right_separator(path, root="."):
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if not target.startswith(base + os.sep):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


# --- stop_message ----------------------------------------------------------------------------------

CUT = {"model_context_window_exceeded": "コンテキストが一杯です", "max_tokens": "max_tokens で切れました"}


def stop_details_as_dict(response):
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        d = response.stop_details
        return f"断りました（{d['category'] or ''}）: {d['explanation'] or ''}"
    return f"{CUT[response.stop_reason]}: {text}" if response.stop_reason in CUT else None


def stop_prints_it(response):  # the message shown on the screen, nothing returned to the loop
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        d = response.stop_details
        print(f"断りました（{d.category or ''}）: {d.explanation or ''}")
    elif response.stop_reason in CUT:
        print(f"{CUT[response.stop_reason]}: {text}")


def stop_first_block(response):  # the first block taken for the text (a thinking block comes first)
    text = response.content[0].text if response.content else ""
    if response.stop_reason == "refusal":
        d = response.stop_details
        return "断りました: " + " ".join(x for x in (d.category, d.explanation) if x)
    return f"{CUT[response.stop_reason]}: {text}" if response.stop_reason in CUT else None


def stop_one_of_the_two(response):  # explanation, or else category: never both
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        d = response.stop_details
        return "断りました: " + ((d and (d.explanation or d.category)) or "理由は不明です")
    return f"{CUT[response.stop_reason]}: {text}" if response.stop_reason in CUT else None


def stop_text_as_list(response):  # the text blocks' texts put into the f-string as a list
    parts = [b.text for b in response.content if b.type == "text"]
    if response.stop_reason == "refusal":
        d = response.stop_details
        return "断りました: " + " / ".join(x for x in ((d.category, d.explanation) if d else ()) if x)
    return f"{CUT[response.stop_reason]}: {parts}" if response.stop_reason in CUT else None


def stop_refusal_quotes_first_block(response):  # what the model "said" when it declined: content[0]
    if response.stop_reason == "refusal":
        d = response.stop_details
        return f"断りました（{d.category}）: {d.explanation} / {response.content[0].text}"
    text = "".join(b.text for b in response.content if b.type == "text")
    return f"{CUT[response.stop_reason]}: {text}" if response.stop_reason in CUT else None


def stop_right_with_what_was_written(response):  # a refusal midway keeps the text written before it
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        d = response.stop_details
        reason = " / ".join(x for x in (d.category, d.explanation) if x) if d else ""
        return f"断りました: {reason or '理由は示されていません'}" + (f"（それまでの答え: {text}）" if text else "")
    return f"{CUT[response.stop_reason]}: {text}" if response.stop_reason in CUT else None


def stop_right_by_table(response):
    why = {
        "model_context_window_exceeded": "履歴が長すぎて、コンテキストウィンドウを超えました",
        "max_tokens": "max_tokens の上限で、答えが切れました",
    }
    if response.stop_reason == "refusal":
        d = response.stop_details
        said = [x for x in (getattr(d, "category", None), getattr(d, "explanation", None)) if x]
        return "依頼は断られました。" + ("理由: " + "／".join(said) if said else "理由は示されていません")
    if response.stop_reason in why:
        return why[response.stop_reason] + "\n" + "\n".join(b.text for b in response.content if b.type == "text")
    return None


def stop_right_and_logged(response):  # a trace line printed for every response, the message still returned
    print("stop_reason:", response.stop_reason)
    return stop_right_by_table(response)


WRONG_MISREAD = [
    ("next_step", step_pause_runs_tools, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", step_pause_finishes, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", step_last_block_decides, 3, "lesson.l3.next_step.max_tokens"),
    ("next_step", step_window_resends, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("next_step", step_refusal_finishes, 3, "lesson.l3.next_step.refusal"),
    ("next_step", step_unknown_finishes, 3, "lesson.l3.next_step.unknown"),
    ("next_step", step_reads_a_dict, 1, "lesson.rule.message_attributes"),
    ("next_step", step_in_capitals, 1, "lesson.l3.next_step.vocabulary"),
    ("signature_of", sig_as_tuple, 1, "lesson.l4.signature.not_text"),
    ("signature_of", sig_cut_short, 2, "lesson.l4.signature.cut"),
    ("signature_of", sig_skips_calls_without_input, 2, "lesson.l4.signature.one_call"),
    ("read_file", read_refuses_a_link_named, 3, "lesson.l6.read_file.link"),
    ("read_file", read_refuses_leading_dots, 2, "lesson.l6.read_file.escaped"),
    ("read_file", read_returns_the_error, 2, "lesson.l6.read_file.returned_refusal"),
    ("read_file", read_2000_lines, 1, "lesson.l6.read_file.limit"),
    ("read_file", read_root_not_resolved, 1, "lesson.l6.read_file.root_link"),
    ("read_file", read_relative_to_raises, 2, "lesson.l6.read_file.not_permission"),
    ("stop_message", stop_details_as_dict, 1, "lesson.rule.sdk_fields"),
    ("stop_message", stop_prints_it, 1, "lesson.l7.stop_message.printed"),
    ("stop_message", stop_first_block, 1, "lesson.rule.first_not_text"),
    ("stop_message", stop_one_of_the_two, 1, "lesson.l7.stop_message.no_category"),
    ("stop_message", stop_text_as_list, 3, "lesson.l7.stop_message.text_apart"),
    ("stop_message", stop_refusal_quotes_first_block, 1, "lesson.empty_content"),
]

RIGHT_MISREAD = [
    ("next_step", step_right_by_table),
    ("signature_of", sig_right_model_dump),
    ("signature_of", sig_right_without_separator),
    ("read_file", read_right_parents),
    ("read_file", read_right_separator),
    ("stop_message", stop_right_by_table),
    ("stop_message", stop_right_and_logged),
    ("stop_message", stop_right_with_what_was_written),
]

# --- lesson 6's run_agent --------------------------------------------------------------------------

WRONG_RUN_AGENT_MISREAD = [
    (  # the stop message is the first text block: a refusal before any output has none
        variant(
            (
                'return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)',
                "said = [b.text for b in response.content if b.type == 'text'][0]\n"
                "    return lessons.stopped(response.stop_reason, said, turns, tokens_used)",
            )
        ),
        2,
        "lesson.empty_content",
    ),
    (  # usage read as the article's JSON
        variant(
            (
                "tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
                'tokens_used += response.usage["input_tokens"] + response.usage["output_tokens"]',
            )
        ),
        1,
        "lesson.rule.sdk_fields",
    ),
    (  # last_signature set on the first turn only: a spin from the second turn on is never seen
        variant(
            (
                "            last_signature = signature\n",
                "            if last_signature is None:\n                last_signature = signature\n",
            )
        ),
        5,
        "lesson.l6.run_agent.spin_first_only",
    ),
    (  # the raw blocks compared: their ids differ every turn, so no two turns are alike
        variant(
            ("            signature = signature_of(response.content)\n", "            signature = response.content\n")
        ),
        5,
        "lesson.l6.run_agent.missed_spinning",
    ),
]

# --- the capstone's my_agent -----------------------------------------------------------------------

SEND = "        send(url, body)\n"
REFUSE = '            raise PermissionError(f"{url} には送れません")\n'

WRONG_MY_AGENT_MISREAD = [
    (  # the host checked after send has run
        variant((POLICY, ""), (REFUSE, ""), (SEND, SEND + POLICY + REFUSE), base=RIGHT_MY_AGENT),
        3,
        "lesson.capstone.checked_after_send",
    ),
    (  # a yes remembered in a module variable, for every later run
        RIGHT_MY_AGENT.replace("def my_agent", "APPROVED = set()\n\n\ndef my_agent").replace(
            "}, approve)", "}, remembered(approve))"
        )
        + """

def remembered(approve):
    def ask(name, given):
        if name in APPROVED:
            return True
        if approve is not None and approve(name, given):
            APPROVED.add(name)
            return True
        return False

    return ask
""",
        2,
        "lesson.capstone.yes_kept",
    ),
    (  # the tool list made once, outside, and added to on every call
        RIGHT_MY_AGENT.replace("def my_agent", "TOOLS = [GET_TIME]\n\n\ndef my_agent").replace(
            "    return run_agent(client, user_input, [GET_TIME, HTTP_POST],",
            "    TOOLS.append(HTTP_POST)\n    return run_agent(client, user_input, TOOLS,",
        ),
        2,
        "lesson.l2.tools_twice",
    ),
    (  # an approver that cannot be asked (None) read as a yes
        RIGHT_MY_AGENT.replace("}, approve)", "}, never_stuck(approve))")
        + """

def never_stuck(approve):
    def ask(name, given):
        try:
            return approve(name, given)
        except Exception:
            return True

    return ask
""",
        2,
        "lesson.capstone.sent_without_approver",
    ),
    (variant(("send(url, body)", "send(body, url)"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.sent_wrong"),
]

RIGHT_MY_AGENT_MISREAD = [
    variant(("urlsplit(url).hostname", "urlsplit(url).netloc"), base=RIGHT_MY_AGENT),
    variant(
        ("urlsplit(url).hostname not in ALLOWED_HOSTS", "(urlsplit(url).hostname or '').lower() not in ALLOWED_HOSTS"),
        base=RIGHT_MY_AGENT,
    ),
    variant(("}, approve)", "}, approve if approve is not None else (lambda *a: False))"), base=RIGHT_MY_AGENT),
]
