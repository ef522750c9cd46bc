"""Exercise level 1's wrong answers in the loop over the calls: run before asking, a result dropped, the answer
misread, ids and names mixed up.
"""

from __future__ import annotations

from answers_level1_runners import (
    DICT_DEFAULT,
    DICT_POLICY,
    TABLE,
    dict_runner,
    forbidden,
    make_runner,
    refused,
    result,
    run,
)


# --- wrong answers ----------------------------------------------------------------------------
def _after_run(content, tool_impls, approve):
    """The colleague's wiring: run every tool first, then apply the policy to the result."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        done = run(block, tool_impls)
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            done = forbidden(block)
        elif tier == "ask" and not approve(block.name, block.input):
            done = refused(block)
        results.append(done)
    return results


def _ask_after_run(content, tool_impls, approve):
    """Deny is right, but an ask tool runs first and the human is asked afterwards."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        done = run(block, tool_impls)
        if tier == "ask" and not approve(block.name, block.input):
            done = refused(block)
        results.append(done)
    return results


def _allowed_dropped(content, tool_impls, approve):
    """A tool with no arguments gets no result (its output was printed, not appended)."""
    silent = {b.id for b in content if b.type == "tool_use" and not b.input}
    return [r for r in dict_runner(content, tool_impls, approve) if r["tool_use_id"] not in silent]


def _ran_then_dropped(content, tool_impls, approve):
    """An ask tool runs first; when the human then says no, its result is thrown away (a browser walk's)."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if DICT_POLICY.get(block.name, "ask") == "deny":
            results.append(forbidden(block))
            continue
        done = run(block, tool_impls)
        if DICT_POLICY.get(block.name, "ask") != "ask" or approve(block.name, block.input):
            results.append(done)
    return results


def _deny_dropped(content, tool_impls, approve):
    """A denied call is skipped silently: no tool_result for it."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            continue
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
            continue
        results.append(run(block, tool_impls))
    return results


def _refusal_dropped(content, tool_impls, approve):
    """A call the human refused is skipped silently: one result short."""
    return [r for r in dict_runner(content, tool_impls, approve) if not r["content"].startswith("ユーザー")]


def _key_error(content, tool_impls, approve):
    """No default at all: an unlisted tool is a KeyError."""
    return make_runner(lambda name: DICT_POLICY[name])(content, tool_impls, approve)


def _once_per_response(content, tool_impls, approve):
    asked = {}
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            if block.name not in asked:
                asked[block.name] = approve(block.name, block.input)
            if not asked[block.name]:
                results.append(refused(block))
                continue
        results.append(run(block, tool_impls))
    return results


def _asks_without_input(content, tool_impls, approve):
    """Asks approve by the tool's name alone: the human cannot see what they would allow."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(
        content, tool_impls, lambda name, given: approve(name, {})
    )


PROMOTED_POLICY = dict(TABLE)


def _promotes_after_yes(content, tool_impls, approve):
    """A yes rewrites the shared policy: the tool is allow from then on, and never asked again."""

    def ask_once(name, given):
        if approve(name, given):
            PROMOTED_POLICY[name] = "allow"
            return True
        return False

    return make_runner(lambda name: PROMOTED_POLICY.get(name, "ask"))(content, tool_impls, ask_once)


_APPROVED = set()


def _keeps_yes(content, tool_impls, approve):
    """A yes is remembered by tool name, beside the policy: that tool is not asked about again."""

    def ask_once(name, given):
        if name in _APPROVED or approve(name, given):
            _APPROVED.add(name)
            return True
        return False

    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(content, tool_impls, ask_once)


def _yields_results(content, tool_impls, approve):
    """A generator of the results: nothing runs until it is read, and it can be read once."""
    yield from dict_runner(content, tool_impls, approve)


def _deny_not_error(content, tool_impls, approve):
    return [
        {**r, "is_error": False} if r["content"].startswith("ツール ") else r
        for r in dict_runner(content, tool_impls, approve)
    ]


def _deny_silent_reason(content, tool_impls, approve):
    return [
        {**r, "content": "実行していません。"} if r["content"].startswith("ツール ") else r
        for r in dict_runner(content, tool_impls, approve)
    ]


def _refused_not_error(content, tool_impls, approve):
    return [
        {k: v for k, v in r.items() if k != "is_error"} if r["content"].startswith("ユーザー") else r
        for r in dict_runner(content, tool_impls, approve)
    ]


def _reversed(content, tool_impls, approve):
    return list(reversed(dict_runner(content, tool_impls, approve)))


def _ignores_answer(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            approve(block.name, block.input)  # asked, but the answer is dropped
        results.append(run(block, tool_impls))
    return results


def _misreads_answer(content, tool_impls, approve):
    """Takes approve's True for a no: an approved call never runs."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"), refuse=refused)(
        content, tool_impls, lambda name, given: approve(name, given) == "yes"
    )


def _stops_at_refusal(content, tool_impls, approve):
    results = []
    blocks = [b for b in content if b.type == "tool_use"]
    for i, block in enumerate(blocks):
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask" and not approve(block.name, block.input):
            # gives up on the rest, but still answers every call
            results.extend(forbidden(b) if DICT_POLICY.get(b.name) == "deny" else refused(b) for b in blocks[i:])
            return results
        results.append(run(block, tool_impls))
    return results


def _deny_without_continue(content, tool_impls, approve):
    """Appends the deny result, but the continue is forgotten: the run line is reached too."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
            continue
        results.append(run(block, tool_impls))
    return results


def _refusal_without_continue(content, tool_impls, approve):
    """Appends the refusal's result, but the continue is forgotten: the refused call runs too."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        results.append(run(block, tool_impls))
    return results


def _tier_kept_from_the_block_before(content, tool_impls, approve):
    """The default set once, before the loop: an unlisted tool keeps the tier of the call before it."""
    results = []
    tier = DICT_DEFAULT
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in DICT_POLICY:
            tier = DICT_POLICY[block.name]
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _results_by_name(content, tool_impls, approve):
    """Keeps the results in a dict keyed by tool name: a tool called twice keeps one result."""
    results = {}
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results[block.name] = forbidden(block)
        elif tier == "ask" and not approve(block.name, block.input):
            results[block.name] = refused(block)
        else:
            results[block.name] = run(block, tool_impls)
    return list(results.values())


def _approve_args_swapped(content, tool_impls, approve):
    """Asks approve(input, name): the question names no tool."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(
        content, tool_impls, lambda name, given: approve(given, name)
    )


def _id_under_the_wrong_key(content, tool_impls, approve):
    """Writes the tool_use's id as "id", the key of the block it answers, not "tool_use_id"."""
    return [
        {"id" if k == "tool_use_id" else k: v for k, v in r.items()} for r in dict_runner(content, tool_impls, approve)
    ]


def _first_id_everywhere(content, tool_impls, approve):
    results = dict_runner(content, tool_impls, approve)
    return [{**r, "tool_use_id": results[0]["tool_use_id"]} for r in results]


def _wrong_type(content, tool_impls, approve):
    return [{**r, "type": "tool_response"} for r in dict_runner(content, tool_impls, approve)]


def _output_dropped(content, tool_impls, approve):
    """Runs the tool but tells the model only that it is done."""
    return make_runner(
        lambda name: DICT_POLICY.get(name, "ask"),
        execute=lambda block, impls: (impls[block.name](**block.input), result(block, "完了"))[1],
    )(content, tool_impls, approve)


def _with_name_field(content, tool_impls, approve):
    """Adds the tool's name to every result: the API knows no such field in a tool_result."""
    names = {b.id: b.name for b in content if b.type == "tool_use"}
    return [{**r, "name": names[r["tool_use_id"]]} for r in dict_runner(content, tool_impls, approve)]


def _string_is_error(content, tool_impls, approve):
    """Writes is_error as the string "true": the API wants a boolean."""
    return [{**r, "is_error": "true"} if r.get("is_error") else r for r in dict_runner(content, tool_impls, approve)]


def _string_is_error_everywhere(content, tool_impls, approve):
    """Writes is_error on every result, as the string "true" or "false"."""
    return [
        {**r, "is_error": "true" if r.get("is_error") else "false"} for r in dict_runner(content, tool_impls, approve)
    ]


def _never_asks(content, tool_impls, approve):
    """Reads the policy, but an ask tool runs without approve (a typo: "Ask")."""
    return make_runner(
        lambda name: DICT_POLICY.get(name, "ask"),
    )(content, tool_impls, lambda name, given: True)


def _runs_denied(content, tool_impls, approve):
    """Treats deny like allow: nothing is ever refused by the policy."""
    return make_runner(lambda name: {"deny": "allow"}.get(DICT_POLICY.get(name, "ask"), DICT_POLICY.get(name, "ask")))(
        content, tool_impls, approve
    )


def _fails_open(content, tool_impls, approve):
    """Takes an error from approve for a yes: when asking breaks, the tool runs unasked."""

    def asked(name, given):
        try:
            return approve(name, given)
        except Exception:
            return True  # the approval prompt broke: don't block the work

    return dict_runner(content, tool_impls, asked)


def _approval_error_dropped(content, tool_impls, approve):
    """Catches an error from approve and skips the call: nothing ran, and nothing says so."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.extend(dict_runner([block], tool_impls, approve))
        except Exception:
            continue
    return results


def _deny_says_the_user_refused(content, tool_impls, approve):
    """The deny result reads as a person's no, though nobody was asked."""
    return [
        {**r, "content": "The user did not give permission to run this tool, so it was not run."}
        if r["content"].startswith("ツール ")
        else r
        for r in dict_runner(content, tool_impls, approve)
    ]
