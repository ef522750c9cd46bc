"""Exercise level 1, round seventeen: Ctrl-C caught with a tool's failures, a person's no written into the
policy, and the calls run before they are asked about or answered in another order; each wrong answer with
the criteria and hint keys that must catch it, and right answers in styles the others do not use.

Two used to pass: ``except BaseException`` or a bare ``except:`` around the tool made a failed result of
Ctrl-C (KeyboardInterrupt), so the loop went on. One got other causes' hints: a no written into POLICY as
deny was told the default was not used (criterion 1) and that approve's answer was misread (criterion 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, TABLE, forbidden, make_runner, refused, result, run


def _tier(name):
    return DICT_POLICY.get(name, "ask")


def _run_catching_everything(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except BaseException as err:  # Ctrl-C too
        return result(block, f"ツールの実行に失敗しました: {err!r}", True)


def _run_bare_except(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except:  # noqa: E722  # Ctrl-C too
        return result(block, "ツールの実行に失敗しました", True)


def _run_interrupt_as_result(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except KeyboardInterrupt:  # "report the stop to the model as well"
        return result(block, "中断されました", True)
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


DEMOTED_POLICY = dict(TABLE)


def _no_written_into_the_policy(content, tool_impls, approve):
    """A no makes the tool deny from then on, "so the model stops asking for it"."""

    def ask(name, given):
        if approve(name, given):
            return True
        DEMOTED_POLICY[name] = "deny"
        return False

    return make_runner(lambda name: DEMOTED_POLICY.get(name, "ask"))(content, tool_impls, ask)


def _all_run_then_asked(content, tool_impls, approve):
    """Every call that is not deny runs first, in one batch; the ask ones are put to approve afterwards."""
    outputs = {b.id: run(b, tool_impls) for b in content if b.type == "tool_use" and _tier(b.name) != "deny"}
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if _tier(block.name) == "deny":
            results.append(forbidden(block))
        elif _tier(block.name) == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(outputs[block.id])
    return results


def _threads_as_completed(content, tool_impls, approve):
    """The allowed calls run in threads, their results taken as they complete, after the refusals."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    results, allowed = [], []
    for block in content:
        if block.type != "tool_use":
            continue
        if _tier(block.name) == "deny":
            results.append(forbidden(block))
        elif _tier(block.name) == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            allowed.append(block)
    with ThreadPoolExecutor() as pool:
        results += [f.result() for f in as_completed([pool.submit(run, b, tool_impls) for b in allowed])]
    return results


def _deny_run_to_see(content, tool_impls, approve):
    """A deny tool is run "to see what it would have done", then answered as forbidden."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if _tier(block.name) == "deny":
            try:
                tool_impls[block.name](**block.input)
            except Exception:
                pass
            results.append(forbidden(block))
        elif _tier(block.name) == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _first_id_per_tool(content, tool_impls, approve):
    """The results keyed by the first id each tool name had: a second call of a tool answers the first."""
    names = {b.id: b.name for b in content if b.type == "tool_use"}
    first: dict = {}
    answered = make_runner(_tier)(content, tool_impls, approve)
    return [{**r, "tool_use_id": first.setdefault(names[r["tool_use_id"]], r["tool_use_id"])} for r in answered]


# --- right ---------------------------------------------------------------------------------------
@dataclass
class Policy:
    """The tiers and the default in one object; the runner asks it for a tier on every call."""

    tiers: dict = field(default_factory=lambda: DICT_POLICY)
    default: str = "ask"

    def tier_of(self, name):
        return self.tiers.get(name, self.default)


_POLICY_OBJECT = Policy()


def _index_loop(content, tool_impls, approve):
    """A while True over the calls by index; an approval that fails, or no True, is a no."""
    calls, results, i = [b for b in content if b.type == "tool_use"], [], 0
    while True:
        if i >= len(calls):
            break
        block, i = calls[i], i + 1
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            try:
                allowed = approve(block.name, block.input) is True
            except Exception:
                allowed = False
            if not allowed:
                results.append(refused(block))
                continue
        results.append(run(block, tool_impls))
    return results


def _run_interrupt_let_out(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except KeyboardInterrupt:
        print(f"{block.name} の実行中に中断されました")
        raise
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


WRONG_INTERRUPTS = {
    "except BaseException around the tool": (
        (DICT_POLICY, "ask", make_runner(_tier, execute=_run_catching_everything), GOOD_ANSWERS),
        {3: "grade.l1.c3.interrupt_caught"},
    ),
    "a bare except around the tool": (
        (DICT_POLICY, "ask", make_runner(_tier, execute=_run_bare_except), GOOD_ANSWERS),
        {3: "grade.l1.c3.interrupt_caught"},
    ),
    "KeyboardInterrupt answered as a result": (
        (DICT_POLICY, "ask", make_runner(_tier, execute=_run_interrupt_as_result), GOOD_ANSWERS),
        {3: "grade.l1.c3.interrupt_caught"},
    ),
    "a no written into the policy as deny": (
        (DEMOTED_POLICY, "ask", _no_written_into_the_policy, GOOD_ANSWERS),
        {1: "grade.l1.c1.policy_rewritten", 2: "grade.l1.c2.refusal_rewritten"},
    ),
    "every call run first, the ask ones asked after": (
        (DICT_POLICY, "ask", _all_run_then_asked, GOOD_ANSWERS),
        {2: "grade.l1.c2.ran_before_asking"},
    ),
    "allowed calls in threads, results as they complete": (
        (DICT_POLICY, "ask", _threads_as_completed, GOOD_ANSWERS),
        {3: "grade.l1.c3.order"},
    ),
    "a deny tool run to see what it does": (
        (DICT_POLICY, "ask", _deny_run_to_see, GOOD_ANSWERS),
        {2: "grade.l1.c2.deny_ran"},
    ),
    "each tool's first id reused": ((DICT_POLICY, "ask", _first_id_per_tool, GOOD_ANSWERS), {3: "grade.l1.c3.ids"}),
}

RIGHT_INTERRUPTS = {
    "a dataclass that holds the tiers and the default": (
        DICT_POLICY,
        "ask",
        make_runner(_POLICY_OBJECT.tier_of),
        GOOD_ANSWERS,
    ),
    "a while True over the calls by index": (DICT_POLICY, "ask", _index_loop, GOOD_ANSWERS),
    "Ctrl-C noted and let out": (DICT_POLICY, "ask", make_runner(_tier, execute=_run_interrupt_let_out), GOOD_ANSWERS),
}
