# %% [markdown] ja="ba0b881d0cbc"
# # Lesson 7: The loop on the 2026 API — thinking blocks, caching, server-side valves
#
# **Agent harness basics: loops and control** · Notebook 6 of 6 (advanced)
#
# Previous: [Lesson 6: Hand-write an agent harness with controls](05_full_harness.ipynb) | Next: none
#
# **Time:** about 30 minutes (reading 20, writing and checking 6, running and predicting 6) | **You need:** notebooks 01 to 05 (we use `run_agent` and `next_step` from `my_harness.py`; where one is missing, the reference stands in)
#
# The default model, `claude-sonnet-5`, thinks before it answers, whether you ask it to or not. Here you find out what the same loop has to watch for on today's API.
#
# **By the end of this notebook you can:**
#
# - show that leaving out a thinking block, or its `signature`, gets a 400, and explain why lesson 2's "keep `content` whole" matters more than it did
# - measure how prompt caching lowers the cost of the same 20 turns, and how rewriting the history invalidates the cache
# - explain context editing, compaction and the task budget, comparing each with valve 2 (`TokenBudget`)
# - write `stop_message`, the message the loop hands back to a person when it stops on `refusal` or `model_context_window_exceeded`

# %% ja="aad5a97da929"
# Where harness_lab is not installed (Colab, say), install it first (does nothing on your own machine)
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %% ja="3d5bb065e2ba"
import anthropic
import harness_lab as hl
from harness_lab import lessons

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
MODEL = hl.MODEL


@hl.tool
def read_file(path: str) -> str:
    """Read a text file in the project (a toy implementation)"""
    return f"{path}: what the meeting decided, and who owns the next step. " * 30


@hl.tool
def get_time() -> str:
    """Return the current time as an ISO 8601 string (a toy implementation: always the same time)"""
    return "2026-08-26T10:42:07+09:00"


TOOLS = [read_file.definition, get_time.definition]
impls = {"read_file": read_file, "get_time": get_time}
print(hl.mode_line(hl.connect("interleaved", live=False)))

# %% [markdown] ja="3e9d0e53af05"
# ## 1. Send thinking blocks back exactly as they came
#
# Send one request and look at the response's `content`. Every run in this notebook is an emulator scenario (named
# with `live=False`, so it stays offline even with `ANTHROPIC_API_KEY` set, as the line the cell above printed says).

# %% ja="7c7e1e6acc3a"
client = hl.connect("interleaved", live=False)
REQUEST = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS} | hl.emulator.ask_to_think(MODEL)  # a model that thinks only when asked is asked to (nothing is added on the default model)
messages = [{"role": "user", "content": "Read the first line of README.md, then tell me the time"}]
response = client.messages.create(**REQUEST, messages=messages)
for block in response.content:
    if block.type == "thinking":
        print("thinking  text:", repr(block.thinking), " signature:", block.signature[:16] + "…")
    else:
        print(block.type, block.name, block.input)
print("output tokens spent thinking:", response.usage.output_tokens_details.thinking_tokens, "/", response.usage.output_tokens)

# %% [markdown] ja="84b26afad9dd"
# The first block is a thinking block. Its text is empty by default (`display: "omitted"`; a summary on 4.6 and earlier), but the thinking still counts, and is billed, as output tokens.
# The `signature` is a seal: it lets the API check that nobody has altered the thinking block.
#
# Below, three histories send the tool result back. Before you send them, predict for each one whether it gets a 200 or a 400.

# %% ja="f1f9ad7761b0"
MY_GUESS = {"sent back as is": None, "thinking block dropped": None, "signature rewritten": None}  # ← write 200 or 400

# %% ja="7a462cabcbdf"
results = [{"type": "tool_result", "tool_use_id": b.id, "content": read_file(**b.input)}
           for b in response.content if b.type == "tool_use"]
thinking, *rest = response.content
tampered = dict(thinking.model_dump(), signature=thinking.signature[:-6] + "AAAAA=")
TRIES = {
    "sent back as is": response.content,
    "thinking block dropped": [b for b in response.content if b.type != "thinking"],
    "signature rewritten": [tampered, *rest],
}
status, refusals = {}, {}
for name, content in TRIES.items():
    try:
        client.messages.create(**REQUEST, messages=messages + [{"role": "assistant", "content": content}, {"role": "user", "content": results}])
        status[name] = 200
    except anthropic.BadRequestError as e:
        status[name], refusals[name] = 400, e.body["error"]["message"].split(". ")[0]  # long: its first sentence only
guessed = lessons.compare(MY_GUESS, status)
if lessons.guessed(MY_GUESS):  # which tries were refused is the answer: it waits for a prediction
    for name, message in refusals.items():
        print(name, "→", message)

# %% [markdown] ja="41b4395ed122"
# In lesson 2, keeping only the text lost the tool_use and got a 400. Today, picking out the `text` and `tool_use` blocks and **rebuilding** the turn gets a 400 as well.
# `redacted_thinking` (encrypted thinking) is treated the same way. A loop that keeps only the block types it knows will be turned away sooner or later.
# The lesson checks don't miss this mistake either: whatever model you name, they test with the default model.
#
# ## 2. Prompt caching: a valve on cost
#
# Every turn, the loop sends the whole history again (lesson 4). If the server keeps the prefix it saw last time, then on later requests,
# that part is a **cache read**, at a tenth of the input price. All it takes is one `cache_control` at the top level of the request.
# Compare it with no caching on a task that takes 20 turns (reading 19 notes).

# %% ja="99e11a247468"
def run_loop(client, prompt, edit_at=None, reasons=None, **extra):
    """A bare loop that returns each response's usage. After edit_at requests (so before request edit_at + 1), it rewrites the first user message.
    Given a list as reasons, it asks for cache diagnostics and adds each response's cache_miss_reason to it"""
    request = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS, **extra}  # extra can change the model too
    messages, usages, previous = [{"role": "user", "content": prompt}], [], None
    while True:
        if len(usages) == edit_at:
            messages[0] = {"role": "user", "content": prompt + " (Note: the date is 26 August.)"}
        if reasons is not None:  # given the previous response's id, the API compares that request with this one
            request["diagnostics"] = {"previous_message_id": previous}
        r = client.messages.create(**request, messages=messages)
        usages.append(hl.Usage.of(r.usage))
        if reasons is not None:
            reasons.append(r.diagnostics.cache_miss_reason if r.diagnostics else None)
            previous = r.id
        if r.stop_reason != "tool_use":
            return usages
        messages.append({"role": "assistant", "content": r.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": impls[b.name](**b.input)}
            for b in r.content if b.type == "tool_use"]})


# %% [markdown] ja="fa162c82c7a8"
# Predict: in the cached run, how many requests read nothing from the cache?

# %% ja="b4cde2db8a71"
MY_GUESS = {"requests with no cache read": None}  # ← write your guess

# %% ja="ef116f8dbd89"
from harness_lab.valves.budget import cost_usd

PROMPT = "Read every note in notes/ and sum up what was decided"
plain = run_loop(hl.connect("twenty_turns", live=False), PROMPT)
cached = run_loop(hl.connect("twenty_turns", live=False), PROMPT, cache_control={"type": "ephemeral"})
print(f"       no cache          cached\n{len(plain):>15}{len(cached):>16}  requests")  # the runs in columns: nothing to wrap
for label, field in (("input", "input_tokens"), ("cache writes", "cache_creation_input_tokens"), ("cache reads", "cache_read_input_tokens")):
    print(f"{getattr(sum(plain, hl.Usage()), field):>15,}{getattr(sum(cached, hl.Usage()), field):>16,}  {label}")
print(f"{f'${cost_usd(plain, MODEL):.4f}':>15}{f'${cost_usd(cached, MODEL):.4f}':>16}  cost")
guessed = lessons.compare(MY_GUESS, {"requests with no cache read": sum(u.cache_read_input_tokens == 0 for u in cached)})

# %% ja="bd8cb6d2da37"
from harness_lab.ui import compare_runs

reasons, BINDING = [], hl.emulator.drop_rebound_thinking(MODEL)  # a model that binds thinking to its conversation drops the earlier thinking blocks after the edit
edited = run_loop(hl.connect("twenty_turns", live=False).beta, PROMPT, edit_at=10, reasons=reasons, cache_control={"type": "ephemeral"}, **BINDING)
compare_runs({"no cache": plain, "cached": cached, "first message rewritten before request 11": edited}, by="usd")

# %% ja="40e425a5ce92"
print("cache reads per request, in the rewritten run:", [u.cache_read_input_tokens for u in edited])
for n, reason in enumerate(reasons, 1):
    if reason is not None:
        print(f"cache diagnostics for request {n}: {reason.type} (input that missed the cache: about {reason.cache_missed_input_tokens:,})")

# %% [markdown] ja="578b742e7e73"
# The cache only works on a **prefix match**. The first request is too short to cache (under 1,024 tokens); the second writes; from the third on, each reads everything up to the request before it and writes what was added.
# Rewrite the first message midway, and that request reads nothing again and writes everything anew.
# You can ask the API why. Pass the previous response's id in `diagnostics` (**cache diagnostics**), and the response says where the prefix changed.
# Only request 11 says `messages_changed` (the earlier conversation changed in a way other than being added to). With `system_changed` or `tools_changed`,
# suspect a system prompt or tool list that is rebuilt on every turn.
# When you want to slip a note into the middle of the history, add it at the end instead. Caching stops neither the turns nor the spending: it lowers the price of each turn.
#
# ## 3. Server-side valves: context editing, compaction, task budget
#
# Valve 2 (the token budget) is a valve the harness counts and uses to **stop** the loop. Today's API also has server-side ways to lighten the context without stopping.
# **Context editing** (`clear_tool_uses`) replaces old tool results before the model sees them. Your own copy of the history stays as it was.

# %% ja="9c85f32e899a"
EDITS = {"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": 3000},
                    "keep": {"type": "tool_uses", "value": 2}}]}
beta = hl.connect("big_results", live=False).beta
full = run_loop(beta, "Read every log in logs/ and sum them up")
trimmed = run_loop(beta, "Read every log in logs/ and sum them up", context_management=EDITS, betas=["context-management-2025-06-27"])
print("input without editing:", [u.prompt_tokens for u in full])
print("input with editing:   ", [u.prompt_tokens for u in trimmed])

# %% [markdown] ja="5cd626f44f2a"
# Once the input passed 3,000 tokens, old results were cleared and it grew far more slowly. **Compaction** (`compact_20260112`, beta `compact-2026-01-12`)
# goes further: it replaces the conversation so far with a single `compaction` block that summarises it (its `trigger` is 50,000 tokens or more). With `pause_after_compaction`, the response
# stops with `stop_reason: "compaction"`. The `next_step` you have doesn't know that value:

# %% ja="4ae52d078d1d"
next_step = lessons.use("next_step")
COMPACT = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50000}, "pause_after_compaction": True}]}
paused = hl.connect("big_results", live=False).beta.messages.create(
    model=hl.emulator.compaction_model(MODEL), max_tokens=1024, tools=TOOLS, messages=[{"role": "user", "content": "Read the logs. " + "Background: " * 28000}],
    context_management=COMPACT, betas=["compact-2026-01-12"])  # over 50,000 tokens on every model (4.6 and earlier models count the same text as fewer tokens)
print(paused.stop_reason, [b.type for b in paused.content], "→ next_step:", next_step(paused))
# A compacted response is billed the sum of usage.iterations (the top level covers only what follows the summary); TokenBudget counts the sum

# %% [markdown] ja="d5b834e9d601"
# Stopping on a `stop_reason` it doesn't know is the safe call. Still, after compaction, as after `pause_turn`, the loop carries on if it adds `content`
# whole to the history and sends it again (`"resend"`).
#
# The **task budget** (`output_config.task_budget`, beta `task-budgets-2026-03-13`) is a **guideline** the model sees: how much is left.
# The model reads what is left and may wrap up on its own, but the API doesn't stop it when it goes over.
# Only some models take one (Opus 5, Opus 4.8, Fable 5 and others; the default Sonnet 5 returns a 400), and `total` must be at least 20,000.
# It counts what the model **sees** (each tool result and each of its own outputs once), not the history you resend every turn.

# %% ja="72cd02daea7b"
budget = {"task_budget": {"type": "tokens", "total": 20000}}
advised = run_loop(hl.connect("task_budget", live=False).beta, "Read the notes", model="claude-opus-5", output_config=budget, betas=["task-budgets-2026-03-13"])
print(f"task budget 20,000: the model read what was left and wrapped up on its own after request {len(advised)} (tokens billed in all: {sum(u.total for u in advised):,})")
run = hl.Run(hl.connect("task_budget", live=False), tools=[read_file, get_time], valves=[hl.TokenBudget(6000)])
end = hl.drain(run.start("Read the notes"))
print(f"TokenBudget 6,000: stopped after request {run.state.model_calls} by {end.cause} — {end.reason}")

# %% [markdown] ja="51061fc54545"
# | | Held by | Past the limit |
# |---|---|---|
# | `task_budget` | the API (the model sees it) | the model **may** wrap up |
# | `TokenBudget` (valve 2) | the harness | always stops, and returns a stop message |
#
# ## 4. What to tell a person when the loop stops — write `stop_message`
#
# `next_step` returned `"stop"` for `refusal`, `model_context_window_exceeded` and `max_tokens`. `stop_message` tells the person **why** the loop stopped.
# A `refusal` response carries `stop_details`, with a category (`category`) and an explanation (`explanation`) of the refusal.
# Either may be `None`. Look at three responses from the emulator:

# %% ja="b51fdd09c06c"
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}  # pause_turn only comes from a server tool's loop
stops = {}
for scenario in ("pause_turn", "refusal", "model_context_window_exceeded"):
    stops[scenario] = r = hl.connect(scenario, live=False).messages.create(model=MODEL, max_tokens=1024, tools=[WEB_SEARCH], messages=[{"role": "user", "content": "Look into the material"}])
    print(f"{r.stop_reason}\n    next_step={next_step(r)}\n    text={hl.text_of(r.content)!r}\n    stop_details={r.stop_details}")  # a line for its name, then its parts: no columns for a narrow screen to break

# %% tags=["todo", "piece:stop_message"] ja="957cb0b0153d"
# TODO: for a response that stops the loop, return the stop message (a string) for the person; for one that doesn't, return None.
# refusal: include the category and explanation from response.stop_details (either may be None).
# model_context_window_exceeded / max_tokens: include why it stopped, and the text so far (hl.text_of(response.content)).
# lessons.hint("stop_message") opens the steps.
def stop_message(response):
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="c89a9c55b356"
from harness_lab import lessons
stop_message = lessons.check("stop_message", stop_message)

# %% ja="5db74ceefda2"
for r in stops.values():  # the checked stop_message (the reference, if you haven't written one yet) on the three responses above
    print(f"{r.stop_reason}\n    → {stop_message(r)}")

# %% [markdown] ja="0ea503949254"
# ## 5. Your own harness on today's API
#
# Load the `run_agent` you wrote in notebook 05 from `my_harness.py`, and run it to the end on a scenario with two thinking blocks along the way,
# one that sends `redacted_thinking`, and one where the model refuses. If it sends `content` back whole, no 400 appears.

# %% ja="90377e28934b"
run_agent = lessons.use("run_agent", lesson=6)
for scenario in ("interleaved", "redacted_thinking", "refusal"):
    events, end = lessons.drive(run_agent(hl.connect(scenario, live=False), "Read the first line of README.md, then tell me the time", TOOLS, impls))
    kinds = [[b.type for b in e.response.content] for e in events]
    print(f"{scenario}: content of each turn {kinds} → {type(end).__name__}: {(end.text if isinstance(end, hl.Finished) else end.reason)[:48]}")

# %% [markdown] ja="7ea25aa1914d"
# ## Summary
#
# - The default model puts a thinking block first. Send it back with its `signature`, in the same order: keeping `content` whole is the surest way
# - Prompt caching is a valve on the price of each turn. Rewrite the prefix, and from that request on the cache is written anew
# - Context editing and compaction lighten the context on the server. The task budget is a guideline; what stops the run is valve 2 (`TokenBudget`)
# - Hand the person a stop message: `stop_details` for `refusal`, the text so far for `model_context_window_exceeded` and `max_tokens`
#
# ## Check your understanding
#
# **Q1.** The thinking block's text was empty. Can you throw the block away?
#
# <details><summary>Answer</summary>
#
# No. Even with no text, the `signature` is the seal. In the request that sends tool results back, an assistant turn that doesn't start with its thinking block gets a 400.
# </details>
#
# **Q2.** With `task_budget` set to 20,000, do you still need `TokenBudget`?
#
# <details><summary>Answer</summary>
#
# Yes. The task budget is a guideline the model sees, and the API doesn't stop a run that goes over it. Only valve 2, held by the harness, can promise to stop.
# </details>
