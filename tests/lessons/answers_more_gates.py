"""More wrong answers to lesson 5's run_tool_uses (the approval) and to read_file (the confinement);
answers_more.WRONG_MORE lists them.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.lessons.lesson5 import run_tool_uses as good_run_tool_uses
from tests.lessons.answers_more_loop import (
    _denied,
    _error,
    _result,
)
from tests.lessons.answers_more_right import (
    approve_right_flagged,
)


def approve_one_argument(content, impls, approve):  # approve(block): the callback takes name and input
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block):
            results.append(_denied(block))
            continue
        results.append(_result(block, impls[block.name](**block.input)))
    return results


def approve_one_argument_in_try(content, impls, approve):  # the same, its TypeError turned into a result
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            if block.name in HIGH_IMPACT and not approve(block):
                results.append(_denied(block))
                continue
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_positional_input(content, impls, approve):  # impls[name](block.input), inside a try
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_only_write_file(content, impls, approve):  # HIGH_IMPACT read as "write_file"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name == "write_file" and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_one_no_stops_all(content, impls, approve):  # one no for the whole turn
    calls = [b for b in content if b.type == "tool_use"]
    if not all(approve(b.name, b.input) for b in calls if b.name in HIGH_IMPACT):
        return [_denied(b) for b in calls]
    return good_run_tool_uses(content, impls, approve)


def approve_raises_on_no(content, impls, approve):
    for block in content:
        if block.type == "tool_use" and block.name in HIGH_IMPACT and not approve(block.name, block.input):
            raise PermissionError(f"{block.name} は許可されませんでした")
    return good_run_tool_uses(content, impls, lambda name, given: True)


def approve_prunes_content(content, impls, approve):
    content[:] = [b for b in content if b.type == "tool_use"]
    return good_run_tool_uses(content, impls, approve)


def approve_no_try(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        results.append(_result(block, impls[block.name](**block.input)))
    return results


def approve_kept_results(content, impls, approve, results=[]):  # noqa: B006 (the mistake under test)
    results.extend(good_run_tool_uses(content, impls, approve))
    return results


def approve_failure_unflagged(content, impls, approve):  # a failure answered, but not as an error
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}"))
    return results


def approve_fails_open(content, impls, approve):  # an approval that raises counted as a yes
    def allowed(block):
        try:
            return approve(block.name, block.input)
        except Exception:
            return True

    return (
        good_run_tool_uses(content, impls, lambda name, given: True)
        if all(allowed(b) for b in content if b.type == "tool_use" and b.name in HIGH_IMPACT)
        else approve_right_flagged(content, impls, approve)
    )


def approve_asks_with_the_block(content, impls, approve):  # the whole block where its input belongs
    return good_run_tool_uses(
        content,
        impls,
        lambda name, given: approve(name, next(b for b in content if b.type == "tool_use" and b.input is given)),
    )


def approve_arguments_swapped(content, impls, approve):
    return good_run_tool_uses(content, impls, lambda name, given: approve(given, name))


def approve_forgot_return(content, impls, approve):  # right in every way but the last line
    good_run_tool_uses(content, impls, approve)


def approve_yields(content, impls, approve):  # notebook 04 has just taught generators
    yield from good_run_tool_uses(content, impls, approve)


def approve_return_inside_for(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        results += good_run_tool_uses([block], impls, approve)
        return results  # one indent too deep
    return results


def approve_remembers_yes(content, impls, approve):  # a yes for write_file taken for every write_file after it
    results, approved = [], set()
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and block.name not in approved:
            if not approve(block.name, block.input):
                results.append(_denied(block))
                continue
            approved.add(block.name)
        results += good_run_tool_uses([block], impls, lambda name, given: True)
    return results


def approve_raises_dropped(content, impls, approve):  # an approval that raises: not run, and no result either
    def ask(name, given):
        try:
            return approve(name, given)
        except Exception:
            return None

    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        answer = ask(block.name, block.input) if block.name in HIGH_IMPACT else True
        if answer is None:
            continue
        results += good_run_tool_uses([block], impls, lambda name, given, a=answer: a)
    return results


# --- read_file ------------------------------------------------------------------------------


def read_ignores_root(path, root="."):
    return Path(path).read_text(encoding="utf-8")[:2000]


def _inside(path, root) -> Path:
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(path)
    return target


def read_joins_strings(path, root="."):  # fine for a str root, a TypeError for notebook 05's Path roots
    base = os.path.realpath(root)
    target = os.path.realpath(root + "/" + path)
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_2000_bytes(path, root="."):
    with open(_inside(path, root), "rb") as f:
        return f.read(2000).decode("utf-8", errors="ignore")


def read_bytes_as_they_are(path, root="."):
    with open(_inside(path, root), "rb") as f:
        return f.read(2000)


def read_whole_file(path, root="."):
    return _inside(path, root).read_text(encoding="utf-8")


def read_returns_refusal(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        return "ルートの外は読めません"
    return target.read_text(encoding="utf-8")[:2000]


def read_raises_value_error(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise ValueError(f"{path} はルートの外です")
    return target.read_text(encoding="utf-8")[:2000]
