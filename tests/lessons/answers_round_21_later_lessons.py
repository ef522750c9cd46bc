"""Round twenty-one of a learner's answers to the pieces of notebooks 03, 04 and 06 (``signature_of``,
``run_tool_uses``, ``stop_message``): answers that yield or hand back a generator expression, change the content
they were given, reuse one dict for every result, ask at the keyboard with input(), take no answer (or a timeout)
for a yes, read stop_details as a dict, or raise on a typo deep in a helper; each wrong one with the point that
must catch it and its hint, and right ones in other styles (a dataclass, a class, a match with a guard, a
dispatch dict).

Three got another cause's hint: input() in place of approve was told "It raised: OSError"; a NameError on the
denial path was told a denial is no exception (it is a typo); one dict reused for every result was told the
results were out of order.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from harness_lab.lessons.lesson5 import HIGH_IMPACT


def _calls(content):
    return [b for b in content if b.type == "tool_use"]


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _answer(content):
    return "".join(b.text for b in content if b.type == "text")


# --- signature_of (lesson 4) ------------------------------------------------------------------------
def sig_generator_expression(content):  # a generator expression handed back, never a string
    return (f"{b.name}:{json.dumps(b.input, sort_keys=True)}" for b in content if b.type == "tool_use")


def sig_sorted_in_place(content):  # content.sort(): the history's own list reordered
    content.sort(key=lambda b: (b.type, getattr(b, "name", "")))
    return "|".join(f"{b.name}{json.dumps(b.input, sort_keys=True)}" for b in content if b.type == "tool_use")


def sig_repr_of_the_blocks(content):  # repr(block) carries the call's id, new in every response
    return "|".join(sorted(repr(b) for b in content if b.type == "tool_use"))


def _key(block):
    return f"{block.name}:{json.dumps(block.inputs, sort_keys=True)}"  # "inputs": a typo for input


def sig_typo_in_a_helper(content):
    return "|".join(sorted(_key(b) for b in content if b.type == "tool_use"))


def sig_counted_names(content):  # a Counter of the names: read_file twice with other paths looks the same
    return str(sorted(Counter(b.name for b in content if b.type == "tool_use").items()))


# --- run_tool_uses (lesson 5) -------------------------------------------------------------------------
def uses_silence_is_a_yes(content, impls, approve):  # only an explicit False refuses; no answer runs it
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT and approve(block.name, block.input) is False:
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_keyboard_instead_of_approve(content, impls, approve):
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT and input(f"{block.name}({block.input}) を実行してよいですか？ ") != "y":
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_yielded(content, impls, approve):
    for block in _calls(content):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            yield _result(block, "denied", True)
            continue
        try:
            yield _result(block, _text(impls[block.name](**block.input)))
        except Exception as err:
            yield _result(block, f"failed: {err}", True)


def uses_denied_call_removed(content, impls, approve):  # a refused call taken out of the turn
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            content.remove(block)
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"failed: {err}", True))
    return results


def _denied(block):
    return {"type": "tool_result", "tool_use_id": block.id, "content": f"{block.name}: not approved", "is_error": Ture}  # noqa: F821


def uses_typo_on_the_denial(content, impls, approve):  # the NameError is only met when someone says no
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"failed: {err}", True))
    return results


def uses_one_dict_cleared(content, impls, approve):  # r.clear() and r.update() for each call, r appended
    results, r = [], {}
    for block in _calls(content):
        r.clear()
        r.update(type="tool_result", tool_use_id=block.id)
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            r.update(content="denied", is_error=True)
        else:
            try:
                r["content"] = _text(impls[block.name](**block.input))
            except Exception as err:
                r.update(content=f"failed: {err}", is_error=True)
        results.append(r)
    return results


def uses_times_out_open(content, impls, approve):
    # 30秒待って返事がなければ（None でも）進める
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures import TimeoutError as NoAnswer

    results = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        for block in _calls(content):
            if block.name in HIGH_IMPACT:
                try:
                    ok = pool.submit(approve, block.name, block.input).result(timeout=30)
                except NoAnswer:
                    ok = True
                if ok is not None and not ok:
                    results.append(_result(block, "denied", True))
                    continue
            try:
                results.append(_result(block, _text(impls[block.name](**block.input))))
            except Exception as err:
                results.append(_result(block, f"failed: {err}", True))
    return results


# --- stop_message (lesson 7) -----------------------------------------------------------------------------
def stop_refused_word(response):  # "refused" for refusal
    text = _answer(response.content)
    if response.stop_reason == "refused":
        details = response.stop_details
        return f"断られました（{getattr(details, 'category', None)}）: {getattr(details, 'explanation', None)}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"途中で切れました（{response.stop_reason}）: {text}"
    return None


def stop_yielded(response):
    text = _answer(response.content)
    if response.stop_reason == "refusal":
        details = response.stop_details
        yield f"Refused ({getattr(details, 'category', None)}): {getattr(details, 'explanation', None)}"
    elif response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        yield f"Cut off ({response.stop_reason}): {text}"


def stop_details_read_as_a_dict(response):  # stop_details.get(...), as from a JSON log
    text = _answer(response.content)
    if response.stop_reason == "refusal":
        details = response.stop_details or {}
        return f"断られました（{details.get('category')}）: {details.get('explanation')}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"途中で切れました（{response.stop_reason}）: {text}"
    return None


def stop_first_block_text(response):  # content[0].text: the thinking block comes first
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"Refused ({getattr(details, 'category', None) or '-'}): {getattr(details, 'explanation', None) or '-'}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"Cut off ({response.stop_reason}): {response.content[0].text}"
    return None


def stop_window_left_out(response):  # only max_tokens is a cut: a full context window goes on quietly
    text = _answer(response.content)
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"断られました（{getattr(details, 'category', None) or 'なし'}）: {getattr(details, 'explanation', None) or 'なし'}"
    if response.stop_reason == "max_tokens":
        return f"途中で切れました: {text}"
    return None


WRONG_ROUND_21_LATER = [
    # (piece, the wrong function, the point that must catch it, its hint key)
    ("signature_of", sig_generator_expression, 1, "lesson.rule.generator"),
    ("signature_of", sig_sorted_in_place, 1, "lesson.l4.signature.changed_content"),
    ("signature_of", sig_repr_of_the_blocks, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_typo_in_a_helper, 1, "lesson.raised"),
    ("signature_of", sig_counted_names, 2, "lesson.l4.signature.collides"),
    ("run_tool_uses", uses_silence_is_a_yes, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", uses_keyboard_instead_of_approve, 1, "lesson.rule.keyboard"),  # was lesson.raised
    ("run_tool_uses", uses_yielded, 1, "lesson.l5.not_list"),
    ("run_tool_uses", uses_denied_call_removed, 2, "lesson.l5.changed_content"),
    ("run_tool_uses", uses_typo_on_the_denial, 2, "lesson.raised"),  # was denied_raised
    ("run_tool_uses", uses_one_dict_cleared, 1, "lesson.l2.run_tools.one_dict"),  # was results_order
    ("run_tool_uses", uses_times_out_open, 2, "lesson.l5.unknown_allowed"),
    ("stop_message", stop_refused_word, 1, "lesson.l7.stop_message.silent"),
    ("stop_message", stop_yielded, 1, "lesson.rule.generator"),
    ("stop_message", stop_details_read_as_a_dict, 1, "lesson.rule.sdk_fields"),
    ("stop_message", stop_first_block_text, 3, "lesson.rule.first_not_text"),
    ("stop_message", stop_window_left_out, 3, "lesson.l7.stop_message.silent"),
]


# --- right ones, in other styles ------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class _Call:
    name: str
    arguments: str


def sig_right_dataclass(content):  # frozen dataclasses, sorted; their repr is the signature
    calls = sorted(_Call(b.name, json.dumps(b.input, sort_keys=True, ensure_ascii=False)) for b in _calls(content))
    return repr(calls)


def uses_right_match_guard(content, impls, approve):  # a match with a guard: anything but a yes refuses
    results = []
    for block in _calls(content):
        match block.name in HIGH_IMPACT:
            case True if approve(block.name, block.input) is not True:
                results.append(_result(block, "The person did not say yes, so it was not run.", True))
            case _:
                try:
                    results.append(_result(block, _text(impls[block.name](**block.input))))
                except Exception as err:
                    results.append(_result(block, f"failed: {err}", True))
    return results


class _Runner:
    """One turn's calls, answered by a method each."""

    def __init__(self, impls, approve):
        self.impls, self.approve = impls, approve

    def answer(self, block):
        if block.name in HIGH_IMPACT and self.approve(block.name, block.input) is not True:
            return _result(block, "承認されなかったので実行していません", True)
        try:
            return _result(block, _text(self.impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, f"失敗: {err}", True)


def uses_right_class(content, impls, approve):
    runner = _Runner(impls, approve)
    return [runner.answer(b) for b in _calls(content)]


def stop_right_dispatch_dict(response):  # a dict of lambdas for the reasons that stop
    text, details = _answer(response.content), response.stop_details
    said = {
        "refusal": lambda: (
            f"The model declined ({getattr(details, 'category', None) or 'unknown'}): "
            f"{getattr(details, 'explanation', None) or 'no reason given'}"
        ),
        "max_tokens": lambda: f"Cut off at max_tokens. So far: {text}",
        "model_context_window_exceeded": lambda: f"The context window is full. So far: {text}",
    }
    return said[response.stop_reason]() if response.stop_reason in said else None


RIGHT_ROUND_21_LATER = [
    ("signature_of", sig_right_dataclass),
    ("run_tool_uses", uses_right_match_guard),
    ("run_tool_uses", uses_right_class),
    ("stop_message", stop_right_dispatch_dict),
]
