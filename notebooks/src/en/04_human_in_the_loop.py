# %% [markdown] ja="51c6ccd2fcc1"
# # Lesson 5: Intervention and steering — interrupting, redirecting, and human-in-the-loop
#
# **Agent harness basics: loops and control** · Notebook 4 of 6
#
# Previous: [Lesson 4: Runaways and fallbacks](03_runaway_fallbacks.ipynb) | Next: [Lesson 6: Hand-write an agent harness with controls](05_full_harness.ipynb)
#
# **Time:** about 45 minutes (reading 32, writing and checking 7, running and predicting 6). To split it into two sittings, stop before "3. Write the approval valve" | **You need:** notebooks 01 to 03
#
# Today you build places into the loop where a person can step in: to stop it, to carry on later, to change its direction, and, just before
# an action that cannot be undone, such as writing a file or sending a request, to wait for a person's nod.
#
# **By the end of this notebook you can:**
#
# - stop the loop between turns (interrupt) and resume it with the same history, and explain that it can stop there because the loop is a generator
# - slip a change of direction in with `run.steer(text)`, and show with the API's 400 why it goes after the tool_result blocks
# - write a `run_tool_uses` that asks *before* a high-impact tool runs
# - reproduce and demonstrate the pitfalls of wiring that runs first and asks afterwards, and of an approval function that reads "no" as yes
# - run a fork where a denial becomes an approval, and compare the two endings side by side
#
# **Today's code:** `harness_lab/valves/approval.py` (the approval valve) and `harness_lab/tools/uses.py` (where it is asked), `steer()`, `resume()` and `fork()` in `harness_lab/loop.py`, `read_answer` in `harness_lab/cli.py`.

# %% ja="aad5a97da929"
# Where harness_lab is not installed (Colab, say), install it first (does nothing on your own machine)
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %% ja="ffe7ea8993f5"
import harness_lab as hl
from harness_lab import lessons

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
client = hl.connect("high_impact")
print(hl.mode_line(client))

# %% [markdown] ja="b9c69b48b615"
# ## Today's place in the loop
#
# The approval valve sits at `before_each_tool`: **after** the model has named a tool, **before** that tool runs.
# Interrupting and steering take effect between turns (once the history holds everything up to the tool_result blocks).

# %% ja="5806ae9c6448"
from harness_lab.ui import diagram

diagram(highlight="before_each_tool")

# %% [markdown] ja="f0e17f9ccd9b"
# ## First, watch it run
#
# The high-impact tools `write_file`, `delete_file` and `http_post` are versions that reach only `sandbox/` inside a temporary folder
# (`http_post` sends nothing; it only records what it would have sent).
# Run a model that wants to save a report (the `high_impact` scenario) with the approval valve on, and it stops just before `write_file` to wait for an answer.
# Here the code calls `.deny(...)`; the panel's "Allow" and "Deny" buttons do the same.

# %% ja="6e9067bbf36f"
import tempfile
from pathlib import Path


def new_sandbox():
    """Make sandbox/ in a temporary folder and return it with high-impact tools that reach nothing outside it"""
    box = Path(tempfile.mkdtemp(prefix="harness_lab_04_")) / "sandbox"
    box.mkdir()
    return box, [hl.make_write_file(sandbox=box), hl.make_delete_file(sandbox=box), hl.make_http_post([])]


def files(box):
    return sorted(p.name for p in box.iterdir())


box, demo_tools = new_sandbox()

# %% ja="77a7ddbc5434"
from harness_lab.ui import Stepper

watch = Stepper(hl.Run(hl.connect("high_impact", live=False), tools=demo_tools, valves=[hl.MaxTurns(8), hl.Approval()]),
                "Summarize this week's support inquiries in a report and save it")
watch.step()                    # stops before write_file and waits for approval
watch.deny("Don't save it yet")  # the same as the panel's "Deny"
watch.run_all()
print("sandbox/ holds:", files(box))
watch

# %% [markdown] ja="edb07806a144"
# We denied it, so there is no `report.md`. The model read an `is_error` tool_result saying it was denied, and switched to showing the report
# in its answer instead. A denial is not the same as ignoring the call: it is itself a **result** the model gets. From here we take the three
# ways a person steps in one at a time: interrupting and resuming, steering, and approval.
#
# ## 1. Stop between turns, carry on later
#
# Our model reads a 12-chapter document one chapter at a time. Its script, written for this demo, counts the chapters read so far and asks for
# the next; if the last user message says to stop at "chapter 3", it wraps up. The document goes in a temporary folder.
#
# The Stepper's "Stop" button (`.stop()` in code) stops the loop between turns. The history it leaves ends with the tool_result blocks,
# so you can walk away and later press "Resume" (`.resume()`, the package's `run.resume()`) to carry on with the same history and the same counters.

# %% ja="2478edae850f"
from harness_lab.emulator import call, say

book = Path(tempfile.mkdtemp(prefix="harness_lab_04_book_"))
(book / "chapters").mkdir()
for n in range(1, 13):
    (book / "chapters" / f"{n:02d}.md").write_text(f"# Chapter {n}\n\nThe text of chapter {n}.\n", encoding="utf-8")
read_in_book = hl.make_read_file(root=book)  # a read_file that cannot read outside book/


def chapter_reader(request):
    """A script that counts the chapters read (tool_result blocks without an error) and asks for the next. If the last user message says "chapter 3", it wraps up"""
    blocks = [b for m in request["messages"] if isinstance(m["content"], list) for b in m["content"]]
    read = sum(1 for b in blocks if b["type"] == "tool_result" and not b.get("is_error"))
    last = request["messages"][-1]["content"]
    if isinstance(last, list) and any("chapter 3" in b.get("text", "") for b in last):
        return say(f"As you asked, I'll stop at chapter {read} and summarize.")
    return call("read_file", path=f"chapters/{read + 1:02d}.md") if read < 12 else say("I've checked all 12 chapters.")

# %% ja="2a73c826e9b8"
reader = hl.Run(hl.connect(chapter_reader, live=False), tools=[read_in_book], valves=[hl.MaxTurns(20)])
paused = Stepper(reader, "Go through all 12 chapters in chapters/")
paused.step()
paused.step()
print(paused.stop())  # "Stop": stop between turns 2 and 3
print("End of the history:", reader.messages[-1]["role"], [b["type"] for b in reader.messages[-1]["content"]])
paused.resume()       # "Resume": carry on with the same run
paused.step()
paused

# %% [markdown] ja="a2b64ce4748e"
# ### It can stop between turns because the loop is a generator
#
# The loop of `hl.Run` is a **generator**. It hands over one turn with `yield` and pauses; the next `next()` picks up right where it left off.
# Its `return` value, the way it ended, arrives in `StopIteration.value`. A small example shows how. In notebook 05 you give your own `run_agent` this shape.

# %% ja="c4dbaf33ade5"
def count_turns(limit):
    """Pause with yield after each turn, and return the way it ended at the end"""
    turns = 0
    while True:
        if turns >= limit:
            return f"stopped at the limit of {limit}"  # the return value becomes the way it ended
        turns += 1
        yield f"turn {turns} finished"  # pause here; the next next() carries on from here


gen = count_turns(2)
print(next(gen))
print(next(gen))
try:
    next(gen)
except StopIteration as end:
    print("how it ended:", end.value)
print(lessons.drive(count_turns(3)))  # run to the end: (the list of yielded values, the return value)

# %% [markdown] ja="16fbb42d9e50"
# ### When Ctrl-C lands while a tool is running
#
# Jupyter's ■ button (interrupt the kernel) raises `KeyboardInterrupt` even while a tool is running. The `read_file` below presses ■ itself
# while it is reading chapter 3 (`_thread.interrupt_main()` is the same interrupt as ■). `ran` records each time the tool function actually ran.

# %% ja="3b9e174b6871"
import _thread
import time

ran = []


@hl.tool(name="read_file")
def read_chapter(path: str) -> str:
    """Read a chapter of the document.

    Args:
        path: a relative path such as chapters/01.md
    """
    ran.append(path)
    if path.endswith("03.md") and ran.count(path) == 1:
        _thread.interrupt_main()  # someone pressed ■
        time.sleep(3)             # it arrives before the read finishes
    return read_in_book(path=path)


long_run = hl.Run(hl.connect(chapter_reader, live=False), tools=[read_chapter], valves=[hl.MaxTurns(20)])
end = hl.drain(long_run.start("Go through all 12 chapters in chapters/"))
print(end.reason)
print("End of the history:", [(b["type"], b["content"]) for b in long_run.messages[-1]["content"]])

# %% [markdown] ja="2e4523bcfaf3"
# The harness caught the interrupt, appended turn 3 to the history **whole**, and then stopped. Calls that had finished got their real results;
# the call that was running got an `is_error` result saying it was interrupted. A response goes into the history only together with its
# tool_result blocks, so wherever the run stops, the history can be sent as it is.
#
# ## 2. Steering: slip an instruction into a running agent
#
# While it was stopped, you changed your mind: "chapter 3 is enough". `run.steer(text)` holds the instruction and sends it in the next turn's
# user message, **after** the tool_result blocks. Give `Stepper(run)` no prompt and it resumes the stopped run. Turn 4 in the panel carries the instruction.

# %% ja="279970cb536c"
long_run.steer("Actually, chapter 3 is enough. Stop there and summarize.")
resumed = Stepper(long_run)
resumed.run_all()
resumed

# %% [markdown] ja="7d9980d674da"
# On resuming, the harness did not rerun the interrupted call itself; it asked the model again. Rereading chapter 3 was the model's request:
# a new call with a new id. Count the tool_use blocks and the times the tool function ran.

# %% ja="02285516e722"
calls = [b for m in long_run.messages if m["role"] == "assistant" for b in m["content"] if b["type"] == "tool_use"]
answers = {b["tool_use_id"]: b for m in long_run.messages if isinstance(m["content"], list)
           for b in m["content"] if b["type"] == "tool_result"}
for c in calls:
    # the id's last 8 characters only (all 30 do not fit on one line of a narrow screen beside the file browser)
    print("…" + c["id"][-8:], c["input"]["path"], "→", "interrupted (is_error)" if answers[c["id"]].get("is_error") else "read")
print(f"tool_use blocks: {len(calls)} / runs of the tool function: {len(ran)} →", ran)

# %% [markdown] ja="d9894d25073a"
# One result per id, and one run each. For a tool that writes or sends, that difference matters: a call that may have finished writing
# before ■ was pressed, silently repeated by the harness, writes twice.
#
# The instruction goes after the tool_result blocks because the API requires the user message right after a tool_use to **start with the tool_result blocks**. Send them the other way round:

# %% ja="4becb550e19a"
import anthropic

i = next(i for i, m in enumerate(long_run.messages)
         if isinstance(m["content"], list) and any(b["type"] == "text" for b in m["content"]) and m["role"] == "user")
blocks = long_run.messages[i]["content"]
print("the order steer() made:", [b["type"] for b in blocks])
swapped = [b for b in blocks if b["type"] == "text"] + [b for b in blocks if b["type"] != "text"]
try:
    hl.connect(chapter_reader, live=False).messages.create(
        model=hl.MODEL, max_tokens=1024, tools=[read_chapter.definition],
        messages=long_run.messages[:i] + [{"role": "user", "content": swapped}])
except anthropic.BadRequestError as err:
    print("with the instruction first:", err.status_code, err.body["error"]["message"])

# %% [markdown] ja="c4e122beb0fd"
# ## 3. Write the approval valve — ask just before it runs
#
# The approval valve goes in at the moment the model has named a tool that has not run yet. One step later, the file is already written and the request already sent.
# Asking a person to approve high-impact actions is one of the mitigations OWASP recommends for **excessive agency** (LLM06: Excessive Agency), one of its risks for LLM applications.
#
# Write `run_tool_uses(content, impls, approve)`. It has the shape of lesson 2's `run_tools`; `approve(name, input)` is a function that returns True (yes) or False (no).
# Even on a denial, return a tool_result: without one the tool_use is left dangling and the next request gets a 400.

# %% tags=["todo", "piece:run_tool_uses"] ja="ea6f28f8235f"
# TODO: return one tool_result per tool_use, in the order of the calls. For a tool whose name is in HIGH_IMPACT,
# ask approve *before* running it, and on a "no" do not run it: make the result an is_error one. For the steps: lessons.hint("run_tool_uses")
HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, impls, approve):
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="d5a619363256"
from harness_lab import lessons
run_tool_uses = lessons.check("run_tool_uses", run_tool_uses)

# %% [markdown] ja="db624d006fd3"
# Fit the version that passed the check (the reference one if yours has not yet) into a loop shaped like lesson 3's. Only `runner` runs the tools.
# The approval function `no_thanks` always answers no, and also shows what `sandbox/` holds at the **moment** it is asked.

# %% ja="7b06531e2296"
def agent(client, user_input, tools, approve, runner, max_turns=8):
    """A loop shaped like lesson 3's, where only runner runs the tools. Returns (history, final answer)"""
    definitions, impls = [one.definition for one in tools], {one.name: one for one in tools}
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=definitions, messages=messages)
    turns = 0
    while response.stop_reason == "tool_use":
        if turns >= max_turns:
            return messages, f"Stopped: reached the max turns limit of {max_turns}"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": runner(response.content, impls, approve)})
        response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=definitions, messages=messages)
    return messages, hl.text_of(response.content)

# %% ja="cae433f29ee8"
def no_thanks(box, show=True):
    def approve(name, tool_input):
        seen = f" (sandbox/ right now: {files(box)})" if show else ""  # show=False: keeps the answer back
        print(f"[approve] run {name}? → no{seen}")
        return False
    return approve


box1, tools1 = new_sandbox()
messages, answer = agent(hl.connect("high_impact", live=False), "Summarize this week's support inquiries in a report and save it",
                         tools1, no_thanks(box1), runner=run_tool_uses)
print("What the model got back:", messages[2]["content"][0]["content"])
print("Final answer:", answer.splitlines()[0], "/ sandbox/ holds:", files(box1))

# %% [markdown] ja="c33718a53d2f"
# ## 4. Try a colleague's wiring: run first, ask afterwards
#
# The colleague in lesson 6 runs every tool first, asks about the high-impact ones just before returning the results, and on a "no" marks the
# result `is_error` and throws it away. "We throw it away anyway, so it's the same thing," they say. Give the same "no" through this wiring. Predict before you run it.

# %% ja="ce6d5d125d5f"
MY_GUESS = {"files in sandbox/ after the no": None}  # ← write your prediction

# %% ja="e405598699b3"
def run_tool_uses_after(content, impls, approve):
    """wrong: the colleague's wiring runs first and asks just before returning the result"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        output = impls[block.name](**block.input)  # it has already run here
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):  # ...and only then asks
            results.append({"type": "tool_result", "tool_use_id": block.id, "is_error": True,
                            "content": "The user denied this high-impact action, so it was not run."})
        else:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
    return results


box2, tools2 = new_sandbox()
messages, answer = agent(hl.connect("high_impact", live=False), "Summarize this week's support inquiries in a report and save it",
                         tools2, no_thanks(box2, show=lessons.guessed(MY_GUESS)), runner=run_tool_uses_after)
print("Final answer:", answer.splitlines()[0])
lessons.compare(MY_GUESS, {"files in sandbox/ after the no": len(files(box2))})
if lessons.guessed(MY_GUESS):
    print("sandbox/ holds:", files(box2))

# %% [markdown] ja="3b03586d3f99"
# By the time it asked, `report.md` was already there. You said no, the model even says it did not write anything, and yet the file stays.
# Worse, the result the model got says "not run": the harness told the model something untrue. What the approval valve protects is the **action**, not the result.
#
# ## 5. Fix the approval function that turns "no" into yes
#
# Lesson 6's approval function for the terminal decides with `return answer.trim().toLowerCase() !== "n";`. Only `n` denies.
# "no", "nope", "cancel", a caps-lock "NO": every one of them lets the write through. (With a Japanese input method left on, even `n` arrives as its full-width twin.)
# The harness's `harness_lab.cli.read_answer` keeps "Enter allows" but reads every answer that clearly means no as a denial, in English or Japanese,
# half-width or full-width, and returns `None` (ask again) for an answer it cannot read. Try the same answers with lesson 6's rule beside it.

# %% ja="11cdfbdee43d"
from harness_lab.cli import read_answer


def seed_approve(answer):
    """lesson 6's approveInTerminal rule in Python: anything but n allows"""
    return answer.strip().lower() != "n"


WORD = {True: "allow", False: "deny", None: "ask again"}
for answer in ["", "y", "yes", "n", "N", "no", "NO", "nope", "don't", "cancel", "fine", "yes?"]:
    print(f"{answer!r:>8} → lesson 6's rule: {WORD[seed_approve(answer)]} / read_answer: {WORD[read_answer(answer)]}")

# %% [markdown] ja="91021d68d063"
# Under lesson 6's rule, "no", "NO", "nope", "don't" and "cancel" all run the write. It is an approval function that falls to yes when in doubt (it fails open).
# With `read_answer`, an answer that is neither yes nor no never becomes a yes. "fine" can mean "fine, go ahead" or "I'm fine, thanks", so it asks again. The terminal demo (`harness-lab run`) denies once it has asked three times and still cannot read the answer.
#
# ## 6. The package's version: decide per call, before it runs
#
# The package's `Run` decides on each tool_use, before running it, with `decide` (`harness_lab/valves/approval.py`, right beside the approval valve).
#
# | Line | What it means |
# |---|---|
# | `gate.tier(...)` | decides the tier: `allow` / `ask` / `deny`. With several valves, the strictest tier wins. `Approval()` says `ask` for a high-impact tool and `allow` for the rest |
# | `tier == "deny"` | never enters the function: an `is_error` result saying it is forbidden |
# | `record.decided.get(...)` | for `ask`: if a fork (a later section) already holds an answer, use it |
# | `yield request` | with no answer, hand over an `ApprovalRequest` and wait for one. A bare `next()` counts as a denial (when in doubt, stop) |
# | the last `return` | a denial, too, becomes an `is_error` tool_result with the reason |

# %% ja="1ee5841b5a21"
import inspect
from harness_lab.valves import approval

print(inspect.getsource(approval.decide))

# %% [markdown] ja="32320057f22d"
# ## 7. Turn the denial into an approval and see the other ending
#
# On the "Timeline" tab of the first panel, `watch`, you can pick a past turn and **fork** from it. `flip=True` reverses that turn's approval
# answer (in code, `run.fork(at=1, decisions={tool_use_id: True})`). In the fork, the denied `write_file` actually runs.
# The original run stays as it was. `compare()` sets the two endings side by side.

# %% ja="1bfbff73b4dd"
allowed = watch.fork(at=1, flip=True)  # a fork where turn 1's "deny" becomes "allow"
allowed.run_all()
print("sandbox/ holds:", files(box))
watch.compare()

# %% [markdown] ja="dd4c07c74340"
# ## Try it on live Claude
#
# Set the environment variable `ANTHROPIC_API_KEY` before starting Jupyter, and `hl.connect(...)` in the setup cell connects to the real Claude
# (the output will differ from the offline results stored here). The cell below runs with the approval valve and denies every high-impact action.
# Even with a real model nothing breaks: writes cannot reach outside `sandbox/`, and they are denied anyway.

# %% ja="881032be72e4"
print(hl.mode_line(client))
box3, tools3 = new_sandbox()
outcome = hl.run(client, "Write a report on this week's support inquiries (42 in all, 3 unresolved) and save it to sandbox/report.md",
                 tools=tools3, valves=[hl.MaxTurns(8), hl.Approval()], approve=lambda request: False)
print(type(outcome.stop).__name__, "/ completed turns:", outcome.turns, "/ sandbox/ holds:", files(box3))

# %% [markdown] ja="10b7ed2c5132"
# ## Try it
#
# 1. **Pass the reason for a denial to the model**: change `run_tool_uses` so that when `approve` returns `(False, "Don't save it yet")`, the reason goes into the tool_result.
#    The package's version already put the reason from `watch.deny("Don't save it yet")` in as it was (the first panel).
# 2. **Ask again, your own way**: using `read_answer`, write an approval function that asks again up to three times on `None` and denies if it still cannot read the answer. Try it on the answers in the table above.

# %% [markdown] ja="2ff642b345a9"
# ## Summary
#
# - The safe place for a person to step in is between turns, once the history holds the tool_result blocks. "Stop" and "Resume" (`run.resume()`) carry on with the same history and the same counters.
# - Even on a Ctrl-C while a tool runs, the harness appends the whole turn before it stops, and on resuming it does not repeat the same call.
# - A steering instruction (`run.steer`) goes **after** the tool_result blocks. Put it first and the API refuses with a 400.
# - The approval valve goes **before** a high-impact tool runs (OWASP LLM06). A denial, too, comes back as an `is_error` tool_result, and the model can take another way.
# - Run first and ask afterwards, and the file already exists when you say no. An approval function that reads only `n` as a denial allows on "no" or "cancel".
# - Changing an answer in a fork (`fork`) shows the other ending of the same script without touching the original run.

# %% [markdown] ja="5591a02b25a5"
# ## Check your understanding
#
# **Q1.** What happens if you send a steering instruction as a user message in the order `[{"type": "text", "text": "chapter 3 is enough"}] + tool_results`?
#
# <details><summary>Answer</summary>
#
# The API refuses it with a 400 (the user message right after a `tool_use` must start with the tool_result blocks). Put the instruction after the tool_result blocks.
# </details>
#
# **Q2.** What happens if you send the next request without returning anything for a call whose approval was denied? What should you return?
#
# <details><summary>Answer</summary>
#
# A tool_use without a tool_result is left, so you get a 400. Return an `is_error: true` tool_result that says it was not run. The model reads it and can take another way.
# </details>
#
# **Q3.** Give two reasons why wiring that "runs first, asks afterwards, and throws the result away on a no" is not "the same thing".
#
# <details><summary>Answer</summary>
#
# First: by the time it asks, the write (the deletion, the send) has already happened, and throwing the result away does not undo it. Second: the model is told "not run",
# so the harness tells the model something untrue, and its later decisions go astray.
# </details>
#
# **Q4.** You stopped a `write_file` with Ctrl-C while it ran, then called `resume()`. Does the harness run that `write_file` again?
#
# <details><summary>Answer</summary>
#
# No. That call got an `is_error` result saying it was interrupted, and went into the history with its whole turn. `resume()` only asks the model again;
# whether to write again is up to the model (and the approval valve). Silently repeating a call that may already have finished writing risks writing twice.
# </details>
#
# **Q5.** What happens when you answer "no" to the approval function `answer.strip().lower() != "n"`? How do you fix it?
#
# <details><summary>Answer</summary>
#
# It allows, and the tool runs. Decide only on a clear yes or no (full-width and Japanese answers included), ask again when the answer cannot be read, and deny in the end (`read_answer`).
# </details>
