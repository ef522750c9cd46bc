"""Exercise level 1, round nineteen: approve's answer compared with True-like words, the tiers looked up
with a dict whose default is allow, a deny that raises, a generator of results, Ctrl-C caught with the
failures; each wrong answer with the criteria and hint keys that must catch it, and right answers in
styles the others do not use (recursion over the blocks, a dict dispatch on the tier).

None passed; one got a vaguer hint: a deny that raised PermissionError (as lesson 6's read_file refuses)
was told only that the code raised, on every criterion; each now says a deny is told to the model.
"""

from __future__ import annotations

from collections import defaultdict

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, make_runner, refused, result, run


def _tier(name):
    return DICT_POLICY.get(name, "ask")


def _refuses_only_false(content, tool_impls, approve):
    """Only an explicit False refuses: None, "" or "maybe" from approve runs the tool (fails open)."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and approve(block.name, block.input) is False:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


_ALLOW_BY_DEFAULT = defaultdict(lambda: "allow", DICT_POLICY)


def _defaultdict_policy(content, tool_impls, approve):
    """The tiers read from a defaultdict whose default is allow: DEFAULT_TIER is never read."""
    return make_runner(lambda name: _ALLOW_BY_DEFAULT[name])(content, tool_impls, approve)


def _deny_raises(block):
    raise PermissionError(f"{block.name} はポリシーで禁止されています")


def _results_as_a_generator(content, tool_impls, approve):
    """The results yielded one by one ("a generator is lighter"): the caller gets a generator, not a list."""
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            yield forbidden(block)
        elif tier == "ask" and not approve(block.name, block.input):
            yield refused(block)
        else:
            yield run(block, tool_impls)


def _run_catching_everything(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except BaseException as err:  # "nothing may escape" — Ctrl-C too
        return result(block, f"ツールの実行に失敗しました: {err!r}", True)


# --- right answers in other styles ---------------------------------------------------------------
def _recursive(content, tool_impls, approve):
    """One block at a time, recursively; the tier looked up by exact name, ask for the unlisted."""
    if not content:
        return []
    block, rest = content[0], content[1:]
    if block.type != "tool_use":
        return _recursive(rest, tool_impls, approve)
    tier = _tier(block.name)
    if tier == "deny":
        head = forbidden(block)
    elif tier == "ask" and approve(block.name, block.input) is not True:  # 「はい」以外はすべて断る
        head = refused(block)
    else:
        head = run(block, tool_impls)
    return [head, *_recursive(rest, tool_impls, approve)]


def _dispatch_on_the_tier(content, tool_impls, approve):
    """A dict from tier to handler; ask reuses the approval callback."""
    handlers = {
        "allow": lambda b: run(b, tool_impls),
        "ask": lambda b: run(b, tool_impls) if approve(b.name, b.input) is True else refused(b),
        "deny": forbidden,
    }
    return [handlers[_tier(b.name)](b) for b in content if b.type == "tool_use"]


def _tabled(runner):
    return (DICT_POLICY, "ask", runner, GOOD_ANSWERS)


WRONG_ROUND_19 = {
    "only an explicit False refuses": (_tabled(_refuses_only_false), {2: "grade.l1.c2.unknown_allowed"}),
    "a defaultdict whose default is allow": (_tabled(_defaultdict_policy), {1: "grade.l1.c1.default_ignored"}),
    "a deny that raises instead of a result": (
        _tabled(make_runner(_tier, forbid=_deny_raises)),
        {1: "grade.l1.deny_raised", 2: "grade.l1.deny_raised", 3: "grade.l1.deny_raised"},
    ),
    "the results yielded by a generator": (_tabled(_results_as_a_generator), {3: "grade.l1.c3.not_list"}),
    "Ctrl-C caught with the tool's failures": (
        _tabled(make_runner(_tier, execute=_run_catching_everything)),
        {3: "grade.l1.c3.interrupt_caught"},
    ),
}
RIGHT_ROUND_19 = {
    "a recursion over the blocks, anything but True a no": _tabled(_recursive),
    "a dict dispatch on the tier": _tabled(_dispatch_on_the_tier),
}
