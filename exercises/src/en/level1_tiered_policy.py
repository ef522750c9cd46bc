# ---
# jupyter:
#   harness_lab:
#     exercise: level1
# ---

# %% [markdown] ja="b1dc3650a066"
# # Exercise level 1: a tiered valve per tool (allow / ask / deny)
#
# An exercise for lesson 6, "Hand-write an agent harness with controls".
# Previous: [`notebooks/en/05_full_harness.ipynb`](../../notebooks/en/05_full_harness.ipynb) | Next: [`level2_missing_gate.ipynb`](level2_missing_gate.ipynb)
#
# **By the end of this notebook you can**
#
# - design a policy that gives each tool name one of three tiers, allow / ask / deny, and decide where a tool the table does not list falls (the default tier)
# - show, in code that runs, at which step of the loop that policy valve belongs
# - answer a call that hits deny with a `tool_result` that tells the model a policy forbids it
#
# **How to work**: edit the cells marked `TODO` and run the notebook from the top. You pass when the last
# cell, the grade cell, prints `[PASS] All 3 criteria are met` (`[PASS]`, `[FAIL]` and `[NOTE]` mark a pass,
# a failure and a piece of advice). No API key needed: grading runs on the emulator, against scripted responses.
#
# **How grading works**: the grade cell grades inside this notebook's kernel, and stops with a one-line error
# (`GradeFailed`) if any criterion is not met. From a terminal, grade with
# `harness-lab grade exercises/en/level1_tiered_policy.ipynb` (a command the course's Python installs: it works as it is
# in the class hub's terminal; inside the repository, `python3 dev.py grade --lang en` grades both). Wherever the course runs, save
# the notebook, then run two lines in a new cell, `import sys` and
# `!"{sys.executable}" -P -m harness_lab.grading level1_tiered_policy.ipynb`: the same grading, with this kernel's Python.
# Either runs only the cells tagged `answer` (the `TODO` cells) and the setup cells tagged `setup`, in a
# fresh process, and calls the package's own grading code. It reads neither the grade cell nor any output saved
# in the file. Cells you add yourself are not run, so keep your definitions in the `TODO` cells.

# %% [markdown] ja="0a1eb6fe5d56"
# ## The task
#
# Today the approval valve knows two settings: ask before a high-impact tool, let everything else through.
# A product colleague wants finer control — **three tiers, per tool name**:
#
# | Tier | Meaning | Tools in this harness |
# |---|---|---|
# | `allow` | runs as is | `get_time`, `read_file` |
# | `ask` | a person must confirm before it runs | `write_file`, `delete_file`, `http_post` |
# | `deny` | always refused; it can never run | `send_email` (retired) |
#
# Sooner or later the model will meet a tool that is not in the table (someone may add one next week).
# Decide which tier it falls to as well: the **default tier**.
#
# You write four things:
#
# 1. `POLICY`: a data structure for the three tiers, in one of three shapes: a dict of tool name → tier, a dict
#    of tier → set of tool names (a list or tuple works too), or a function that takes a tool name and returns its tier
# 2. `DEFAULT_TIER`: the tier a tool missing from the table falls to (`"allow"`, `"ask"` or `"deny"`)
# 3. `run_tool_uses(content, tool_impls, approve)`: the lesson's version with the approval valve, rewritten to carry the policy valve.
#    `content` is the model response's `response.content`; `tool_impls` maps tool names to functions (they take
#    the input as keyword arguments: `tool_impls[block.name](**block.input)`); `approve(name, input)` asks a
#    person and returns `True` (allow) or `False` (deny). It returns a list of `tool_result` blocks (dicts).
# 4. `ANSWERS`: which step of the loop the policy valve belongs to, how it relates to the existing approval valve,
#    and what the model gets back on a deny (chosen from a list)
#
# ### Done when (the grade cell checks each one)
#
# 1. The policy structure expresses all three tiers and states a default tier (where unlisted tools fall).
#    The tier comes from the policy data: the grader rewrites your `POLICY` on the spot (swapping the tiers of
#    listed tools and adding unlisted ones) and checks that the behaviour follows. Have `run_tool_uses` look
#    the tier up in `POLICY` on every call.
# 2. The policy valve is evaluated inside `run_tool_uses`, per `tool_use` block, **before** the tool runs:
#    in the approval valve's place, with the `ask` tier reusing the existing confirmation (`approve`). When the
#    confirmation does not end in an allow (`approve` raised, or returned something that is not a yes, such as
#    `None`), the tool does not run: the approval valve fails closed.
#    `ANSWERS["step"]` and `ANSWERS["approval"]` say so too.
# 3. On `deny` the tool does not run, yet an `is_error: true` `tool_result` comes back telling the model that a
#    policy (a rule) forbids the tool. Nothing is silently dropped, and "unavailable" or "denied" alone cannot tell
#    a person's no from a failure. When a person says no to an `ask` tool, its result still says a person refused,
#    not a rule. Every `tool_use` gets exactly one result the API accepts, in order, and the `content` handed in
#    stays as it was (the loop puts that same list in the history and sends it back). `ANSWERS["deny"]` says so too.
#
# The grader never reads your source code. It hands `run_tool_uses` recording tools (fakes that only note they
# were called; one of them fails by raising) and a recording `approve`, calls it for real, and judges only by
# **what ran, who was asked what, and what came back**.

# %% [markdown] ja="f8775473b997"
# ## Setup
#
# The same tool definitions the grader uses (`TOOLS`) and the emulator's client. `TOOLS` also holds tools the
# table does not list: see their names with `[t["name"] for t in TOOLS]`. The setup cell prints nothing.
# `hl.use_language("en")` makes this kernel speak English (the choices, the grade report and its hints); the
# Japanese notebook says `"ja"`.
# This notebook uses the emulator only, even when `ANTHROPIC_API_KEY` is set. To try it on the real Claude,
# swap in `client = anthropic.Anthropic()`; nothing else changes.

# %% tags=["setup"] ja="c804ff926721"
import json

import harness_lab as hl
from harness_lab.emulator import call, emulated_client, reply
from harness_lab.grading import check_level1, level1_options, try_limited
from harness_lab.grading.scenarios import tool_defs

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
TOOLS = tool_defs()  # the grader's tool definitions, described in the language chosen above
MODEL = "claude-sonnet-5"

# %% [markdown] ja="8de7fb80784a"
# ## Your turn 1: the policy and the default tier
#
# Write `POLICY` and `DEFAULT_TIER`. A default of `"allow"` meets criterion 1 but earns a `[NOTE]`
# (you still pass). Think about whether a new tool should run without anyone confirming, then decide.

# %% tags=["answer", "starter"] ja="17e0b1615fc2"
# TODO: write a policy with three tiers (allow / ask / deny), as in the table above
POLICY = {}

# TODO: pick the tier unlisted tools fall to: "allow", "ask" or "deny"
DEFAULT_TIER = None

# %% tags=["answer", "solution"] ja="eb8abdcec628"
# tool name -> tier; a tool missing from the table falls to DEFAULT_TIER
POLICY = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",  # retired: always refused
}

# an unknown tool asks a person first (err on the safe side)
DEFAULT_TIER = "ask"

# %% [markdown] ja="3089f9803fe9"
# ## Your turn 2: fit the policy valve into `run_tool_uses`
#
# Below is the lesson's `runToolUses` with the approval valve, in Python. `runToolUses` is its name in the lesson
# text (TypeScript); the Python code writes the same function as `run_tool_uses`. For now the `HIGH_IMPACT` set splits
# tools two ways, ask or let through. Rewrite it to branch on the three tiers of `POLICY`.
#
# - Evaluate the policy where the approval valve sits: once per `tool_use` block, just before calling `tool_impls[...]`
# - Look the tier up in `POLICY` on every call (no tool names written into the code)
# - For `ask`, build no new way of asking: use the `approve` you are given
# - For `deny`, run nothing but still return a result. A model that reads "forbidden by policy" can look for another way

# %% tags=["answer", "starter"] ja="b5dc933cd0e1"
HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue

        # TODO: branch on the tier in POLICY (allow / ask / deny) instead of HIGH_IMPACT
        # approval valve: confirm a high-impact action before it runs
        if block.name in HIGH_IMPACT:
            if not approve(block.name, block.input):
                results.append({
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": "The user denied this high-impact action, so it was not run.",
                    "is_error": True,
                })
                continue  # skip the run but still return a tool_result: never leave a call unanswered

        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"The tool failed: {err}",
                "is_error": True,
            })
    return results


# %% tags=["answer", "solution"] ja="675f7fac090e"
def tier_of(name):
    # look POLICY up on every call; a tool missing from the table falls to DEFAULT_TIER
    return POLICY.get(name, DEFAULT_TIER)


def run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue

        # policy valve: where the approval valve sits, per tool_use, deciding the tier before the impl runs
        tier = tier_of(block.name)
        if tier == "deny":
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"The tool {block.name} is forbidden by policy, so it was not run.",
                "is_error": True,
            })
            continue  # nothing runs, but a result still goes back
        if tier == "ask" and not approve(block.name, block.input):
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": "The user denied this high-impact action, so it was not run.",
                "is_error": True,
            })
            continue

        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"The tool failed: {err}",
                "is_error": True,
            })
    return results


# %% [markdown] ja="cc608b08da6d"
# ## Try it
#
# In one response the model asks for `get_time`, `write_file` and `send_email` at once. The person,
# played by `say_no`, always answers no. Watch which tools actually run (the `[run]` lines) and
# what goes back to the model.
#
# Your `run_tool_uses` is called through `try_limited`: like the grader, in a separate process with a
# time limit, so even an endless loop returns from this cell within 5 seconds and you can go on.

# %% tags=["try"] ja="d3d49e821966"
client = emulated_client([
    reply(
        "I'll check the time, write it in a note and tell the team.",
        call("get_time"),
        call("write_file", path="notes.txt", content="checked at 10:42"),
        call("send_email", to="team@example.com", body="Checked."),
    )
])
response = client.messages.create(
    model=MODEL, max_tokens=1024, tools=TOOLS,
    messages=[{"role": "user", "content": "Write the current time in a note and let the team know"}],
)


def toy(name, output):
    def impl(**tool_input):
        print(f"[run] {name}({json.dumps(tool_input, ensure_ascii=False)})")
        return output
    return impl


tool_impls = {
    "get_time": toy("get_time", "2026-08-26T10:42:07+08:00"),
    "write_file": toy("write_file", "Written."),
    "send_email": toy("send_email", "Sent."),
}


def say_no(name, tool_input):
    print(f"[approve] about to run {name} -> n (deny)")
    return False


def try_it():
    for result in run_tool_uses(response.content, tool_impls, say_no):
        print(json.dumps(result, ensure_ascii=False))


try_limited(try_it)

# %% [markdown] ja="a87f6c1586be"
# ## Your turn 3: say where the policy valve goes
#
# The task asks for an answer in words as well as in code: which step of the loop the policy valve belongs
# to, how it relates to the existing approval valve, and what the model gets back on a deny. Run the next
# cell to see the choices.

# %% tags=["options"] ja="4c25706b6f3b"
level1_options()

# %% tags=["answer", "starter"] ja="70918f6f267b"
# TODO: for each question, pick one key from the list above
ANSWERS = {
    "step": None,      # the loop step the policy valve belongs to
    "approval": None,  # how it relates to the existing approval valve
    "deny": None,      # what the model gets back on a deny
}

# %% tags=["answer", "solution"] ja="79bf7437d3cd"
ANSWERS = {
    "step": "before_tool",     # per tool_use, just before the tool runs (where the approval valve sits)
    "approval": "ask_reuses",  # the ask tier is the approval valve: approve makes the call
    "deny": "error_result",    # run nothing; say "forbidden by policy" with is_error: true
}

# %% [markdown] ja="df8371877885"
# ## Grade
#
# Run this cell for one line per criterion, `[PASS]` or `[FAIL]`. A `[FAIL]` line carries a hint, and the
# cell then stops with a one-line error (`GradeFailed`). Even if your code raises or loops forever, nothing
# hangs here: grading runs in a separate process with a time limit and a memory cap.
# When all three pass, the last line reads `[PASS] All 3 criteria are met`. If nothing shows below the cell,
# you have not graded yet. The criteria:
#
# 1. the policy data expresses three tiers (allow / ask / deny), with a default tier for unlisted tools
# 2. the policy is checked per tool_use before the tool runs, and ask reuses the approval callback
# 3. deny still returns an is_error: true tool_result saying the policy forbids it, and every tool_use gets one result, in order, that the API accepts

# %% tags=["grade"] ja="946a5db271dc"
from harness_lab.grading import check_level1
check_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)

# %% [markdown] ja="c75f7742c102"
# ## Looking back
#
# <details><summary>Which step of the loop does the policy valve belong to, and how does it relate to the approval valve?</summary>
#
# Just before a tool runs, once per `tool_use` block: the approval valve's place. The approval valve is the policy
# valve's `ask` tier: the asking itself stays with the existing `approve`, and the policy valve only decides, just
# before that, whether to ask, let through or refuse. One step later, and the email `deny` was there to stop has
# already gone out.
# </details>
#
# <details><summary>Why return a tool_result on a deny rather than drop the call quietly?</summary>
#
# The API requires a `tool_result` for every `tool_use`, so a dropped call makes the next request fail with a 400.
# And the refusal is itself a result the model should hear about: a model that reads "forbidden by policy" can look
# for another way.
# </details>
#
# <details><summary>Why look the tier up in POLICY on every call?</summary>
#
# The policy is data: when tools are added or the rules change, you edit the table, not the code. Write tool
# names into the code and editing the table changes nothing; table and code quietly disagree.
# </details>
#
# <details><summary>What happens with a default tier of allow?</summary>
#
# When someone adds `drop_database` next week, it is not in the policy, so it runs without anyone confirming.
# Think in allowlists and send what you do not know to `ask` or `deny`: that is the guard against excessive
# agency (OWASP LLM06).
# </details>
