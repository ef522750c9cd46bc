# %% [markdown] ja="62f40c1620a3"
# # Lesson 2: The core loop — from one round trip to a loop that keeps going
#
# **Agent harness basics: loops and control** · Notebook 1 of 6
#
# Previous: none (start here) | Next: [Lesson 3: Stop conditions](02_stop_conditions.ipynb)
#
# **Time:** about 50 minutes (reading 28, writing and checking 16, running and predicting 7). To split it into two sittings, stop before "6. Make it a loop" | **You need:** to be able to read Python functions, lists, dicts and `while` (no API key)
#
# At the heart of every agent is a short `while` loop. You will take one round trip apart, find out from the API's 400 errors how results must go back, and write the loop yourself.
# **This is where your own harness starts.**
#
# **By the end of this notebook you can:**
#
# - tell apart the text blocks and tool_use blocks (`id` / `name` / `input`) in a response's `content`, and read its `stop_reason`
# - explain, with the API's 400 error, why the history must keep `response.content` whole
# - build tool_result blocks and send one turn's results back in a single user message
# - write a `run_agent` that loops on `stop_reason == "tool_use"`, and explain why the reassignment at the end of the loop is what stops it

# %% ja="aad5a97da929"
# Where harness_lab is not installed (Colab, say), install it first (does nothing on your own machine)
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %% ja="22b2f35d32eb"
import harness_lab as hl
from harness_lab import lessons

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
client = hl.connect("weather")
print(hl.mode_line(client))

# %% [markdown] ja="4cd64203a473"
# ## The whole loop at a glance
#
# Every notebook hangs off this one diagram. Today you build the spine: send a request, look at `stop_reason`,
# run the tools, send the results back and ask again. The four control valves along the bottom are fitted from the next notebook on.

# %% ja="509c10b43a1b"
from harness_lab.ui import diagram

diagram(highlight="stop_reason")

# %% [markdown] ja="be4ca2b28320"
# ## First, watch it run
#
# A finished loop gets one sentence: "Read the first line of README.md, then tell me the time". It has two tools: `read_file` (which reads only
# inside a demo project made in a temporary folder) and `get_time`. The Stepper advances the loop **one turn at a time**. A turn is one request
# to the model plus running the tools it asked for. Here the code calls `s.step()` (one turn) and `s.run_all()` (to the end);
# the panel's "Next turn" and "Run to end" buttons do the same.

# %% ja="553a5f055666"
import tempfile
from pathlib import Path

from harness_lab.ui import Stepper

demo = Path(tempfile.mkdtemp(prefix="harness_lab_01_"))  # a temporary folder, so the output is the same wherever you open this
(demo / "README.md").write_text("# Agent harness basics\n\nCourse material for writing the loop and its control valves by hand.\n", encoding="utf-8")

bare = hl.Run(hl.connect("lesson6"), tools=[hl.make_read_file(root=demo), hl.get_time], valves=[])
s = Stepper(bare, "Read the first line of README.md, then tell me the time")
s

# %% ja="1d5aa8be1e59"
s.step()

# %% ja="5d60d10d1ecd"
s.run_all()

# %% [markdown] ja="ca450921ac74"
# Which tools to call, in what order, and when to wrap up: the model decided all of that inside the loop. The host code (what you are
# about to write) only sent requests, ran the tools the model named, and sent the results back.
#
# ## 1. One round trip by hand
#
# No loop yet: send a single request. The tools are the article's two weather tools. `@hl.tool` turns a function's type hints and
# docstring into the tool definition the API expects (`name` / `description` / `input_schema`), available as `.definition`. The function stays callable as it was.

# %% ja="a34c9f867b00"
MODEL = hl.MODEL


@hl.tool
def get_weather(city: str) -> dict:
    """Return the current weather for a city (a toy implementation)"""
    table = {"Osaka": {"temp": 21, "condition": "sunny ☀", "humidity": 48},
             "Tokyo": {"temp": 17, "condition": "cloudy ☁", "humidity": 63}}
    return {"city": city, **table.get(city, {"temp": 19, "condition": "sunny ☀", "humidity": 55})}


@hl.tool
def get_forecast(city: str, days: int) -> list:
    """Return a city's forecast for the next `days` days (a toy implementation)"""
    kinds = ["sunny ☀", "cloudy ☁", "rain ☂", "sun, then cloud ☀→☁", "cloud with sunny spells ☁☀"]
    return [{"day": i + 1, "condition": kinds[i % 5], "high": 15 + i, "low": 8 + i} for i in range(days)]


tools = [get_weather.definition, get_forecast.definition]
impls = {"get_weather": get_weather, "get_forecast": get_forecast}
get_weather.definition

# %% ja="cd4238fd3f09"
messages = [{"role": "user", "content": "What's the temperature in Osaka right now?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

print("stop_reason:", response.stop_reason)
for i, block in enumerate(response.content):
    print(f"content[{i}]: {type(block).__name__}")
    if block.type == "thinking":
        print("    thinking :", repr(block.thinking), "/ signature:", block.signature[:12] + "…")
    elif block.type == "text":
        print("    text :", block.text)
    elif block.type == "tool_use":
        print("    id   :", block.id)
        print("    name :", block.name)
        print("    input:", block.input)

# %% [markdown] ja="e9d43cf0ba2a"
# When the model uses a tool, `content` is a **list of blocks**. First comes a thinking block (`thinking`): the default model,
# `claude-sonnet-5`, thinks before it answers and sends that record back with its text left empty and a `signature` that
# shows whether it was tampered with. Then a text block ("Let me check...") and a tool_use block:
#
# | Field | What it holds |
# |---|---|
# | `id` | This call's name tag. When you send the result back, this id says which call it answers |
# | `name` | The name of the tool the model wants called |
# | `input` | The arguments the model chose (a dict) |
#
# `stop_reason` is `"tool_use"`: the API's guaranteed signal for "I am waiting for tool results".
# Running the tool is our code's job: call the named tool with the named arguments, and send its output back as a JSON string.
# Without `ensure_ascii=False`, every character outside ASCII (the weather symbols here, an accent, a Japanese city name) becomes a `\uXXXX` escape:

# %% ja="1456163b5c8d"
import json

tool_block = next(b for b in response.content if b.type == "tool_use")
output = impls[tool_block.name](**tool_block.input)
print(json.dumps(output))
print(json.dumps(output, ensure_ascii=False))

# %% [markdown] ja="e629127f805c"
# ## 2. Keep the whole `response.content` in the history
#
# Before sending the result back, add the model's response to the history. The usual mistake is to keep only its text. `try_send` sends a history
# to the emulator, which checks requests the way the real API does, and shows whether it was accepted. Try the mistake, then the fix.

# %% ja="32013eb448b4"
import anthropic


def try_send(history, with_tools=True):
    """Send history; print the stop_reason if it gets through, or the API's error message if it is refused"""
    extra = {"tools": tools} if with_tools else {}
    try:
        r = client.messages.create(model=MODEL, max_tokens=1024, messages=history, **extra)
        print("200 OK  stop_reason =", r.stop_reason)
        return r
    except anthropic.BadRequestError as e:
        print(e.status_code, e.body["error"]["message"])


result_block = {"type": "tool_result", "tool_use_id": tool_block.id, "content": json.dumps(output, ensure_ascii=False)}
text_only = {"role": "assistant", "content": hl.text_of(response.content)}  # wrong: text only, the tool_use is gone
try_send(messages + [text_only, {"role": "user", "content": [result_block]}])
filtered = {"role": "assistant", "content": [b for b in response.content if b.type in ("text", "tool_use")]}  # wrong: the thinking block is dropped
try_send(messages + [filtered, {"role": "user", "content": [result_block]}])

messages = messages[:1]  # back to the first question before adding: run this cell twice and there is still one reply
messages.append({"role": "assistant", "content": response.content})  # right: keep every block
print([b.type for b in messages[-1]["content"]])

# %% [markdown] ja="c74ba0aaf5ab"
# Refused: "no tool_use for this `tool_use_id` in the previous assistant message". With the record of the call deleted,
# nobody can tell which call the result answers. The second try kept only text and tool_use, and was refused too: "the
# assistant message your tool results answer must start with a thinking block". Thinking blocks go back exactly as they
# arrived (`signature` and text): keeping only the block types you know, or rebuilding them without the `signature` or the text, gets a 400.
# Put `response.content` into the history as the list it is, untouched.
#
# ## 3. Build the tool_result blocks
#
# Results go back as tool_result blocks inside a **user** message (`result_block` above):
#
# | Field | Role |
# |---|---|
# | `tool_use_id` | Which call this answers. It must match the tool_use block's `id` |
# | `content` | The tool's output, as a string (a dict goes as JSON) |
# | `is_error` | `True` when the tool failed. The model reads the error and can retry with other arguments or take another route |
#
# They go **first** in the user message **right after** the assistant message with the tool_use blocks, and **all** of one turn's results go there together.
# Here is what happens with no result at all, and with a sentence placed before the result:

# %% ja="0c45d5b5d503"
try_send(messages + [{"role": "user", "content": "Results to follow"}])  # wrong: no tool_result
try_send(messages + [{"role": "user", "content": [{"type": "text", "text": "Here you go"}, result_block]}])  # wrong: text first

# %% [markdown] ja="0b6554391a35"
# Both get the same 400. To add some text, put it **after** all the tool_result blocks. If one turn makes two calls and a result is missing,
# you get the same 400, naming the missing id.
#
# ## 4. Pass `tools` on the follow-up requests too
#
# The model may not call any more tools. Does the follow-up request still need `tools`? Send it without them, then with them:

# %% ja="ae2e46b33b31"
messages = messages[:2]  # back to the question and the reply before adding: run it twice and there is still one tool_result
messages.append({"role": "user", "content": [result_block]})
try_send(messages, with_tools=False)  # wrong: no tools
final = try_send(messages)  # right: with tools
print(hl.text_of(final.content))

# %% [markdown] ja="3a1f266a7368"
# A request whose history holds tool_use / tool_result blocks needs the tool definitions: the model needs them to make sense of the tool_use blocks in the history.
# Read the final answer with `hl.text_of(content)` (which joins just the blocks with `type == "text"`): the first block is not always text.
#
# ## 5. Write `run_tools`
#
# Now you write the code. This function runs every tool_use block of one turn and turns them into a list of tool_result blocks.
# The key point: when a tool raises, the loop must not crash; report the failure as a result with `is_error`.
# When you have written it, run the check cell below. Each point prints `[PASS]`, or `[FAIL]` with a hint. Once every point passes, the function is saved in `my_harness.py`.
# It is the first piece of **your own harness**.

# %% tags=["todo", "piece:run_tools"] ja="6b05d16571f1"
# TODO: Run each tool_use block in content (the list of a response's content blocks) with impls[block.name](**block.input).
# Make each result {"type": "tool_result", "tool_use_id": block.id, "content": a string}, and return them as a list, in the order of the calls.
# Turn a dict or list output into a string with json.dumps(..., ensure_ascii=False). Skip every block that is not a tool_use (text, thinking).
# Put the impls[block.name] lookup inside the try too: when a tool raises (or its name is missing from impls, a KeyError), put the exception's message in content and add "is_error": True to that result.
def run_tools(content, impls):
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="a93f4de1c053"
from harness_lab import lessons
run_tools = lessons.check("run_tools", run_tools)

# %% ja="2733ee23d5c8"
run_tools(response.content, impls)  # your checked run_tools (or the reference one, if yours has not passed yet), on the first response

# %% [markdown] ja="196345e832bb"
# ## 6. Make it a loop: write `run_agent`
#
# You have all the pieces. Send one request first; then, as long as `stop_reason` is `"tool_use"`, repeat these four steps; finally return the last text:
#
# 1. append the whole `response.content` to the history as the assistant's message
# 2. run every tool_use block of this turn with `run_tools`
# 3. append the turn's results, together, as one user message
# 4. send again with the longer history, `tools` included, and **assign the reply to `response`**

# %% tags=["todo", "piece:run_agent"] ja="b9654f4ec99b"
# TODO: Start from messages = [{"role": "user", "content": user_input}] and send one client.messages.create(model=MODEL, max_tokens=1024,
# tools=tools, messages=messages). Inside while response.stop_reason == "tool_use": do steps 1 to 4 above.
# After the loop, return the last response's text (hl.text_of(response.content)).
def run_agent(client, user_input, tools, impls):
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="bdf4e0d81f91"
from harness_lab import lessons
run_agent = lessons.check("run_agent", run_agent)

# %% [markdown] ja="b013229ba4b6"
# ## 7. Count and check
#
# Run the article's second question, "What's the weather like in Tokyo this week?", through `run_agent`. The model looks up the current weather, then the forecast.
# Before you run it, write down how many model requests and how many tool turns you expect.

# %% ja="1d432c4cf1db"
MY_GUESS = {"model requests": None, "tool turns": None}  # ← write your guess


# %% ja="9d274b03ae1e"
class Counted:
    """Calls the client's messages.create unchanged, remembering only how often and the last history sent"""

    def __init__(self, client):
        self.client, self.messages, self.requests, self.last = client, self, 0, []

    def create(self, **request):
        self.requests += 1
        self.last = request["messages"]
        return self.client.messages.create(**request)


counted = Counted(hl.connect("weather"))
print(run_agent(counted, "What's the weather like in Tokyo this week?", tools, impls))
turns = sum(1 for m in counted.last if m["role"] == "assistant")  # assistant messages in the last history = completed turns
guessed = lessons.compare(MY_GUESS, {"model requests": counted.requests, "tool turns": turns})

# %% [markdown] ja="867da3e529c3"
# After the first request, the loop sends one more for every turn in which tools ran, so there is always one more request than there are turns.
#
# ### What stops the loop is the reassignment at the end
#
# The `while` condition can only become false when `response` is replaced by a new response inside the loop body: the `response = client.messages.create(...)` at the end.
# Drop the `response = ` and `stop_reason` stays at that first `"tool_use"` for ever: the loop keeps appending the same response to the history.
# The real API refuses a history in which the same `tool_use` id appears twice:

# %% ja="175da7394a5c"
def run_agent_dead(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)  # wrong: no response =
    return hl.text_of(response.content)


dead = Counted(hl.connect("weather"))
try:
    run_agent_dead(dead, "What's the weather like in Tokyo this week?", tools, impls)
except anthropic.BadRequestError as e:
    print(f"request {dead.requests}:", e.status_code, e.body["error"]["message"])

# %% [markdown] ja="9eb76cf66b65"
# The third request was refused. Against an API that never checks the history, the same call would repeat for ever: lesson 4's **dead loop**
# (notebook 03 looks at it closely). Even the correct `run_agent` has **nothing but the model to stop it**. Fixing that is what the next notebooks are about.
#
# Your checked `run_tools` and `run_agent` are in `my_harness.py` in your working folder (usually next to the notebook). Read it, change it if you like.
# The next notebooks load them from there with `lessons.use(...)`, and in notebook 05 you step your own loop one turn at a time in the Stepper.
# `lessons.show("run_agent")` shows the reference implementation (write yours first, then compare).
#
# ## 8. Read the package's version
#
# The loop in `harness_lab`, `hl.Run.loop` (about 20 lines), does the same job as `run_agent`, written as a **generator** that pauses
# at each `yield` and hands over one turn.

# %% ja="bbebc02343b8"
import inspect

print(inspect.getsource(hl.Run.loop))

# %% [markdown] ja="0640d7a72690"
# | Step | Your `run_agent` | `Run.loop` |
# |---|---|---|
# | Request | `response = client.messages.create(...)` | `s.receive(self.query())` (`query()` sends the whole history and `tools` every time) |
# | `stop_reason` | `while response.stop_reason == "tool_use":` | `if not self.wants_tools(response): return self.finish(response)` |
# | Tools | `run_tools(response.content, impls)` | `results = yield from self.run_tool_uses(response)` |
# | History | append the assistant message and the results to `messages` | `s.commit(results)` (writes the two together, so stopping midway never breaks the history) |
# | Next | from the reassignment at the end back to the `while` test | pauses at `yield s.turn(...)`; `s.receive(...)` at the top replaces the response (the reassignment) |
#
# The three `self.check(...)` lines (`before_send` / `loop_top` / `before_tools`) and `before_each_tool` inside `run_tool_uses` (valve 4) are the sockets for the **control valves** you fit from the next notebook on.
# Today `valves=[]`, so they let everything through. Here is the same weather task on the package's loop, one turn at a time:

# %% ja="0e5b35fe3b85"
w = Stepper(hl.Run(hl.connect("weather"), tools=[get_weather, get_forecast], valves=[]), "What's the weather like in Tokyo this week?")
w.step()
w

# %% ja="6973d8c4150d"
w.run_all()

# %% [markdown] ja="2d2079c4a6d2"
# ## Switch to live Claude
#
# **Before** starting Jupyter, put your API key in an environment variable in the terminal (written in a notebook, it would stay in the saved file):
#
# ```bash
# export ANTHROPIC_API_KEY=...   # your key
# jupyter lab
# ```
#
# With a key, `hl.connect(...)` returns the real client and the rest of the code runs unchanged (the scenario name is ignored).
# To stay offline even with a key, pass `live=False`. Live output will not match the stored output.

# %% ja="9af25d61582a"
print(hl.mode_line(hl.connect("weather")))
print(hl.mode_line(hl.connect("weather", live=False)))

# %% [markdown] ja="646d95b4cc06"
# ## Try it
#
# 1. Add Sapporo to the `table` in `get_weather` (`"Sapporo": {"temp": 3, "condition": "snow ❄", "humidity": 80}`), run the cell again,
#    and run `run_agent(client, "What's the temperature in Sapporo right now?", tools, impls)`. Watch how the tool's return value ends up in the final answer.
# 2. Run `del impls["get_forecast"]`, then `run_agent(client, "What's the weather like in Tokyo this week?", tools, impls)`.
#    `run_tools` does not crash: it returns an `is_error` result, and the model reads it and answers "The forecast could not be fetched".
#
# ## Summary
#
# - A response's `content` is a list of blocks, thinking, text and tool_use (`id` / `name` / `input`) mixed
# - Keep the whole `response.content` in the history. Keep only the text, or drop the thinking block, and you get a 400
# - A tool_result has `tool_use_id`, `content` (a string; JSON with `ensure_ascii=False`) and, on failure, `is_error`. All of one turn's results go first in the single user message that follows
# - Pass `tools` on the follow-up requests too. Leave them out and you get a 400
# - The loop is `while response.stop_reason == "tool_use"`. Only the reassignment at the end can stop it. Whether to stop or go on is still up to the model
#
# ## Check your understanding
#
# **Q1.** What happens if you write `messages.append({"role": "assistant", "content": hl.text_of(response.content)})`?
#
# <details><summary>Answer</summary>
#
# The tool_use block is lost, and the next request is refused with a 400 (``unexpected `tool_use_id` found in `tool_result` blocks``).
# </details>
#
# **Q2.** The model called `get_weather` twice in one response. How do you send the results back?
#
# <details><summary>Answer</summary>
#
# Two tool_result blocks, each with its own `tool_use_id`, in the order of the calls, first in **one** user message. Leave one out and you get a 400.
# </details>
#
# **Q3.** A task takes three tool turns. How many requests go to the model?
#
# <details><summary>Answer</summary>
#
# Four: the first one, plus one for each turn in which tools ran.
# </details>
#
# **Q4.** What happens if you delete `response = ` from the last line of the loop body?
#
# <details><summary>Answer</summary>
#
# `stop_reason` stays `"tool_use"` and the same response is appended again and again. The real API refuses it with a 400 for the duplicate id
# (`` `tool_use` ids must be unique ``); against one that never checks the history, it is a dead loop that runs for ever.
# </details>
#
# Next: [Lesson 3: Stop conditions](02_stop_conditions.ipynb), with every value of `stop_reason` and the mistakes people make when deciding to stop the loop.
