# %% [markdown] ja="1ebf5d0417cb"
# # Lesson 3: Stop conditions — when should an agent let go?
#
# **Agent harness basics: loops and control** · Notebook 2 of 6
#
# Previous: [Lesson 2: The core loop](01_bare_loop.ipynb) | Next: [Lesson 4: Runaways and fallbacks](03_runaway_fallbacks.ipynb)
#
# **Time:** about 45 minutes (reading 34, writing and checking 5, running and predicting 7). To split it into two sittings, stop before "Where to ask about the limit" | **You need:** notebook 01
#
# `stop_reason` has more values than the two you have met, three common ways of writing the stop get it wrong, and nothing yet catches a model that never stops. This notebook deals with these three in turn.
#
# **By the end of this notebook you can:**
#
# - write `next_step`, a function that decides what the loop does next for each of the seven values of `stop_reason`
# - explain, with the content it would have written, why a tool_use cut off by `max_tokens` must not run
# - show which script breaks each of the article's three anti-patterns, and how
# - predict, for each place the `MAX_TURNS` check can go, how many requests and tool turns a run takes, then count them

# %% ja="aad5a97da929"
# Where harness_lab is not installed (Colab, say), install it first (does nothing on your own machine)
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %% ja="e2bfd0425782"
import harness_lab as hl
from harness_lab import lessons

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
client = hl.connect("lesson6")
print(hl.mode_line(client))

# %% [markdown] ja="4975dac08704"
# ## Today's place in the loop
#
# Two places matter today: the branch that reads `stop_reason` and decides "go round again, or leave" (marked in the diagram), and right after it,
# at the top of the loop body (`loop_top`), the max-turns valve that asks "may the loop go round once more?".

# %% ja="4094d322bc04"
from harness_lab.ui import Stepper, diagram

diagram(highlight="stop_reason")

# %% [markdown] ja="ca6ed5d02c0a"
# ## First, a model that never stops
#
# The model in the `never_ending` script reads one note, then goes for the next, and never wraps up. Set up a demo project
# (in a temporary folder) and its tools, and run it in a harness with the max-turns valve `hl.MaxTurns(3)`.
# `write_file` writes nothing: it is a "spy" that only records in `written` what it was asked to write.
# The Stepper advances the loop one turn at a time. The code calls `s.step()`; the panel's "Next turn" button does the same.

# %% ja="4af01d6539fd"
import tempfile
from pathlib import Path

DEMO = Path(tempfile.mkdtemp(prefix="harness_lab_02_"))  # a temporary folder, so the output is the same wherever you open this
(DEMO / "README.md").write_text("# Agent harness basics\n\nCourse material for writing the loop and its control valves by hand.\n", encoding="utf-8")
(DEMO / "notes").mkdir()
for i in range(1, 13):
    (DEMO / "notes" / f"{i:03d}.md").write_text(f"Note {i}: today's work log\n", encoding="utf-8")
read_file = hl.make_read_file(root=DEMO)  # reads inside DEMO only

written = []  # when write_file runs, what it was asked to write lands here


@hl.tool(high_impact=True)
def write_file(path: str, content: str) -> str:
    """Write a file (here a spy: it writes nothing, it only records what it was asked to write)"""
    written.append(content)
    return "ok"


# pause_turn only comes from the loop of a tool the API runs itself (a server tool): web search goes in as one
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}
TOOLS = [read_file.definition, hl.get_time.definition, write_file.definition, WEB_SEARCH]
IMPLS = {"read_file": read_file, "get_time": hl.get_time, "write_file": write_file}

# %% ja="f0fa32900c36"
run = hl.Run(hl.connect("never_ending", live=False), tools=[read_file, hl.get_time], valves=[hl.MaxTurns(3)])
s = Stepper(run, "Read the notes in notes/ in order and summarise them")
s

# %% ja="e0776d9ea964"
s.step()  # turn 1: reads notes/001.md. The gauge shows 1/3

# %% [markdown] ja="2bad33502eba"
# Run `s.step()` again and the model moves on to the next note. When the model has no reason to wrap up, it is the harness that has to stop it
# (more on that in the second half).
#
# ## Reading `stop_reason`, the one structured signal
#
# The model decides for itself whether it still needs a tool, and writes its conclusion into `stop_reason`. The API guarantees its values,
# so it does not drift the way the wording of a reply does. There are seven values.
#
# | `stop_reason` | Meaning | What the loop does next |
# |---|---|---|
# | `tool_use` | The model called tools | Run them all, send the results back in one user message, go on |
# | `pause_turn` | Server-side work paused | Put `content` into the history **as it is** and send it back (do not add "continue") |
# | `end_turn` | The model wrapped up | Finish. The text may be empty |
# | `stop_sequence` | It hit one of your stop sequences | Finish |
# | `max_tokens` | It was cut off at `max_tokens` | Stop. **Do not run** a tool_use that was cut off |
# | `refusal` | The model declined | Stop and report it |
# | `model_context_window_exceeded` | The context window is full | Stop. The response is cut off |
#
# Every value has an emulator script. Send one request to each script and line up the first responses (`end_turn` comes at the end of the work, so later).

# %% ja="3754ef6c78d5"
import json

CASES = {  # script name → the sentence it is asked
    "lesson6": "Read the first line of README.md, then tell me the time",
    "empty_end_turn": "What time is it?",
    "stop_sequence": "Just give me the answer",
    "pause_turn": "Look up the latest information",
    "max_tokens": "Write the weekly report to a file",
    "refusal": "Find out someone else's password",
    "model_context_window_exceeded": "Read this whole repository",
}


def first_response(name):
    scripted = hl.connect(name, live=False)
    return scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS,
                                    messages=[{"role": "user", "content": CASES[name]}])


FIRST = {name: first_response(name) for name in CASES}
for name, r in FIRST.items():
    blocks = [b.text if b.type == "text" else f"{b.name}({json.dumps(b.input, ensure_ascii=False)})" if b.type == "tool_use" else b.type for b in r.content]
    print(name)  # script, stop_reason and blocks a line each: no columns for a narrow screen to break
    print(f"    stop_reason: {r.stop_reason}")
    print(f"    content: {blocks}")

# %% [markdown] ja="b7e954f88893"
# The `max_tokens` response has a tool_use block too. But generation was cut off partway, and the `content` argument
# breaks off at "Inquiries: 4". A loop written as "there is a tool_use block, so run it" performs the write with that truncated
# argument. Check it with `run_tools` from notebook 01:

# %% ja="02e5ec48385e"
run_tools = lessons.use("run_tools")  # the one you wrote in notebook 01 (the reference one if my_harness.py lacks it)

run_tools(FIRST["max_tokens"].content, IMPLS)  # wrong: ran the block because it was there, without looking at stop_reason
print("written:", written)
written.clear()

# %% [markdown] ja="7e25eb5a9fc3"
# ## Write `next_step`: the next move in four words
#
# Turn the table into a function. `next_step(response)` returns what the loop does after a response: `"run_tools"`, `"resend"`, `"finish"`
# or `"stop"`. Everything except the two values that go on and the two that finish becomes `"stop"`, unknown values included.
# If the API gains a new value one day, your loop errs on the side of not running on.

# %% tags=["todo", "piece:next_step"] ja="3772829af5f8"
# next_step(response): look at response.stop_reason and return what the loop does next
#   "run_tools" (tool_use: run the tools and go on) / "resend" (pause_turn: send content back as it is)
#   "finish" (end_turn and stop_sequence: the model wrapped up) / "stop" (everything else: stop and report)
# Do not decide on whether there is text: an end_turn can come with no text
def next_step(response):
    raise NotImplementedError  # ← delete this line and write your code here

# %% tags=["check"] ja="6a6138df8d41"
from harness_lab import lessons
next_step = lessons.check("next_step", next_step)

# %% [markdown] ja="2e0b78f7951b"
# Drive a loop with your checked `next_step`. On `"run_tools"` it sends the tool results, on `"resend"` it sends the content back with nothing added,
# and on the other two it leaves. Notebook 05's harness decides whether to go on with this same `next_step` (the loop in lesson 6's text looks only at `tool_use`,
# so it ends on a `pause_turn` response midway). Run the seven scripts to the end and look at the move the loop left on, the number of requests, the last text, and how many times the spy `write_file` ran.

# %% ja="5137a6475c6d"
def drive(name):
    """A loop that goes where next_step says. Returns the move it left on, the last response and the number of requests"""
    scripted = hl.connect(name, live=False)
    messages = [{"role": "user", "content": CASES[name]}]
    for requests in range(1, 21):  # a limit for the experiment, so the notebook always finishes
        response = scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        step = next_step(response)
        if step not in ("run_tools", "resend"):
            break
        messages.append({"role": "assistant", "content": response.content})  # either way, content goes back as it is
        if step == "run_tools":
            messages.append({"role": "user", "content": run_tools(response.content, IMPLS)})
    return step, response, requests


for name in CASES:
    step, last, requests = drive(name)
    print(f"{name} → {step} (requests: {requests})")  # three lines a case: no wrapping on a narrow screen
    print(f"    last stop_reason: {last.stop_reason}")
    print(f"    text: {hl.text_of(last.content)[:24]!r}")
print("times write_file ran:", len(written))

# %% [markdown] ja="ea5b8173cadb"
# The last response of `empty_end_turn` is an `end_turn` with no text. Had you written `response.content[0].text`, that would be an `AttributeError` (the only block is a thinking block).
# Read only the blocks with `type == "text"`, as `hl.text_of(...)` does, and you get an empty string. `pause_turn` finishes with `end_turn` after
# being sent back, and with `max_tokens` nothing was written.
#
# ## Break the three anti-patterns
#
# The article lists three ways of stopping on something other than `stop_reason`. Each one "usually works", which is why they slip through.
# Here is a loop in which only the stopping decision `is_done(response, i)` can be swapped, and, for each candidate, a script that breaks it.

# %% ja="a84076679b9d"
def loop_until(is_done, name, prompt):
    """A loop that leaves when is_done(response, i) is True, and reports where it left"""
    scripted = hl.connect(name, live=False)
    messages = [{"role": "user", "content": prompt}]
    for i in range(20):  # a limit for the experiment, so the notebook always finishes
        response = scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if is_done(response, i):
            break
        results = run_tools(response.content, IMPLS)
        if not results:  # a response with no call to answer: an empty user message would be a 400
            break
        messages.append({"role": "user", "content": results})
    left = [b.name for b in response.content if b.type == "tool_use"]
    print(f"  requests: {i + 1} / tool turns: {i} / last stop_reason={response.stop_reason}"
          f" / calls left unrun: {left}")
    print(f"  answer returned: {hl.text_of(response.content)!r}")


def by_stop_reason(response, i):  # right: the correct stop condition
    return response.stop_reason != "tool_use"

# %% [markdown] ja="241aa1089efb"
# **① Deciding on words in the text.** The model in the `thats_all` script writes "That's all for README.md." while,
# in the same response, it still reaches for the time. Wording changes with the situation, so a closing phrase is no sign that the work is done.

# %% ja="2d717c0f7942"
def by_words(response, i):  # wrong: betting on the wording
    text = hl.text_of(response.content)
    return "That's all" in text or "Got it" in text


print("wrong, deciding on words in the text:")
loop_until(by_words, "thats_all", CASES["lesson6"])
print("right, deciding on stop_reason:")
loop_until(by_stop_reason, "thats_all", CASES["lesson6"])

# %% [markdown] ja="db21d1a673a0"
# **② Making a counter the main stop condition.** The article's `for i in range(10): ... if i == 9: break`. The `long_task` script
# reads twelve chapters one by one: a job of twelve turns. On the tenth response the loop leaves, whatever the response says.

# %% ja="810373996bee"
def by_counter(response, i):  # wrong: the count is the main stop condition
    return i == 9


print("wrong, deciding on a counter:")
loop_until(by_counter, "long_task", "Read each chapter in chapters/ in order and check it")
print("right, deciding on stop_reason:")
loop_until(by_stop_reason, "long_task", "Read each chapter in chapters/ in order and check it")

# %% [markdown] ja="7488cb4dac31"
# **③ Deciding on whether there is a text block.** Models add a sentence such as "Let me look into it" to responses that call tools
# (the `text_and_tool` script). Text and tool_use sit side by side in one response, so text does not mean the work is over.

# %% ja="7496a4bf209e"
def by_text_block(response, i):  # wrong: stops on a passing remark too
    return any(b.type == "text" for b in response.content)


print("wrong, deciding on a text block:")
loop_until(by_text_block, "text_and_tool", CASES["lesson6"])
print("right, deciding on stop_reason:")
loop_until(by_stop_reason, "text_and_tool", CASES["lesson6"])

# %% [markdown] ja="d84508cd3b0a"
# All three stop too early or cut the work off midway. The loop that decides on `stop_reason` saw the same scripts through to the end.
#
# ## Where to ask about the limit
#
# So is a limit on the number of turns unnecessary? A loop left to `stop_reason` runs as long as the model keeps returning `"tool_use"`
# (the `never_ending` at the start). So you add `MAX_TURNS` **as a safety net**. `stop_reason` stays the main stop condition;
# the harness only steps in when the model does not stop. The question is where to put the check. There are four candidates:
#
# 1. at the **top** of the loop body, before `turns += 1` (where lesson 6 puts it)
# 2. **right after** `turns += 1`
# 3. **after the tools**: once the results are in the history, before the next request
# 4. the **`for _ in range(MAX_TURNS)`** loop, where the article says "add a limit as a safety net"
#
# Against a model that never stops, one function counts the requests (how many the emulator received, `len(emulator.requests)`) and the
# tool turns (how many turns called the counting tool); all four candidates share it.
# The only difference between the four is where the `if turns >= MAX_TURNS` line sits.

# %% ja="641e632afb87"
from harness_lab.emulator import Emulator

TASK = "Read the notes in notes/ in order and summarise them"


def send(client, messages):
    return client.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)


def count(loop, max_turns=3):
    """Run loop against a model that never stops (never_ending) and count the requests and tool turns"""
    emulator = Emulator("never_ending")
    turns_seen = set()  # the number of the request at which a tool was called

    def counting_read_file(path):
        turns_seen.add(len(emulator.requests))
        return f"the note in {path}"

    loop(hl.connect(emulator, live=False), {"read_file": counting_read_file}, max_turns)
    return {"model requests": len(emulator.requests), "tool turns": len(turns_seen)}

# %% ja="b911f05ae09c"
def check_at_top(client, impls, MAX_TURNS):  # 1. at the top (lesson 6)
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:  # ← before entering this lap, ask whether the loop may go round once more
            return "stopped at the limit"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = send(client, messages)
    return hl.text_of(response.content)

def check_after_increment(client, impls, MAX_TURNS):  # 2. right after turns += 1
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        turns += 1
        if turns >= MAX_TURNS:  # ← moved down one line, nothing else
            return "stopped at the limit"
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = send(client, messages)
    return hl.text_of(response.content)

# %% ja="9d106695bfd0"
def check_after_tools(client, impls, MAX_TURNS):  # 3. after the tools
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        if turns >= MAX_TURNS:  # ← after the results are in, before sending
            return "stopped at the limit"
        response = send(client, messages)
    return hl.text_of(response.content)


def article_for_range(client, impls, MAX_TURNS):  # 4. the article's "add a limit as a safety net"
    messages = [{"role": "user", "content": TASK}]
    for _ in range(MAX_TURNS):
        response = send(client, messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return hl.text_of(response.content)
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
    return "stopped at the limit"

# %% ja="37c16b382cfa"
CONTENDERS = {"1. at the top": check_at_top, "2. right after turns += 1": check_after_increment,
              "3. after the tools": check_after_tools, "4. the article's for range": article_for_range}

# MAX_TURNS = 3, and the model never stops. How many requests and how many tool turns does each one take?
# Write your numbers, then run the next cell
MY_GUESS = {
    "1. at the top": {"model requests": None, "tool turns": None},  # ← write your guess
    "2. right after turns += 1": {"model requests": None, "tool turns": None},
    "3. after the tools": {"model requests": None, "tool turns": None},
    "4. the article's for range": {"model requests": None, "tool turns": None},
}

# %% ja="8525b5659abe"
for label, loop in CONTENDERS.items():
    print(f"--- {label}")
    lessons.compare(MY_GUESS, count(loop), row=label)

# %% [markdown] ja="62af6bdef59d"
# In general, with `MAX_TURNS = N`:
#
# | Where the check is | Requests | Tool turns | Last turn's results |
# |---|---|---|---|
# | 1. at the top (lesson 6) | N + 1 | N | the model reads them |
# | 2. right after `turns += 1` | N | N − 1 | the model reads them (one turn early) |
# | 3. after the tools | N | N | nobody reads them |
# | 4. the article's `for range` | N | N | nobody reads them |
#
# **The article's 4 behaves like 3.** What the `for` header asks is "may I send one more request?", and the request is at the top of the body.
# `range` runs out just after the tools of the Nth response have run and their results are in the history, so the request that would let the model read them is never sent.
# With a tool that writes, only the side effect is left.
#
# **Why lesson 6 asks at the top.** Lesson 6 puts the first request outside the `while` and the next one at the end of the body.
# So "may the loop go round once more?" at the top means "may I run the tools *and* send the request that lets the model read their results?",
# and every result the tools produce reaches the model. Level 2 of the exercises checks for this position too.
#
# ## Read the package's `MaxTurns`
#
# In the package, this safety net is the valve `hl.MaxTurns`. Here is its `check`, and the four lines of `hl.Run.loop` where it is asked.

# %% ja="533df7e55f3e"
import inspect

print(inspect.getsource(hl.MaxTurns.check))
loop_lines = inspect.getsource(hl.Run.loop).splitlines()
at = next(i for i, line in enumerate(loop_lines) if "wants_tools" in line)
print("\n".join(loop_lines[at:at + 4]))  # from Run.loop: the stop_reason branch and loop_top

# %% [markdown] ja="da9651a0d825"
# | Line | Meaning |
# |---|---|
# | `if state.turns >= self.limit:` | Stop once the number of completed turns reaches the limit (`turns` goes up only after this point) |
# | `return t("stop.max_turns", ...)` | Returning a stop message stops the run; `None` lets it go on |
# | `if not self.wants_tools(response):` | Leave unless it is one of the two values that go on (`next_step`'s `"finish"` and `"stop"`) |
# | `if stop := self.check("loop_top"):` | Ask the `loop_top` valves. `:=` assigns and tests the value in one go |
#
# Now run the Stepper you made at the start of this notebook to the end (the same as the panel's "Run to end" button). After three turns, it stops before reading
# `notes/004.md`, which the fourth response asked for. The history it stops with ends in the user message of tool_result blocks, and can be sent to the API as it is.
# The fourth response is held in `run.state.pending`. Raise the valve's limit and resume (the panel's Resume; in code `s.resume(limit=5)`, which calls `run.resume()`), and the run carries on with the same history.

# %% ja="863147b51ce9"
s.run_all()
s

# %% ja="5eb8d0df8242"
last = run.messages[-1]
print("last message in the history:", last["role"], [b["type"] for b in last["content"]])
print("calls the held-back response asks for:", [c["input"] for c in hl.tool_calls(run.state.pending.content)])
again = hl.connect("never_ending", live=False).messages.create(**run.request())  # run.request(): what the run sends next (the same tools)
print("sending this history as it is:", again.stop_reason)

s.resume(limit=5)  # raise the limit of the valve that stopped the run to 5 and go on (the panel still shows this run)
end = s.run_all()
print(f"{type(end).__name__} ({end.cause}) / completed turns: {end.turns} / requests: {run.state.model_calls}")

# %% [markdown] ja="2be8479b324d"
# ## Switch to live Claude
#
# **Before** starting Jupyter, put your API key in an environment variable in the terminal (written in a notebook, it would stay in the saved file):
#
# ```bash
# export ANTHROPIC_API_KEY=...   # your key
# jupyter lab
# ```
#
# Then `hl.connect("lesson6")` in the setup cell returns a client for the real Claude. A real model cannot be made to follow a script,
# so the demo cells keep `live=False`. The cell below gives it lesson 6's task, with a `MaxTurns(8)` safety net. What should end the run
# is the model's own `end_turn`. The stored output is from the offline run; live results differ a little every time.

# %% ja="40b80d4a067c"
print(hl.mode_line(client))
outcome = hl.run(client, CASES["lesson6"], tools=[read_file, hl.get_time], valves=[hl.MaxTurns(8)])
print(outcome.stop)

# %% [markdown] ja="9f75907d305a"
# ## Try it
#
# 1. Count the four candidates again with `count(loop, max_turns=1)` and `max_turns=0`. Only candidate 1 always comes out as "N tool turns, N + 1 requests".
# 2. Break ③ with a script of your own. `loop_until` also takes a list of replies instead of a script name:
#    after `from harness_lab.emulator import call, reply, say`, run
#    `loop_until(by_text_block, [reply("Got it, let me look.", call("get_time")), say("It's 10:42.")], "What time is it?")`.
#    How does `by_words` break on the same script?
#
# ## Summary
#
# - `stop_reason` is the only signal for stopping or going on. Two values go on, `tool_use` and `pause_turn`; unknown values stop too
# - An `end_turn` can have empty text. Read only the blocks with `type == "text"`
# - Do not run a tool_use cut off by `max_tokens`: its arguments are cut off too
# - Words in the text, a counter as the main condition, the presence of a text block: none of them is a stop condition
# - `MAX_TURNS` is a safety net. Ask it at the top of the loop body, before `turns += 1`, and even a model that never stops ends after
#   "N tool turns, N + 1 requests", and the model reads every result the tools produced
#
# ## Check your understanding
#
# **Q1.** A response with `stop_reason` `"max_tokens"` ends in a tool_use block. May you run it?
#
# <details><summary>Answer</summary>
#
# No. Generation was cut off partway, and nothing guarantees the arguments were written out in full. Stop and report it.
# </details>
#
# **Q2.** When does "a text block means we are done" get it wrong?
#
# <details><summary>Answer</summary>
#
# When a sentence and a tool_use sit in one response (`stop_reason` is `"tool_use"`). The loop stops while the model is waiting for a tool.
# </details>
#
# **Q3.** The article's `for _ in range(MAX_TURNS)` leaves on `stop_reason` too. Why do its counts differ from those of lesson 6's check at the top?
#
# <details><summary>Answer</summary>
#
# Because the request is at the top of the body, and what `range` asks is "may I send one more request?". The count runs out just after the
# tools of the Nth response have run, and their results are never sent (N requests, N tool turns). Lesson 6 asks at the top of the body
# about a lap that "runs the tools and lets the model read their results", so it makes N + 1 requests and N tool turns, and every result is read.
# </details>
#
# Next: [Lesson 4: Runaways and fallbacks](03_runaway_fallbacks.ipynb), where you set off a dead loop, spinning, and budget burnout for real.
