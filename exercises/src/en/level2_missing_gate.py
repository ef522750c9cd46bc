# ---
# jupyter:
#   harness_lab:
#     exercise: level2
# ---

# %% [markdown] ja="637c30114ca0"
# # Exercise level 2: the gates this loop lacks, and how it runs away
#
# An exercise for lesson 6, "Hand-write an agent harness with controls".
# Previous: [`level1_tiered_policy.ipynb`](level1_tiered_policy.ipynb)
#
# **By the end of this notebook you can**
#
# - name the controls a bare loop lacks, each paired with the runaway behaviour its absence causes
# - put the `MAX_TURNS` check at the top of the loop body, before the counter moves, and show with counts that the place is right
#
# **How to work**: edit the cells marked `TODO` and run the notebook from the top. You pass when the last
# cell, the grade cell, prints `[PASS] All 3 criteria are met` (`[PASS]`, `[FAIL]` and `[NOTE]` mark a pass,
# a failure and a piece of advice).
#
# **How grading works**: the grade cell grades inside this notebook's kernel, and stops with a one-line error
# (`GradeFailed`) if any criterion is not met. From a terminal, grade with
# `harness-lab grade exercises/en/level2_missing_gate.ipynb` (a command the course's Python installs: it works as it is
# in the class hub's terminal; inside the repository, `python3 dev.py grade --lang en` grades both). Wherever the course runs, save
# the notebook, then run two lines in a new cell, `import sys` and
# `!"{sys.executable}" -P -m harness_lab.grading level2_missing_gate.ipynb`: the same grading, with this kernel's Python.
# Either runs only the cells tagged `answer` (the `TODO` cells) and the setup cells tagged `setup`, in a
# fresh process, and calls the package's own grading code. It reads neither the grade cell nor any output saved
# in the file. Cells you add yourself are not run, so keep your definitions in the `TODO` cells.

# %% [markdown] ja="1c6bc7092424"
# ## The task
#
# A colleague says the harness loop below "works". It breaks the moment the model stops returning `end_turn`
# on its own, or starts spinning.
#
# 1. Point out which controls are missing and what runaway behaviour **each** absence causes, as pairs (chosen from a list)
# 2. As the smallest fix, add `MAX_TURNS`, a hard bound that guarantees the loop stops.
#    Put the check at the top of the loop body, before the counter moves
#
# ### Done when (the grade cell checks each one)
#
# 1. It points out that the decision to stop or go on is left entirely to the model's `stop_reason`, with no explicit stop condition
# 2. Each missing control is paired with the runaway it causes, covering at least two kinds of runaway:
#    turns/budget running away, and no progress from repeating the same tool with the same arguments
# 3. With `MAX_TURNS = N`, a model that never stops gets exactly N tool turns and N + 1 requests to the model, and the
#    loop returns a sentence saying it stopped at the limit (not just a number). A model that calls two or three tools in
#    one response still counts turns. On a normal task (the model wraps up by itself) the model's answer comes back
#
# The grader never reads your source code: the emulator counts the requests to the model, recording tools count the runs.

# %% [markdown] ja="39135c58b130"
# ## Setup
#
# The tool definitions the colleague's harness uses, and `run_tool_uses`, which runs the tools. The setup cells print nothing.
# The lesson text is TypeScript, so its functions are named `runToolUses` and `runAgent`; the Python code writes the same
# functions as `run_tool_uses` and `run_agent` (the colleague's `runAgent` is `colleague_run_agent`).
# `hl.use_language("en")` makes this kernel speak English (the choices, the grade report and its hints); the
# Japanese notebook says `"ja"`.

# %% tags=["setup"] ja="8ef3e4e558d2"
import json

import harness_lab as hl
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.grading import check_level2, level2_options, run_limited, try_limited

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
MODEL = "claude-sonnet-5"
TOOLS = [
    {"name": "search", "description": "Search the documents",
     "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}},
    {"name": "get_time", "description": "Return the current time as an ISO 8601 string",
     "input_schema": {"type": "object", "properties": {}}},
    {"name": "read_file", "description": "Read a text file in the project",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
]


def run_tool_uses(content, tool_impls):
    # the lesson's runToolUses (no approval valve): one tool_result for every tool_use
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id,
                            "content": f"The tool failed: {err}", "is_error": True})
    return results


def toy(name, output, show=False):
    def impl(**tool_input):
        if show:
            print(f"[run] {name}({json.dumps(tool_input, ensure_ascii=False)})")
        return output
    return impl


# %% [markdown] ja="281efaaf7896"
# ## The colleague's loop
#
# The `runAgent` without any control valves from the start of lesson 6, in Python.

# %% tags=["setup"] ja="8b1443b2154c"
def colleague_run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% [markdown] ja="d8c604d6cb00"
# ### Watch it break 1: a model that never wraps up
#
# Whatever the request, this model says "Let me look a bit further" and asks for a new search.
# Called plainly, it would never give the kernel back, so `run_limited` (the grader's own way: a separate
# process with a time limit) lets it run for 2 seconds only.

# %% ja="7b622917db26"
def never_done(request):
    # the next search term comes from the number of assistant turns so far (new arguments each time: not spinning)
    done = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return reply("Let me look a bit further.", call("search", query=f"clue {done + 1}"))


search_impls = {"search": toy("search", "Found one clue.")}
outcome = run_limited(
    lambda: colleague_run_agent(emulated_client(never_done), "Find the cause", TOOLS, search_impls),
    timeout=2,
)
print(outcome.status)  # 'timeout': still running after 2 seconds

# %% [markdown] ja="81c63f2a53a6"
# ### Watch it break 2: a model that spins
#
# This model calls the same tool with the same arguments again and again (it gives up after six tries;
# a real one may not). The loop does not notice.

# %% ja="446b48a53d89"
stuck = [call("search", query="Tokyo weather")] * 6 + [say("I could not find the weather.")]
stuck_impls = {"search": toy("search", "No results", show=True)}
print(colleague_run_agent(emulated_client(stuck), "What's the weather in Tokyo?", TOOLS, stuck_impls))

# %% [markdown] ja="844d54a7e715"
# ## Your turn 1: what is missing, and how each gap runs away
#
# Run the next cell to see the choices. Write `MISSING` as a dict of "key of a control this loop lacks → key of the
# runaway its absence causes" (when there are two or more runaways, a value may be a set). Choosing something this loop
# actually does, or a runaway that cannot happen in this loop, is not a deduction: it is a `[FAIL]`.

# %% tags=["options"] ja="a9990e5f32c0"
level2_options()

# %% tags=["answer", "starter"] ja="3cc59dcce3ed"
# TODO: key of a missing control -> key of the runaway its absence causes (at least two kinds of runaway)
MISSING = {}

# %% tags=["answer", "solution"] ja="b99fe41a2ddc"
MISSING = {
    "stop_condition": "endless_turns",  # stopping is left entirely to the model -> turns run away
    "token_budget": "budget_burn",      # no token budget -> nothing stops until the money is gone
    "no_progress": "spinning",          # no no-progress detection -> nobody notices the spinning
}

# %% [markdown] ja="c61e32ccb35a"
# ## Your turn 2: make sure it stops, with `MAX_TURNS`
#
# For now `run_agent` is the colleague's loop. Add a counter and the `MAX_TURNS` check.
# Put the check at the **top** of the body, **before** the counter moves: "before entering this lap, is one more lap allowed?"
# Count turns (laps of the loop), not `tool_use` blocks.
# When it stops at the limit, return a sentence that says it stopped at the limit (not the model's half-finished text, not a bare number).

# %% tags=["answer", "starter"] ja="342fe6c260d5"
MAX_TURNS = 8


def run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    # TODO: set up a turn counter
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        # TODO: check MAX_TURNS here, then move the counter
        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% tags=["answer", "solution"] ja="6c37ac5d63f8"
MAX_TURNS = 8


def run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        # valve 1, max turns: at the top of the body, before turns += 1, ask "may we go round again?"
        if turns >= MAX_TURNS:
            return (f"Reached the maximum of {MAX_TURNS} turns, so the harness stopped itself"
                    " (the task may be too hard or the model stuck).")
        turns += 1

        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% [markdown] ja="52c4e4014f58"
# ## Try it
#
# Your `run_agent` meets both a normal task (answered after two tool turns) and the model that never wraps up.
# Both go through `try_limited` (a separate process like `run_limited`, showing the output and the return value
# in this cell), so the cell comes back within seconds even before there is a limit.

# %% tags=["try"] ja="a1375f89fe14"
normal = [
    call("read_file", path="README.md"),
    call("get_time"),
    say('The first line of README.md is "# Agent harness basics", and it is 10:42 now.'),
]
normal_impls = {
    "read_file": toy("read_file", "# Agent harness basics", show=True),
    "get_time": toy("get_time", "2026-08-26T10:42:07+08:00", show=True),
}
try_limited(lambda: run_agent(emulated_client(normal), "Read the first line of README.md, then tell me the time",
                              TOOLS, normal_impls))

try_limited(lambda: run_agent(emulated_client(never_done), "Find the cause", TOOLS, search_impls), timeout=2)

# %% [markdown] ja="c7846dfccbad"
# ## Grade
#
# Run this cell for one line per criterion, `[PASS]` or `[FAIL]`. A `[FAIL]` line carries a hint, and the
# cell then stops with a one-line error (`GradeFailed`). When all three pass, the last line reads
# `[PASS] All 3 criteria are met`. If nothing shows below the cell, you have not graded yet. The criteria:
#
# 1. it names the missing explicit stop condition (stop-or-continue left to the model), and nothing this loop already does (such as the reassignment at the bottom)
# 2. each missing control is paired with the runaway it causes, covering at least two kinds (turns/budget running away, and no-progress spinning)
# 3. with the MAX_TURNS check, a model that never stops gets exactly N tool turns and a stop message, and a normal task ends with the model's answer

# %% tags=["grade"] ja="b33b52ac2c1b"
from harness_lab.grading import check_level2
check_level2(MISSING, run_agent, MAX_TURNS)

# %% [markdown] ja="f793474b9a88"
# ## Looking back
#
# <details><summary>Why does the check come before the counter moves?</summary>
#
# `turns` counts completed turns. Asking `turns >= MAX_TURNS` at the top allows exactly `MAX_TURNS` tool turns, and
# stops only after the last results have gone back to the model. Ask after `turns += 1` and it stops one turn early;
# ask after the tools ran and it stops without sending the last results to the model. That is why the grader counted
# "N tool turns, N + 1 requests".
# </details>
#
# <details><summary>Why count turns rather than tool_use blocks?</summary>
#
# A model can call several tools in one response. Count blocks and a model that calls in parallel stops sooner:
# what the limit means (at most N + 1 requests to the model) would depend on how the model happens to call.
# </details>
#
# <details><summary>When is MAX_TURNS alone not enough?</summary>
#
# When each turn carries a huge context, the budget burns in few turns (you need a token budget).
# Spinning on the same call goes unnoticed until the limit (you need no-progress detection).
# On the other hand, for a small tool that runs three to five turns in a controlled setting, `MAX_TURNS` may be all you need.
# </details>
#
# <details><summary>Is the limit the main thing that stops the loop?</summary>
#
# No. That is still `stop_reason`. The limit is a safety net for when the model does not wrap up,
# which is why a normal task returns the model's answer without ever touching the limit.
# </details>
