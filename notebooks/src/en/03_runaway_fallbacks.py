# %% [markdown] ja="aab50923d16d"
# # Lesson 4: Runaways and fallbacks — dead loops, spinning, and budget burnout
#
# **Agent harness basics: loops and control** · Notebook 3 of 6
#
# Previous: [Lesson 3: Stop conditions](02_stop_conditions.ipynb) | Next: [Lesson 5: Intervention and steering](04_human_in_the_loop.ipynb)
#
# **Time:** about 45 minutes (reading 31, writing and checking 6, running and predicting 8). To split it into two sittings, stop before "3. Read the no-progress detection valve" | **You need:** notebooks 01 and 02
#
# What does a loop that should stop, but doesn't, actually look like? This notebook sets off three runaways for real: a dead loop
# that repeats the same lap, spinning on the same call, and budget burnout from a history that keeps growing.
#
# **By the end of this notebook you can:**
#
# - explain why a loop missing its reassignment fails with a 400 on the real API but runs on silently against a mock that checks nothing
# - write `signature_of`, which turns one turn's calls into a signature, and show where no-progress detection raises false alarms and where it misses
# - finish a run that was halted for spinning, in a fork where the tool's result has been fixed
# - confirm that input tokens grow linearly and the running total quadratically, and compare a budget valve that counts after receiving with one that estimates before sending
# - explain what a harness hands the user when a valve fires, and why the history can be resumed as it is

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

# %% [markdown] ja="cb190c9cedb7"
# The runaway demos run on the emulator even when you have an API key (`hl.connect("spinning", live=False)`). A real model will not run away
# on cue, and there is no reason to burn real money to watch it happen.
#
# ## Today's valves in the loop
#
# Two valves star today. **No-progress detection** (valve 3) sits at `before_tools`, where the response's calls are known and none has run yet.
# The **token budget** (valve 2) sits at the top of the body, `loop_top`; the version that checks an estimate sits just before sending, at `before_send`.

# %% ja="bab9d86d09f0"
from harness_lab.ui import diagram

diagram(highlight="before_tools")

# %% [markdown] ja="5eb34775e122"
# ## First, watch a model spin
#
# Here is a harness with three valves, facing a model that spins (the `spinning` scenario). The model tries to read a `notes.txt` that does
# not exist, and after the failure it sends the very same call again. The code calls `s.step()`; pressing the panel's "Next turn" does the same.

# %% ja="322e15e27970"
import tempfile
from pathlib import Path

from harness_lab.ui import Stepper

project = Path(tempfile.mkdtemp(prefix="harness_lab_03_"))  # a demo project; notes.txt is left out on purpose
(project / "README.md").write_text("# Weekly reports\n\nUpdated every Friday.\n", encoding="utf-8")
read_file = hl.make_read_file(root=project)

s = Stepper(hl.Run(hl.connect("spinning", live=False), tools=[read_file],
                   valves=[hl.MaxTurns(8), hl.TokenBudget(20_000), hl.NoProgress()]),
            "Read notes.txt and summarize the key points")
s.step()  # turn 1: read_file fails and an is_error result goes back
s.step()  # the second response makes the same call: no-progress detection stops it before it runs
s

# %% [markdown] ja="d7137ce64d80"
# One turn of eight, and a sliver of the token budget. The valves that measure *amount* (turns, budget) are nowhere near firing, yet nothing is
# moving. What caught the stall was the valve that compares *what* is being called. From here on, we set off the three runaways one at a time in a bare loop.
#
# ## 1. Dead loop: drop one reassignment
#
# Lesson 2's loop ends its body by reassigning `response = client.messages.create(...)`. The `while` tests `response.stop_reason`,
# so without that line the condition can never change. To run the tools we reuse `run_tools` from the previous notebooks.
# The next cell writes the loop without the reassignment; the cell after it gives the loop the same job as the start of lesson 6 (the `lesson6`
# scenario: read README.md, check the time, answer). Predict first: how many requests reach the model before it fails (count the refused one too)?

# %% ja="62a4521b683a"
from harness_lab.emulator import emulator_of

run_tools = lessons.use("run_tools")

LAPS = 6  # a cut-off that only ends the demo (not a harness valve)


def run_agent_dead(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=tools, messages=messages)
    lap = 0
    while response.stop_reason == "tool_use":
        lap += 1
        if lap > LAPS:
            print(f"...{LAPS} laps and the while condition has not changed, so we cut it off here")
            break
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        latest = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=tools, messages=messages)
        # wrong: this should reassign, response = client.messages.create(...)
        print(f"lap {lap}: the while sees stop_reason = {response.stop_reason}, the latest response says {latest.stop_reason}")
    return messages

# %% ja="3829d08b5ad5"
import anthropic

TOOLS = [read_file.definition, hl.get_time.definition]
IMPLS = {"read_file": read_file, "get_time": hl.get_time}
MY_GUESS = {"model requests (the refused one included)": None}  # ← write your prediction

dead = hl.connect("lesson6", live=False)
try:
    run_agent_dead(dead, "Read the first line of README.md, then tell me the time", TOOLS, IMPLS)
except anthropic.BadRequestError as err:
    print(f"The API refused: {err.status_code} {err.body['error']['message']}")
sent = emulator_of(dead).requests  # the requests the emulator received
lessons.compare(MY_GUESS, {"model requests (the refused one included)": len(sent)})
print("History of the refused request:", [message["role"] for message in sent[-1]["messages"]])

# %% [markdown] ja="43fabd128ed1"
# The first lap goes through, and the model has already answered with its next move (`get_time`). The second lap, though, appends the old
# response to the history again, so the same `tool_use` id appears twice. The API refuses that history with a 400:
# ``messages.3.content.1: `tool_use` ids must be unique`` (`messages.3` is the fourth message, the old response appended again). When you see
# this error, suspect the reassignment at the end of the loop first.
#
# What if the other side never checks the history? Run the same loop against a hand-made mock that just returns its scripted replies in order.

# %% ja="bdd6760ab9ea"
from types import SimpleNamespace as Fake


class SilentMock:
    """A hand-made mock that checks nothing: it ignores the history it is sent and returns its scripted replies in order (the last one once they run out)"""

    def __init__(self, *replies):
        self.replies, self.sent, self.messages = replies, 0, self  # so that client.messages.create(...) works

    def create(self, **request):
        self.sent += 1
        return self.replies[min(self.sent, len(self.replies)) - 1]


read_call = Fake(type="tool_use", id="toolu_mock_1", name="read_file", input={"path": "README.md"})
mock = SilentMock(Fake(stop_reason="tool_use", content=[read_call]),
                  Fake(stop_reason="end_turn", content=[Fake(type="text", text="The first line is a heading.")]))
history = run_agent_dead(mock, "Read the first line of README.md", TOOLS, IMPLS)
print(f"requests to the mock: {mock.sent} / copies of the same response in the history: {sum(m['role'] == 'assistant' for m in history)}")

# %% [markdown] ja="91fffdb85078"
# The mock says nothing. The scripted model returned `end_turn` on the second request, yet the loop keeps running the same `read_file`
# until the cut-off; without it, it would run forever. A bug the real API shows on the loop's second lap becomes a silent runaway on a mock
# that checks nothing — which is why the emulator returns the same 400 as the real thing. The fix is one line; the safety net is the max-turns valve (lesson 3).
#
# ## 2. Spinning: the same tool with the same arguments
#
# Even with the reassignment right, the model itself can spin its wheels. The `spinning_reordered` scenario repeats the same search,
# but shuffles the order of the argument keys every turn. Here are the tool_use blocks of two turns side by side.

# %% ja="5f1459e8b5f8"
@hl.tool
def search(query: str, limit: int) -> str:
    """Search the documents (a demo: never finds anything)"""
    return f"No documents contain \"{query}\" (limit {limit})"


reordered = hl.Run(hl.connect("spinning_reordered", live=False), tools=[search], valves=[hl.MaxTurns(2)])
turns = [event for event in reordered.start("Find the documents about the deadline") if isinstance(event, hl.Turn)]
contents = [turn.response.content for turn in turns]  # each turn's response content
for k, content in enumerate(contents, start=1):
    for block in (b for b in content if b.type == "tool_use"):
        print(f"turn {k}: id={block.id}  name={block.name}  input={block.input}")

# %% [markdown] ja="4133752aaa98"
# The call is the same, but the id is new every turn and the keys of `input` come in a different order. So we reduce a turn's calls to a
# **signature** (one string holding only names and arguments, laid out in a fixed form) and compare those. A signature equal to the previous
# turn's means spinning. Write `signature_of` in the next cell. The same calls must give the same signature even when their key order, their
# ids, or their order within the turn differ; different arguments or a different tool must give a different signature.

# %% tags=["todo", "piece:signature_of"] ja="ca44e231b5f6"
# What to write: turn each tool_use of this turn into "name(arguments as JSON)" and join them into one string
# If you want the steps, run lessons.hint("signature_of") in another cell
import json


def signature_of(content):
    raise NotImplementedError  # ← delete this line and write your code here

# %% tags=["check"] ja="4bba23a5a127"
from harness_lab import lessons
signature_of = lessons.check("signature_of", signature_of)

# %% ja="b9b834ff0034"
# compare the signatures of the two turns above with the signature_of that passed the check (the reference one if yours has not yet)
for k, content in enumerate(contents, start=1):
    print(f"signature of turn {k}: {signature_of(content)}")
print("same signature as the previous turn → spinning:", signature_of(contents[0]) == signature_of(contents[1]))

# %% [markdown] ja="3bea93a1bf53"
# ## 3. Read the no-progress detection valve
#
# The package's `NoProgress` compares signatures built the same way (`hl.signature_of`) at `before_tools`. Its `check` is all there is:
#
# | Line | What it means |
# |---|---|
# | `state.pending_message` | the response received but not yet appended to the history (without one there is nothing to compare) |
# | `state.signatures[-(self.window - 1):]` | the last `window - 1` signatures of completed turns |
# | `return t("stop.no_progress", ...)` | the reason to stop (the stop message); `None` lets the loop go on |

# %% ja="8d2da609782a"
import inspect

print(inspect.getsource(hl.NoProgress.check))

# %% [markdown] ja="ab985a67e8ba"
# "Stop when it matches the last turn" has two weak spots. **False alarms**: legitimate polling (`check_status(job_id="job-42")` a few times)
# makes the same call while the results move on, and a signature sees only the call. **Misses**: alternating `get_time` and `read_file`, A-B-A-B,
# differs from the last turn every time. `NoProgress(window=n)` stops when the signature matches any of the last `n - 1` turns. Compare windows of 2, 3 and 4.

# %% ja="732a2d0e0404"
def check_status_tool():
    """A job that moves on each time you ask: 30%, 70%, done"""
    answers = iter(["running (30%)", "running (70%)", "done"])

    @hl.tool
    def check_status(job_id: str) -> str:
        """Return the job's status"""
        return next(answers, "done")

    return check_status


CASES = {  # scenario: (the request, a function that makes the tools)
    "spinning": ("Read notes.txt", lambda: [read_file]),
    "polling": ("Keep an eye on job-42 until it finishes", lambda: [check_status_tool()]),
    "abab": ("Check the time and README.md", lambda: [hl.get_time, read_file]),
}
for name, (prompt, make_tools) in CASES.items():
    row = []
    for window in (2, 3, 4):
        end = hl.run(hl.connect(name, live=False), prompt, tools=make_tools(),
                     valves=[hl.MaxTurns(8), hl.NoProgress(window=window)]).stop
        row.append(f"window={window}: {end.cause if isinstance(end, hl.Stopped) else 'finished'} (turns: {end.turns})")
    print(f"{name:<9}", " | ".join(row))

# %% [markdown] ja="0cc4fe9c1d2c"
# `spinning` stops after one turn with every window: that is the prey the valve is for. `polling` should finish on its third check, yet every
# window stops it (a false alarm). `abab` slips past `window=2` all the way to the max-turns valve and is caught from `window=3` up. A wider window
# misses less, but also catches legitimate repetition with gaps in between. That is why no-progress detection always comes paired with the limits
# that are sure to fire (turns, budget).
#
# ## 4. Fix a spinning run in a fork
#
# When a single tool result is what sets the model spinning, you can fix that result and try the "what if". We script a small model that repeats
# the same call until the file can be read, stop it with no-progress detection, and look at turn 1's history with `select(1)`
# (`spinning` never reads its results, so we use a script of our own here).

# %% ja="ccfa0f79df91"
from harness_lab.emulator import call, last_results, say


def stuck_on_notes(request):  # a model that repeats the same call until the file can be read
    results = last_results(request)
    if results and not results[-1].is_error:
        return say("Key points: " + results[-1].text)
    return call("read_file", path="notes.txt")


stuck = Stepper(hl.Run(hl.connect(stuck_on_notes, live=False), tools=[read_file],
                       valves=[hl.MaxTurns(8), hl.NoProgress()]), "Read notes.txt and summarize the key points")
stuck.run_all()
print(stuck.outcome.reason)
stuck.select(1)

# %% [markdown] ja="8a818e5e2f1f"
# Turn 1's result was "file not found". `stuck.fork(1, result=...)` runs a fork, on the same script, with that result rewritten
# (turn 1's `read_file` does not run again: the fork answers from the record and the rewritten result). `compare()` sets the original run and the fork side by side.
# The cell after it shows `stuck`'s panel. On its "Timeline" tab turn 1 is picked (`select(1)` picked it), and the fork form there makes the same fork.
# Without widgets, `run.fork(at=1, results={tool_use id: new result})` returns the forked `Run`, and `resume()` runs the rest of it (the cell after the panel).

# %% ja="c9c6e683af30"
NOTES = "Friday 10:00: review the budget. The documents are in the shared folder."
fixed = stuck.fork(1, result=NOTES)
fixed.run_all()
stuck.compare()

# %% ja="7d4428f8b0cd"
stuck  # the "Timeline" tab: turn 1's fork form, and the comparison with the fork above

# %% ja="5ffcc3ec2632"
original = stuck.run
first_call = next(b["id"] for b in original.messages[1]["content"] if b["type"] == "tool_use")  # the id of turn 1's tool_use
branch = original.fork(at=1, results={first_call: NOTES})
end = hl.drain(branch.resume())
print(type(end).__name__, "—", end.text)

# %% [markdown] ja="2247606cab2c"
# ## 5. Budget burnout: as the history grows, spending speeds up
#
# The loop resends **the whole history** with every request. If each turn adds d tokens, the k-th input is about p₀ + (k−1)·d (linear),
# and the total over n requests is about n·p₀ + d·n(n−1)/2 (quadratic). The `budget_burning` scenario is a model that writes a long analysis
# every turn and then reads the next log. We run it with max turns at 8 as its only valve and look at the input and the running total per request.
# The cell after the plot is the Stepper's "Context" tab (`burn.context()`): for each request, it breaks down what fills the input.

# %% ja="de09bc416853"
from harness_lab.ui import plots

(project / "logs").mkdir(exist_ok=True)
for part in range(1, 13):
    (project / "logs" / f"part{part:02d}.log").write_text("2026-08-26 10:00:00 GET /api/items 200 12ms\n" * 40,
                                                          encoding="utf-8")

burn = Stepper(hl.Run(hl.connect("budget_burning", live=False), tools=[read_file], valves=[hl.MaxTurns(8)]),
               "Analyze all of the access logs")
burn.run_all()
running = 0
for n, usage in enumerate(burn.run.state.turn_usage, start=1):
    running += usage.total
    print(f"request {n}: input tokens {usage.input_tokens:>5} / running total {running:>6}")
plots.plot_token_burn(burn)

# %% ja="b8a21f8c0de3"
burn.context()  # what grows: the model's text, its thinking blocks, its tool_use blocks and the tool_result blocks

# %% [markdown] ja="2472a85c725e"
# The input grows by the same step every time (the plot on the left), and the running total bends upward (right; the green dash-dot line is the estimated cost).
#
# ### The budget valve: count after receiving, or estimate before sending?
#
# At `loop_top`, `hl.TokenBudget(20_000)` compares the tokens used so far (input, output and cache) with the ceiling.
# With `preflight=True` it moves to `before_send`. It estimates the next request's prompt with `count_tokens`, adds the most the reply may cost (`max_tokens`), and does not send the request if that would cross the ceiling.
# Look at the running totals above and predict where the `loop_top` version stops.

# %% ja="e867042707d4"
MY_GUESS = {"model requests": None, "tool turns": None}  # ← write your prediction

budget = hl.TokenBudget(20_000)
after = hl.Run(hl.connect("budget_burning", live=False), tools=[read_file], valves=[hl.MaxTurns(20), budget])
stop = hl.drain(after.start("Analyze all of the access logs"))
lessons.compare(MY_GUESS, {"model requests": after.state.model_calls, "tool turns": stop.turns})
print(stop.reason)

# %% [markdown] ja="4257c6b42e14"
# It stopped, but the request that crossed the ceiling has already been paid for (it counts after receiving). Compare the version that estimates before sending.
# The first `if` of `TokenBudget.check`, printed below, is the `preflight` branch: `state.next_prompt` is the loop's estimate of the next prompt, made at `before_send`, and `state.next_reply` is that request's `max_tokens`.

# %% ja="ae61f0b4ba1d"
print(inspect.getsource(hl.TokenBudget.check))
before = hl.Run(hl.connect("budget_burning", live=False), tools=[read_file],
                valves=[hl.MaxTurns(20), hl.TokenBudget(20_000, preflight=True)])
print(hl.drain(before.start("Analyze all of the access logs")).reason)
plots.compare_runs({"count after receiving (loop_top)": after, "estimate before sending (before_send)": before}, budget=20_000)

# %% [markdown] ja="3e1f07464ab4"
# The version that estimates before sending stopped inside the budget. It counts the reply up to its ceiling as well, so it stays inside any budget. The price is one more round trip per request for the estimate (`count_tokens`), and some budget left unused below the ceiling.
# The larger a single request can get, the more the check before sending pays off.
#
# ## 6. Fallbacks: what to return when a valve fires
#
# When a valve fires, the `Run` returns `Stopped` as its last event: `cause` says which valve, `reason` is the stop message.
# What the user gets is neither a silent crash nor half-finished output, but why the run stopped and how much it used. And the history is left in a shape you can resume.

# %% ja="2a343256fe38"
def reply_to_user(end):
    """The reply to the user: the model's answer if it finished, otherwise why it stopped and what it used up to that point"""
    if isinstance(end, hl.Finished):
        return end.text
    return (f"I stopped partway through. {end.reason}\n"
            f"(completed turns: {end.turns}, tokens used: {end.usage.total}. Raise the limit and the run can resume where it left off.)")


print(reply_to_user(stop))
print("cause:", stop.cause)
last = after.messages[-1]
print("Last message in the history:", last["role"], [block["type"] for block in last["content"]])

budget.limit = 40_000  # raise the ceiling and carry on with the same history and the same counters
again = hl.drain(after.resume())
print("After resuming:", again.cause, "/ completed turns:", again.turns, f"/ requests: {after.state.model_calls}")

# %% [markdown] ja="66b1b35eb82d"
# The history ends with the user message carrying the tool_result blocks, so no tool_use is left unanswered. The response that was stopped is not
# appended to the history but held aside, and `resume()` runs its tools and carries on. The Stepper's "Resume" button (where you can edit the limit of
# the valve that stopped the run) calls the same `resume()`.
#
# ## Try it on live Claude
#
# Set `ANTHROPIC_API_KEY` before starting Jupyter and run the notebook again from the top: `hl.connect("lesson6")` in the setup cell then connects to the real Claude.
# The cell below runs lesson 6's job on a harness with three valves (the stored output is from the offline run; live, the answer and the usage differ).

# %% ja="7c20d2bcebb1"
print(hl.mode_line(client))
outcome = hl.run(client, "Read the first line of README.md, then tell me the time", tools=[read_file, hl.get_time],
                 valves=[hl.MaxTurns(8), hl.TokenBudget(40_000), hl.NoProgress()])
print(reply_to_user(outcome.stop))

# %% [markdown] ja="e224073d7d3f"
# ## Try it
#
# 1. Add `window=5` to the table in section 3 and see whether the results for `abab` and `polling` change. To save `polling`, what should you change instead of the window?
#    (Hint: mix the previous turn's results into the signature.)
# 2. Change `hl.TokenBudget(20_000)` in section 5 to `10_000` or `40_000`, predict, then run it and compare the number of requests and how the run stops.
#
# ## Summary
#
# - **Dead loop**: without the reassignment, the `while` keeps reading a stale `stop_reason`. The real API refuses the request of the loop's second lap with a 400 (`tool_use` ids must be unique); a mock that checks nothing keeps going silently.
# - **Spinning**: reduce a turn's calls to a signature (names plus JSON with sorted keys, the calls sorted too) and compare it with the previous turn's. No-progress detection has false alarms (polling) and misses (A-B-A-B); the window size trades one for the other.
# - **Forking** (`fork`) to fix the result that caused the spinning lets you try the "what if" on the same script.
# - **Budget burnout**: the input grows linearly and the running total quadratically. A budget counted after receiving overshoots; estimating the prompt and the reply's ceiling (`max_tokens`) before sending stops inside it.
# - **Fallbacks**: when a valve fires, return `Stopped` (`cause`, `reason`, what was used), and the history can be `resume()`d as it is.

# %% [markdown] ja="9fde42cdbd28"
# ## Check your understanding
#
# **Q1.** Point a loop that dropped its reassignment at the real API. On which request does something happen, and what?
#
# <details><summary>Answer</summary>
#
# The third request (the loop's second lap) carries a history with the same tool_use appended twice, and is refused with a 400: `tool_use` ids must be unique.
# </details>
#
# **Q2.** What does it take to give the calls `{"limit": 5, "query": "deadline"}` and `{"query": "deadline", "limit": 5}` the same signature?
#
# <details><summary>Answer</summary>
#
# JSON with sorted keys (`json.dumps(..., sort_keys=True)`). Turn the arguments into a string in their own key order and you miss the spinning.
# </details>
#
# **Q3.** If the input grows by 1,000 tokens every request, how much more than ten times the first input is the total over ten requests?
#
# <details><summary>Answer</summary>
#
# 1,000 × (0 + 1 + … + 9) = 45,000 tokens. Double the number of requests and this part grows about fourfold (quadratic).
# </details>
#
# **Q4.** A harness notices the spinning, appends the response to the history, then stops. What goes wrong?
#
# <details><summary>Answer</summary>
#
# A tool_use without a result is left behind, so the next request is refused with a 400 (`tool_use` ids were found without `tool_result` blocks immediately after) and the run cannot resume.
# </details>
